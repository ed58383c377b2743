/*
 * db_private.h - the read-only connection behind struct db, for the
 * query_*.c files only (readers elsewhere see the opaque handle).
 */
#ifndef STACKD_DB_PRIVATE_H
#define STACKD_DB_PRIVATE_H

#include "lib/db.h"

#include <sqlite3.h>
#include <stdint.h>

struct db {
	sqlite3 *db;
};

/*
 * Every moment is stored at up to four levels (raw intervals, minute, hour
 * and day rollups; schema/002-rollups.sql) until retention removes the
 * finer ones.  A reader sums each moment once, from the finest level left:
 * raw intervals ending after raw_floor, minute rollups ending in
 * (minute_floor, raw_floor], hour rollups ending in (hour_floor,
 * minute_floor], day rollups ending at or before hour_floor.
 */
struct tiers {
	int64_t raw_floor, minute_floor, hour_floor;
	/* A long window (query_window) also reads whole days ending in
	 * (day_from, day_to] from the day rollups, whole hours ending in
	 * (hour_from, hour_to] from the hour rollups and whole minutes ending
	 * in (minute_from, minute_to] from the minute rollups where finer rows
	 * are still kept: a rollup is the exact sum of the rows of its bucket
	 * (schema/002-rollups.sql), so the sums are the same, from 60, 3600 or
	 * 86400 times fewer rows.  Empty ranges (0, 0] unless
	 * query_tiers_coarse. */
	int64_t day_from, day_to, hour_from, hour_to, minute_from, minute_to;
};

/* Windows at least this long read whole buckets from the rollups. */
#define QUERY_COARSE_MIN_NS (3600LL * 1000000000LL)

void query_tiers(struct db *db, struct tiers *t);
/* Set t's coarse ranges for a window starting after lo. */
void query_tiers_coarse(struct db *db, struct tiers *t, int64_t lo);
/* Bind ?20, ?21 and ?26 (the floors), and ?22 .. ?25, ?27 and ?28 (the
 * coarse ranges), where st has them. */
void query_bind_tiers(sqlite3_stmt *st, const struct tiers *t);

/* The SQL condition that keeps an interval row (alias A, e.g. "i.") of the
 * right level for its time. */
#define TIER_STR_(x) #x
#define TIER_STR(x) TIER_STR_(x)
#define TIER_MATCH(A)                                                              \
	"(CASE WHEN " A "end_ns > ?20 THEN " A "rollup_s = 0"                      \
	" WHEN " A "end_ns > ?21 THEN " A "rollup_s = "                            \
	TIER_STR(STACKD_ROLLUP_MINUTE_S) " WHEN " A "end_ns > ?26 THEN " A         \
	"rollup_s = " TIER_STR(STACKD_ROLLUP_HOUR_S) " ELSE " A "rollup_s = "      \
	TIER_STR(STACKD_ROLLUP_DAY_S) " END)"

/* TIER_MATCH, and the coarse ranges of struct tiers (?27, ?28 days; ?22 ..
 * ?25 hours and minutes) before it: whole days from day rollups, then
 * whole hours from hour rollups, then whole minutes from minute rollups,
 * the rest as TIER_MATCH takes it.  Every moment still once. */
#define IN_DAYS(A) "(" A "end_ns > ?27 AND " A "end_ns <= ?28)"
#define IN_HOURS(A) "(" A "end_ns > ?22 AND " A "end_ns <= ?23)"
#define IN_MINUTES(A) "(" A "end_ns > ?24 AND " A "end_ns <= ?25)"
#define TIER_MATCH_COARSE(A)                                                       \
	"(CASE " A "rollup_s WHEN " TIER_STR(STACKD_ROLLUP_DAY_S)                  \
	" THEN (" A "end_ns <= ?26 OR " IN_DAYS(A) ")"                             \
	" WHEN " TIER_STR(STACKD_ROLLUP_HOUR_S) " THEN (NOT " IN_DAYS(A)           \
	" AND ((" A "end_ns > ?26 AND " A "end_ns <= ?21) OR " IN_HOURS(A) "))"    \
	" WHEN " TIER_STR(STACKD_ROLLUP_MINUTE_S) " THEN (NOT " IN_DAYS(A)         \
	" AND NOT " IN_HOURS(A)                                                    \
	" AND ((" A "end_ns > ?21 AND " A "end_ns <= ?20) OR " IN_MINUTES(A) "))"  \
	" WHEN 0 THEN (" A "end_ns > ?20 AND NOT " IN_DAYS(A) " AND NOT "          \
	IN_HOURS(A) " AND NOT " IN_MINUTES(A) ") END)"

#endif
