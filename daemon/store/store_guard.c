/*
 * store_guard.c - what stackd checks before it writes a database file, so
 * that a manual start as root can be trusted with any path:
 *   - no symbolic link is followed (the database, its -wal and -shm files,
 *     a state directory that someone else controls);
 *   - another program's SQLite file is never touched (application_id);
 *   - a damaged stackd database is found at start (quick_check: of the
 *     whole file when small, else of what opening needs, the rest checked
 *     after the start by store_check.c), not by every later write failing;
 *   - one daemon writes a database at a time (a lock file naming its pid).
 * Does not log: fills err and returns -errno, like store.c.  Calls nothing
 * of the store but its SQLite helpers (store_sql.c): store.c calls it.
 */
#include "daemon/store/store_guard.h"
#include "daemon/base/pid_lock.h"
#include "daemon/store/store_sql.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* lstat of path + suffix; 0 when it does not exist (and *exists false). */
static int lstat_suffix(const char *path, const char *suffix, struct stat *st, bool *exists)
{
	char file[PATH_MAX];

	if ((size_t)snprintf(file, sizeof(file), "%s%s", path, suffix) >= sizeof(file))
		return -ENAMETOOLONG;
	*exists = lstat(file, st) == 0;
	if (!*exists && errno != ENOENT)
		return -errno;
	return 0;
}

/* A directory we would create files in: a symbolic link to it is followed
 * only when root (or we) made it; a link planted by another user could
 * point anywhere. */
static int check_dir(const char *path, const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode) && st.st_uid != 0 &&
	    st.st_uid != geteuid()) {
		snprintf(err, errlen, "database '%s': directory '%s' is a symbolic link owned by "
			 "uid %u; refusing to follow it", path, dir, (unsigned)st.st_uid);
		return -ELOOP;
	}
	if (stat(dir, &st) != 0) {
		snprintf(err, errlen, "database '%s': directory '%s' does not exist", path, dir);
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "database '%s': '%s' is not a directory", path, dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		/* WAL needs the -wal and -shm files beside the database. */
		snprintf(err, errlen, "database '%s': directory '%s' is not writable (%s)", path,
			 dir, strerror(errno));
		return -EACCES;
	}
	return 0;
}

int store_guard_path(const char *path, bool *existed, char *err, size_t errlen)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", STORE_LOCK_SUFFIX };
	struct stat st;
	char *copy;
	size_t i;
	bool exists;
	int r;

	*existed = false;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		r = lstat_suffix(path, suffixes[i], &st, &exists);
		if (r < 0) {
			snprintf(err, errlen, "database '%s%s': %s", path, suffixes[i], strerror(-r));
			return r;
		}
		if (!exists)
			continue;
		if (S_ISLNK(st.st_mode)) {
			snprintf(err, errlen, "database '%s%s' is a symbolic link; refusing to follow "
				 "it (give the real path)", path, suffixes[i]);
			return -ELOOP;
		}
		if (i == 0 && S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "database '%s' is a directory", path);
			return -EISDIR;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "database '%s%s' is not a regular file", path,
				 suffixes[i]);
			return -EINVAL;
		}
		/* A hard link planted by whoever owns the directory would make
		 * SQLite (and the hand-over's chown) act on another file. */
		if (st.st_nlink != 1) {
			snprintf(err, errlen, "database '%s%s' has %lu hard links; refusing it (give "
				 "a file of its own)", path, suffixes[i], (unsigned long)st.st_nlink);
			return -EMLINK;
		}
		if (i == 0)
			*existed = true;
	}
	copy = strdup(path);
	if (copy == NULL)
		return -ENOMEM;
	r = check_dir(path, dirname(copy), err, errlen);
	free(copy);
	if (r == 0 && *existed && access(path, R_OK | W_OK) != 0) {
		r = -errno;
		snprintf(err, errlen, "database '%s' is not writable (%s)", path, strerror(-r));
	}
	return r;
}

/* ---- one writer per database ------------------------------------------- */

int store_guard_lock(const char *path, int *ret_fd, char *err, size_t errlen)
{
	const char *failed;
	char file[PATH_MAX];
	pid_t holder;
	int fd, r;

	if ((size_t)snprintf(file, sizeof(file), "%s%s", path, STORE_LOCK_SUFFIX) >= sizeof(file))
		return -ENAMETOOLONG;
	fd = open(file, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0640);
	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "cannot open the lock file '%s': %s", file, strerror(-r));
		return r;
	}
	/* flock, not fcntl (pid_lock.h): SQLite's own POSIX locks on the
	 * database are separate, and closing any of its descriptors cannot
	 * drop ours. */
	r = pid_lock_take(fd, &holder, &failed);
	if (r == -EBUSY) {
		if (holder > 0)
			snprintf(err, errlen, "database '%s' is in use by another stackd "
				 "(pid %d, lock '%s'); use another --db", path, (int)holder, file);
		else
			snprintf(err, errlen, "database '%s' is in use by another stackd "
				 "(lock '%s'); use another --db", path, file);
	} else if (r < 0) {
		snprintf(err, errlen, strcmp(failed, "lock") == 0 ? "cannot lock '%s': %s" :
			 "cannot write the lock file '%s': %s", file, strerror(-r));
	}
	if (r < 0) {
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

/* ---- is it ours, is it whole -------------------------------------------- */

int store_guard_identity(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	int64_t app_id = 0, tables = 0, ours = 0;

	if (store_query_int64(db, "PRAGMA application_id", &app_id) != 0 ||
	    store_query_int64(db, "SELECT count(*) FROM sqlite_schema", &tables) != 0) {
		snprintf(err, errlen, "'%s' is not a SQLite database (or its first page is "
			 "damaged); refusing to touch it", path);
		return -EBADMSG;
	}
	if (app_id == STORE_APPLICATION_ID || tables == 0)
		return 0;
	/* Made before stackd set application_id: known by its own tables. */
	if (app_id == 0 &&
	    store_query_int64(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND "
			      "name IN ('meta', 'boot', 'process', 'interval', 'sample')",
			      &ours) == 0 && ours == 5)
		return 0;
	snprintf(err, errlen, "'%s' is not a stackd database (application_id 0x%08" PRIx64
		 ", %" PRId64 " schema objects); refusing to touch it: use another --db", path,
		 (uint64_t)app_id & 0xffffffffu, tables);
	return -EPROTO;
}

/* SQLite's report spans lines ("*** in database main ***\nPage 10: ..."):
 * one log line each. */
static void one_line(char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '\n')
			*s = ' ';
}

/* The first row of sql (a quick_check): 0 for "ok", -EBADMSG with it in
 * err when damaged, another -errno when it could not be checked. */
static int check_one(sqlite3 *db, const char *sql, const char *path, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const unsigned char *first = sqlite3_column_text(st, 0);

		if (first != NULL && strcmp((const char *)first, "ok") == 0) {
			sqlite3_finalize(st);
			return 0;
		}
		snprintf(err, errlen, "'%s' is damaged: %s", path,
			 first != NULL ? (const char *)first : "(no detail)");
		one_line(err);
	} else if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB) {
		snprintf(err, errlen, "'%s' is damaged: %s", path, sqlite3_errmsg(db));
	} else {
		/* busy, out of memory, an I/O error: not damage - the file stays
		 * where it is and the caller fails instead */
		int r = store_errno(rc);

		snprintf(err, errlen, "cannot check '%s': %s", path, sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return r < 0 && r != -EBADMSG ? r : -EIO;
	}
	sqlite3_finalize(st);
	return -EBADMSG;
}

int store_guard_integrity(sqlite3 *db, const char *path, const char *const *tables, char *err,
			  size_t errlen)
{
	char sql[128];
	int r = 0;

	if (tables == NULL)
		return check_one(db, "PRAGMA quick_check(1)", path, err, errlen);
	for (; r == 0 && *tables != NULL; tables++) {
		int64_t exists = 0;

		/* (a table a newer schema step makes may not be there yet) */
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
			 " AND name = '%s'", *tables);
		r = store_query_int64(db, sql, &exists);
		if (r < 0)
			return check_one(db, "PRAGMA quick_check(1)", path, err, errlen);
		snprintf(sql, sizeof(sql), "PRAGMA quick_check('%s')", *tables);
		if (exists > 0)
			r = check_one(db, sql, path, err, errlen);
	}
	return r;
}

int store_guard_move_aside(const char *path, char *moved, size_t movedlen)
{
	static const char *const suffixes[] = { "-wal", "-shm" };
	char stamp[32], from[PATH_MAX], to[PATH_MAX];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if ((size_t)snprintf(moved, movedlen, "%s.damaged-%s", path, stamp) >= movedlen)
		return -ENAMETOOLONG;
	/* The journal files first: a WAL beside a new file would be replayed
	 * into it. */
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		snprintf(from, sizeof(from), "%s%s", path, suffixes[i]);
		snprintf(to, sizeof(to), "%s%s", moved, suffixes[i]);
		if (rename(from, to) < 0 && errno != ENOENT)
			return -errno;
	}
	return rename(path, moved) < 0 ? -errno : 0;
}
