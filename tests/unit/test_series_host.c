/* who=host in /api/v1/series: every process but [idle] - the host's busy
 * CPU, [unattributed] and [excluded] included - summed per bucket by the
 * same query as pid:/comm:/unit:; a user without full access gets their
 * own processes only; the parser takes exactly "host"; and a gap is one
 * missing bucket of short intervals, never the buckets long intervals
 * leave empty. */
#include "daemon/attribute/interval.h"
#include "lib/api_out.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/pids.h"
#include "lib/query.h"
#include "daemon/store/store.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define T0 2000000ULL
#define N_INTERVALS 10
#define N_ROWS 5

/* Interval k of 1 s on 2 CPUs: idle, a process, [unattributed], [excluded]. */
static struct interval_data *make_interval(unsigned k)
{
	static const struct { int32_t pid; const char *comm; uint64_t tc; } rows[] = {
		{ PID_IDLE, PID_IDLE_COMM, 900000000 },
		{ 42, "web", 700000000 },
		{ 43, "batch", 200000000 },   /* uid 1000's */
		{ PID_UNATTRIBUTED, PID_UNATTRIBUTED_COMM, 300000000 },
		{ PID_EXCLUDED, PID_EXCLUDED_COMM, 100000000 },
	};
	struct interval_data *iv = calloc(1, sizeof(*iv));
	unsigned i;

	CHECK(iv != NULL);
	iv->start_ns = (T0 + k) * SEC;
	iv->end_ns = (T0 + k + 1) * SEC;
	iv->ncpus = 2;
	iv->n_groups = 1;
	iv->enabled_ns[0] = 2 * SEC;
	iv->procs = calloc(N_ROWS, sizeof(*iv->procs));
	iv->rows = calloc(N_ROWS, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	for (i = 0; i < N_ROWS; i++) {
		iv->procs[i] = (struct iv_proc){ .pid = rows[i].pid,
						 .uid = rows[i].pid == 43 ? 1000 : rows[i].pid > 0 ? 0 : -1,
						 .start_ns = rows[i].pid > 0 ? 5 * SEC : 0 };
		snprintf(iv->procs[i].comm, sizeof(iv->procs[i].comm), "%s", rows[i].comm);
		iv->rows[i] = (struct iv_row){ .proc = i, .group = 0, .task_clock_ns = rows[i].tc,
					       .context_switches = 1 };
	}
	iv->n_procs = iv->n_rows = N_ROWS;
	return iv;
}

/* series_gap_before on hand-made buckets. */
static void test_gaps(void)
{
	struct series_bucket g[4];

	memset(g, 0, sizeof(g));
	/* 1 s intervals at a 2 s step: buckets at 0, 2, 4, then 8 (one missing) */
	g[0].start_ns = 0;
	g[1].start_ns = 2 * SEC;
	g[2].start_ns = 4 * SEC;
	g[3].start_ns = 8 * SEC;
	g[0].longest_interval_ns = g[1].longest_interval_ns = SEC;
	g[2].longest_interval_ns = g[3].longest_interval_ns = SEC;
	CHECK(!series_gap_before(g, 0, 2 * SEC));
	CHECK(!series_gap_before(g, 1, 2 * SEC));
	CHECK(!series_gap_before(g, 2, 2 * SEC));
	CHECK(series_gap_before(g, 3, 2 * SEC));
	/* the same buckets summing several 1 s intervals each: still a gap
	 * (what counts is one interval's length, not the bucket's sum) */
	g[3].span_ns = 3 * SEC;
	CHECK(series_gap_before(g, 3, 2 * SEC));
	/* 10 s intervals at a 2 s step: every fifth bucket has data, no gap */
	g[1].start_ns = 10 * SEC;
	g[1].longest_interval_ns = 10 * SEC;
	CHECK(!series_gap_before(g, 1, 2 * SEC));
	/* ...but 30 s without one is */
	g[1].start_ns = 30 * SEC;
	CHECK(series_gap_before(g, 1, 2 * SEC));
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-host.XXXXXX", path[64], cmd[128], err[1024];
	struct series_bucket b[N_INTERVALS + 1];
	const struct model *m = NULL;
	enum query_who who = WHO_PID;
	const char *what = NULL;
	struct store *s = NULL;
	struct db *db = NULL;
	unsigned k;
	int n, i;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/host.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-h", 1, err, sizeof(err)) == 0);
	for (k = 0; k < N_INTERVALS; k++) {
		struct interval_data *iv = make_interval(k);

		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	store_close(s);

	CHECK(api_parse_who("host", &who, &what, err, sizeof(err)) == 0);
	CHECK(who == WHO_HOST);
	CHECK_STR(api_who_key(who), "host");
	CHECK(api_parse_who("host:x", &who, &what, err, sizeof(err)) < 0);
	CHECK(strstr(err, "or host") != NULL);

	/* one 1 s bucket per interval: 0.7 + 0.2 + 0.3 + 0.1 CPU-s busy, never idle's 0.9 */
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	n = query_series(db, WHO_HOST, NULL, -1, T0 * SEC, (T0 + N_INTERVALS) * SEC, SEC, b,
			 N_INTERVALS + 1, &m, err, sizeof(err));
	CHECK_EQ_U(n, N_INTERVALS);
	for (i = 0; i < n; i++) {
		CHECK_EQ_U(b[i].task_clock_ns, 1300000000);
		CHECK_EQ_U(b[i].span_ns, SEC);
	}
	/* a user without full access: the host is their own processes */
	n = query_series(db, WHO_HOST, NULL, 0, T0 * SEC, (T0 + N_INTERVALS) * SEC, SEC, b,
			 N_INTERVALS + 1, &m, err, sizeof(err));
	CHECK_EQ_U(n, N_INTERVALS);
	CHECK_EQ_U(b[0].task_clock_ns, 700000000);   /* uid 0's web, not batch */
	n = query_series(db, WHO_HOST, NULL, 1000, T0 * SEC, (T0 + N_INTERVALS) * SEC, SEC, b,
			 N_INTERVALS + 1, &m, err, sizeof(err));
	CHECK_EQ_U(n, N_INTERVALS);
	CHECK_EQ_U(b[0].task_clock_ns, 200000000);   /* uid 1000's batch only */
	db_close(db);
	test_gaps();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
