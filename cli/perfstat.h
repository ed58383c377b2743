/*
 * perfstat.h - read `perf stat` output as perf writes it and people paste
 * it: the default text, -x, CSV and -j JSON (plain, -I interval, -A per
 * CPU, --per-core/-die/-socket/-node, --per-thread), with perf's own metric
 * figures, and turn it into a model's group sums, so `stackctl analyze`
 * runs the very formulas stackd runs.  Events are matched by what they
 * count (event_id.h), not by how they are spelled.
 */
#ifndef STACKD_PERFSTAT_H
#define STACKD_PERFSTAT_H

#include "lib/model/model.h"

#include <stdio.h>

/* One event name of the recording (spellings that normalise alike, with
 * the same privilege modifiers, are one). */
struct ps_name {
	char key[160];       /* event_id_normalise()d */
	char spelling[160];  /* as perf first printed it */
};

struct ps_count {
	unsigned name;       /* index in ps_recording.names */
	unsigned occurrence; /* nth time this name appears in the interval */
	double value;        /* summed over CPUs, cores, sockets, threads */
	bool counted;        /* false: <not counted> / <not supported> */
	double running;      /* share of the time it counted, 0..1 (perf scaled it) */
	double err;          /* value's rounding as printed (msec to 2 places); 0 exact */
};

struct ps_interval {
	double time;         /* seconds, or NAN in a plain recording */
	struct ps_count *counts;
	size_t n, cap;
};

#define PS_MAX_MODIFIER_SETS 4

/* A metric figure perf printed in the recording (its metric column). */
struct ps_printed {
	size_t interval;     /* index in ps_recording.iv */
	unsigned line;
	char row[32];        /* "CPU3", "S0-D0-C1"; "" the whole run */
	char pmu[16];        /* "cpu_core", "cpu_atom" of its event or group; "" */
	char event[96];      /* the count it was printed beside; "" a group's */
	char name[64];       /* "tma_retiring", "insn per cycle", "K/sec" */
	double value;        /* as printed: a percentage as 30.8 */
	int decimals;        /* digits printed after the point */
	bool percent;        /* printed with '%' */
};

/* A line that holds nothing perf stat writes: skipped, and said with -v. */
struct ps_skipped {
	unsigned line;
	char why[120];
};

struct ps_recording {
	bool interval_mode;
	struct ps_interval *iv;
	size_t n, cap;
	struct ps_name *names;
	size_t n_names, cap_names;
	/* The distinct privilege modifiers on its events ("" none, "u",
	 * "k"...): more than one means it mixes them. */
	char modifiers[PS_MAX_MODIFIER_SETS][8];
	unsigned n_modifiers;
	struct ps_printed *printed;
	size_t n_printed, cap_printed;
	struct ps_skipped *skipped;
	size_t n_skipped, cap_skipped;
	double elapsed;      /* "N seconds time elapsed"; 0 none */
	char cpuid[64];      /* a perf CPU id a comment names ("# cpuid : ..."); "" */
};

/* Which recorded name serves each of a model's events. */
/* name_of: the model event's count is in a combined FP event another of
 * its events reads (perfstat_combined.c): it reads 0. */
#define PS_COMBINED_ZERO (-2)

struct ps_match {
	int name_of[MODEL_MAX_GROUPS][MODEL_MAX_EVENTS];  /* -1: not recorded */
	unsigned n_events;   /* the model's distinct events */
	unsigned found;      /* of those, how many the recording has */
	bool *used;          /* per recording name: a model event reads it */
	/* per recording name: it counts several of the model's FP events
	 * together (FP_ARITH_INST_RETIRED.4_FLOPS): FLOPs are exact, their
	 * width and precision split is not known */
	bool *combined;
};

struct event_id;
/* After the exact matches: FP events of m the recording has only inside a
 * combined event of equal FLOP weights (perfstat_combined.c). */
void perfstat_match_combined(const struct model *m, const struct event_id *ids, size_t n_ids,
			     struct ps_match *mt);

/* Parse any of perf's formats, line by line; on error returns -EINVAL with
 * "line N: what" in err. */
int perfstat_read(FILE *f, struct ps_recording *rec, char *err, size_t errlen);
void perfstat_free(struct ps_recording *rec);

/* The recording's counts of one core PMU ("cpu_core"): its events with the
 * prefix taken off, and those of no PMU (task-clock, duration_time) alike;
 * perf's figures of that PMU.  0 or -ENOMEM (sub freed). */
int perfstat_pmu_part(const struct ps_recording *rec, const char *pmu,
		      struct ps_recording *sub);

/* The core PMUs a hybrid recording names ("cpu_core", "cpu_atom"), at most
 * max; how many (0: not hybrid). */
unsigned perfstat_core_pmus(const struct ps_recording *rec, char (*pmus)[16], unsigned max);

/* Whether the events say the host ran with SMT on: perf's metrics for SMT
 * read the *_ANY / ONE_THREAD_ACTIVE events (perf's #SMT_on). */
bool perfstat_smt_evidence(const struct ps_recording *rec, char *which, size_t len);

/* Bind m's events to rec's names by identity (libpfm4 with m's PMU, raw
 * terms, else names).  0 or -ENOMEM; perfstat_match_free() after. */
int perfstat_match(const struct ps_recording *rec, const struct model *m, struct ps_match *mt);
void perfstat_match_free(struct ps_match *mt);

/* The recorded names no model event reads (but the time: task-clock,
 * duration_time), ", "-separated into buf; how many. */
unsigned perfstat_unused(const struct ps_recording *rec, const struct ps_match *mt, char *buf,
			 size_t len);

/* The wall time interval `interval` covers, as perf's GFLOPs divides by
 * it: duration_time when recorded, else the -I step; 0 if unknown. */
double perfstat_wall_seconds(const struct ps_recording *rec, size_t interval);

/* Group sums of one interval for m.  seconds is the time the interval
 * covers: task-clock when recorded, else duration_time, else the -I step;
 * 0 if unknown. */
void perfstat_group_sums(const struct ps_recording *rec, const struct ps_match *mt,
			 size_t interval, const struct model *m, struct group_sums *sums,
			 double *seconds);

/* The perf stat command line that records what m needs, one -e group per
 * model group, in the spellings perfstat_match() reads back. */
void perfstat_perf_command(const struct model *m, FILE *out);

#endif
