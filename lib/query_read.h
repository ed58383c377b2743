/*
 * query_read.h - what the readers of windows (query.c), series
 * (query_series.c) and raw rows (query_export.c) share, behind the
 * read-only connection (db_private.h).  Internal to the query_*.c files.
 */
#ifndef STACKD_QUERY_READ_H
#define STACKD_QUERY_READ_H

#include "lib/db.h"
#include "lib/db_columns.h"
#include "lib/db_private.h"
#include "lib/group_parts.h"
#include "lib/query.h"

#include <stddef.h>
#include <stdint.h>

/* Room for a statement with up to two value lists (db_value_list) in it. */
#define QUERY_SQL_MAX (2 * DB_VALUE_LIST_MAX + 1536)

/* A group's events are stored one to a value column. */
_Static_assert(MODEL_MAX_EVENTS == STACKD_SAMPLE_VALUES,
	       "sample's v0 .. v15 hold one group's events");

/* err = "what: SQLite's message"; returns -EIO. */
int query_sql_fail(struct db *db, const char *what, char *err, size_t errlen);

/* Prepare the statement fmt prints (the value lists db_value_list writes
 * in it, which is why it is not fixed text) into *st: SQLite's result
 * code, SQLITE_TOOBIG when it would not fit in QUERY_SQL_MAX (a bug). */
int query_prepare_printf(struct db *db, sqlite3_stmt **st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The value columns of a row, from column col of st on, into v. */
void query_read_values(sqlite3_stmt *st, int col, uint64_t v[MODEL_MAX_EVENTS]);

/* The stored counter groups, mapped to w->model's families (group_parts.h). */
int query_map_groups(struct db *db, const struct window *w, struct group_map *map, char *err,
		     size_t errlen);

/* The intervals ending in (lo, hi] recorded under another (model, formula
 * version) than m's, judged by m (query_recorded_under); map from
 * query_map_groups.  Returns how many went to out[max], or -EIO. */
int query_read_recorded(struct db *db, const struct tiers *t, int64_t lo, int64_t hi,
			const struct group_map *map, const struct model *m, bool smt_on,
			struct recorded_under *out, size_t max, char *err, size_t errlen);

/* The window is the intervals whose end is in (*lo, *hi] (CLOCK_REALTIME
 * ns), the window_ns up to the newest interval's end; w gets the data's
 * model, SMT state, the intervals' span and health sums and the busiest
 * CPU.  -ENODATA before the first interval.
 * Readers select intervals by time, never by an id range: ids follow
 * time only while the clock does (a clock stepped back, or a store built by
 * hand, interleaves them), and an id range would then scan the whole store.
 * "interval CROSS JOIN sample" keeps SQLite walking the intervals by end
 * time and seeking each one's samples by key (measured: 4x faster than the
 * skip-scan it picks for "interval_id IN (...)" on a 7M-row store). */
int query_read_intervals(struct db *db, const struct tiers *t, uint64_t window_ns,
			 struct window *w, int64_t *lo, int64_t *hi, char *err, size_t errlen);

/* Where a bucket's split goes (NULL: a bucket nobody asked for). */
typedef struct cpu_split *(*query_split_slot_fn)(void *arg, uint64_t bucket);

/* Who the CPU time went to per bucket of step ns by interval end, from lo
 * (exclusive) to hi, into slot(bucket).  The whole is read from the
 * intervals (CPUs x length; the switches sampled and unsampled; the time
 * measured periodically), the idle and unattributed parts from the two
 * pseudo-processes' rows through their index: never a scan of every
 * process's samples, which made a series of an hour four times dearer.
 * The samples of an interval add up to its CPUs x length within 0.02%
 * (the daemon charges all of every CPU's time to someone), so the whole
 * is the same either way. */
int query_read_splits(struct db *db, const struct tiers *t, int64_t lo, int64_t hi,
		      int64_t step, query_split_slot_fn slot, void *arg, char *err, size_t errlen);

#endif
