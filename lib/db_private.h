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
};

void query_tiers(struct db *db, struct tiers *t);
/* Bind ?20 and ?21 where st has them. */
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

#endif
