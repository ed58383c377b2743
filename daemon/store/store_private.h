/*
 * store_private.h - the writer's connection, shared by the store_*.c files
 * (store.c: opening, checks, schema; store_write.c: registration,
 * intervals, meta; store_rollup.c: rollups; store_prune.c: retention;
 * store_cpifit.c: the regression fit).  Nothing else writes the database.
 */
#ifndef STACKD_STORE_PRIVATE_H
#define STACKD_STORE_PRIVATE_H

#include "daemon/plan/plan.h"
#include "daemon/store/store.h"
#include "daemon/store/store_sql.h"
#include "lib/clock.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct store {
	sqlite3 *db;
	int64_t boot;
	unsigned n_groups;
	int64_t group_id[PLAN_MAX_GROUPS];   /* by plan group */
	struct plan plan;
	const struct model *model;
	bool reclaims_space;   /* incremental auto-vacuum is on */
	bool check_deferred;   /* too large to check whole at open (store_check.c) */
	uint64_t rollup_room;  /* bytes a rollup call may write, about; 0: no limit */
	int lock_fd;           /* the one-writer lock (store_guard_lock) */
	dev_t dev;             /* the file opened, as stat() named it then */
	ino_t ino;
	char moved_aside[6144];  /* why and where a damaged file went, or "" */
	sqlite3_stmt *ins_process, *ins_interval, *ins_group_time, *ins_sample;
};

/* Prepare the statements every interval's write runs (store_write.c), once
 * at open; finalized by store_finalize_writes. */
int store_prepare_writes(struct store *s, char *err, size_t errlen);
void store_finalize_writes(struct store *s);

/* t rounded down to a multiple of size_ns (0 for t <= 0): bucket bounds. */
static inline int64_t store_floor(int64_t t, int64_t size_ns)
{
	return t <= 0 ? 0 : t - t % size_ns;
}

/* Where a rollup level (rollup_s 60, 3600 or 86400) has been rolled up to, in
 * *ret: every bucket ending at or before it is done (rolled, or had
 * nothing to roll); -1 when it never ran.  An SQLite result code: when the
 * mark cannot be read, *ret is -1 too but must not be taken as "never". */
int store_rollup_done(struct store *s, int64_t rollup_s, int64_t *ret);

#endif
