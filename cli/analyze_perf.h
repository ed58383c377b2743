/*
 * analyze_perf.h - Linux perf's own metrics of a recording: every metric of
 * the CPU's perf table (lib/perfdb/perf_set.h) whose events the recording
 * has, evaluated on the recorded counts by perf's expressions, so `stackctl
 * analyze` prints what `perf stat -M` would, under perf's names.
 */
#ifndef STACKD_ANALYZE_PERF_H
#define STACKD_ANALYZE_PERF_H

#include "cli/perfstat.h"
#include "lib/perfdb/perf_set.h"

struct analyze_perf {
	const struct perf_set *set;   /* NULL: the model has no perf table */
	size_t n_intervals;
	unsigned n;                   /* the set's metrics */
	double *value;                /* [interval * n + k]: perf's figure (shares 0..1) */
	bool *valid;
	/* [interval * n + k]: TD_NO_* bits (analyze_td.h) when the value is
	 * perf 5.10-6.2's built-in Top-Down, perf 7.2's formula wanting only
	 * those events; 0: perf 7.2's own */
	unsigned char *older;
	unsigned n_valid;             /* metrics valid in some interval */
};

/* Evaluate set on every interval of rec (ctx: the host's #SMT_on, #slots
 * and CPU id; width: the model's #slots when ctx has none).  A Top-Down
 * node perf 7.2 computes with INT_MISC.UOP_DROPPING or CLEARS_COUNT, on a
 * recording that lacks only those, is perf 5.10-6.2's built-in value.
 * 0, or -ENOMEM; analyze_perf_free() after either. */
int analyze_perf_compute(const struct perf_set *set, const struct ps_recording *rec,
			 const struct model_context *ctx, unsigned width, struct analyze_perf *out);
void analyze_perf_free(struct analyze_perf *ap);

#endif
