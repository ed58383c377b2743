/*
 * query.h - read-only questions to the database, shared by stackctl and the
 * daemon's HTTP API.  Sums the additive counts of a window per process and
 * counter group; the model's formulas then run on the sums.
 * Opens read-only: a reader can never damage or lock out the daemon.
 */
#ifndef STACKD_QUERY_H
#define STACKD_QUERY_H

#include "model.h"

#include <stddef.h>
#include <stdint.h>

struct db;

/* Open path read-only and check it is a stackd database this build can
 * read.  Returns 0, -ENOENT (no such file), -EACCES, -EPROTO (newer schema),
 * -EBADMSG (not a stackd database); err says which, in one line. */
int db_open(const char *path, struct db **ret, char *err, size_t errlen);
void db_close(struct db *db);   /* NULL is a no-op */

struct window_proc {
	int32_t pid;                 /* 0 idle, -1 unattributed */
	uint64_t start_ns;           /* since boot */
	char comm[64];
	int64_t uid;                 /* -1 unknown */
	char *cmdline;
	char *unit;
	uint64_t task_clock_ns;      /* over all groups: full coverage */
	uint64_t context_switches;
	struct group_sums sums[MODEL_MAX_GROUPS];   /* by model group index */
};

struct window_group {
	char name[64];
	uint64_t enabled_ns;         /* summed over CPUs and intervals */
};

struct window {
	uint64_t from_ns, to_ns;     /* CLOCK_REALTIME, as covered by the intervals */
	unsigned n_intervals;
	unsigned ncpus;
	const struct model *model;   /* of the newest interval; NULL if unknown */
	char model_name[64];
	bool smt_on;                 /* the host had SMT on (meta "smt") */
	struct window_group groups[MODEL_MAX_GROUPS];
	unsigned n_groups;
	/* collector health over the window */
	uint64_t samples, lost_records, lost_samples, throttles, unsampled_switches,
		 unattributed_spans, straddles, late_cpus, dropped, unschedulable,
		 max_cpu_switch_rate;
	int busiest_cpu;
	struct window_proc *procs;
	size_t n_procs;
};

/* The last window_ns of data, ending at the newest interval stored.
 * Returns 0, -ENODATA (no interval stored yet) or -EIO with err. */
int query_window(struct db *db, uint64_t window_ns, struct window *out, char *err,
		 size_t errlen);
void window_done(struct window *w);

/* A fact the daemon recorded (meta table) into buf; -ENOENT if absent. */
int query_meta(struct db *db, const char *key, char *buf, size_t len);

#endif
