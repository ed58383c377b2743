/*
 * store_prune.c - retention: each level (raw intervals, minute, hour and
 * day rollups) kept for its own time, and a size cap.
 *
 * Rows go in whole buckets of the next coarser level, and only once that
 * level holds them, so a reader always finds every moment in exactly one
 * level (the finest left; query.c's tiers): raw intervals in whole minutes
 * already rolled up, minute rollups in whole hours already rolled up and
 * never past the oldest raw hour, hour rollups never past the oldest
 * minute.  Over the size cap the oldest raw data goes first (the newest
 * minute stays), then minute rollups (the newest hour stays), then hours
 * (the newest day stays); and when that is still too much (a small cap, a
 * storm of new processes), the oldest rows whatever their level or rollup,
 * down to each level's newest: the cap wins over history.
 */
#include "daemon/store/store_private.h"
#include "lib/db.h"

#include <errno.h>
#include <stdio.h>

static const int64_t level_s[STORE_LEVELS] = {
	0, STACKD_ROLLUP_MINUTE_S, STACKD_ROLLUP_HOUR_S, STACKD_ROLLUP_DAY_S,
};
/* Rows of a level go in whole buckets of this size (seconds). */
static const int64_t align_s[STORE_LEVELS] = {
	STACKD_ROLLUP_MINUTE_S, STACKD_ROLLUP_HOUR_S, STACKD_ROLLUP_DAY_S, STACKD_ROLLUP_DAY_S,
};
/* Over the size cap, this much of a level's newest data stays (seconds). */
static const int64_t cap_keep_s[STORE_LEVELS] = { 60, 3600, 86400, 7 * 86400 };

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* A level's oldest or newest end in *ret (-1: no rows).  An SQLite result
 * code: a failed query is not "no rows". */
static int level_end(struct store *s, int level, bool newest, int64_t *ret)
{
	sqlite3_stmt *st;
	int rc;

	*ret = -1;
	rc = sqlite3_prepare_v2(s->db, newest ?
				"SELECT max(end_ns) FROM interval WHERE rollup_s = ?1" :
				"SELECT min(end_ns) FROM interval WHERE rollup_s = ?1", -1, &st,
				NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, level_s[level]);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		*ret = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The latest end a level's rows may be deleted up to (aligned), in *ret:
 * from its retention, or (over_cap) whatever its age, and never past what
 * the coarser level holds or what the finer level no longer holds.  When
 * either cannot be read, an error: nothing of the level may go. */
static int level_cutoff(struct store *s, const struct store_retention *r, int level,
			bool over_cap, int64_t *ret)
{
	int64_t align = align_s[level] * NS_PER_SEC, c, v;
	int rc = SQLITE_OK;

	c = r->now_ns > r->keep_ns[level] ? (int64_t)(r->now_ns - r->keep_ns[level]) : 0;
	/* (the newest end unreadable: the cap waits, retention goes on) */
	if (over_cap && level_end(s, level, true, &v) == SQLITE_OK &&
	    v - cap_keep_s[level] * NS_PER_SEC > c)
		c = v - cap_keep_s[level] * NS_PER_SEC;
	c = store_floor(c, align);
	if (level + 1 < STORE_LEVELS) {
		rc = store_rollup_done(s, level_s[level + 1], &v);
		c = min64(c, v < 0 ? 0 : store_floor(v, align));
	}
	if (rc == SQLITE_OK && level > 0) {
		rc = level_end(s, level - 1, false, &v);
		if (v > 0)
			c = min64(c, store_floor(v - 1, align));
	}
	*ret = rc == SQLITE_OK ? c : 0;
	return rc;
}

static const char *const delete_steps[] = {
	"CREATE TEMP TABLE doomed_procs AS SELECT DISTINCT process_id AS id FROM sample"
	" WHERE interval_id IN (SELECT id FROM doomed)",
	"DELETE FROM sample WHERE interval_id IN (SELECT id FROM doomed)",
	"DELETE FROM interval_group WHERE interval_id IN (SELECT id FROM doomed)",
	"DELETE FROM interval WHERE id IN (SELECT id FROM doomed)",
	/* processes no sample names any more (sample_by_process: a probe each) */
	"DELETE FROM process WHERE id IN (SELECT id FROM doomed_procs)"
	" AND NOT EXISTS (SELECT 1 FROM sample WHERE process_id = process.id)",
	"DROP TABLE doomed",
	"DROP TABLE doomed_procs",
};

/* Delete a level's rows ending at or before cutoff, oldest first: about
 * limit of them, rounded up to a whole bucket (whole), or exactly limit.
 * A bucket cut in two is read from the finer level meanwhile (query_tiers):
 * what went of it is missing until the rest goes too.  In the open
 * transaction. */
static int delete_level(struct store *s, int level, int64_t cutoff, unsigned limit, bool whole,
			int *deleted)
{
	int64_t align = whole ? align_s[level] * NS_PER_SEC : 1;
	sqlite3_stmt *st;
	size_t i;
	int rc;

	rc = sqlite3_prepare_v2(s->db, "SELECT end_ns FROM interval WHERE rollup_s = ?1"
				" AND end_ns <= ?2 ORDER BY end_ns LIMIT 1 OFFSET ?3", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, level_s[level]);
	sqlite3_bind_int64(st, 2, cutoff);
	sqlite3_bind_int(st, 3, (int)limit - 1);
	if (sqlite3_step(st) == SQLITE_ROW)   /* more than limit: stop at its bucket's end */
		cutoff = min64(cutoff, store_floor(sqlite3_column_int64(st, 0) - 1, align) + align);
	sqlite3_finalize(st);

	rc = sqlite3_prepare_v2(s->db, "CREATE TEMP TABLE doomed AS SELECT id FROM interval"
				" WHERE rollup_s = ?1 AND end_ns <= ?2", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, level_s[level]);
	sqlite3_bind_int64(st, 2, cutoff);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc;
	rc = SQLITE_OK;
	for (i = 0; rc == SQLITE_OK && i < sizeof(delete_steps) / sizeof(delete_steps[0]); i++) {
		rc = sqlite3_exec(s->db, delete_steps[i], NULL, NULL, NULL);
		if (i == 3 && rc == SQLITE_OK)
			*deleted += sqlite3_changes(s->db);
	}
	return rc;
}

/* Over the cap with nothing the rules above let go (at high churn a
 * minute of raw intervals alone can outgrow a small cap): the oldest limit
 * rows of the finest level holding more than its newest row, rolled up or
 * not.  A moment lost so is lost from every level (a later rollup of its
 * minute sums what is left), never counted twice.  In the open
 * transaction. */
static int delete_oldest(struct store *s, unsigned limit, int *deleted)
{
	int64_t n = 0;
	sqlite3_stmt *st;
	size_t i;
	int level, rc;

	for (level = 0; level < STORE_LEVELS; level++) {
		rc = sqlite3_prepare_v2(s->db, "CREATE TEMP TABLE doomed AS SELECT id FROM interval"
					" WHERE rollup_s = ?1 AND end_ns < (SELECT max(end_ns) FROM"
					" interval WHERE rollup_s = ?1) ORDER BY end_ns LIMIT ?2", -1,
					&st, NULL);
		if (rc != SQLITE_OK)
			return rc;
		sqlite3_bind_int64(st, 1, level_s[level]);
		sqlite3_bind_int(st, 2, (int)limit);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return rc;
		if (store_query_int64(s->db, "SELECT count(*) FROM doomed", &n) < 0)
			return SQLITE_ERROR;
		if (n > 0)
			break;
		rc = sqlite3_exec(s->db, "DROP TABLE doomed", NULL, NULL, NULL);
		if (rc != SQLITE_OK)
			return rc;
	}
	if (n == 0)
		return SQLITE_OK;   /* nothing but each level's newest row */
	rc = SQLITE_OK;
	for (i = 0; rc == SQLITE_OK && i < sizeof(delete_steps) / sizeof(delete_steps[0]); i++) {
		rc = sqlite3_exec(s->db, delete_steps[i], NULL, NULL, NULL);
		if (i == 3 && rc == SQLITE_OK)
			*deleted += sqlite3_changes(s->db);
	}
	return rc;
}

static bool any_due(struct store *s, int level, int64_t cutoff)
{
	sqlite3_stmt *st;
	bool any = false;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM interval WHERE rollup_s = ?1 AND end_ns <= ?2"
			       " LIMIT 1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, level_s[level]);
		sqlite3_bind_int64(st, 2, cutoff);
		any = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	return any;
}

/* Rows of about bytes (at least 1, at most limit), from the mean size of
 * a stored row: what one step past the rules deletes, so that its
 * transaction fits in the WAL's allowance. */
static unsigned rows_for_bytes(struct store *s, uint64_t bytes, unsigned limit)
{
	int64_t rows = 0;
	uint64_t used = 0, n;

	if (bytes == 0 || store_used_bytes(s, &used) < 0 ||
	    store_query_int64(s->db, "SELECT count(*) FROM interval", &rows) < 0 || rows <= 0)
		return limit;
	n = bytes / (used / (uint64_t)rows + 1);
	return n < 1 ? 1 : n > limit ? limit : (unsigned)n;
}

/* One step in a transaction of its own: delete_level (cutoff > 0; whole
 * buckets unless a byte limit applies) or, cutoff 0, delete_oldest.  On
 * failure rolled back, err set. */
static int prune_in_transaction(struct store *s, int level, int64_t cutoff, unsigned limit,
				bool whole, int *deleted, char *err, size_t errlen)
{
	int ret, rc;

	ret = store_exec(s->db, "BEGIN IMMEDIATE", "cannot start pruning", err, errlen);
	if (ret < 0)
		return ret;
	rc = cutoff > 0 ? delete_level(s, level, cutoff, limit, whole, deleted) :
			  delete_oldest(s, limit, deleted);
	if (rc != SQLITE_OK) {
		ret = store_fail(s->db, rc, "cannot delete old data", err, errlen);
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		(void)sqlite3_exec(s->db, "DROP TABLE IF EXISTS doomed", NULL, NULL, NULL);
		(void)sqlite3_exec(s->db, "DROP TABLE IF EXISTS doomed_procs", NULL, NULL, NULL);
		return ret;
	}
	return store_exec(s->db, "COMMIT", "cannot commit pruning", err, errlen);
}

int store_prune(struct store *s, const struct store_retention *r, char *err, size_t errlen)
{
	uint64_t used = 0;
	bool over_cap = r->max_bytes > 0 && store_used_bytes(s, &used) == 0 &&
			used + r->other_bytes > r->max_bytes;
	/* Over the cap, a step's transaction stays within the byte limit
	 * (a minute of a process storm can be more than a small filesystem
	 * has to spare); else whole buckets. */
	bool whole = !over_cap || r->max_delete_bytes == 0;
	unsigned limit = whole ? r->max_intervals :
			 rows_for_bytes(s, r->max_delete_bytes, r->max_intervals);
	int deleted = 0, level, ret;

	for (level = 0; level < STORE_LEVELS; level++) {
		int64_t cutoff;
		int rc;

		rc = level_cutoff(s, r, level, over_cap, &cutoff);
		if (rc != SQLITE_OK)
			return store_fail(s->db, rc, "cannot tell what retention may delete", err,
					  errlen);
		/* Most calls find nothing due: an index probe, no transaction. */
		if (cutoff <= 0 || !any_due(s, level, cutoff))
			continue;
		ret = prune_in_transaction(s, level, cutoff, limit, whole, &deleted, err, errlen);
		if (ret < 0)
			return ret;
		/* Over the cap the finest level goes first: measure again next call. */
		if (over_cap)
			break;
	}
	/* The cap holds whatever the churn: past the rules, the oldest rows. */
	if (over_cap && deleted == 0) {
		ret = prune_in_transaction(s, 0, 0, limit, whole, &deleted, err, errlen);
		if (ret < 0)
			return ret;
	}
	/* A no-op on a database without incremental auto-vacuum: there the
	 * freed pages are reused by new intervals instead. */
	if (deleted > 0)
		(void)sqlite3_exec(s->db, "PRAGMA incremental_vacuum", NULL, NULL, NULL);
	return deleted;
}

int store_used_bytes(struct store *s, uint64_t *ret)
{
	int64_t pages = 0, free_pages = 0, page_size = 0;
	int r = store_query_int64(s->db, "PRAGMA page_count", &pages);

	if (r == 0)
		r = store_query_int64(s->db, "PRAGMA freelist_count", &free_pages);
	if (r == 0)
		r = store_query_int64(s->db, "PRAGMA page_size", &page_size);
	if (r == 0)
		*ret = (uint64_t)((pages - free_pages) * page_size);
	return r;
}
