/*
 * store_sql.c - SQLite helpers of the store.  See store_sql.h.
 */
#include "daemon/store/store_sql.h"

#include <errno.h>
#include <stdio.h>

int store_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
		return 0;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EBADMSG;
	default:
		return -EIO;
	}
}

int store_fail(sqlite3 *db, int rc, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	return store_errno(rc);
}

int store_exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t errlen)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(db, rc, what, err, errlen);
}

int store_query_int64(sqlite3 *db, const char *sql, int64_t *ret)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return store_errno(rc);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*ret = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : store_errno(rc);
}
