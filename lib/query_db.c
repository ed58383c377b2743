/*
 * query_db.c - the read-only connection (query.h): opening a database and
 * checking it is one this build reads, and what every reader asks first,
 * the meta table's values and the span of the stored data.
 */
#include "lib/query.h"
#include "lib/db.h"
#include "lib/db_private.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define QUERY_BUSY_TIMEOUT_MS 2000

int db_open(const char *path, struct db **ret, char *err, size_t errlen)
{
	struct db *db;
	sqlite3_stmt *st = NULL;
	int version = -1;
	int rc;

	if (access(path, F_OK) != 0) {
		snprintf(err, errlen, "no database at '%s' (is stackd running? start it with "
			 "'stackd' or 'systemctl start stackd', or name one with --db)", path);
		return -ENOENT;
	}
	if (access(path, R_OK) != 0) {
		snprintf(err, errlen, "cannot read database '%s': %s", path, strerror(errno));
		return -EACCES;
	}
	db = calloc(1, sizeof(*db));
	if (db == NULL)
		return -ENOMEM;
	rc = sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "cannot open database '%s': %s", path,
			 db->db ? sqlite3_errmsg(db->db) : sqlite3_errstr(rc));
		db_close(db);
		return -EIO;
	}
	sqlite3_busy_timeout(db->db, QUERY_BUSY_TIMEOUT_MS);
	rc = sqlite3_prepare_v2(db->db, "PRAGMA user_version", -1, &st, NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < 0) {
		snprintf(err, errlen, "'%s' is not a SQLite database (or cannot be read: %s)", path,
			 sqlite3_errmsg(db->db));
		db_close(db);
		return -EBADMSG;
	}
	if (version == 0) {
		snprintf(err, errlen, "'%s' is not a stackd database", path);
		db_close(db);
		return -EBADMSG;
	}
	if (version < STACKD_SCHEMA_VERSION) {
		snprintf(err, errlen, "'%s' was written by an older stackd (schema %d; this "
			 "stackctl reads %d): start the new stackd on it once to upgrade it", path,
			 version, STACKD_SCHEMA_VERSION);
		db_close(db);
		return -EPROTO;
	}
	if (version > STACKD_SCHEMA_VERSION) {
		snprintf(err, errlen, "'%s' was written by a newer stackd (schema %d; this "
			 "stackctl reads up to %d)", path, version, STACKD_SCHEMA_VERSION);
		db_close(db);
		return -EPROTO;
	}
	*ret = db;
	return 0;
}

void db_close(struct db *db)
{
	if (db == NULL)
		return;
	if (db->db != NULL)
		sqlite3_close(db->db);
	free(db);
}

void db_set_stop(struct db *db, int (*stop)(void *ctx), void *ctx)
{
	/* 10,000 virtual machine steps: some microseconds between checks */
	sqlite3_progress_handler(db->db, stop != NULL ? 10000 : 0, stop, ctx);
}

int query_meta(struct db *db, const char *key, char *buf, size_t len)
{
	sqlite3_stmt *st;
	int r = -ENOENT;

	if (sqlite3_prepare_v2(db->db, "SELECT value FROM meta WHERE key = ?1", -1, &st, NULL)
	    != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
		r = 0;
	}
	sqlite3_finalize(st);
	return r;
}

#define OLDEST_START(level) "SELECT * FROM (SELECT start_ns FROM interval WHERE rollup_s = " \
	TIER_STR(level) " ORDER BY end_ns LIMIT 1)"

int query_span(struct db *db, uint64_t *oldest_ns, uint64_t *newest_ns)
{
	sqlite3_stmt *st;
	int r = -ENODATA;

	/* By the indexes, not a scan of every interval (a year's store holds
	 * 100,000 of them: 12 ms a request): the newest end, and the oldest
	 * start, which is the start of each level's oldest row by end (a
	 * level's rows do not overlap) */
	if (sqlite3_prepare_v2(db->db, "SELECT (SELECT min(start_ns) FROM (" OLDEST_START(0)
			       " UNION ALL " OLDEST_START(STACKD_ROLLUP_MINUTE_S)
			       " UNION ALL " OLDEST_START(STACKD_ROLLUP_HOUR_S)
			       " UNION ALL " OLDEST_START(STACKD_ROLLUP_DAY_S) ")),"
			       " (SELECT max(end_ns) FROM interval)", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 1) != SQLITE_NULL) {
		*oldest_ns = (uint64_t)sqlite3_column_int64(st, 0);
		*newest_ns = (uint64_t)sqlite3_column_int64(st, 1);
		r = 0;
	}
	sqlite3_finalize(st);
	return r;
}
