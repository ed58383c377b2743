/*
 * db.h - facts about the database shared by the daemon (writer) and readers.
 */
#ifndef STACKD_DB_H
#define STACKD_DB_H

/* The newest schema (PRAGMA user_version) this build reads and writes; the
 * daemon's embedded schema/ steps end at this version (checked by a test). */
#define STACKD_SCHEMA_VERSION 1

/* Where stackd keeps its database unless told otherwise. */
#define STACKD_STATE_DIR "/var/lib/stackd"
#define STACKD_DEFAULT_DB STACKD_STATE_DIR "/stackd.db"

/* How many v columns sample has (v0 .. v15). */
#define STACKD_SAMPLE_VALUES 16

#endif
