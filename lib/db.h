/*
 * db.h - facts about the database shared by the daemon (writer) and readers.
 */
#ifndef STACKD_DB_H
#define STACKD_DB_H

/* The newest schema (PRAGMA user_version) this build reads and writes; the
 * daemon's embedded schema/ steps end at this version (checked by a test). */
#define STACKD_SCHEMA_VERSION 11

/* Where stackd keeps its database unless told otherwise. */
#define STACKD_STATE_DIR "/var/lib/stackd"
#define STACKD_DEFAULT_DB STACKD_STATE_DIR "/stackd.db"

/* The rollup levels (interval.rollup_s): raw intervals, then per-minute
 * rollups of them, then per-hour rollups of those (schema/002-rollups.sql),
 * then per-day (UTC) rollups of the hours, so a year's window reads 365
 * rows per process where it would read 8,760. */
#define STACKD_ROLLUP_MINUTE_S 60
#define STACKD_ROLLUP_HOUR_S 3600
#define STACKD_ROLLUP_DAY_S 86400

/* How many v columns sample has (v0 .. v15). */
#define STACKD_SAMPLE_VALUES 16

#endif
