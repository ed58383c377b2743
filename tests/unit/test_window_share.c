/* daemon/serve/window_share.c: requests for one window length share one
 * computation.  Eight requests arriving together while the window is being
 * summed wait for that one sum instead of making eight (issue 34: under
 * load every distinct /top URL summed the same window again, and the two
 * CPUs queued them into a 1.13 s tail); a window stays lent until the
 * store's next interval; a failed sum is the answer of every request that
 * waited for it, and retried by the next one; a window nobody asks for is
 * freed at a stored interval; and
 * /top and /processes/PID answer the same bytes through the share as
 * computed per request, with sums equal to sqlite3's own over the rows. */
#include "daemon/attribute/interval.h"
#include "daemon/serve/window_share.h"
#include "daemon/store/store.h"
#include "lib/api.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/pids.h"
#include "test.h"
#include "test_db.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define T0 2000000ULL
#define N_THREADS 8

static atomic_int calls;
static int fail_next;

/* A window that takes 100 ms to sum, as a long one takes seconds. */
static int slow_compute(struct db *db, uint64_t window_ns, struct window *out, char *err,
			size_t errlen)
{
	struct timespec ts = { 0, 100000000 };

	(void)db;
	atomic_fetch_add(&calls, 1);
	nanosleep(&ts, NULL);
	if (fail_next) {
		fail_next = 0;
		snprintf(err, errlen, "given up");
		return -EIO;
	}
	memset(out, 0, sizeof(*out));
	out->asked_ns = window_ns;
	out->to_ns = (uint64_t)atomic_load(&calls);   /* which sum this is */
	return 0;
}

struct asker {
	struct window_share *ws;
	const struct window *got;
	int r;
};

static void *ask(void *arg)
{
	struct asker *a = arg;
	char err[64];

	a->r = window_share_get(a->ws, NULL, 60 * SEC, &a->got, err, sizeof(err));
	return NULL;
}

static void test_single_flight(void)
{
	atomic_uint_fast64_t gen = 1;
	struct window_share *ws = window_share_new(&gen, slow_compute);
	struct asker a[N_THREADS];
	pthread_t t[N_THREADS];
	const struct window *w;
	char err[64];
	int i;

	CHECK(ws != NULL);
	for (i = 0; i < N_THREADS; i++) {
		a[i] = (struct asker){ ws, NULL, -1 };
		CHECK(pthread_create(&t[i], NULL, ask, &a[i]) == 0);
	}
	for (i = 0; i < N_THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	/* per request (the old api_top/api_target): N_THREADS sums */
	CHECK_EQ_U(atomic_load(&calls), 1);
	for (i = 0; i < N_THREADS; i++) {
		CHECK(a[i].r == 0 && a[i].got == a[0].got);
		CHECK_EQ_U(a[i].got->asked_ns, 60 * SEC);
		window_share_put(ws, a[i].got);
	}
	/* lent again while no interval was stored; another length is its own */
	CHECK(window_share_get(ws, NULL, 60 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls), 1);
	CHECK(window_share_get(ws, NULL, 300 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls), 2);
	/* a new interval: summed again (a 60 s window's lag allowance, 60 s /
	 * WINDOW_SHARE_LAG_DIV, is long past after the 100 ms sum) */
	atomic_fetch_add(&gen, 1);
	CHECK(window_share_get(ws, NULL, 60 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls), 3);
	/* a failed sum is not kept: the next request sums again */
	atomic_fetch_add(&gen, 1);
	fail_next = 1;
	CHECK(window_share_get(ws, NULL, 120 * SEC, &w, err, sizeof(err)) == -EIO);
	CHECK(window_share_get(ws, NULL, 120 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK_EQ_U(window_share_computed(ws), 5);
	window_share_free(ws);
}

/* Eight requests wait for one sum that fails: all eight get its failure
 * (one sum, not a turn each at the same failure: a window over the CPU cap
 * would cost eight caps in a row); and a window the database or model
 * change made old is not lent again, however long its lag. */
static void test_shared_failure(void)
{
	atomic_uint_fast64_t gen = 1;
	struct window_share *ws = window_share_new(&gen, slow_compute);
	struct asker a[N_THREADS];
	pthread_t t[N_THREADS];
	const struct window *w;
	char err[64];
	int i, before;

	CHECK(ws != NULL);
	before = atomic_load(&calls);
	fail_next = 1;
	for (i = 0; i < N_THREADS; i++) {
		a[i] = (struct asker){ ws, NULL, 0 };
		CHECK(pthread_create(&t[i], NULL, ask, &a[i]) == 0);
	}
	for (i = 0; i < N_THREADS; i++) {
		CHECK(pthread_join(t[i], NULL) == 0);
		CHECK_EQ_U(a[i].r, -EIO);
	}
	CHECK_EQ_U(atomic_load(&calls) - before, 1);
	/* a day's window lags up to 24 s: a forget ends that */
	CHECK(window_share_get(ws, NULL, 86400 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK(window_share_get(ws, NULL, 86400 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls) - before, 2);
	window_share_forget(ws);
	CHECK(window_share_get(ws, NULL, 86400 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls) - before, 3);
	window_share_free(ws);
}

/* With the refresher: after a new interval, a request is lent the sums of
 * a moment ago at once (not the 100 ms of a sum) and the refresher sums
 * the window again, so the next request gets the new one; a window older
 * than it may be lent (WINDOW_SHARE_LEND_NS) is not lent, but summed. */
static void test_refresher(void)
{
	atomic_uint_fast64_t gen = 1;
	struct window_share *ws = window_share_new(&gen, slow_compute);
	struct timespec nap = { 0, 20000000 };
	const struct window *w;
	uint64_t t0, first;
	char err[64];
	int before, i;

	CHECK(ws != NULL);
	CHECK(window_share_start_refresher(ws, NULL, 10 * SEC) == 0);
	before = atomic_load(&calls);
	CHECK(window_share_get(ws, NULL, 60 * SEC, &w, err, sizeof(err)) == 0);
	first = w->to_ns;
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls) - before, 1);
	atomic_fetch_add(&gen, 1);
	t0 = clock_ns(CLOCK_MONOTONIC);
	CHECK(window_share_get(ws, NULL, 60 * SEC, &w, err, sizeof(err)) == 0);
	/* lent at once (a sum takes 100 ms): the one from before the interval */
	CHECK(clock_ns(CLOCK_MONOTONIC) - t0 < 50 * NS_PER_MSEC);
	CHECK_EQ_U(w->to_ns, first);
	window_share_put(ws, w);
	/* the refresher's sum, once done, is current: lent, nothing summed */
	for (i = 0; i < 100; i++) {
		CHECK(window_share_get(ws, NULL, 60 * SEC, &w, err, sizeof(err)) == 0);
		if (w->to_ns != first)
			break;
		window_share_put(ws, w);
		nanosleep(&nap, NULL);
	}
	CHECK(w->to_ns != first);
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls) - before, 2);
	/* a stored interval frees windows unused for WINDOW_SHARE_IDLE_NS,
	 * with no request needed (before: kept until the next get) */
	t0 = clock_ns(CLOCK_MONOTONIC);
	window_share_release_idle(ws, t0 + WINDOW_SHARE_IDLE_NS / 2);
	CHECK(window_share_get(ws, NULL, 60 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls) - before, 2);   /* kept: lent again */
	window_share_release_idle(ws, clock_ns(CLOCK_MONOTONIC) + WINDOW_SHARE_IDLE_NS + SEC);
	CHECK(window_share_get(ws, NULL, 60 * SEC, &w, err, sizeof(err)) == 0);
	window_share_put(ws, w);
	CHECK_EQ_U(atomic_load(&calls) - before, 3);   /* freed: summed anew */
	window_share_free(ws);
}

/* Interval k of 1 s on 2 CPUs: idle and three processes. */
static struct interval_data *make_interval(unsigned k)
{
	static const struct { int32_t pid; const char *comm; uint64_t tc; } rows[] = {
		{ PID_IDLE, PID_IDLE_COMM, 900000000 },
		{ 42, "web", 700000000 },
		{ 43, "batch", 200000000 },
		{ 44, "cron", 100000000 },
	};
	struct interval_data *iv = calloc(1, sizeof(*iv));
	unsigned i, n = 4;

	CHECK(iv != NULL);
	iv->start_ns = (T0 + k) * SEC;
	iv->end_ns = (T0 + k + 1) * SEC;
	iv->ncpus = 2;
	iv->n_groups = 1;
	iv->enabled_ns[0] = 2 * SEC;
	iv->procs = calloc(n, sizeof(*iv->procs));
	iv->rows = calloc(n, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	for (i = 0; i < n; i++) {
		iv->procs[i] = (struct iv_proc){ .pid = rows[i].pid, .uid = 0,
						 .start_ns = rows[i].pid > 0 ? 5 * SEC : 0 };
		snprintf(iv->procs[i].comm, sizeof(iv->procs[i].comm), "%s", rows[i].comm);
		/* cron runs in every third interval only */
		iv->rows[i] = (struct iv_row){ .proc = i, .group = 0,
					       .task_clock_ns = rows[i].tc + k * 1000,
					       .context_switches = 1 + k };
	}
	iv->n_procs = iv->n_rows = (k % 3 == 0) ? n : n - 1;
	return iv;
}

/* GET path?query through info: the answer's body (malloc'd). */
static char *get(const struct api_info *info, struct db *db, const char *path,
		 const char *query)
{
	struct api_access acc = { .full = true, .uid = 0 };
	struct api_response resp;

	CHECK(api_handle(info, db, NULL, "GET", path, query, &acc, &resp) == 0);
	CHECK_EQ_U(resp.status, 200);
	return resp.body;
}

static void test_same_answers(void)
{
	static const char *const asks[][2] = {
		{ "/api/v1/top", "window=5s&limit=2" },
		{ "/api/v1/top", "window=5s&sort=context_switches&limit=3" },
		{ "/api/v1/top", "window=20s&by=comm" },
		{ "/api/v1/processes/42", "window=5s" },
		{ "/api/v1/processes/44", "window=20s" },
	};
	char dir[] = "/tmp/stackd-unit-share.XXXXXX", path[64], cmd[128], err[1024];
	atomic_uint_fast64_t gen = 1;
	struct window_share *ws = window_share_new(&gen, NULL);
	struct api_windows aw = { window_share_get, window_share_put, ws };
	struct api_info direct = { .database = "test", .model = &model_software };
	struct api_info shared = direct;
	const struct window *w;
	struct store *s = NULL;
	struct db *db = NULL;
	unsigned k, i;

	CHECK(ws != NULL && mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/share.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-s", 1, err, sizeof(err)) == 0);
	for (k = 0; k < 20; k++) {
		struct interval_data *iv = make_interval(k);

		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	store_close(s);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	shared.windows = &aw;
	/* twice through the share: computed, then lent */
	for (k = 0; k < 2; k++)
		for (i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
			char *a = get(&direct, db, asks[i][0], asks[i][1]);
			char *b = get(&shared, db, asks[i][0], asks[i][1]);

			CHECK_STR(a, b);
			free(a);
			free(b);
		}
	CHECK_EQ_U(window_share_computed(ws), 2);   /* 5 s and 20 s */
	/* the shared window's sums are sqlite3's over the same rows */
	CHECK(window_share_get(ws, db, 20 * SEC, &w, err, sizeof(err)) == 0);
	CHECK(find(w, 44) != NULL && find(w, 42) != NULL);
	CHECK_EQ_U(find(w, 44)->task_clock_ns,
		   scalar(path, "SELECT sum(task_clock_ns) FROM sample JOIN process AS p"
			  " ON p.id = process_id WHERE p.pid = 44"));
	CHECK_EQ_U(find(w, 42)->context_switches,
		   scalar(path, "SELECT sum(context_switches) FROM sample JOIN process AS p"
			  " ON p.id = process_id WHERE p.pid = 42"));
	window_share_put(ws, w);
	db_close(db);
	window_share_free(ws);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	test_single_flight();
	test_shared_failure();
	test_refresher();
	test_same_answers();
	return 0;
}
