/*
 * analyze_td.h - the Top-Down that `perf stat` of Linux 5.10 to 6.2 built
 * in (tools/perf/util/stat-shadow.c before perf 6.3 moved it to the JSON
 * metrics), for a recording that lacks an event perf 7.2's formulas need.
 *
 * On a CPU with perf metrics (Ice Lake, Sapphire Rapids, Alder Lake's
 * cpu_core) perf 5.10-6.2's default `perf stat` and `--topdown` record
 * slots and the topdown-* events only, and print each node as its
 * topdown-* count over the sum of the four level-1 counts
 * (td_metric_ratio()); a level-2 sibling is its parent less its child.
 * perf 6.3 and later (and perf 6.1's `-M TopdownL1`) correct frontend by
 * INT_MISC.UOP_DROPPING and Ice Lake's backend by INT_MISC.CLEARS_COUNT,
 * events such a recording does not have.  Where that is the only thing
 * missing, analyze gives the built-in value and says so.
 */
#ifndef STACKD_ANALYZE_TD_H
#define STACKD_ANALYZE_TD_H

#include <stdbool.h>

/* The events perf 7.2's Top-Down reads and perf 5.10-6.2's built-in did
 * not: a bit each. */
#define TD_NO_UOP_DROPPING 0x1u
#define TD_NO_CLEARS_COUNT 0x2u

struct td_builtin;

/* The built-in node that is perf 7.2's metric `metric` (tma_frontend_bound)
 * or that perf printed as `printed` ("Frontend Bound", or perf 5.x's
 * "frontend bound"); NULL when there is none. */
const struct td_builtin *td_builtin_of_metric(const char *metric);
const struct td_builtin *td_builtin_of_printed(const char *printed);

/* Its value, a share 0..1, from the topdown-* counts event() gives (perf's
 * spelling, as struct perf_values' event reads): 0, or -ENOENT when a
 * count it needs is missing or the level-1 counts sum to 0. */
int td_builtin_eval(const struct td_builtin *b, int (*event)(void *ctx, const char *name,
							     double *out),
		    void *ctx, double *out);

/* The TD_NO_* bit of an event as perf's tables spell it, 0 when it is
 * neither. */
unsigned td_older_event(const char *name);

/* What a value computed by the built-in formula says about itself, for
 * TD_NO_* bits `missing` ("perf 5.10-6.2's built-in Top-Down: the
 * recording has no INT_MISC.UOP_DROPPING"). */
const char *td_older_label(unsigned missing);

/* What a figure perf printed under a built-in name was computed by. */
extern const char td_builtin_formula[];

#endif
