/*
 * query_tiers.c - which level (raw intervals, minute, hour or day rollups) a
 * reader takes each moment from.  See db_private.h.
 */
#include "lib/db.h"
#include "lib/db_private.h"
#include "lib/clock.h"

#include <stddef.h>
#include <stdint.h>


static int64_t oldest_end(struct db *db, int rollup_s)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db->db, "SELECT min(end_ns) FROM interval WHERE rollup_s = ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int(st, 1, rollup_s);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The start of the bucket (of size_s) that holds an end time. */
static int64_t bucket_of(int64_t end, int64_t size_s)
{
	int64_t size = size_s * NS_PER_SEC;

	return end <= 0 ? 0 : (end - 1) - (end - 1) % size;
}

void query_tiers(struct db *db, struct tiers *t)
{
	int64_t raw = oldest_end(db, 0), minute = oldest_end(db, STACKD_ROLLUP_MINUTE_S);
	int64_t hour = oldest_end(db, STACKD_ROLLUP_HOUR_S);

	/* Retention deletes raw intervals in whole minutes, minute rollups in
	 * whole hours and hour rollups in whole days, each only once the
	 * coarser level holds them: below the oldest raw minute the minutes
	 * are complete, below the oldest minute rollup's hour the hours are,
	 * below the oldest hour rollup's day the days are. */
	t->day_from = t->day_to = t->hour_from = t->hour_to = 0;
	t->minute_from = t->minute_to = 0;
	t->raw_floor = raw < 0 ? INT64_MAX : bucket_of(raw, STACKD_ROLLUP_MINUTE_S);
	t->minute_floor = t->raw_floor;
	if (minute >= 0 && bucket_of(minute, STACKD_ROLLUP_HOUR_S) < t->minute_floor)
		t->minute_floor = bucket_of(minute, STACKD_ROLLUP_HOUR_S);
	t->hour_floor = t->minute_floor;
	if (hour >= 0 && bucket_of(hour, STACKD_ROLLUP_DAY_S) < t->hour_floor)
		t->hour_floor = bucket_of(hour, STACKD_ROLLUP_DAY_S);
}

static int64_t rollup_done(struct db *db, int rollup_s)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	if (sqlite3_prepare_v2(db->db, "SELECT done_ns FROM rollup_state WHERE rollup_s = ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int(st, 1, rollup_s);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* (from, to]: from lo rounded up to a bucket boundary (not below floor),
 * to the last bucket rolled up; empty when it holds no whole bucket. */
static void whole_buckets(int64_t lo, int64_t floor, int64_t done, int64_t size_s,
			  int64_t *from, int64_t *to)
{
	int64_t size = size_s * NS_PER_SEC;
	int64_t f = lo <= 0 ? 0 : lo + (size - lo % size) % size;

	if (f < floor)
		f = floor;
	*to = done - done % size;
	*from = f;
	if (*to <= *from)
		*from = *to = 0;
}

void query_tiers_coarse(struct db *db, struct tiers *t, int64_t lo)
{
	/* Rollups hold every bucket ending at or before rollup_state's
	 * done_ns.  Minutes below minute_floor are read from the hours (an
	 * hour retention cut in two): the minute range starts above it; and
	 * hours below hour_floor from the days. */
	whole_buckets(lo, 0, rollup_done(db, STACKD_ROLLUP_DAY_S), STACKD_ROLLUP_DAY_S,
		      &t->day_from, &t->day_to);
	whole_buckets(lo, t->hour_floor, rollup_done(db, STACKD_ROLLUP_HOUR_S),
		      STACKD_ROLLUP_HOUR_S, &t->hour_from, &t->hour_to);
	whole_buckets(lo, t->minute_floor, rollup_done(db, STACKD_ROLLUP_MINUTE_S),
		      STACKD_ROLLUP_MINUTE_S, &t->minute_from, &t->minute_to);
}

void query_bind_tiers(sqlite3_stmt *st, const struct tiers *t)
{
	int n = sqlite3_bind_parameter_count(st);

	if (n >= 21) {
		sqlite3_bind_int64(st, 20, t->raw_floor);
		sqlite3_bind_int64(st, 21, t->minute_floor);
	}
	if (n >= 25) {
		sqlite3_bind_int64(st, 22, t->hour_from);
		sqlite3_bind_int64(st, 23, t->hour_to);
		sqlite3_bind_int64(st, 24, t->minute_from);
		sqlite3_bind_int64(st, 25, t->minute_to);
	}
	if (n >= 26)
		sqlite3_bind_int64(st, 26, t->hour_floor);
	if (n >= 28) {
		sqlite3_bind_int64(st, 27, t->day_from);
		sqlite3_bind_int64(st, 28, t->day_to);
	}
}
