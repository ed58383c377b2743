/*
 * What the API refuses, and how, on a software-model store: a metric or
 * sort column only other models compute is 404 (the data cannot answer;
 * stackctl exits 1), a name no model knows is 400 (a wrong request; exit
 * 2); a window may reach back 3650 days (the rollups hold old data), not
 * one day more.
 */
#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "lib/api.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/model/model.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)

/* Interval k of a process "web" on the software model's first group. */
static struct interval_data *make_interval(unsigned k)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));

	CHECK(iv != NULL);
	iv->start_ns = (1000000 + 10 * (uint64_t)k) * SEC;
	iv->end_ns = iv->start_ns + 10 * SEC;
	iv->ncpus = 2;
	iv->n_groups = 2;
	iv->enabled_ns[0] = iv->enabled_ns[1] = 10 * SEC;
	iv->procs = calloc(1, sizeof(*iv->procs));
	iv->rows = calloc(1, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	iv->procs[0] = (struct iv_proc){ .pid = 100, .start_ns = 5 * SEC, .comm = "web", .uid = 0 };
	iv->n_procs = 1;
	iv->rows[0] = (struct iv_row){ .proc = 0, .group = 0, .task_clock_ns = 1000 + k,
				       .context_switches = 1, .v = { k } };
	iv->n_rows = 1;
	return iv;
}

/* GET path?query: its status, and the body holds want (when not NULL). */
static void expect(struct db *db, const char *path, const char *query, int status,
		   const char *want)
{
	struct api_info info = { .database = "test", .model = &model_software };
	struct api_access acc = { .full = true, .uid = 0 };
	struct api_response resp;

	CHECK(api_handle(&info, db, NULL, "GET", path, query, &acc, &resp) == 0);
	if (resp.status != status || (want != NULL && strstr(resp.body, want) == NULL)) {
		fprintf(stderr, "%s?%s: %d %s (want %d, '%s')\n", path, query, resp.status,
			resp.body, status, want ? want : "");
		CHECK(0);
	}
	free(resp.body);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-limits.XXXXXX", path[256], err[1024], cmd[300];
	struct store *s = NULL;
	struct db *db = NULL;
	unsigned k;

	/* which model computes a metric, if any */
	CHECK(strcmp(model_with_metric("backend_bound")->name, "skl") == 0);
	CHECK(strcmp(model_with_metric("page_faults_per_cpu_s")->name, "software") == 0);
	/* perf's own metric names are known too (model_perf.h) */
	CHECK(model_with_metric("tma_frontend_bound") != NULL);
	CHECK(model_with_metric("nope") == NULL);

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/limits.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-l", 1, err, sizeof(err)) == 0);
	for (k = 0; k < 6; k++) {
		struct interval_data *iv = make_interval(k);

		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	store_close(s);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);

	expect(db, "/api/v1/top", "window=30d", 200, "\"web\"");
	expect(db, "/api/v1/top", "window=3650d", 200, "\"web\"");
	expect(db, "/api/v1/top", "window=3651d", 400, "longer than the limit, 3650d");
	expect(db, "/api/v1/top", "sort=backend", 404,
	       "needs backend_bound, which the software model does not compute (skl does)");
	expect(db, "/api/v1/top", "sort=gflops", 404, "needs gflops");
	expect(db, "/api/v1/top", "sort=nope", 400, "unknown column 'nope'");
	expect(db, "/api/v1/top", "sort=page_faults_per_cpu_s", 200, "\"web\"");

	expect(db, "/api/v1/series", "who=comm:web&metric=frontend_bound", 404,
	       "the software model does not compute frontend_bound (skl does)");
	/* the data's model answers for a target with no data too */
	expect(db, "/api/v1/series", "who=comm:nosuch&metric=ipc", 404, "does not compute ipc");
	expect(db, "/api/v1/series", "who=comm:web&metric=nope", 400, "unknown metric 'nope'");
	expect(db, "/api/v1/series", "who=comm:web&metric=switches_per_cpu_s&from=30d&step=1d",
	       200, "\"points\"");
	/* the points limit stays the API's: stackctl history picks a coarser step */
	expect(db, "/api/v1/series", "who=comm:web&metric=cpu_percent&from=1h&step=1s", 400,
	       "3600 points would exceed the limit of 2000");

	db_close(db);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
