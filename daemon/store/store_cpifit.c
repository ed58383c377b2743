/*
 * store_cpifit.c - the host's regression CPI stack fit, made from the
 * stored intervals and stored beside them (schema/007-cpi-fit.sql).
 *
 * Per process-interval of the current model's raw intervals in the
 * training window, one regression row (model_generic_cpi_row) weighted by
 * its cycles (a busy process counts for more than one that ran a moment,
 * whose rates are noise) and keyed by its process (each has its own base
 * CPI in the fit).  The fit itself is lib/model/cpi_fit.c.  Every
 * attempt leaves a row, a failed one with the reason, so readers can say
 * why there is no stack instead of showing none.
 */
#include "daemon/store/store_private.h"
#include "lib/db.h"
#include "lib/db_columns.h"
#include "lib/group_parts.h"
#include "lib/model/cpi_fit.h"
#include "lib/model/model_generic.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The newest rows read when the window holds more: 4 MB of rows, about
 * 160 ms of CPU (reading them is nearly all of it). */
#define CPIFIT_MAX_ROWS 50000
/* ...and the newest sample rows read: on a host of many short-lived
 * processes most process-intervals are too small to use, and reading
 * them is the cost. */
#define CPIFIT_MAX_SAMPLES (4 * CPIFIT_MAX_ROWS)

/* What the window gave: the rows, and why the others were not used. */
struct training {
	double *a, *b, *wt;
	int64_t *group;   /* the process (table process's id) of each row */
	size_t n, seen, few_instructions, no_base;
	size_t lacks[CPI_REGRESSORS];
};

static int training_alloc(struct training *t)
{
	memset(t, 0, sizeof(*t));
	t->a = malloc(CPIFIT_MAX_ROWS * CPI_WEIGHTS * sizeof(*t->a));
	t->b = malloc(CPIFIT_MAX_ROWS * sizeof(*t->b));
	t->wt = malloc(CPIFIT_MAX_ROWS * sizeof(*t->wt));
	t->group = malloc(CPIFIT_MAX_ROWS * sizeof(*t->group));
	return t->a != NULL && t->b != NULL && t->wt != NULL && t->group != NULL ? 0 : -ENOMEM;
}

static void training_free(struct training *t)
{
	free(t->a);
	free(t->b);
	free(t->wt);
	free(t->group);
}

/* One process-interval's families into a row, or counted as unusable. */
static void add_row(const struct model *m, const struct group_map *map,
		    struct group_sums *sums, struct part_sums **parts, int64_t process,
		    struct training *t)
{
	double cpi, cyc, ins;
	int r;

	group_parts_combine(map, m, sums, parts);
	t->seen++;
	r = model_generic_cpi_row(m, sums, &t->a[t->n * CPI_WEIGHTS], &cpi, &cyc, &ins);
	if (r < 0)
		t->no_base++;
	else if (r > 0)
		t->lacks[r - 1]++;
	else if (ins < CPI_FIT_MIN_INSTRUCTIONS)
		t->few_instructions++;
	else {
		t->b[t->n] = cpi;
		t->group[t->n] = process;
		t->wt[t->n++] = cyc;
	}
	memset(sums, 0, MODEL_MAX_GROUPS * sizeof(*sums));
}

static int map_groups(struct store *s, struct group_map *map)
{
	sqlite3_stmt *st;
	int rc;

	memset(map, 0, sizeof(*map));
	rc = sqlite3_prepare_v2(s->db, "SELECT id, model, formula_version, name, events"
				" FROM counter_group ORDER BY id", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	while (sqlite3_step(st) == SQLITE_ROW)
		group_map_add(map, s->model, sqlite3_column_int64(st, 0),
			      (const char *)sqlite3_column_text(st, 1),
			      (unsigned)sqlite3_column_int(st, 2),
			      (const char *)sqlite3_column_text(st, 3),
			      (const char *)sqlite3_column_text(st, 4));
	return sqlite3_finalize(st);
}

/* The real processes' samples of the model's raw intervals ending in
 * (lo, hi], newest first, one row per (interval, process). */
static int read_training(struct store *s, const struct group_map *map, int64_t lo, int64_t hi,
			 struct training *t)
{
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct part_sums *parts = NULL;
	int64_t cur_iv = -1, cur_proc = -1;
	size_t samples = 0;
	sqlite3_stmt *st;
	char values[DB_VALUE_LIST_MAX], sql[2048];
	int rc, n;

	if (db_value_list(values, sizeof(values), "s.@", 0) < 0)
		return SQLITE_TOOBIG;
	n = snprintf(sql, sizeof(sql),
		"SELECT s.interval_id, s.process_id, s.group_id, s.task_clock_ns,"
		" s.context_switches, %s"
		" FROM interval AS i CROSS JOIN sample AS s ON s.interval_id = i.id"
		" JOIN process AS p ON p.id = s.process_id"
		" WHERE i.rollup_s = 0 AND i.end_ns > ?1 AND i.end_ns <= ?2 AND i.model = ?3"
		" AND p.pid > 0 ORDER BY i.end_ns DESC, s.interval_id, s.process_id", values);
	if (n < 0 || (size_t)n >= sizeof(sql))
		return SQLITE_TOOBIG;
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	sqlite3_bind_text(st, 3, s->model->name, -1, SQLITE_STATIC);
	memset(sums, 0, sizeof(sums));
	while (t->n < CPIFIT_MAX_ROWS && samples++ < CPIFIT_MAX_SAMPLES &&
	       (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct stored_group *sg = group_map_find(map, sqlite3_column_int64(st, 2));
		uint64_t v[MODEL_MAX_EVENTS] = { 0 };
		unsigned k;

		if (sg == NULL || sg->family < 0)
			continue;
		if (sqlite3_column_int64(st, 0) != cur_iv || sqlite3_column_int64(st, 1) != cur_proc) {
			if (cur_iv >= 0)
				add_row(s->model, map, sums, &parts, cur_proc, t);
			cur_iv = sqlite3_column_int64(st, 0);
			cur_proc = sqlite3_column_int64(st, 1);
		}
		for (k = 0; k < MODEL_MAX_EVENTS && k < STACKD_SAMPLE_VALUES; k++)
			v[k] = (uint64_t)sqlite3_column_int64(st, 5 + (int)k);
		if (group_parts_add(map, sg, sums, &parts, (uint64_t)sqlite3_column_int64(st, 3),
				    (uint64_t)sqlite3_column_int64(st, 4), v) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	if (cur_iv >= 0 && t->n < CPIFIT_MAX_ROWS && (rc == SQLITE_DONE || rc == SQLITE_ROW))
		add_row(s->model, map, sums, &parts, cur_proc, t);
	free(parts);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static void swap_rows(struct training *t, size_t i, size_t j)
{
	double row[CPI_WEIGHTS], x;
	int64_t g;

	memcpy(row, &t->a[i * CPI_WEIGHTS], sizeof(row));
	memcpy(&t->a[i * CPI_WEIGHTS], &t->a[j * CPI_WEIGHTS], sizeof(row));
	memcpy(&t->a[j * CPI_WEIGHTS], row, sizeof(row));
	x = t->b[i];
	t->b[i] = t->b[j];
	t->b[j] = x;
	x = t->wt[i];
	t->wt[i] = t->wt[j];
	t->wt[j] = x;
	g = t->group[i];
	t->group[i] = t->group[j];
	t->group[j] = g;
}

/* The rows in a fixed pseudo-random order (Fisher-Yates, a 64-bit LCG of
 * fixed seed: the same data gives the same fit), so that no order of the
 * query's leaks into the fit (whole processes are held out by their id,
 * cpi_fit_quality.c). */
static void shuffle(struct training *t)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = t->n; i > 1; i--) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		swap_rows(t, i - 1, (size_t)((x >> 33) % i));
	}
}

/* Why the window gave too few rows, for every reader to show. */
static void explain_too_few(const struct store *s, const struct training *t,
			    uint64_t window_ns, char *buf, size_t len)
{
	size_t used;
	unsigned k;

	used = (size_t)snprintf(buf, len, "needs %d process-intervals of %s with %.0f "
				"instructions or more and every miss event counted, over the last "
				"%.0f min; have %zu (of %zu", CPI_FIT_MIN_ROWS, s->model->name,
				CPI_FIT_MIN_INSTRUCTIONS, (double)window_ns / 60e9, t->n,
				t->seen);
	if (used < len && t->few_instructions > 0)
		used += (size_t)snprintf(buf + used, len - used, "; %zu with fewer instructions",
					 t->few_instructions);
	for (k = 0; k < CPI_REGRESSORS && used < len; k++)
		if (t->lacks[k] > 0)
			used += (size_t)snprintf(buf + used, len - used, "; %zu without %s",
						 t->lacks[k], model_generic_regressor(s->model, k));
	if (used < len)
		snprintf(buf + used, len - used, ")");
}

static void dropped_text(const struct store *s, const struct cpi_fit *f, char *buf, size_t len)
{
	size_t used = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < f->n_dropped && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", k ? "\n" : "",
					 model_generic_regressor(s->model, f->dropped[k].regressor),
					 f->dropped[k].reason);
}

static void bind_double(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* The attempt as a cpi_fit row (error NULL: fitted), and the oldest rows
 * beyond STORE_CPIFIT_KEEP removed. */
static int write_fit(struct store *s, const struct store_cpifit_result *res,
		     const struct cpi_fit *f, int64_t lo, int64_t hi, const char *error)
{
	char regressors[512] = "", dropped[CPI_REGRESSORS * (CPI_FIT_REASON_MAX + 64)];
	size_t used = 0;
	sqlite3_stmt *st;
	unsigned k;
	int rc;

	for (k = 0; k < CPI_REGRESSORS && used < sizeof(regressors); k++)
		used += (size_t)snprintf(regressors + used, sizeof(regressors) - used, "%s%s",
					 k ? "," : "", model_generic_regressor(s->model, k));
	dropped_text(s, f, dropped, sizeof(dropped));
	rc = sqlite3_prepare_v2(s->db, "INSERT INTO cpi_fit (model, formula_version, fit_version,"
				" created_ns, window_start_ns, window_end_ns, rows, train_rows,"
				" held_rows, r2, held_error, condition, regressors, w0, w1, w2, w3,"
				" w4, w5, w6, dropped, error, cost_ns, processes, held_processes,"
				" e0, e1, e2, e3, e4, e5, e6) VALUES (?1, ?2, ?3, ?4, ?5,"
				" ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,"
				" ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32)",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, s->model->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, (int)s->model->formula_version);
	sqlite3_bind_int(st, 3, CPI_FIT_VERSION);
	sqlite3_bind_int64(st, 4, (int64_t)res->created_ns);
	sqlite3_bind_int64(st, 5, lo);
	sqlite3_bind_int64(st, 6, hi);
	sqlite3_bind_int64(st, 7, (int64_t)f->q.rows);
	sqlite3_bind_int64(st, 8, (int64_t)f->q.train_rows);
	sqlite3_bind_int64(st, 9, (int64_t)f->q.held_rows);
	bind_double(st, 10, f->q.r2);
	bind_double(st, 11, f->q.held_error);
	bind_double(st, 12, f->condition);
	sqlite3_bind_text(st, 13, regressors, -1, SQLITE_STATIC);
	for (k = 0; k < CPI_WEIGHTS; k++)
		bind_double(st, 14 + (int)k, error == NULL ? f->weights[k] : NAN);
	sqlite3_bind_text(st, 21, dropped, -1, SQLITE_STATIC);
	if (error != NULL)
		sqlite3_bind_text(st, 22, error, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 23, (int64_t)res->cost_ns);
	sqlite3_bind_int64(st, 24, (int64_t)f->q.processes);
	sqlite3_bind_int64(st, 25, (int64_t)f->q.held_processes);
	for (k = 0; k < CPI_WEIGHTS; k++)
		bind_double(st, 26 + (int)k, error == NULL ? f->errors[k] : NAN);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc;
	/* Fits and failed attempts are kept apart: a night of "too few rows"
	 * (one every two minutes) must not push out the last good fit. */
	rc = sqlite3_prepare_v2(s->db, "DELETE FROM cpi_fit WHERE (error IS NULL AND id NOT IN"
				" (SELECT id FROM cpi_fit WHERE error IS NULL"
				" ORDER BY created_ns DESC, id DESC LIMIT ?1)) OR (error IS NOT NULL"
				" AND id NOT IN (SELECT id FROM cpi_fit WHERE error IS NOT NULL"
				" ORDER BY created_ns DESC, id DESC LIMIT ?2))", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int(st, 1, STORE_CPIFIT_KEEP);
	sqlite3_bind_int(st, 2, STORE_CPIFIT_KEEP_FAILED);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static const char *fit_error(int r, const struct training *t, const struct cpi_fit *f,
			     const struct store *s, uint64_t window_ns, char *buf, size_t len)
{
	if (r == 0)
		return NULL;
	if (r == -ERANGE)
		snprintf(buf, len, "%s, over the last %.0f min", f->why, (double)window_ns / 60e9);
	else if (r == -EINVAL)
		explain_too_few(s, t, window_ns, buf, len);
	else if (r == -EDOM)
		snprintf(buf, len, "the intervals' miss rates are degenerate (not finite, or "
			 "linearly dependent) over the last %.0f min", (double)window_ns / 60e9);
	else if (r == -ETIMEDOUT)
		snprintf(buf, len, "the fit did not converge");
	else
		snprintf(buf, len, "%s", strerror(-r));
	return buf;
}

int store_cpifit(struct store *s, uint64_t now_ns, uint64_t window_ns,
		 struct store_cpifit_result *res, char *err, size_t errlen)
{
	uint64_t t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	struct group_map *map = NULL;
	struct training t;
	struct cpi_fit f;
	const char *names[CPI_REGRESSORS], *why;
	int64_t hi, lo;
	unsigned k;
	int rc, r;

	memset(res, 0, sizeof(*res));
	if (s->model == NULL || !model_is_generic(s->model))
		return 0;
	if (store_query_int64(s->db, "SELECT coalesce(max(end_ns), 0) FROM interval"
			      " WHERE rollup_s = 0", &hi) < 0)
		return store_fail(s->db, SQLITE_ERROR, "cannot read intervals", err, errlen);
	lo = hi - (int64_t)window_ns;
	map = malloc(sizeof(*map));
	r = training_alloc(&t);
	if (map == NULL || r < 0) {
		rc = SQLITE_NOMEM;
		goto out;
	}
	rc = map_groups(s, map);
	if (rc == SQLITE_OK)
		rc = read_training(s, map, lo, hi, &t);
	if (rc != SQLITE_OK)
		goto out;
	for (k = 0; k < CPI_REGRESSORS; k++)
		names[k] = model_generic_regressor(s->model, k);
	shuffle(&t);
	r = cpi_fit_weighted(&(const struct cpi_fit_data){ t.a, t.b, t.wt, t.group, t.n },
			     names, &f);
	why = fit_error(r, &t, &f, s, window_ns, res->error, sizeof(res->error));
	res->fitted = why == NULL;
	res->rows = t.n;
	res->r2 = f.q.r2;
	res->held_error = f.q.held_error;
	res->n_dropped = f.n_dropped;
	res->created_ns = now_ns;
	res->cost_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	rc = write_fit(s, res, &f, lo, hi, why);
out:
	free(map);
	training_free(&t);
	if (rc != SQLITE_OK)
		return store_fail(s->db, rc, "cannot fit the regression CPI stack", err, errlen);
	return 1;
}
