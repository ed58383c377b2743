/*
 * store_rollup.c - per-minute, per-hour and per-day rollups
 * (schema/002-rollups.sql).
 *
 * A bucket is rolled once it is complete: for minutes, when a raw interval
 * ends after the bucket (intervals are written in time order); for hours,
 * when the minutes have been rolled past it; for days (UTC), the hours.  Each call does a bounded
 * number of buckets in one transaction, so a migrated database with weeks
 * of raw intervals catches up over many flushes instead of stalling one.
 * The sums are additive, so a rollup answers any question its rows answered.
 */
#include "daemon/store/store_private.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/db_columns.h"
#include "lib/health_fields.h"

#include <errno.h>
#include <stdio.h>

struct level {
	int64_t size_s;     /* this level's rollup_s */
	int64_t source_s;   /* the rows it sums */
};

static const struct level levels[] = {
	{ STACKD_ROLLUP_MINUTE_S, 0 },
	{ STACKD_ROLLUP_HOUR_S, STACKD_ROLLUP_MINUTE_S },
	{ STACKD_ROLLUP_DAY_S, STACKD_ROLLUP_HOUR_S },
};

/* The first column of st's first row (bound by the caller) in *ret, -1
 * when there is none (no row, or NULL).  An SQLite result code: a failed
 * step is an error, never "none". */
static int step_int64(sqlite3_stmt *st, int64_t *ret)
{
	int rc = sqlite3_step(st);

	*ret = -1;
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		*ret = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
}

/* As step_int64, for sql run once with ?1 = arg (when it takes one). */
static int query_int64(struct store *s, const char *sql, int64_t arg, int64_t *ret)
{
	sqlite3_stmt *st;
	int rc;

	*ret = -1;
	rc = prepare(s, sql, &st);
	if (rc != SQLITE_OK)
		return rc;
	if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, arg);
	rc = step_int64(st, ret);
	sqlite3_finalize(st);
	return rc;
}

int store_rollup_done(struct store *s, int64_t size_s, int64_t *ret)
{
	return query_int64(s, "SELECT done_ns FROM rollup_state WHERE rollup_s = ?1", size_s, ret);
}

/* The statements that roll one bucket (?1, ?2] of level ?3 from level ?4;
 * bytes: what the call wrote, about (counted under a rollup_room only). */
struct roll_stmts {
	sqlite3_stmt *next_end, *interval, *groups, *samples, *state, *rows;
	uint64_t bytes;
};

/* What a rollup's sample row takes, with its share of the indexes and
 * pages, about: to keep a call within rollup_room. */
#define ROLLUP_ROW_BYTES 128

/* next_end, interval, groups, state, rows (samples: samples_sql) */
static const char *const roll_sql[] = {
	/* the end of the first source row after ?1: finds the next non-empty bucket */
	"SELECT min(end_ns) FROM interval WHERE rollup_s = ?2 AND end_ns > ?1",
	/* health counts as each combines (lib/health_fields.h); the busiest
	 * CPU is the one of the row with the highest switch rate */
	"INSERT INTO interval (boot, start_ns, end_ns, ncpus, model, busiest_cpu, rollup_s"
	HEALTH_FIELDS(HEALTH_SQL_COLUMN) ")"
	" SELECT max(boot), min(start_ns), max(end_ns), max(ncpus),"
	"  (SELECT model FROM interval WHERE rollup_s = ?4 AND end_ns > ?1 AND end_ns <= ?2"
	"   ORDER BY end_ns DESC LIMIT 1),"
	"  (SELECT busiest_cpu FROM interval WHERE rollup_s = ?4 AND end_ns > ?1 AND end_ns <= ?2"
	"   ORDER BY max_cpu_switch_rate DESC LIMIT 1), ?3"
	HEALTH_FIELDS(HEALTH_SQL_COMBINE)
	" FROM interval WHERE rollup_s = ?4 AND end_ns > ?1 AND end_ns <= ?2",
	"INSERT INTO interval_group (interval_id, group_id, enabled_ns, unschedulable)"
	" SELECT ?5, g.group_id, sum(g.enabled_ns), sum(g.unschedulable)"
	" FROM interval AS i CROSS JOIN interval_group AS g ON g.interval_id = i.id"
	" WHERE i.rollup_s = ?4 AND i.end_ns > ?1 AND i.end_ns <= ?2 GROUP BY g.group_id",
	"INSERT OR REPLACE INTO rollup_state (rollup_s, done_ns) VALUES (?1, ?2)",
	/* the source rows of a bucket: what rolling it writes, at most */
	"SELECT count(*) FROM interval AS i CROSS JOIN sample AS s ON s.interval_id = i.id"
	" WHERE i.rollup_s = ?3 AND i.end_ns > ?1 AND i.end_ns <= ?2",
};

static void finalize_all(struct roll_stmts *r)
{
	sqlite3_finalize(r->next_end);
	sqlite3_finalize(r->interval);
	sqlite3_finalize(r->groups);
	sqlite3_finalize(r->samples);
	sqlite3_finalize(r->state);
	sqlite3_finalize(r->rows);
}

/* The samples of one bucket summed per (process, group), the value
 * columns from lib/db_columns.h.  -1 when it does not fit in len. */
static int samples_sql(char *sql, size_t len)
{
	char cols[DB_VALUE_LIST_MAX], sums[DB_VALUE_LIST_MAX];
	int n;

	if (db_value_list(cols, sizeof(cols), "@", 0) < 0 ||
	    db_value_list(sums, sizeof(sums), "sum(s.@)", 0) < 0)
		return -1;
	n = snprintf(sql, len,
		     "INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns,"
		     " context_switches, %s, periodic_ns)"
		     " SELECT ?5, s.process_id, s.group_id, sum(s.task_clock_ns),"
		     "  sum(s.context_switches), %s, sum(s.periodic_ns)"
		     " FROM interval AS i CROSS JOIN sample AS s ON s.interval_id = i.id"
		     " WHERE i.rollup_s = ?4 AND i.end_ns > ?1 AND i.end_ns <= ?2"
		     " GROUP BY s.process_id, s.group_id", cols, sums);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int prepare_all(struct store *s, struct roll_stmts *r)
{
	sqlite3_stmt **slots[] = { &r->next_end, &r->interval, &r->groups, &r->state, &r->rows };
	char samples[4096];
	size_t i;

	_Static_assert(sizeof(slots) / sizeof(slots[0]) == sizeof(roll_sql) / sizeof(roll_sql[0]),
		       "a statement for each slot");
	for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		int rc = prepare(s, roll_sql[i], slots[i]);

		if (rc != SQLITE_OK)
			return rc;
	}
	if (samples_sql(samples, sizeof(samples)) < 0)
		return SQLITE_TOOBIG;
	return prepare(s, samples, &r->samples);
}

static int run_bound(sqlite3_stmt *st, int64_t lo, int64_t hi, int64_t size_s, int64_t src_s,
		     int64_t id)
{
	int rc;

	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	if (sqlite3_bind_parameter_count(st) >= 3)
		sqlite3_bind_int64(st, 3, size_s);
	if (sqlite3_bind_parameter_count(st) >= 4)
		sqlite3_bind_int64(st, 4, src_s);
	if (sqlite3_bind_parameter_count(st) >= 5)
		sqlite3_bind_int64(st, 5, id);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Where level lv's complete buckets end, in *limit: the minutes' at the
 * newest raw interval's bucket (still open), the hours' where the minutes
 * are done.  -1 when there is nothing to roll from. */
static int level_limit(struct store *s, const struct level *lv, int64_t *limit)
{
	int64_t size_ns = lv->size_s * NS_PER_SEC, end;
	int rc;

	*limit = -1;
	if (lv->source_s == 0) {
		rc = query_int64(s, "SELECT max(end_ns) FROM interval WHERE rollup_s = 0", 0, &end);
		if (rc == SQLITE_OK && end > 0)
			*limit = store_floor(end - 1, size_ns);
	} else {
		rc = store_rollup_done(s, lv->source_s, &end);
		if (rc == SQLITE_OK && end > 0)
			*limit = store_floor(end, size_ns);
	}
	return rc;
}

/* Whether rolling bucket (b, b + size] of lv keeps the call within
 * s->rollup_room (always, without one).  A bucket too big for it waits:
 * retention over the cap deletes its oldest rows until it fits. */
static bool bucket_fits(struct store *s, struct roll_stmts *r, const struct level *lv, int64_t b)
{
	int64_t rows = 0;

	if (s->rollup_room == 0)
		return true;
	sqlite3_bind_int64(r->rows, 1, b);
	sqlite3_bind_int64(r->rows, 2, b + lv->size_s * NS_PER_SEC);
	sqlite3_bind_int64(r->rows, 3, lv->source_s);
	if (step_int64(r->rows, &rows) != SQLITE_OK || rows < 0)
		return false;
	if (r->bytes + (uint64_t)rows * ROLLUP_ROW_BYTES > s->rollup_room)
		return false;
	r->bytes += (uint64_t)rows * ROLLUP_ROW_BYTES;
	return true;
}

/* One bucket (b, b + size] of level lv: its row, group times and samples. */
static int roll_bucket(struct store *s, struct roll_stmts *r, const struct level *lv, int64_t b)
{
	int64_t hi = b + lv->size_s * NS_PER_SEC, id;
	int rc;

	rc = run_bound(r->interval, b, hi, lv->size_s, lv->source_s, 0);
	if (rc != SQLITE_OK)
		return rc;
	id = sqlite3_last_insert_rowid(s->db);
	rc = run_bound(r->groups, b, hi, lv->size_s, lv->source_s, id);
	if (rc == SQLITE_OK)
		rc = run_bound(r->samples, b, hi, lv->size_s, lv->source_s, id);
	return rc;
}

/* Roll the complete buckets of one level after its done mark, at most
 * *budget of them; *made counts the rows written.  A query that fails is
 * an error, never "nothing there": a done mark read as "never" would roll
 * its buckets again, and a next bucket read as "none" would mark buckets
 * done that were never rolled (and retention would delete their rows). */
static int roll_level(struct store *s, struct roll_stmts *r, const struct level *lv,
		      unsigned *budget, uint64_t deadline, unsigned *made)
{
	int64_t size_ns = lv->size_s * NS_PER_SEC, done, limit, end;
	int rc;

	/* Complete: buckets ending at or before limit. */
	rc = level_limit(s, lv, &limit);
	if (rc != SQLITE_OK || limit < 0)
		return rc;
	rc = store_rollup_done(s, lv->size_s, &done);
	if (rc != SQLITE_OK)
		return rc;
	if (done < 0)
		done = 0;   /* first time: from the oldest source row */
	while (*budget > 0) {
		int64_t b;

		sqlite3_bind_int64(r->next_end, 1, done);
		sqlite3_bind_int64(r->next_end, 2, lv->source_s);
		rc = step_int64(r->next_end, &end);
		if (rc != SQLITE_OK)
			return rc;
		if (end < 0 || store_floor(end - 1, size_ns) + size_ns > limit)
			break;
		b = store_floor(end - 1, size_ns);
		if (!bucket_fits(s, r, lv, b)) {
			*budget = 0;   /* (not done: tried again at the next call) */
			break;
		}
		rc = roll_bucket(s, r, lv, b);
		if (rc != SQLITE_OK)
			return rc;
		done = b + size_ns;
		(*budget)--;
		(*made)++;
		if (monotonic_ns() > deadline)
			*budget = 0;   /* out of time: the rest at the next call */
	}
	/* Nothing left to roll up to limit: the empty buckets count as done. */
	if (*budget > 0 && limit > done)
		done = limit;
	return done > 0 ? run_bound(r->state, lv->size_s, done, 0, 0, 0) : SQLITE_OK;
}

int store_rollup(struct store *s, unsigned max_buckets, uint64_t max_ns, bool *more,
		 char *err, size_t errlen)
{
	struct roll_stmts r = { NULL, NULL, NULL, NULL, NULL, NULL, 0 };
	unsigned made = 0, budget = max_buckets;
	uint64_t deadline = monotonic_ns() + max_ns;
	size_t i;
	int rc, ret;

	ret = store_exec(s->db, "BEGIN IMMEDIATE", "cannot start a rollup", err, errlen);
	if (ret < 0)
		return ret;
	rc = prepare_all(s, &r);
	for (i = 0; rc == SQLITE_OK && i < sizeof(levels) / sizeof(levels[0]); i++)
		rc = roll_level(s, &r, &levels[i], &budget, deadline, &made);
	finalize_all(&r);
	if (rc != SQLITE_OK) {
		ret = store_fail(s->db, rc, "cannot write rollups", err, errlen);
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	ret = store_exec(s->db, "COMMIT", "cannot commit rollups", err, errlen);
	if (ret < 0) {
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	*more = budget == 0;
	return (int)made;
}
