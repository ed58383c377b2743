/* A window of an hour or more reads whole hours and minutes from the
 * rollups (lib/db_private.h, TIER_MATCH_COARSE) and gets the very sums of
 * the raw intervals: each process's task clock, switches and counts, the
 * groups' enabled time and the CPU split equal sqlite3's sums over the raw
 * rows of the same (from, to], edges included (the window starts inside a
 * minute, and an hour holds a 10 minute gap in the recording).  And it reads far fewer rows: summing 2 h through the rollups
 * costs fewer SQLite steps than 50 minutes of raw intervals (before, a
 * year's window read every raw interval of the last day: 8.9 M rows on the
 * bench's store).  And a series of one pid reads that process's rows,
 * not every process's: fewer steps than a third of the host's series over
 * the same time (before, SQLite, without statistics, read the window's
 * samples of every process and kept one's). */
#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/pids.h"
#include "lib/query.h"
#include "test.h"
#include "test_db.h"

#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define T0 1000000ULL              /* s: 1000000 is not on an hour (3600 * 277.8) */
#define LEN 5                      /* s: an interval */
#define N_INTERVALS (8400 / LEN)   /* 2 h 20 min, to 1008400 s */
#define N_PROCS 12                 /* idle, cron (one interval in seven), ten others */
/* stackd stopped for 10 minutes inside the hour rolled up: a rollup spans
 * the gap (its first start to its last end), which no CPU time fills */
#define GAP_FROM 1000
#define GAP_TO 1120

static struct interval_data *make_interval(unsigned k)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));
	unsigned i, n = 0;

	CHECK(iv != NULL);
	iv->start_ns = (T0 + LEN * k) * SEC;
	iv->end_ns = (T0 + LEN * k + LEN) * SEC;
	iv->ncpus = 2;
	iv->n_groups = 1;
	iv->enabled_ns[0] = 2 * LEN * SEC;
	iv->st.samples = 3 + k % 5;
	iv->procs = calloc(N_PROCS, sizeof(*iv->procs));
	iv->rows = calloc(N_PROCS, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	for (i = 0; i < N_PROCS; i++) {
		int32_t pid = i == 0 ? PID_IDLE : 41 + (int32_t)i;

		if (pid == 44 && k % 7 != 0)
			continue;   /* cron runs in one interval of seven */
		iv->procs[n] = (struct iv_proc){ .pid = pid, .uid = 0,
						 .start_ns = pid > 0 ? 5 * SEC : 0 };
		snprintf(iv->procs[n].comm, sizeof(iv->procs[n].comm), "%s",
			 pid == PID_IDLE ? PID_IDLE_COMM : pid == 44 ? "cron" : "web");
		iv->rows[n] = (struct iv_row){ .proc = n, .group = 0,
					       .task_clock_ns = 1000000 * (i + 1) + k,
					       .context_switches = i + k % 3 };
		iv->rows[n].v[0] = k % 11 + i;
		n++;
	}
	iv->n_procs = iv->n_rows = n;
	return iv;
}

static int count_steps(void *arg)
{
	(*(unsigned *)arg)++;
	return 0;
}

/* query_window of window_s; the SQLite steps it took, in 10,000s. */
static unsigned window_of(struct db *db, uint64_t window_s, struct window *w)
{
	char err[1024];
	unsigned steps = 0;

	db_set_stop(db, count_steps, &steps);
	CHECK(query_window(db, window_s * SEC, w, err, sizeof(err)) == 0);
	db_set_stop(db, NULL, NULL);
	return steps;
}

/* w's sums against sqlite3's over the raw rows ending in (lo, hi]. */
static void check_raw_sums(const char *path, const struct window *w, uint64_t lo, uint64_t hi)
{
	static const int32_t pids[] = { 42, 43, 44, PID_IDLE };
	char sql[512];
	size_t i;

	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++) {
		const struct window_proc *p = find(w, pids[i]);
		const char *cols[] = { "task_clock_ns", "context_switches", "v0" };
		uint64_t got[3];
		size_t c;

		CHECK(p != NULL);
		got[0] = p->task_clock_ns;
		got[1] = p->context_switches;
		got[2] = p->sums[0].v[0];
		for (c = 0; c < 3; c++) {
			snprintf(sql, sizeof(sql), "SELECT sum(s.%s) FROM sample AS s JOIN interval AS i"
				 " ON i.id = s.interval_id JOIN process AS p ON p.id = s.process_id"
				 " WHERE i.rollup_s = 0 AND i.end_ns > %llu AND i.end_ns <= %llu"
				 " AND p.pid = %d", cols[c], (unsigned long long)lo,
				 (unsigned long long)hi, pids[i]);
			CHECK_EQ_U(got[c], scalar(path, sql));
		}
	}
	snprintf(sql, sizeof(sql), "SELECT sum(g.enabled_ns) FROM interval_group AS g JOIN interval"
		 " AS i ON i.id = g.interval_id WHERE i.rollup_s = 0 AND i.end_ns > %llu AND"
		 " i.end_ns <= %llu", (unsigned long long)lo, (unsigned long long)hi);
	CHECK_EQ_U(w->groups[0].enabled_ns, scalar(path, sql));
	snprintf(sql, sizeof(sql), "SELECT sum(ncpus * (end_ns - start_ns)) FROM interval"
		 " WHERE rollup_s = 0 AND end_ns > %llu AND end_ns <= %llu",
		 (unsigned long long)lo, (unsigned long long)hi);
	CHECK_EQ_U(w->split.cpu_ns, scalar(path, sql));
}

/* query_series of who over the last 2 h at step_s; the steps it took. */
static unsigned series_steps(struct db *db, enum query_who who, const char *what, uint64_t hi,
			     uint64_t step_s, int buckets)
{
	static struct series_bucket b[64];
	const struct model *m = NULL;
	unsigned steps = 0;
	char err[1024];
	int n;

	db_set_stop(db, count_steps, &steps);
	n = query_series(db, who, what, -1, hi - 7200 * SEC, hi, step_s * SEC, b, 64, &m, err,
			 sizeof(err));
	db_set_stop(db, NULL, NULL);
	/* every bucket but those the 10 minute gap empties */
	CHECK_EQ_U((uint64_t)n, (uint64_t)buckets);
	return steps;
}

/* A series with a step of whole minutes (5 min) or of whole hours reads
 * its sums from the rollups, and each bucket holds the very sums of the
 * raw rows ending in it: pid 42's, pid 44's (one interval in seven) and
 * the host's task clock; and the time its intervals recorded (the hour
 * with the gap holds 50 minutes, not the hour its rollup spans). */
static void check_series_sums(const char *path, struct db *db, uint64_t hi)
{
	static struct series_bucket b[64];
	static const uint64_t steps_s[] = { 300, 3600 };
	const struct { enum query_who who; const char *what, *match; } targets[] = {
		{ WHO_PID, "42", "p.pid = 42" }, { WHO_PID, "44", "p.pid = 44" },
		{ WHO_HOST, NULL, "p.pid <> " PIDS_STR(PID_IDLE) },
	};
	const struct model *m = NULL;
	char err[1024], sql[512];
	size_t i, t, j;
	int n;

	/* to: the newest interval's end, or inside a minute rolled up */
	for (i = 0; i < 2 * sizeof(steps_s) / sizeof(steps_s[0]); i++)
		for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
			uint64_t step = steps_s[i / 2] * SEC, from = (T0 + 600) * SEC;
			uint64_t to = i % 2 ? hi - 1830 * SEC : hi;

			from -= from % step;
			n = query_series(db, targets[t].who, targets[t].what, -1, from, to, step, b,
					 64, &m, err, sizeof(err));
			CHECK(n > 0);
			for (j = 0; j < (size_t)n; j++) {
				unsigned long long lo = b[j].start_ns, up = lo + step < to ? lo + step : to;

				snprintf(sql, sizeof(sql), "SELECT coalesce(sum(s.task_clock_ns), 0)"
					 " FROM sample AS s JOIN interval AS i ON i.id = s.interval_id"
					 " JOIN process AS p ON p.id = s.process_id WHERE i.rollup_s = 0"
					 " AND i.end_ns > %llu AND i.end_ns <= %llu AND %s", lo, up,
					 targets[t].match);
				CHECK_EQ_U(b[j].task_clock_ns, scalar(path, sql));
				snprintf(sql, sizeof(sql), "SELECT sum(end_ns - start_ns) FROM interval"
					 " WHERE rollup_s = 0 AND end_ns > %llu AND end_ns <= %llu",
					 lo, up);
				CHECK_EQ_U(b[j].span_ns, scalar(path, sql));
			}
		}
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-coarse.XXXXXX", path[64], cmd[128], err[1024];
	uint64_t hi = (T0 + LEN * N_INTERVALS) * SEC;
	struct store *s = NULL;
	struct db *db = NULL;
	struct window w;
	unsigned k, coarse, fine;
	bool more = true;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/coarse.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-c", 1, err, sizeof(err)) == 0);
	for (k = 0; k < N_INTERVALS; k++) {
		struct interval_data *iv;

		if (k >= GAP_FROM && k < GAP_TO)
			continue;
		iv = make_interval(k);
		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	while (more)
		CHECK(store_rollup(s, 1000, UINT64_MAX / 2, &more, err, sizeof(err)) >= 0);
	store_close(s);
	/* the minutes and the hours are there to read */
	CHECK(scalar(path, "SELECT count(*) FROM interval WHERE rollup_s = 3600") >= 3);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);

	/* 2 h 25 s, from 1001175 s: 45 s of raw intervals to a minute, minutes
	 * to the hour at 1004400, its hour rollup to 1008000, then minutes and
	 * the raw intervals after the last minute rolled */
	coarse = window_of(db, 2 * 3600 + 25, &w);
	check_raw_sums(path, &w, hi - (2 * 3600 + 25) * SEC, hi);
	window_done(&w);
	/* 50 minutes (below QUERY_COARSE_MIN_NS): raw intervals only */
	fine = window_of(db, 50 * 60, &w);
	check_raw_sums(path, &w, hi - 50 * 60 * SEC, hi);
	window_done(&w);
	if (!(coarse < fine)) {
		fprintf(stderr, "2 h through the rollups took %u0,000 steps, 50 min of raw %u0,000\n",
			coarse, fine);
		CHECK(coarse < fine);
	}
	check_series_sums(path, db, hi);
	/* at 150 s (not whole minutes) every series reads raw rows: a pid's
	 * its own */
	coarse = series_steps(db, WHO_PID, "45", hi, 150, 45);
	fine = series_steps(db, WHO_HOST, NULL, hi, 150, 45);
	if (!(3 * coarse < fine)) {
		fprintf(stderr, "pid 45's series took %u0,000 steps, the host's %u0,000\n", coarse,
			fine);
		CHECK(3 * coarse < fine);
	}
	/* at 5 min (whole minutes) the host's reads the rollups */
	coarse = series_steps(db, WHO_HOST, NULL, hi, 300, 23);
	if (!(2 * coarse < fine)) {
		fprintf(stderr, "the host's series took %u0,000 steps at 5 min, %u0,000 at 150 s\n",
			coarse, fine);
		CHECK(2 * coarse < fine);
	}
	db_close(db);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
