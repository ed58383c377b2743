/* Day rollups: 3 days and 7 hours of 10-minute intervals, starting at
 * 05:20 UTC, roll into minutes, hours and a day for each UTC day the hours
 * complete (the first one partly recorded); each day holds its raw rows'
 * sums.  A window of 3 days, read through whole days, equals the raw sums;
 * so do a series by the day and by the hour.  Then retention keeps raw
 * intervals, minutes and hours one day: hours go only in whole days the
 * days hold, and the same readers still count every moment once (the old
 * moments from the days, the finest level left). */
#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/query.h"
#include "test.h"
#include "test_db.h"

#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define DAY 86400ULL
#define T0 (20000ULL * DAY + 5 * 3600 + 1200)   /* s: 05:20 UTC */
#define LEN 600ULL                              /* s: an interval */
#define N_INTERVALS (3 * 144 + 42)              /* 3 days 7 h, to 12:20 */
#define HI ((T0 + LEN * N_INTERVALS) * SEC)

/* Interval k: web in every one, batch in the first 30 hours. */
static struct interval_data *make_interval(unsigned k)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));
	size_t n = 0;

	CHECK(iv != NULL);
	iv->start_ns = (T0 + LEN * k) * SEC;
	iv->end_ns = (T0 + LEN * (k + 1)) * SEC;
	iv->ncpus = 2;
	iv->n_groups = 1;
	iv->enabled_ns[0] = 2 * LEN * SEC;
	iv->st.samples = 1;
	iv->procs = calloc(2, sizeof(*iv->procs));
	iv->rows = calloc(2, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	iv->procs[0] = (struct iv_proc){ .pid = 100, .start_ns = 5 * SEC, .comm = "web" };
	iv->procs[1] = (struct iv_proc){ .pid = 200, .start_ns = 6 * SEC, .comm = "batch" };
	iv->rows[n++] = (struct iv_row){ .proc = 0, .group = 0, .task_clock_ns = 1000000 + k,
					 .context_switches = 1 + k % 3, .v = { k } };
	if (k < 180)
		iv->rows[n++] = (struct iv_row){ .proc = 1, .group = 0, .task_clock_ns = 7 * k,
						 .v = { 2 } };
	iv->n_procs = n;
	iv->n_rows = n;
	return iv;
}

/* pid's task clock in the intervals ending in (lo, hi] (ns), as
 * make_interval writes it: what every level's rows must add up to. */
static uint64_t want_sum(int pid, uint64_t lo, uint64_t hi)
{
	uint64_t sum = 0;
	unsigned k;

	for (k = 0; k < N_INTERVALS; k++) {
		uint64_t end = (T0 + LEN * (k + 1)) * SEC;

		if (end > lo && end <= hi)
			sum += pid == 100 ? 1000000 + k : k < 180 ? 7 * k : 0;
	}
	return sum;
}

/* A window of 3 days and series of pid 100 by the day from the first day,
 * and (hours) by the hour over the last 3 days: the intervals' sums.  A
 * window counts a rollup whose bucket starts before it whole when no
 * finer level is left (its from_ns says so). */
static void check_readers(const char *path, bool hours)
{
	static struct series_bucket b[80];
	const uint64_t from_day = (T0 - T0 % DAY) * SEC;
	uint64_t from_hour = HI - 3 * DAY * SEC;
	const struct model *m = NULL;
	struct db *db = NULL;
	struct window w;
	char err[1024];
	int n, i;

	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	{
		/* the stored span, read by the indexes: as a scan reads it */
		uint64_t oldest, newest;

		CHECK(query_span(db, &oldest, &newest) == 0);
		CHECK_EQ_U(oldest, (uint64_t)scalar(path, "SELECT min(start_ns) FROM interval"));
		CHECK_EQ_U(newest, HI);
	}
	CHECK(query_window(db, 3 * DAY * SEC, &w, err, sizeof(err)) == 0);
	CHECK(find(&w, 100) != NULL && find(&w, 200) != NULL);
	CHECK_EQ_U(find(&w, 100)->task_clock_ns, want_sum(100, w.from_ns, HI));
	CHECK_EQ_U(find(&w, 200)->task_clock_ns, want_sum(200, w.from_ns, HI));
	window_done(&w);
	n = query_series(db, WHO_PID, "100", -1, from_day, HI, DAY * SEC, b, 80, &m, err,
			 sizeof(err));
	CHECK_EQ_U((uint64_t)n, 4);
	for (i = 0; i < n; i++)
		CHECK_EQ_U(b[i].task_clock_ns, want_sum(100, b[i].start_ns, b[i].start_ns + DAY * SEC));
	from_hour -= from_hour % (3600 * SEC);
	n = hours ? query_series(db, WHO_PID, "100", -1, from_hour, HI, 3600 * SEC, b, 80, &m,
				 err, sizeof(err)) : 0;
	CHECK_EQ_U((uint64_t)n, hours ? 73 : 0);
	for (i = 0; i < n; i++)
		CHECK_EQ_U(b[i].task_clock_ns, want_sum(100, b[i].start_ns,
							b[i].start_ns + 3600 * SEC));
	db_close(db);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-day.XXXXXX", path[64], cmd[128], err[1024], sql[256];
	struct store_retention keep = {
		.now_ns = HI, .max_intervals = 500,
		.keep_ns = { DAY * SEC, DAY * SEC, DAY * SEC, 3650 * DAY * SEC },
	};
	struct store *s = NULL;
	unsigned k;
	bool more = true;
	int n;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/day.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-d", 1, err, sizeof(err)) == 0);
	for (k = 0; k < N_INTERVALS; k++) {
		struct interval_data *iv = make_interval(k);

		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	while (more)
		CHECK(store_rollup(s, 1000, UINT64_MAX / 2, &more, err, sizeof(err)) >= 0);
	/* days 20000 (from 05:20), 20001 and 20002; 20003 is still open */
	CHECK_EQ_U(scalar(path, "SELECT count(*) FROM interval WHERE rollup_s = 86400"), 3);
	for (k = 0; k < 3; k++) {
		uint64_t d = (20000 + k) * DAY * SEC;

		snprintf(sql, sizeof(sql), "SELECT sum(s.task_clock_ns) FROM sample AS s JOIN interval"
			 " AS i ON i.id = s.interval_id WHERE i.rollup_s = 86400 AND i.end_ns = %llu"
			 " AND s.process_id = (SELECT id FROM process WHERE pid = 100)",
			 (unsigned long long)(d + DAY * SEC));
		CHECK_EQ_U((uint64_t)scalar(path, sql), want_sum(100, d, d + DAY * SEC));
	}
	check_readers(path, true);

	/* raw, minutes and hours kept a day: the hours go in whole days */
	while ((n = store_prune(s, &keep, err, sizeof(err))) > 0)
		;
	CHECK(n == 0);
	CHECK_EQ_U(scalar(path, "SELECT (min(end_ns) - 3600000000000) % 86400000000000 FROM"
			  " interval WHERE rollup_s = 3600"), 0);
	CHECK((uint64_t)scalar(path, "SELECT min(end_ns) FROM interval WHERE rollup_s = 3600") >
	      HI - 2 * DAY * SEC);
	CHECK((uint64_t)scalar(path, "SELECT min(end_ns) FROM interval WHERE rollup_s = 0") >
	      HI - 2 * DAY * SEC);
	check_readers(path, false);
	store_close(s);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	printf("day rollups: 3 days; a 3-day window and series by day (and hour) equal the "
	       "intervals' sums before and after retention\n");
	return 0;
}
