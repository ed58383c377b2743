/*
 * store_write.c - what the daemon writes as it collects: this boot and the
 * plan's counter groups (store_register), intervals with their processes
 * and samples (store_write_intervals), and meta.  The statements every
 * interval runs are prepared once, at open (store_prepare_writes).
 *
 * Each call is one transaction: on an error nothing of it is stored, and
 * the caller can write the same intervals again later.
 */
#include "daemon/store/store_private.h"
#include "lib/db.h"
#include "lib/db_columns.h"
#include "lib/health_fields.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

/* The sample upsert's parameters: ?1 .. ?5 before the values, the values
 * (v0 ..), then periodic_ns. */
#define SAMPLE_FIRST_VALUE 6
#define SAMPLE_PERIODIC (SAMPLE_FIRST_VALUE + STACKD_SAMPLE_VALUES)

static int prepare(struct store *s, const char *sql, sqlite3_stmt **st, char *err,
		   size_t errlen)
{
	int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(s->db, rc, "cannot prepare a statement", err,
						  errlen);
}

/* The sample upsert, its value columns from lib/db_columns.h.  Two rows of
 * one interval can name the same stored process (the collector saw one
 * process as two generations whose identities fell on the same clock
 * tick): their counts add up, instead of the whole interval failing for
 * ever.  -1 when it does not fit in len. */
static int sample_sql(char *sql, size_t len)
{
	char cols[DB_VALUE_LIST_MAX], params[DB_VALUE_LIST_MAX], sums[DB_VALUE_LIST_MAX];
	int n;

	if (db_value_list(cols, sizeof(cols), "@", 0) < 0 ||
	    db_value_list(params, sizeof(params), "#", SAMPLE_FIRST_VALUE) < 0 ||
	    db_value_list(sums, sizeof(sums), "@ = @ + excluded.@", 0) < 0)
		return -1;
	n = snprintf(sql, len,
		     "INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns,"
		     " context_switches, %s, periodic_ns) VALUES (?1, ?2, ?3, ?4, ?5, %s, ?%d)"
		     " ON CONFLICT (interval_id, process_id, group_id) DO UPDATE SET"
		     " task_clock_ns = task_clock_ns + excluded.task_clock_ns,"
		     " context_switches = context_switches + excluded.context_switches,"
		     " %s,"
		     " periodic_ns = periodic_ns + excluded.periodic_ns",
		     cols, params, SAMPLE_PERIODIC, sums);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int store_prepare_writes(struct store *s, char *err, size_t errlen)
{
	char sample[4096];
	int r;

	r = prepare(s,
		    "INSERT INTO process (boot, pid, start_ns, comm, cmdline, uid, unit, exit_ns,"
		    " container_id, container_runtime, pod_uid, pod_namespace, pod_name,"
		    " container_name)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
		    " ON CONFLICT (boot, pid, start_ns) DO UPDATE SET"
		    "  comm = CASE WHEN excluded.comm = '?' THEN comm ELSE excluded.comm END,"
		    "  cmdline = coalesce(excluded.cmdline, cmdline),"
		    "  uid = coalesce(excluded.uid, uid),"
		    "  unit = coalesce(excluded.unit, unit),"
		    "  container_id = coalesce(excluded.container_id, container_id),"
		    "  container_runtime = coalesce(excluded.container_runtime, container_runtime),"
		    "  pod_uid = coalesce(excluded.pod_uid, pod_uid),"
		    "  pod_namespace = coalesce(excluded.pod_namespace, pod_namespace),"
		    "  pod_name = coalesce(excluded.pod_name, pod_name),"
		    "  container_name = coalesce(excluded.container_name, container_name),"
		    "  exit_ns = coalesce(excluded.exit_ns, exit_ns)"
		    " RETURNING id", &s->ins_process, err, errlen);
	if (r < 0)
		return r;
	/* insert_interval() binds in this order: the six, then the health fields */
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
	if (sample_sql(sample, sizeof(sample)) < 0)
		return store_fail(NULL, SQLITE_TOOBIG, "cannot prepare a statement", err, errlen);
	return prepare(s, sample, &s->ins_sample, err, errlen);
}

void store_finalize_writes(struct store *s)
{
	sqlite3_finalize(s->ins_process);
	sqlite3_finalize(s->ins_interval);
	sqlite3_finalize(s->ins_group_time);
	sqlite3_finalize(s->ins_sample);
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

/* The stored id of model m's group family with events columns, in *ret
 * (-1 when there is none: an error). */
static int find_group(struct store *s, const struct model *m, const char *family,
		      const char *columns, int64_t *ret)
{
	sqlite3_stmt *q;
	int rc;

	rc = sqlite3_prepare_v2(s->db,
				"SELECT id FROM counter_group WHERE model = ?1 AND"
				" formula_version = ?2 AND name = ?3 AND events = ?4",
				-1, &q, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(q, 1, m->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 2, (int)m->formula_version);
	sqlite3_bind_text(q, 3, family, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, columns, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	*ret = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
	sqlite3_finalize(q);
	return *ret < 0 ? SQLITE_ERROR : SQLITE_OK;
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

	r = store_exec(s->db, "BEGIN IMMEDIATE", "cannot start a transaction", err, errlen);
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
		if (rc == SQLITE_OK)
			rc = find_group(s, m, family, columns, &s->group_id[g]);
		if (rc != SQLITE_OK)
			goto fail;
	}
	sqlite3_finalize(st);
	st = NULL;
	s->n_groups = s->plan.n_groups;
	s->model = m;
	return store_exec(s->db, "COMMIT", "cannot commit", err, errlen);
fail:
	sqlite3_finalize(st);
	r = store_fail(s->db, rc == SQLITE_OK ? SQLITE_ERROR : rc, "cannot register the model",
		       err, errlen);
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

static void bind_int64_or_null(sqlite3_stmt *st, int i, int64_t v, bool null)
{
	if (!null)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* The interval's own row; its id in *ret_id. */
static int insert_interval(struct store *s, const struct interval_data *iv, int64_t *ret_id)
{
	sqlite3_stmt *st = s->ins_interval;
	int rc, col;

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
	if (rc == SQLITE_OK)
		*ret_id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

/* How long each planned group counted in the interval. */
static int insert_group_times(struct store *s, const struct interval_data *iv,
			      int64_t interval_id)
{
	sqlite3_stmt *st = s->ins_group_time;
	size_t i;

	for (i = 0; i < iv->n_groups && i < s->n_groups; i++) {
		int rc;

		sqlite3_bind_int64(st, 1, interval_id);
		sqlite3_bind_int64(st, 2, s->group_id[i]);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)iv->enabled_ns[i]);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)iv->unschedulable[i]);
		rc = step_done(st);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* A process's container into ?9 .. ?14; what is not known stays NULL. */
static void bind_container(sqlite3_stmt *st, const struct container *c)
{
	if (c == NULL)
		return;
	bind_text_or_null(st, 9, c->id[0] ? c->id : NULL);
	bind_text_or_null(st, 10, c->runtime[0] ? c->runtime : NULL);
	bind_text_or_null(st, 11, c->pod_uid[0] ? c->pod_uid : NULL);
	bind_text_or_null(st, 12, c->namespace_[0] ? c->namespace_ : NULL);
	bind_text_or_null(st, 13, c->pod[0] ? c->pod : NULL);
	bind_text_or_null(st, 14, c->name[0] ? c->name : NULL);
}

/* The interval's processes, new or known (what is new of them kept):
 * proc_ids[i] the stored id of iv->procs[i]. */
static int upsert_processes(struct store *s, const struct interval_data *iv, int64_t *proc_ids)
{
	sqlite3_stmt *st = s->ins_process;
	size_t i;

	for (i = 0; i < iv->n_procs; i++) {
		const struct iv_proc *p = &iv->procs[i];
		int rc;

		sqlite3_bind_int64(st, 1, s->boot);
		sqlite3_bind_int(st, 2, p->pid);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)p->start_ns);
		sqlite3_bind_text(st, 4, p->comm, -1, SQLITE_STATIC);
		bind_text_or_null(st, 5, p->cmdline);
		bind_int64_or_null(st, 6, p->uid, p->uid < 0);
		bind_text_or_null(st, 7, p->unit);
		bind_int64_or_null(st, 8, (sqlite3_int64)p->exit_ns, p->exit_ns == 0);
		bind_container(st, p->container);
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
	return SQLITE_OK;
}

/* The interval's rows: a group's values past its events are NULL. */
static int insert_samples(struct store *s, const struct interval_data *iv, int64_t interval_id,
			  const int64_t *proc_ids)
{
	sqlite3_stmt *st = s->ins_sample;
	size_t i;

	for (i = 0; i < iv->n_rows; i++) {
		const struct iv_row *row = &iv->rows[i];
		unsigned k, n_events;
		int rc;

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
				sqlite3_bind_int64(st, SAMPLE_FIRST_VALUE + (int)k,
						   (sqlite3_int64)row->v[k]);
			else
				sqlite3_bind_null(st, SAMPLE_FIRST_VALUE + (int)k);
		}
		sqlite3_bind_int64(st, SAMPLE_PERIODIC, (sqlite3_int64)row->periodic_ns);
		rc = step_done(st);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

static int write_one(struct store *s, const struct interval_data *iv, int64_t *proc_ids)
{
	int64_t interval_id = 0;
	int rc;

	rc = insert_interval(s, iv, &interval_id);
	if (rc == SQLITE_OK)
		rc = insert_group_times(s, iv, interval_id);
	if (rc == SQLITE_OK)
		rc = upsert_processes(s, iv, proc_ids);
	if (rc == SQLITE_OK)
		rc = insert_samples(s, iv, interval_id, proc_ids);
	return rc;
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
	r = store_exec(s->db, "BEGIN IMMEDIATE", "cannot start a transaction", err, errlen);
	if (r < 0) {
		free(proc_ids);
		return r;
	}
	for (it = iv; it != NULL; it = it->next) {
		int rc = write_one(s, it, proc_ids);

		if (rc != SQLITE_OK) {
			r = store_fail(s->db, rc, "cannot write an interval", err, errlen);
			(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			free(proc_ids);
			return r;
		}
	}
	free(proc_ids);
	r = store_exec(s->db, "COMMIT", "cannot commit an interval", err, errlen);
	if (r < 0)
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return r;
}

int store_has_interval(struct store *s, const char *boot_id, uint64_t start_ns,
		       uint64_t end_ns)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(s->db, "SELECT 1 FROM interval JOIN boot ON boot.id = interval.boot"
				" WHERE boot.boot_id = ?1 AND rollup_s = 0 AND start_ns = ?2"
				" AND end_ns = ?3", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return store_errno(rc);
	sqlite3_bind_text(st, 1, boot_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)start_ns);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)end_ns);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : store_errno(rc);
}

int store_set_meta(struct store *s, const char *const *kv, size_t n_pairs,
		   char *err, size_t errlen)
{
	sqlite3_stmt *st;
	size_t i;
	int rc, r;

	r = store_exec(s->db, "BEGIN IMMEDIATE", "cannot start a transaction", err, errlen);
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
		r = store_fail(s->db, rc, "cannot write meta", err, errlen);
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return r;
	}
	return store_exec(s->db, "COMMIT", "cannot commit meta", err, errlen);
}
