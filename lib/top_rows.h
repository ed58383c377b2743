/*
 * top_rows.h - the rows of `stackctl top` and of GET /api/v1/top, built in
 * one place so both print the same objects with the same field names.
 *
 * Fields are named as the database columns they sum (pid, comm,
 * task_clock_ns, context_switches, each counter group's columns such as
 * page_faults); derived figures carry their own names (cpu_percent,
 * <group>_coverage, the model's metrics, <top-down node>_slots).
 */
#ifndef STACKD_TOP_ROWS_H
#define STACKD_TOP_ROWS_H

#include "lib/query.h"
#include "lib/rowset.h"

#include <stdbool.h>
#include <stdint.h>

/* Which processes to keep; NULL / -1 / false keep all. */
struct top_filter {
	bool include_idle;    /* the pseudo-process rows too: [idle], [unattributed]... */
	int64_t uid;          /* only this user's processes; -1: everyone's */
	const char *comm;     /* command name, or a glob of it ("sql*") */
	const char *unit;     /* systemd unit, or a glob ("*.service") */
};

#define TOP_FILTER_ALL { false, -1, NULL, NULL }

/* One row per process, or the processes of one comm / unit / user summed
 * (counts add up, so the formulas run on the sums); or of one Kubernetes
 * namespace, pod (namespace and pod) or container (namespace, pod and
 * container: a name is unique only within its pod), as kube-state-metrics
 * labels them.  Processes outside any sum into one row with no names. */
enum top_by {
	TOP_BY_PROCESS, TOP_BY_COMM, TOP_BY_UNIT, TOP_BY_USER,
	TOP_BY_NAMESPACE, TOP_BY_POD, TOP_BY_CONTAINER,
};

int top_rows_by_parse(const char *name, enum top_by *ret);   /* -EINVAL if unknown */
const char *top_rows_by_name(enum top_by by);

/* Fill rs (initialised, empty) with one row per kept process (or group of
 * them) of w.  Returns 0 or -ENOMEM. */
int top_rows_build(const struct window *w, const struct top_filter *f, enum top_by by,
		   struct rowset *rs);

/* The same rows, only the first limit (0: all) processes f keeps in the
 * order of the column sort names (top_rows_find_sort; NULL: the default,
 * top_rows_default_sort), as rowset_sort orders them (ties in the
 * window's order), into rs (initialised, empty); *sort_col: that column;
 * *kept_total: how many processes f keeps.  The order is computed once
 * per window and column when the window keeps orders (w->ranks), so a
 * request for 20 rows fills 20.  Returns 0, -ENOENT (no such column: rs
 * holds the columns there are) or -ENOMEM. */
int top_rows_build_first(const struct window *w, const struct top_filter *f, const char *sort,
			 size_t limit, struct rowset *rs, int *sort_col, size_t *kept_total);

/* "cpu" is what people call task_clock_ns; "frontend" and the other
 * Top-Down level-1 names mean their slot counts (<name>_slots). */
const char *top_rows_sort_column(const char *name);

/* The column a sort name means, or -1: an alias above, a column's API
 * name or its table title, in any case ("FE", "cpu%", "Task_Clock_ns"). */
int top_rows_find_sort(const struct rowset *rs, const char *name);

/* pattern (a name, or an fnmatch glob) matches name. */
bool top_rows_name_matches(const char *pattern, const char *name);

/* The column of a rate metric (per second of CPU time) per second of wall
 * time: "page_faults_per_cpu_s" -> "page_faults_per_s", "gflops" ->
 * "gflops_wall". */
void top_rows_wall_name(const char *metric, char *buf, size_t len);

/* The default order: frontend-bound slots, so a busy process outranks an
 * idle one with a high ratio; CPU time when the model has no Top-Down. */
const char *top_rows_default_sort(const struct rowset *rs);

/* The column names of rs, comma separated, into buf (for "one of: ..."). */
void top_rows_list_columns(const struct rowset *rs, char *buf, size_t len);

#endif
