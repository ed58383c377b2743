/*
 * store_sql.h - the few SQLite helpers every store file uses, on a bare
 * connection (store_sql.c): SQLite's result codes as -errno, one-line
 * error messages, a statement run for its effect or for one number.  The
 * bottom of the store: calls nothing else of it.  Internal to the store.
 */
#ifndef STACKD_STORE_SQL_H
#define STACKD_STORE_SQL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* SQLite result code -> -errno (busy, full, read-only, corrupt, ...). */
int store_errno(int rc);
/* err = "what: SQLite's message" (db's, or rc's when db is NULL);
 * returns store_errno(rc). */
int store_fail(sqlite3 *db, int rc, const char *what, char *err, size_t errlen);
/* Run sql; on failure store_fail with what. */
int store_exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t errlen);
/* The first column of the first row of sql (which takes no parameters);
 * 0 or -errno. */
int store_query_int64(sqlite3 *db, const char *sql, int64_t *ret);

#endif
