/* /api/v1/series buckets start on multiples of step since the epoch
 * (docs/api.md), not on the newest interval's end: intervals that end at
 * .37 s, asked for the last 10 s at a 2 s step before and after one more
 * interval arrives, give bucket times that are whole multiples of 2 s and
 * that the second answer shares - what a client joining several series on
 * t_ns needs (the dashboard's charts were blank when the newest interval
 * moved between its requests). */
#include "daemon/attribute/interval.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/pids.h"
#include "daemon/store/store.h"
#include "test.h"
#include "test_db.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define T0 2000000ULL
#define OFF (370 * SEC / 1000)   /* the intervals' ends: .37 s past a second */
#define STEP (2 * SEC)

/* Interval k of 1 s on 1 CPU, ending at T0 + k + 1.37 s: one process. */
static struct interval_data *make_interval(unsigned k)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));

	CHECK(iv != NULL);
	iv->start_ns = (T0 + k) * SEC + OFF;
	iv->end_ns = iv->start_ns + SEC;
	iv->ncpus = 1;
	iv->n_groups = 1;
	iv->enabled_ns[0] = SEC;
	iv->procs = calloc(1, sizeof(*iv->procs));
	iv->rows = calloc(1, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	iv->procs[0] = (struct iv_proc){ .pid = 42, .uid = 0, .start_ns = 5 * SEC };
	snprintf(iv->procs[0].comm, sizeof(iv->procs[0].comm), "web");
	iv->rows[0] = (struct iv_row){ .proc = 0, .group = 0, .task_clock_ns = SEC / 2,
				       .context_switches = 1 };
	iv->n_procs = iv->n_rows = 1;
	return iv;
}

/* Intervals from .. to - 1 into the database at path. */
static void write_intervals(const char *path, unsigned from, unsigned to)
{
	struct store *s = NULL;
	char err[1024];
	unsigned k;

	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-g", 1, err, sizeof(err)) == 0);
	for (k = from; k < to; k++) {
		struct interval_data *iv = make_interval(k);

		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	store_close(s);
}

/* The last 10 s of host CPU at a 2 s step: its bucket times into t. */
static size_t ask(const char *path, uint64_t *t, size_t max)
{
	struct api_info info = { .database = "test", .model = &model_software };
	struct api_access acc = { .full = true, .uid = 0 };
	struct api_response resp;
	struct db *db = NULL;
	json_t *a, *p;
	char err[1024];
	size_t i, n;

	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(api_handle(&info, db, NULL, "GET", "/api/v1/series",
			 "who=host&metric=cpu_percent&from=10s&step=2s", &acc, &resp) == 0);
	CHECK(resp.status == 200);
	a = json_loads(resp.body, 0, NULL);
	CHECK(a != NULL);
	free(resp.body);
	db_close(db);
	CHECK((uint64_t)json_integer_value(json_object_get(a, "from_ns")) % STEP == 0);
	n = json_array_size(json_object_get(a, "points"));
	CHECK(n >= 5 && n <= max);
	json_array_foreach(json_object_get(a, "points"), i, p) {
		t[i] = (uint64_t)json_integer_value(json_object_get(p, "t_ns"));
		if (t[i] % STEP != 0)
			fprintf(stderr, "bucket at %llu ns: not a multiple of the 2 s step\n",
				(unsigned long long)t[i]);
		CHECK(t[i] % STEP == 0);
		/* half a CPU in every interval: the whole buckets say 50% */
		if (i > 0 && i + 1 < n)
			CHECK(fabs(json_number_value(json_object_get(p, "value")) - 50) < 1e-6);
	}
	json_decref(a);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-grid.XXXXXX", path[64], cmd[128];
	uint64_t t1[16], t2[16];
	size_t n1, n2, i, j;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/grid.db", dir);
	write_intervals(path, 0, 20);
	n1 = ask(path, t1, 16);
	/* one more interval: the newest end moves by 1 s, half a step */
	write_intervals(path, 20, 21);
	n2 = ask(path, t2, 16);
	/* every bucket of the first answer but its oldest (the window moved
	 * past it) is in the second, at the same time */
	for (i = 1; i < n1; i++) {
		for (j = 0; j < n2 && t2[j] != t1[i]; j++)
			;
		if (j == n2)
			fprintf(stderr, "bucket %llu of the first answer is not in the second\n",
				(unsigned long long)t1[i]);
		CHECK(j < n2);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
