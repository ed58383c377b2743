/*
 * store.c - the only file that writes SQLite.  See store.h.
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
#include "lib/health_fields.h"

#include <errno.h>
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

int store_fail(struct store *s, int rc, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
	return store_errno(rc);
}

int store_exec(struct store *s, const char *sql, const char *what, char *err, size_t errlen)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(s, rc, what, err, errlen);
}

int store_query_int64(struct store *s, const char *sql, int64_t *ret)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return store_errno(rc);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*ret = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : store_errno(rc);
}

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
		return store_fail(s, rc, "cannot read the schema version", err, errlen);
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
		return store_fail(s, rc, "cannot read the schema version", err, errlen);
	for (i = 0; i < n_schema_steps; i++) {
		const struct schema_step *step = &schema_steps[i];
		int r;

		if ((int)step->version <= version)
			continue;
		r = store_exec(s, "BEGIN IMMEDIATE", "cannot start the schema update", err, errlen);
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
			r = store_fail(s, rc, what, err, errlen);
			(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			return r;
		}
		r = store_exec(s, "COMMIT", "cannot commit the schema update", err, errlen);
		if (r < 0)
			return r;
	}
	return 0;
}

static int prepare(struct store *s, const char *sql, sqlite3_stmt **st, char *err,
		   size_t errlen)
{
	int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(s, rc, "cannot prepare a statement", err, errlen);
}

static int prepare_all(struct store *s, char *err, size_t errlen)
{
	int r;

	r = prepare(s,
		    "INSERT INTO process (boot, pid, start_ns, comm, cmdline, uid, unit, exit_ns)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
		    " ON CONFLICT (boot, pid, start_ns) DO UPDATE SET"
		    "  comm = CASE WHEN excluded.comm = '?' THEN comm ELSE excluded.comm END,"
		    "  cmdline = coalesce(excluded.cmdline, cmdline),"
		    "  uid = coalesce(excluded.uid, uid),"
		    "  unit = coalesce(excluded.unit, unit),"
		    "  exit_ns = coalesce(excluded.exit_ns, exit_ns)"
		    " RETURNING id", &s->ins_process, err, errlen);
	if (r < 0)
		return r;
	/* write_one() binds in this order: the six, then the health fields */
	r = prepare(s,
		    "INSERT INTO interval (boot, start_ns, end_ns, ncpus, model, busiest_cpu"
		    HEALTH_FIELDS(HEALTH_SQL_COLUMN) ") VALUES (?, ?, ?, ?, ?, ?"
		    HEALTH_FIELDS(HEALTH_SQL_PARAM) ")", &s->ins_interval, err, errlen);
	if (r < 0)
		return r;
	r = prepare(s,
		    "INSERT INTO interval_group (interval_id, group_id, enabled_ns, unschedulable)"
		    " VALUES (?1, ?2, ?3, ?4)", &s->ins_group_time, err, errlen);
	if (r < 0)
		return r;
	return prepare(s,
		       "INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns,"
		       " context_switches, v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11,"
		       " v12, v13, v14, v15, periodic_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
		       " ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)"
		       /* Two rows of one interval can name the same stored process
			* (the collector saw one process as two generations whose
			* identities fell on the same clock tick): their counts add up,
			* instead of the whole interval failing for ever. */
		       " ON CONFLICT (interval_id, process_id, group_id) DO UPDATE SET"
		       " task_clock_ns = task_clock_ns + excluded.task_clock_ns,"
		       " context_switches = context_switches + excluded.context_switches,"
		       " v0 = v0 + excluded.v0, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2,"
		       " v3 = v3 + excluded.v3, v4 = v4 + excluded.v4, v5 = v5 + excluded.v5,"
		       " v6 = v6 + excluded.v6, v7 = v7 + excluded.v7, v8 = v8 + excluded.v8,"
		       " v9 = v9 + excluded.v9, v10 = v10 + excluded.v10,"
		       " v11 = v11 + excluded.v11, v12 = v12 + excluded.v12,"
		       " v13 = v13 + excluded.v13, v14 = v14 + excluded.v14,"
		       " v15 = v15 + excluded.v15,"
		       " periodic_ns = periodic_ns + excluded.periodic_ns",
		       &s->ins_sample, err, errlen);
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

	if (store_query_int64(s, "PRAGMA auto_vacuum", &mode) != 0)
		return;
	if (mode == 0 && store_query_int64(s, "PRAGMA page_count", &pages) == 0 &&
	    store_query_int64(s, "PRAGMA page_size", &page_size) == 0 &&
	    pages * page_size <= STORE_VACUUM_AT_OPEN_MAX &&
	    sqlite3_exec(s->db, "PRAGMA auto_vacuum = INCREMENTAL", NULL, NULL, NULL) == SQLITE_OK &&
	    sqlite3_exec(s->db, "VACUUM", NULL, NULL, NULL) == SQLITE_OK)
		(void)store_query_int64(s, "PRAGMA auto_vacuum", &mode);
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
		return store_fail(s, rc, what, err, errlen);
	}
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	return 0;
}

/* A damaged stackd database found at start goes aside, named in the log,
 * and a new one takes its place: collection goes on and nothing stored is
 * deleted.  Files that are not ours were refused before this. */
static int set_damaged_aside(struct store *s, const char *path, bool *existed, char *err,
			     size_t errlen)
{
	char why[1024], moved[4096];
	int r;

	r = store_guard_integrity(s, path, why, sizeof(why));
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

	return r < 0 ? r : store_guard_identity(s, path, err, errlen);
}

static int configure(struct store *s, bool existed, char *err, size_t errlen)
{
	int r = 0;

	/* A new database hands pages freed by retention back to the
	 * filesystem (store_prune); it can only be chosen before any table. */
	if (!existed)
		r = store_exec(s, "PRAGMA auto_vacuum = INCREMENTAL", "cannot set auto_vacuum", err,
			       errlen);
	if (r == 0)
		r = store_exec(s, "PRAGMA journal_mode = WAL", "cannot switch to WAL mode", err,
			       errlen);
	if (r == 0)
		r = store_exec(s, "PRAGMA synchronous = FULL", "cannot set synchronous", err,
			       errlen);
	if (r == 0)
		r = migrate(s, err, errlen);
	if (r == 0)
		r = store_exec(s, "PRAGMA application_id = " STRINGIFY(STORE_APPLICATION_ID),
			       "cannot set application_id", err, errlen);
	/* Retention's scratch tables: never a file of their own. */
	if (r == 0)
		r = store_exec(s, "PRAGMA temp_store = MEMORY", "cannot set temp_store", err,
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
	r = prepare_all(s, err, errlen);
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

const char *store_moved_aside(const struct store *s)
{
	return s->moved_aside[0] != '\0' ? s->moved_aside : NULL;
}

void store_close(struct store *s)
{
	if (s == NULL)
		return;
	sqlite3_finalize(s->ins_process);
	sqlite3_finalize(s->ins_interval);
	sqlite3_finalize(s->ins_group_time);
	sqlite3_finalize(s->ins_sample);
	if (s->db != NULL)
		sqlite3_close(s->db);
	/* After SQLite's own descriptors: the next writer may start now. */
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	free(s);
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

int store_checkpoint(struct store *s, char *err, size_t errlen)
{
	return store_exec(s, "PRAGMA wal_checkpoint(TRUNCATE)", "cannot checkpoint", err, errlen);
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

static int step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int64_t select_id(struct store *s, const char *sql, const char *a, const char *b,
			 int64_t c, const char *d)
{
	sqlite3_stmt *st;
	int64_t id = -1;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	if (b != NULL)
		sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	if (c >= 0)
		sqlite3_bind_int64(st, 3, c);
	if (d != NULL)
		sqlite3_bind_text(st, 4, d, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int store_register(struct store *s, const struct model *m, const struct plan *plan,
		   const char *boot_id, uint64_t booted_ns, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	unsigned g;
	int rc, r;

	if (plan != NULL)
		s->plan = *plan;
	else
		plan_whole(m, &s->plan);

	r = store_exec(s, "BEGIN IMMEDIATE", "cannot start a transaction", err, errlen);
	if (r < 0)
		return r;
	rc = sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO boot (boot_id, booted_ns)"
				" VALUES (?1, ?2)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, boot_id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)booted_ns);
		rc = step_done(st);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_OK)
		goto fail;
	s->boot = select_id(s, "SELECT id FROM boot WHERE boot_id = ?1", boot_id, NULL, -1, NULL);

	rc = sqlite3_prepare_v2(s->db,
				"INSERT OR IGNORE INTO counter_group (model, formula_version, name,"
				" events, event_names) VALUES (?1, ?2, ?3, ?4, ?5)", -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto fail;
	for (g = 0; g < s->plan.n_groups; g++) {
		const struct plan_group *pg = &s->plan.groups[g];
		const char *family = m->groups[pg->family].name;
		char columns[1024], names[2048];

		plan_group_columns(&s->plan, g, columns, sizeof(columns), names, sizeof(names));
		sqlite3_bind_text(st, 1, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, (int)m->formula_version);
		sqlite3_bind_text(st, 3, family, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, columns, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, names, -1, SQLITE_TRANSIENT);
		rc = step_done(st);
		if (rc != SQLITE_OK)
			goto fail;
		{
			sqlite3_stmt *q;

			rc = sqlite3_prepare_v2(s->db,
						"SELECT id FROM counter_group WHERE model = ?1 AND"
						" formula_version = ?2 AND name = ?3 AND events = ?4",
						-1, &q, NULL);
			if (rc != SQLITE_OK)
				goto fail;
			sqlite3_bind_text(q, 1, m->name, -1, SQLITE_STATIC);
			sqlite3_bind_int(q, 2, (int)m->formula_version);
			sqlite3_bind_text(q, 3, family, -1, SQLITE_STATIC);
			sqlite3_bind_text(q, 4, columns, -1, SQLITE_TRANSIENT);
			rc = sqlite3_step(q);
			s->group_id[g] = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
			sqlite3_finalize(q);
			if (s->group_id[g] < 0) {
				rc = SQLITE_ERROR;
				goto fail;
			}
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	s->n_groups = s->plan.n_groups;
	s->model = m;
	return store_exec(s, "COMMIT", "cannot commit", err, errlen);
fail:
	sqlite3_finalize(st);
	r = store_fail(s, rc == SQLITE_OK ? SQLITE_ERROR : rc, "cannot register the model", err, errlen);
	(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return r;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *v)
{
	if (v != NULL)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static int write_one(struct store *s, const struct interval_data *iv, int64_t *proc_ids)
{
	sqlite3_stmt *st;
	int64_t interval_id;
	size_t i;
	int rc, col;

	st = s->ins_interval;
	sqlite3_bind_int64(st, 1, s->boot);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)iv->start_ns);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)iv->end_ns);
	sqlite3_bind_int(st, 4, (int)iv->ncpus);
	sqlite3_bind_text(st, 5, s->model->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, iv->st.busiest_cpu);
	col = 7;
#define BIND_FIELD(name, ...) sqlite3_bind_int64(st, col++, (sqlite3_int64)iv->st.name);
	HEALTH_FIELDS(BIND_FIELD)
#undef BIND_FIELD
	rc = step_done(st);
	if (rc != SQLITE_OK)
		return rc;
	interval_id = sqlite3_last_insert_rowid(s->db);

	st = s->ins_group_time;
	for (i = 0; i < iv->n_groups && i < s->n_groups; i++) {
		sqlite3_bind_int64(st, 1, interval_id);
		sqlite3_bind_int64(st, 2, s->group_id[i]);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)iv->enabled_ns[i]);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)iv->unschedulable[i]);
		rc = step_done(st);
		if (rc != SQLITE_OK)
			return rc;
	}

	st = s->ins_process;
	for (i = 0; i < iv->n_procs; i++) {
		const struct iv_proc *p = &iv->procs[i];

		sqlite3_bind_int64(st, 1, s->boot);
		sqlite3_bind_int(st, 2, p->pid);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)p->start_ns);
		sqlite3_bind_text(st, 4, p->comm, -1, SQLITE_STATIC);
		bind_text_or_null(st, 5, p->cmdline);
		if (p->uid >= 0)
			sqlite3_bind_int64(st, 6, p->uid);
		else
			sqlite3_bind_null(st, 6);
		bind_text_or_null(st, 7, p->unit);
		if (p->exit_ns != 0)
			sqlite3_bind_int64(st, 8, (sqlite3_int64)p->exit_ns);
		else
			sqlite3_bind_null(st, 8);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			proc_ids[i] = sqlite3_column_int64(st, 0);
			rc = sqlite3_step(st);
		}
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		if (rc != SQLITE_DONE)
			return rc;
	}

	st = s->ins_sample;
	for (i = 0; i < iv->n_rows; i++) {
		const struct iv_row *row = &iv->rows[i];
		unsigned k, n_events;

		if (row->group >= s->n_groups || row->proc >= iv->n_procs)
			continue;
		n_events = s->plan.groups[row->group].n_events;
		sqlite3_bind_int64(st, 1, interval_id);
		sqlite3_bind_int64(st, 2, proc_ids[row->proc]);
		sqlite3_bind_int64(st, 3, s->group_id[row->group]);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)row->task_clock_ns);
		sqlite3_bind_int64(st, 5, (sqlite3_int64)row->context_switches);
		for (k = 0; k < STACKD_SAMPLE_VALUES; k++) {
			if (k < n_events)
				sqlite3_bind_int64(st, 6 + (int)k, (sqlite3_int64)row->v[k]);
			else
				sqlite3_bind_null(st, 6 + (int)k);
		}
		sqlite3_bind_int64(st, 22, (sqlite3_int64)row->periodic_ns);
		rc = step_done(st);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

int store_write_intervals(struct store *s, const struct interval_data *iv,
			  char *err, size_t errlen)
{
	const struct interval_data *it;
	int64_t *proc_ids = NULL;
	size_t max_procs = 0;
	int r;

	if (s->model == NULL) {
		snprintf(err, errlen, "store_register() was not called");
		return -EINVAL;
	}
	for (it = iv; it != NULL; it = it->next)
		if (it->n_procs > max_procs)
			max_procs = it->n_procs;
	proc_ids = calloc(max_procs ? max_procs : 1, sizeof(*proc_ids));
	if (proc_ids == NULL)
		return -ENOMEM;
	r = store_exec(s, "BEGIN IMMEDIATE", "cannot start a transaction", err, errlen);
	if (r < 0) {
		free(proc_ids);
		return r;
	}
	for (it = iv; it != NULL; it = it->next) {
		int rc = write_one(s, it, proc_ids);

		if (rc != SQLITE_OK) {
			r = store_fail(s, rc, "cannot write an interval", err, errlen);
			(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			free(proc_ids);
			return r;
		}
	}
	free(proc_ids);
	r = store_exec(s, "COMMIT", "cannot commit an interval", err, errlen);
	if (r < 0)
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return r;
}

int store_set_meta(struct store *s, const char *const *kv, size_t n_pairs,
		   char *err, size_t errlen)
{
	sqlite3_stmt *st;
	size_t i;
	int rc, r;

	r = store_exec(s, "BEGIN IMMEDIATE", "cannot start a transaction", err, errlen);
	if (r < 0)
		return r;
	rc = sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
				-1, &st, NULL);
	for (i = 0; rc == SQLITE_OK && i < n_pairs; i++) {
		sqlite3_bind_text(st, 1, kv[2 * i], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, kv[2 * i + 1] ? kv[2 * i + 1] : "", -1, SQLITE_STATIC);
		rc = step_done(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK) {
		r = store_fail(s, rc, "cannot write meta", err, errlen);
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return r;
	}
	return store_exec(s, "COMMIT", "cannot commit meta", err, errlen);
}
