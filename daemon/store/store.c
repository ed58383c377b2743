/*
 * store.c - opening and closing the daemon's database (see store.h): the
 * checks before anything is written (store_guard.c), the schema brought
 * up to date, the settings, the write statements prepared (store_write.c);
 * and the file's life after: replaced under us, checkpointed.
 *
 * WAL mode: one writer (the daemon), readers never block it and it never
 * blocks them.  synchronous=FULL: a committed interval survives power loss,
 * at one fsync per flush.  Each flush is one transaction, so a crash at any
 * point loses at most the interval in flight.
 */
#include "daemon/store/store.h"
#include "daemon/store/store_private.h"
#include "daemon/store/store_schema.h"
#include "daemon/store/store_guard.h"
#include "lib/db.h"

#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Short: a lock held by someone else (sqlite3 on the file, a backup)
 * must not stall the daemon's loop or its watchdog; intervals that could
 * not be written wait in memory and go with the next flush. */
#define STORE_BUSY_TIMEOUT_MS 200
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static int user_version(struct store *s, int *ret)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*ret = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

static int check_version(struct store *s, const char *path, char *err, size_t errlen)
{
	int version = 0;
	int rc = user_version(s, &version);

	if (rc != SQLITE_OK) {
		if (store_errno(rc) == -EBADMSG) {
			snprintf(err, errlen, "'%s' is not a SQLite database (or is damaged)", path);
			return -EBADMSG;
		}
		return store_fail(s->db, rc, "cannot read the schema version", err, errlen);
	}
	if (version > STACKD_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "database schema version %d is newer than this stackd knows (%d); "
			 "refusing to touch it: upgrade stackd or use another --db",
			 version, STACKD_SCHEMA_VERSION);
		return -EPROTO;
	}
	return 0;
}

/* Apply every schema step above the database's version, each in its own
 * transaction together with its new user_version. */
static int migrate(struct store *s, char *err, size_t errlen)
{
	int version = 0;
	unsigned i;
	int rc;

	rc = user_version(s, &version);
	if (rc != SQLITE_OK)
		return store_fail(s->db, rc, "cannot read the schema version", err, errlen);
	for (i = 0; i < n_schema_steps; i++) {
		const struct schema_step *step = &schema_steps[i];
		int r;

		if ((int)step->version <= version)
			continue;
		r = store_exec(s->db, "BEGIN IMMEDIATE", "cannot start the schema update", err,
			       errlen);
		if (r < 0)
			return r;
		rc = sqlite3_exec(s->db, step->sql, NULL, NULL, NULL);
		if (rc == SQLITE_OK) {
			char sql[64];

			snprintf(sql, sizeof(sql), "PRAGMA user_version = %u", step->version);
			rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
		}
		if (rc != SQLITE_OK) {
			char what[128];

			snprintf(what, sizeof(what), "schema step %s failed", step->name);
			r = store_fail(s->db, rc, what, err, errlen);
			(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			return r;
		}
		r = store_exec(s->db, "COMMIT", "cannot commit the schema update", err, errlen);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Databases made before stackd chose incremental auto-vacuum keep freed
 * pages for reuse instead of returning them.  Switching needs a VACUUM,
 * which rewrites the file (and needs as much free space again): done here
 * when that is quick, else left to the administrator (store_reclaims_space
 * says so, stackd logs how). */
#define STORE_VACUUM_AT_OPEN_MAX (256LL << 20)

static void use_incremental_vacuum(struct store *s)
{
	int64_t mode = 0, pages = 0, page_size = 0;

	if (store_query_int64(s->db, "PRAGMA auto_vacuum", &mode) != 0)
		return;
	if (mode == 0 && store_query_int64(s->db, "PRAGMA page_count", &pages) == 0 &&
	    store_query_int64(s->db, "PRAGMA page_size", &page_size) == 0 &&
	    pages * page_size <= STORE_VACUUM_AT_OPEN_MAX &&
	    sqlite3_exec(s->db, "PRAGMA auto_vacuum = INCREMENTAL", NULL, NULL, NULL) == SQLITE_OK &&
	    sqlite3_exec(s->db, "VACUUM", NULL, NULL, NULL) == SQLITE_OK)
		(void)store_query_int64(s->db, "PRAGMA auto_vacuum", &mode);
	s->reclaims_space = mode == 2;
}

bool store_reclaims_space(const struct store *s)
{
	return s->reclaims_space;
}

/* Open path for writing (SQLite refuses a symbolic link too). */
static int open_db(struct store *s, const char *path, char *err, size_t errlen)
{
	int rc;

	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc != SQLITE_OK) {
		char what[512];

		snprintf(what, sizeof(what), "cannot open database '%s'", path);
		return store_fail(s->db, rc, what, err, errlen);
	}
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	return 0;
}

/* The whole file is checked at open up to this size (the check reads all
 * of it: ~6 s per 625 MB measured under load, 75 s at max_database_mb's
 * default, against systemd's 90 s start limit); above it, only the tables
 * opening needs, and the rest after the start (store_check.c). */
#define STORE_CHECK_AT_OPEN_MAX (64ULL << 20)

static const char *const open_tables[] = {
	"sqlite_schema", "meta", "boot", "counter_group", "rollup_state", NULL
};

static bool whole_check(const char *path)
{
	char wal[4096];
	struct stat st, w;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	return stat(path, &st) == 0 &&
	       (uint64_t)st.st_size + (stat(wal, &w) == 0 ? (uint64_t)w.st_size : 0) <=
	       STORE_CHECK_AT_OPEN_MAX;
}

/* A damaged stackd database found at start goes aside, named in the log,
 * and a new one takes its place: collection goes on and nothing stored is
 * deleted.  Files that are not ours were refused before this. */
static int set_damaged_aside(struct store *s, const char *path, bool *existed, char *err,
			     size_t errlen)
{
	char why[1024], moved[4096];
	int r;

	r = store_guard_integrity(s->db, path, whole_check(path) ? NULL : open_tables, why,
				  sizeof(why));
	s->check_deferred = r == 0 && !whole_check(path);
	if (r == 0)
		return 0;
	if (r != -EBADMSG) {
		snprintf(err, errlen, "%s", why);
		return r;
	}
	sqlite3_close(s->db);
	s->db = NULL;
	r = store_guard_move_aside(path, moved, sizeof(moved));
	if (r < 0) {
		snprintf(err, errlen, "%s; cannot move it aside: %s", why, strerror(-r));
		return -EBADMSG;
	}
	snprintf(s->moved_aside, sizeof(s->moved_aside), "%s; moved to '%s', starting a new "
		 "database", why, moved);
	*existed = false;
	return open_db(s, path, err, errlen);
}

/* Look before writing anything: a foreign file or a database from a newer
 * stackd must stay byte for byte as it was. */
static int check_before_writing(struct store *s, const char *path, char *err, size_t errlen)
{
	int r = check_version(s, path, err, errlen);

	return r < 0 ? r : store_guard_identity(s->db, path, err, errlen);
}

static int configure(struct store *s, bool existed, char *err, size_t errlen)
{
	int r = 0;

	/* A new database hands pages freed by retention back to the
	 * filesystem (store_prune); it can only be chosen before any table. */
	if (!existed)
		r = store_exec(s->db, "PRAGMA auto_vacuum = INCREMENTAL", "cannot set auto_vacuum",
			       err, errlen);
	if (r == 0)
		r = store_exec(s->db, "PRAGMA journal_mode = WAL", "cannot switch to WAL mode", err,
			       errlen);
	if (r == 0)
		r = store_exec(s->db, "PRAGMA synchronous = FULL", "cannot set synchronous", err,
			       errlen);
	if (r == 0)
		r = migrate(s, err, errlen);
	if (r == 0)
		r = store_exec(s->db, "PRAGMA application_id = " STRINGIFY(STORE_APPLICATION_ID),
			       "cannot set application_id", err, errlen);
	/* Retention's scratch tables: never a file of their own. */
	if (r == 0)
		r = store_exec(s->db, "PRAGMA temp_store = MEMORY", "cannot set temp_store", err,
			       errlen);
	return r;
}

static void unlink_if_empty(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
		(void)unlink(path);
}

int store_open(const char *path, struct store **ret, char *err, size_t errlen)
{
	struct store *s;
	struct stat st;
	bool existed = false;
	int r;

	r = store_guard_path(path, &existed, err, errlen);
	if (r < 0)
		return r;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	s->lock_fd = -1;
	r = open_db(s, path, err, errlen);
	if (r == 0)
		r = check_before_writing(s, path, err, errlen);
	if (r < 0) {
		/* Not ours or not readable: nothing was created beside it.  The
		 * empty file SQLite made for a new path goes; anything with
		 * content is someone else's (another daemon starting on it). */
		store_close(s);
		if (!existed)
			unlink_if_empty(path);
		return r;
	}
	r = store_guard_lock(path, &s->lock_fd, err, errlen);
	if (r < 0) {
		store_close(s);
		return r;
	}
	if (existed)
		r = set_damaged_aside(s, path, &existed, err, errlen);
	if (r == 0)
		r = configure(s, existed, err, errlen);
	if (r < 0)
		goto fail;
	use_incremental_vacuum(s);
	r = store_prepare_writes(s, err, errlen);
	if (r < 0)
		goto fail;
	/* The file we write, to find it deleted or replaced (store_file_replaced). */
	if (stat(path, &st) == 0) {
		s->dev = st.st_dev;
		s->ino = st.st_ino;
	}
	*ret = s;
	return 0;
fail:
	store_close(s);
	if (!existed) {
		/* Leave nothing half-made behind. */
		/* (not the lock file: another daemon may be waiting on it) */
		static const char *const made[] = { "", "-wal", "-shm" };
		char side[4096];
		size_t i;

		for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
			snprintf(side, sizeof(side), "%s%s", path, made[i]);
			(void)unlink(side);
		}
	}
	return r;
}

bool store_check_deferred(const struct store *s)
{
	return s->check_deferred;
}

const char *store_moved_aside(const struct store *s)
{
	return s->moved_aside[0] != '\0' ? s->moved_aside : NULL;
}

void store_close(struct store *s)
{
	if (s == NULL)
		return;
	store_finalize_writes(s);
	if (s->db != NULL)
		sqlite3_close(s->db);
	/* After SQLite's own descriptors: the next writer may start now. */
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	free(s);
}

void store_set_rollup_room(struct store *s, uint64_t bytes)
{
	s->rollup_room = bytes;
}

void store_set_busy_timeout(struct store *s, int ms)
{
	sqlite3_busy_timeout(s->db, ms);
}

bool store_file_replaced(const struct store *s, const char *path, char *why, size_t len)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return false;   /* cannot tell: keep writing */
		snprintf(why, len, "deleted");
		return true;
	}
	if (st.st_dev == s->dev && st.st_ino == s->ino)
		return false;
	snprintf(why, len, "replaced by another file");
	return true;
}

int store_checkpoint(struct store *s, bool truncate, char *err, size_t errlen)
{
	return store_exec(s->db, truncate ? "PRAGMA wal_checkpoint(TRUNCATE)" :
			  "PRAGMA wal_checkpoint(PASSIVE)", "cannot checkpoint", err, errlen);
}

void store_set_wal_limit(struct store *s, uint64_t bytes)
{
	int64_t page_size = 4096;
	char sql[64];

	(void)store_query_int64(s->db, "PRAGMA page_size", &page_size);
	snprintf(sql, sizeof(sql), "PRAGMA wal_autocheckpoint = %" PRIu64,
		 bytes / (uint64_t)(page_size > 0 ? page_size : 4096) + 1);
	(void)sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	snprintf(sql, sizeof(sql), "PRAGMA journal_size_limit = %" PRIu64, bytes);
	(void)sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

void store_remove_journal(const char *path)
{
	static const char *const suffixes[] = { "-wal", "-shm" };
	char file[4096];
	size_t i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if ((size_t)snprintf(file, sizeof(file), "%s%s", path, suffixes[i]) < sizeof(file))
			(void)unlink(file);
	}
}
