/*
 * test_cpifit_store.c - the regression CPI stack fit through the store and
 * the readers: a Zen 3 host's intervals made from known penalties, fitted
 * as the daemon does (store_cpifit), stored, pruned to the newest, read
 * back (query_cpi_fit), and applied by the API's show answer: every
 * process's stack with its residual and the fit's label.  Before enough
 * intervals, the attempt is stored with its reason, and readers say it.
 */
#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "lib/api.h"
#include "lib/model/cpi_fit.h"
#include "test_db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC 1000000000ULL
#define T0_S 1700000000ULL
#define N_PROCS 8

static const double truth[CPI_WEIGHTS] = { 0.4, 15.0, 8.0, 30.0, 25.0, 20.0, 150.0 };

/* cpi_a: cycles instructions br_misp ic_refill_l2 ic_refill_mem; cpi_b:
 * cycles instructions itlb dtlb dc_refill_mem.  Each group counts half of
 * the process's instructions, its cycles at the process's CPI. */
static void fill_rows(struct interval_data *iv, unsigned k, unsigned *seed)
{
	double rate[CPI_REGRESSORS], cpi = truth[0], ins = 1e8 * (1 + k);
	unsigned j, g;

	for (j = 0; j < CPI_REGRESSORS; j++) {
		rate[j] = 0.004 * (double)(rand_r(seed) % 1000) / 1000.0;
		cpi += truth[j + 1] * rate[j];
	}
	cpi *= 1.0 + 0.01 * ((double)(rand_r(seed) % 2001) / 1000.0 - 1.0);
	for (g = 0; g < 2; g++) {
		struct iv_row *r = &iv->rows[iv->n_rows++];

		*r = (struct iv_row){ .proc = k, .group = (uint16_t)g, .task_clock_ns = SEC / 4,
				      .context_switches = 10 };
		r->v[0] = (uint64_t)(cpi * ins / 2);
		r->v[1] = (uint64_t)(ins / 2);
		for (j = 0; j < 3; j++)
			r->v[2 + j] = (uint64_t)(rate[3 * g + j] * ins / 2);
	}
}

static struct interval_data *make_interval(unsigned i, unsigned *seed)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));
	unsigned k;

	CHECK(iv != NULL);
	iv->start_ns = (T0_S + i) * SEC;
	iv->end_ns = (T0_S + i + 1) * SEC;
	iv->ncpus = 4;
	iv->n_groups = model_zen3.n_groups;
	iv->enabled_ns[0] = iv->enabled_ns[1] = 2 * SEC;
	iv->st.busiest_cpu = -1;
	iv->procs = calloc(N_PROCS, sizeof(*iv->procs));
	iv->rows = calloc(2 * N_PROCS, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	for (k = 0; k < N_PROCS; k++) {
		iv->procs[k] = (struct iv_proc){ .pid = (int32_t)(100 + k), .start_ns = 5 * SEC,
						 .uid = 0 };
		snprintf(iv->procs[k].comm, sizeof(iv->procs[k].comm), "p%u", k);
		iv->n_procs++;
		fill_rows(iv, k, seed);
	}
	return iv;
}

static void write_intervals(struct store *s, unsigned from, unsigned to, unsigned *seed)
{
	char err[1024];
	unsigned i;

	for (i = from; i < to; i++) {
		struct interval_data *iv = make_interval(i, seed);

		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
}

static void expect_body(struct db *db, const char *path, const char *query, const char *want)
{
	api_expect(&model_zen3, db, path, query, want);
}

/* Before the fit (no attempt, then one with too few intervals) readers
 * say why there is no stack. */
static void check_no_fit(const char *path, const char *want)
{
	struct query_cpi_fit f;
	char err[1024];
	struct db *db;

	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_cpi_fit(db, &model_zen3, &f) == 0);
	CHECK(f.generic && !f.fitted);
	CHECK(strstr(f.reason, want) != NULL);
	expect_body(db, "/api/v1/processes/100", "window=60s", "\"fitted\": false");
	expect_body(db, "/api/v1/processes/100", "window=60s", want);
	db_close(db);
}

/* The newest fit, applied to one process: its stack adds up to its CPI. */
static void check_readers(const char *path, const double *stored)
{
	struct query_cpi_fit f;
	struct metric_value mv[MODEL_MAX_METRICS];
	struct model_context ctx = { false, NULL, 0, NULL };
	const struct window_proc *p;
	struct window w;
	char err[1024];
	struct db *db;
	double sum = 0;
	unsigned k;

	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_cpi_fit(db, &model_zen3, &f) == 0);
	CHECK(f.fitted);
	for (k = 0; k < CPI_WEIGHTS; k++)
		CHECK(f.weights[k] == stored[k]);
	CHECK(query_window(db, 60 * SEC, &w, err, sizeof(err)) == 0);
	CHECK(w.cpi_fit.fitted);
	p = find(&w, 103);
	CHECK(p != NULL);
	ctx.cpi_weights = w.cpi_fit.weights;
	memset(mv, 0, sizeof(mv));
	model_zen3.compute(&model_zen3, p->sums, &ctx, mv);
	for (k = 0; k < model_zen3.n_metrics; k++)
		if (model_zen3.metrics[k].stack != NULL &&
		    strcmp(model_zen3.metrics[k].stack, "cpi") == 0 && mv[k].valid)
			sum += mv[k].value;
	CHECK(mv[model_metric_index(&model_zen3, "cpi_residual")].valid);
	CHECK(fabs(sum - mv[model_metric_index(&model_zen3, "cpi")].value) < 1e-9);
	/* the process's own CPI over 60 s is the model's within the noise */
	CHECK(fabs(mv[model_metric_index(&model_zen3, "cpi_residual")].value) <
	      0.02 * mv[model_metric_index(&model_zen3, "cpi")].value);
	window_done(&w);
	expect_body(db, "/api/v1/processes/103", "window=60s", "\"name\": \"cpi_residual\"");
	expect_body(db, "/api/v1/processes/103", "window=60s", "\"label\": \"regression estimate\"");
	expect_body(db, "/api/v1/processes/103", "window=60s", "\"held_out_error\": ");
	expect_body(db, "/api/v1/top", "", "\"cpi_fit\": ");
	expect_body(db, "/api/v1/series", "who=pid:103&metric=cpi_l1d_mem", "\"fitted\": true");
	db_close(db);
}

static void weights_of(const char *path, double *w)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	unsigned k;

	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, "SELECT w0, w1, w2, w3, w4, w5, w6 FROM cpi_fit WHERE error"
				 " IS NULL ORDER BY created_ns DESC LIMIT 1", -1, &st, NULL) ==
	      SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	for (k = 0; k < CPI_WEIGHTS; k++)
		w[k] = sqlite3_column_double(st, (int)k);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-cpifit.XXXXXX", path[256], err[1024], cmd[300];
	struct store_cpifit_result res;
	double stored[CPI_WEIGHTS];
	struct store *s = NULL;
	unsigned seed = 42, k;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/zen3.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_zen3, NULL, "boot-z", 1, err, sizeof(err)) == 0);
	write_intervals(s, 0, 3, &seed);
	store_close(s);
	check_no_fit(path, "no regression fit yet: stackd fits");

	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_zen3, NULL, "boot-z", 1, err, sizeof(err)) == 0);
	CHECK(store_cpifit(s, (T0_S + 3) * SEC, 3600 * SEC, &res, err, sizeof(err)) == 1);
	CHECK(!res.fitted);
	CHECK(strstr(res.error, "needs 35 process-intervals of amd64_fam19h_zen3") != NULL);
	CHECK(strstr(res.error, "have 24 (of 24)") != NULL);
	store_close(s);
	check_no_fit(path, "no regression fit yet: needs 35 process-intervals");

	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_zen3, NULL, "boot-z", 1, err, sizeof(err)) == 0);
	write_intervals(s, 3, 200, &seed);
	CHECK(store_cpifit(s, (T0_S + 200) * SEC, 3600 * SEC, &res, err, sizeof(err)) == 1);
	CHECK(res.fitted);
	CHECK_EQ_U(res.rows, 200 * N_PROCS);
	CHECK(res.r2 > 0.9 && res.held_error < 0.01);
	fprintf(stderr, "fit of %zu rows: %.2f ms of CPU\n", res.rows,
		(double)res.cost_ns / 1e6);
	/* a failed attempt after a fit: readers keep the fit */
	CHECK(store_cpifit(s, (T0_S + 201) * SEC, 1 * SEC / 2, &res, err, sizeof(err)) == 1);
	CHECK(!res.fitted);
	store_close(s);
	weights_of(path, stored);
	for (k = 0; k < CPI_WEIGHTS; k++)
		CHECK(fabs(stored[k] - truth[k]) < 0.1 * truth[k]);
	check_readers(path, stored);

	/* only the newest STORE_CPIFIT_KEEP fits stay... */
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_zen3, NULL, "boot-z", 1, err, sizeof(err)) == 0);
	for (k = 0; k < STORE_CPIFIT_KEEP + 2; k++)
		CHECK(store_cpifit(s, (T0_S + 300 + k) * SEC, 3600 * SEC, &res, err,
				   sizeof(err)) == 1);
	/* ...and failed attempts, however many, never push out the fits */
	for (k = 0; k < STORE_CPIFIT_KEEP + 2; k++) {
		CHECK(store_cpifit(s, (T0_S + 400 + k) * SEC, 1 * SEC / 2, &res, err,
				   sizeof(err)) == 1);
		CHECK(!res.fitted);
	}
	store_close(s);
	CHECK(scalar(path, "SELECT count(*) FROM cpi_fit WHERE error IS NULL") == STORE_CPIFIT_KEEP);
	CHECK(scalar(path, "SELECT min(created_ns) FROM cpi_fit WHERE error IS NULL") ==
	      (int64_t)((T0_S + 302) * SEC));
	CHECK(scalar(path, "SELECT count(*) FROM cpi_fit WHERE error IS NOT NULL") ==
	      STORE_CPIFIT_KEEP_FAILED);
	check_readers(path, stored);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
