/*
 * store_guard.h - checks made before the daemon writes a database file
 * (store_guard.c), on the connection store.c opened.  Internal to the
 * store.
 */
#ifndef STACKD_STORE_GUARD_H
#define STACKD_STORE_GUARD_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

/* PRAGMA application_id of a stackd database: 0x53544b44, "STKD" (decimal:
 * PRAGMA takes no hex). */
#define STORE_APPLICATION_ID 1398033220
/* The writer's lock file beside the database: path + this. */
#define STORE_LOCK_SUFFIX ".lock"

/* The database path, its -wal, -shm and lock files are regular files or
 * absent (never symbolic links), its directory exists and is writable, and
 * is not a link someone else planted.  *existed: the database file exists. */
int store_guard_path(const char *path, bool *existed, char *err, size_t errlen);

/* Take the one-writer lock (path + STORE_LOCK_SUFFIX, holding our pid);
 * -EBUSY with the holder's pid in err when another daemon has it.  On
 * success *ret_fd keeps the lock until closed. */
int store_guard_lock(const char *path, int *ret_fd, char *err, size_t errlen);

/* 0 for a new (empty) file or one of ours; -EPROTO for another program's
 * SQLite file, -EBADMSG for a file that is not SQLite.  Reads only. */
int store_guard_identity(sqlite3 *db, const char *path, char *err, size_t errlen);

/* PRAGMA quick_check of the whole file (tables NULL) or of the tables
 * named (a NULL-terminated list) and their indexes: 0 when whole, -EBADMSG
 * with the first problem when damaged, another -errno when it could not be
 * checked (busy, I/O). */
int store_guard_integrity(sqlite3 *db, const char *path, const char *const *tables, char *err,
			  size_t errlen);

/* Rename a damaged database (and its -wal, -shm) to
 * path.damaged-YYYYmmddTHHMMSSZ, named in moved. */
int store_guard_move_aside(const char *path, char *moved, size_t movedlen);

#endif
