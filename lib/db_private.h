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
 * Every moment is stored at up to three levels (raw intervals, minute and
 * hour rollups; schema/002-rollups.sql) until retention removes the finer
 * ones.  A reader sums each moment once, from the finest level left: raw
 * intervals ending after raw_floor, minute rollups ending in
 * (minute_floor, raw_floor], hour rollups ending at or before minute_floor.
 */
struct tiers {
	int64_t raw_floor, minute_floor;
	/* A long window (query_window) also reads whole hours ending in
	 * (hour_from, hour_to] from the hour rollups and whole minutes ending
	 * in (minute_from, minute_to] from the minute rollups where finer rows
	 * are still kept: a rollup is the exact sum of the rows of its bucket
	 * (schema/002-rollups.sql), so the sums are the same, from 60 or 3600
	 * times fewer rows.  Empty ranges (0, 0] unless query_tiers_coarse. */
	int64_t hour_from, hour_to, minute_from, minute_to;
};

/* Windows at least this long read whole buckets from the rollups. */
#define QUERY_COARSE_MIN_NS (3600LL * 1000000000LL)

void query_tiers(struct db *db, struct tiers *t);
/* Set t's coarse ranges for a window starting after lo. */
void query_tiers_coarse(struct db *db, struct tiers *t, int64_t lo);
/* Bind ?20 and ?21, and ?22 .. ?25 (the coarse ranges), where st has them. */
void query_bind_tiers(sqlite3_stmt *st, const struct tiers *t);

/* The SQL condition that keeps an interval row (alias A, e.g. "i.") of the
 * right level for its time. */
#define TIER_STR_(x) #x
#define TIER_STR(x) TIER_STR_(x)
#define TIER_MATCH(A)                                                              \
	"(CASE WHEN " A "end_ns > ?20 THEN " A "rollup_s = 0"                      \
	" WHEN " A "end_ns > ?21 THEN " A "rollup_s = "                            \
	TIER_STR(STACKD_ROLLUP_MINUTE_S) " ELSE " A "rollup_s = "                  \
	TIER_STR(STACKD_ROLLUP_HOUR_S) " END)"

/* TIER_MATCH, and the coarse ranges of struct tiers (?22 .. ?25) before
 * it: whole hours from hour rollups, then whole minutes from minute
 * rollups, the rest as TIER_MATCH takes it.  Every moment still once. */
#define IN_HOURS(A) "(" A "end_ns > ?22 AND " A "end_ns <= ?23)"
#define IN_MINUTES(A) "(" A "end_ns > ?24 AND " A "end_ns <= ?25)"
#define TIER_MATCH_COARSE(A)                                                       \
	"(CASE " A "rollup_s WHEN " TIER_STR(STACKD_ROLLUP_HOUR_S)                 \
	" THEN (" A "end_ns <= ?21 OR " IN_HOURS(A) ")"                           \
	" WHEN " TIER_STR(STACKD_ROLLUP_MINUTE_S) " THEN (NOT " IN_HOURS(A)        \
	" AND ((" A "end_ns > ?21 AND " A "end_ns <= ?20) OR " IN_MINUTES(A) "))"  \
	" WHEN 0 THEN (" A "end_ns > ?20 AND NOT " IN_HOURS(A) " AND NOT "          \
	IN_MINUTES(A) ") END)"

#endif
