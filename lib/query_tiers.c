/*
 * query_tiers.c - which level (raw intervals, minute or hour rollups) a
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

	/* Retention deletes raw intervals in whole minutes and minute rollups
	 * in whole hours, each only once the coarser level holds them: below
	 * the oldest raw minute the minutes are complete, below the oldest
	 * minute rollup's hour the hours are. */
	t->raw_floor = raw < 0 ? INT64_MAX : bucket_of(raw, STACKD_ROLLUP_MINUTE_S);
	t->minute_floor = t->raw_floor;
	if (minute >= 0 && bucket_of(minute, STACKD_ROLLUP_HOUR_S) < t->minute_floor)
		t->minute_floor = bucket_of(minute, STACKD_ROLLUP_HOUR_S);
}

void query_bind_tiers(sqlite3_stmt *st, const struct tiers *t)
{
	if (sqlite3_bind_parameter_count(st) >= 21) {
		sqlite3_bind_int64(st, 20, t->raw_floor);
		sqlite3_bind_int64(st, 21, t->minute_floor);
	}
}
