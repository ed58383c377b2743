/*
 * store_private.h - the writer's connection, shared by the store_*.c files
 * (store.c: opening, schema, intervals; store_rollup.c: rollups;
 * store_prune.c: retention).  Nothing else writes the database.
 */
#ifndef STACKD_STORE_PRIVATE_H
#define STACKD_STORE_PRIVATE_H

#include "daemon/plan/plan.h"
#include "daemon/store/store.h"
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
	int lock_fd;           /* the one-writer lock (store_guard_lock) */
	dev_t dev;             /* the file opened, as stat() named it then */
	ino_t ino;
	char moved_aside[6144];  /* why and where a damaged file went, or "" */
	sqlite3_stmt *ins_process, *ins_interval, *ins_group_time, *ins_sample;
};

/* SQLite result code -> -errno (busy, full, read-only, corrupt, ...). */
int store_errno(int rc);
/* err = "what: SQLite's message"; returns store_errno(rc). */
int store_fail(struct store *s, int rc, const char *what, char *err, size_t errlen);
/* Run sql; on failure store_fail with what. */
int store_exec(struct store *s, const char *sql, const char *what, char *err, size_t errlen);
/* The first column of the first row of sql (which takes no parameters). */
int store_query_int64(struct store *s, const char *sql, int64_t *ret);


/* t rounded down to a multiple of size_ns (0 for t <= 0): bucket bounds. */
static inline int64_t store_floor(int64_t t, int64_t size_ns)
{
	return t <= 0 ? 0 : t - t % size_ns;
}

/* Where a rollup level (rollup_s 60 or 3600) has been rolled up to: every
 * bucket ending at or before it is done.  -1 when it never ran. */
int64_t store_rollup_done(struct store *s, int64_t rollup_s);

#endif
