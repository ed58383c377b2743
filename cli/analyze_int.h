/*
 * analyze_int.h - the parts of `stackctl analyze` (analyze.c: options and
 * the computation; analyze_model.c: which model; analyze_print.c: the
 * table and --json).  A recording is analysed in sections: the whole of
 * it, or of a hybrid each core PMU's part with that core type's model.
 */
#ifndef STACKD_ANALYZE_INT_H
#define STACKD_ANALYZE_INT_H

#include "cli/analyze_check.h"
#include "cli/analyze_cpifit.h"
#include "cli/analyze_perf.h"
#include "cli/perfstat.h"
#include "lib/model/model.h"

/* One interval's figures: the model's, and GFLOP/s per second of wall
 * time (perf's GFLOPs: duration_time, or the -I step), which no model
 * computes (the daemon knows only CPU time per target). */
struct analyzed {
	struct metric_value v[MODEL_MAX_METRICS];
	struct metric_value gflops_wall;
	/* TD_NO_* bits (analyze_td.h): v[k] is perf 5.10-6.2's built-in
	 * Top-Down, for want of those events; 0: the model's own formula */
	unsigned char older[MODEL_MAX_METRICS];
};

/* What the command line asks for. */
struct analyze_args {
	const struct model *m;   /* --model, else NULL */
	bool json, perf_command, smt, smt_given, verbose;
	unsigned slots;          /* --slots N: the recorded PMU's slots per cycle, 0: the model's */
	char cpuid[64];          /* --cpuid, as perf spells it; "" unknown */
};

struct section {
	char pmu[16];                 /* "cpu_core"; "" not a hybrid's part */
	const struct model *m;
	const struct ps_recording *rec;
	bool smt;
	struct analyzed *out;         /* per interval */
	struct analyze_perf perf;     /* perf's table on the counts */
	struct check_summary checks;  /* perf's printed figures against ours */
	struct analyze_cpifit cpi_fit; /* the regression CPI stack's fit (generic models) */
};

/* Compute s->m on s->rec: the model's figures, perf's table's, and the
 * checks of perf's printed figures; quiet: say nothing on stderr (a
 * candidate model tried).  0 or -ENOMEM; analyze_section_free() after. */
int analyze_section(const struct analyze_args *a, struct section *s, bool quiet);
void analyze_section_free(struct section *s);

/* The model for s (the one given, else the CPU the file or --cpuid names,
 * else the one whose events the recording has, ties settled by perf's
 * printed figures), said on stderr; NULL after saying why there is none. */
const struct model *analyze_pick_model(const struct analyze_args *a, struct section *s,
				       const char *path);

/* The label of metric k of s whose value some interval took from perf
 * 5.10-6.2's built-in Top-Down (analyze_td.h), NULL when none did. */
const char *analyze_older_label(const struct section *s, unsigned k);

/* analyze_print.c: the table, or one section's JSON object. */
void analyze_print_table(const struct section *s, bool verbose);
void analyze_print_json(const struct section *s);

#endif
