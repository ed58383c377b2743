/*
 * perfstat_line.h - one line of `perf stat` output, whichever of perf's
 * three formats wrote it (default text, -x, CSV, -j JSON), as the reader in
 * perfstat.c takes it: a count, perf's metric figure printed with it, or
 * both.  Private to cli/perfstat*.c.
 */
#ifndef STACKD_PERFSTAT_LINE_H
#define STACKD_PERFSTAT_LINE_H

#include <stdbool.h>
#include <stddef.h>

struct ps_recording;

struct ps_line {
	double t;            /* NaN without -I */
	const char *row;     /* "CPU3", "S0-D0-C1", "comm-pid"; NULL: the whole run */
	const char *event;   /* as perf printed it; NULL: no count on the line */
	double v, running;
	double err;          /* v's rounding as printed ("8.78": 0.005); 0 exact */
	bool counted;        /* false: <not counted> / <not supported> */
	const char *unit;    /* the count's unit ("msec"); "" none */
	const char *mvalue;  /* perf's metric figure as printed ("30.8", "4.80%"); NULL none */
	const char *mtext;   /* its unit and name ("%  tma_retiring", "insn per cycle") */
	/* a second figure on the line, as perf 5.13-6.2 printed Top-Down's
	 * level 2 ("#  3.5% Heavy Operations  #  20.4% Light Operations");
	 * NULL none */
	const char *mvalue2, *mtext2;
	const char *group;   /* a metric group header ("TopdownL1 (cpu_core)"); NULL none */
	char rowbuf[24];     /* a row id made up here ("CPU3" of -j's "cpu" : "3") */
};

/* What a line parser made of a line. */
enum ps_parsed {
	PS_LINE_COUNT,   /* pl holds a count and/or a metric */
	PS_LINE_TEXT,    /* perf's own text (a banner, the elapsed time): nothing to take */
	PS_LINE_SKIP,    /* not a line perf writes: skipped, why says so */
};

/* A count or time as perf prints it, with thousands separators in the
 * default format ("1,234,567.89"); false when s is not one. */
bool perfstat_number(const char *s, bool grouped, double *v);

/* Half a unit of the last digit of a figure perf printed with a fraction
 * ("8.78": 0.005); 0 for a whole number. */
double perfstat_half_ulp(const char *s);

/* Whether s is the id perf puts before a count to say whose it is (CPU3,
 * S0-D0-C1, N0, comm-pid); *group: a core, die, socket or node id, which
 * perf follows by the number of CPUs it holds. */
bool perfstat_row_id(const char *s, bool *group);

/* perf stat -x, (perfstat_csv.c): whether a line is one, and its fields;
 * st carries whether the file is an -I recording (its first line says). */
struct ps_csv_state {
	bool decided, interval;
};
bool perfstat_is_csv(const char *line);
int perfstat_csv_line(char *line, struct ps_csv_state *st, struct ps_line *pl, char *why,
		      size_t len);

/* perf's default output (perfstat_human.c).  line is modified and pl
 * points into it; *elapsed gets "N seconds time elapsed" (else untouched).
 * Returns the verdict, or -EINVAL with the reason in why. */
int perfstat_human_line(char *line, struct ps_line *pl, double *elapsed, char *why,
			size_t len);

/* One line of perf stat -j (perfstat_json.c); as perfstat_human_line(). */
int perfstat_json_line(char *line, struct ps_line *pl, char *why, size_t len);

/* perfstat_printed.c: perf's figure mvalue/mtext, printed in interval
 * beside event (of core PMU pmu, both "" when unknown) into rec; a figure
 * that is no number ("nan") is left.  0 or -ENOMEM. */
int perfstat_add_printed(struct ps_recording *rec, size_t interval, unsigned line,
			 const char *row, const char *pmu, const char *event, const char *mvalue,
			 const char *mtext);
/* A line skipped for why.  0 or -ENOMEM. */
int perfstat_add_skipped(struct ps_recording *rec, unsigned line, const char *why);
/* A comment that names perf's CPU id ("# cpuid : GenuineIntel-6-8F-8"). */
void perfstat_note_cpuid(struct ps_recording *rec, const char *comment);

#endif
