/* The store against a temporary database, read back through the same
 * query code stackctl uses: schema versioning, sums over windows, process
 * identity, a busy database and a database from a newer stackd. */
#include "daemon/attribute/interval.h"
#include "lib/clock.h"
#include "daemon/store/store.h"
#include "lib/db.h"
#include "lib/query.h"
#include "test.h"
#include "test_db.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SEC ((uint64_t)NS_PER_SEC)   /* unsigned: ns fields are uint64_t */

/* One interval ending at end_s with two processes. */
static struct interval_data *make_interval(uint64_t end_s, uint64_t spin_tc, uint64_t exit_ns)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));

	CHECK(iv != NULL);
	iv->start_ns = (end_s - 1) * SEC;
	iv->end_ns = end_s * SEC;
	iv->ncpus = 2;
	iv->n_groups = 2;
	iv->enabled_ns[0] = iv->enabled_ns[1] = SEC;
	iv->st.samples = 10;
	iv->st.busiest_cpu = 1;
	iv->n_procs = 2;
	iv->procs = calloc(2, sizeof(*iv->procs));
	iv->procs[0] = (struct iv_proc){ .pid = 100, .start_ns = 5 * SEC, .comm = "spin",
					 .uid = 0, .cmdline = strdup("spin 5"),
					 .unit = strdup("x.service"), .exit_ns = exit_ns };
	iv->procs[1] = (struct iv_proc){ .pid = -1, .start_ns = 0, .comm = "[unattributed]",
					 .uid = -1 };
	iv->n_rows = 3;
	iv->rows = calloc(3, sizeof(*iv->rows));
	iv->rows[0] = (struct iv_row){ .proc = 0, .group = 0, .task_clock_ns = spin_tc / 2,
				       .context_switches = 3, .v = { 7 } };
	iv->rows[1] = (struct iv_row){ .proc = 0, .group = 1, .task_clock_ns = spin_tc / 2,
				       .context_switches = 2, .v = { 1 } };
	iv->rows[2] = (struct iv_row){ .proc = 1, .group = 0, .task_clock_ns = 1000,
				       .context_switches = 1 };
	return iv;
}

static int count_row(const struct export_row *row, void *arg)
{
	CHECK(row->interval_end_ns > 98 * SEC && row->interval_end_ns <= 103 * SEC);
	(*(size_t *)arg)++;
	return 0;
}

static int remember_row(const struct export_row *row, void *arg)
{
	*(struct export_cursor *)arg = row->key;
	return 0;
}

static int prune(struct store *s, uint64_t now_s, uint64_t keep_raw_s, uint64_t max_bytes,
		 unsigned batch)
{
	struct store_retention r = { .now_ns = now_s * SEC,
				     .keep_ns = { keep_raw_s * SEC, 1000000 * SEC, 1000000 * SEC },
				     .max_bytes = max_bytes, .max_intervals = batch };
	char err[1024];
	int n = store_prune(s, &r, err, sizeof(err));

	if (n < 0)
		fprintf(stderr, "store_prune: %s\n", err);
	return n;
}

/* Retention: raw intervals only once rolled up, in whole minutes, by age,
 * in batches, by size (the newest minute stays); a process stays while a
 * rollup names it; the window's sums do not change; freed pages go back. */
static void check_prune(const char *dir)
{
	char path[256], err[1024];
	struct store *s = NULL;
	struct db *db = NULL;
	struct window w;
	uint64_t used_before, used_after;
	int64_t pages_before;
	bool more = false;
	unsigned i;

	snprintf(path, sizeof(path), "%s/prune.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(scalar(path, "PRAGMA auto_vacuum") == 2);   /* incremental */
	CHECK(store_register(s, &model_software, NULL, "boot-p", 1, err, sizeof(err)) == 0);
	for (i = 0; i < 200; i++) {
		struct interval_data *iv = make_interval(1000 + i, 500, 0);

		if (i == 1)
			iv->procs[0].pid = 200;   /* a process seen only in an old interval */
		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	CHECK(scalar(path, "SELECT count(*) FROM process WHERE pid = 200") == 1);
	/* nothing rolled up yet: nothing may go */
	CHECK(prune(s, 1200, 0, 0, 1000) == 0);
	/* no room for a minute's rollup (a small filesystem): nothing rolled,
	 * nothing marked done, all of it tried again later */
	store_set_rollup_room(s, 100);
	CHECK(store_rollup(s, 100, UINT64_MAX / 2, &more, err, sizeof(err)) == 0);
	CHECK(more);
	CHECK(scalar(path, "SELECT count(*) FROM rollup_state") == 0);
	store_set_rollup_room(s, 0);
	/* minutes ending 1020, 1080, 1140 are complete (1199 is the newest end) */
	CHECK(store_rollup(s, 100, UINT64_MAX / 2, &more, err, sizeof(err)) == 3);
	CHECK(store_rollup(s, 100, UINT64_MAX / 2, &more, err, sizeof(err)) == 0);
	/* by age: the whole minutes before 1050 s */
	CHECK(prune(s, 1050, 0, 0, 1000) == 21);
	CHECK(scalar(path, "SELECT min(end_ns) FROM interval WHERE rollup_s = 0") ==
	      (int64_t)(1021 * SEC));
	CHECK(scalar(path, "SELECT count(*) FROM sample AS s JOIN interval AS i ON"
		     " i.id = s.interval_id WHERE rollup_s = 0") == 179 * 3);
	CHECK(scalar(path, "SELECT count(*) FROM interval_group AS g JOIN interval AS i ON"
		     " i.id = g.interval_id WHERE rollup_s = 0") == 179 * 2);
	/* pid 200 lives on in the first minute's rollup */
	CHECK(scalar(path, "SELECT count(*) FROM process WHERE pid = 200") == 1);
	/* in batches of about 20, rounded up to whole minutes, never past the
	 * rolled-up minutes */
	CHECK(prune(s, 1200, 0, 0, 20) == 60);
	CHECK(prune(s, 1200, 0, 0, 20) == 60);
	CHECK(prune(s, 1200, 0, 0, 20) == 0);
	CHECK(scalar(path, "SELECT count(*) FROM interval WHERE rollup_s = 0") == 59);
	/* whatever went, the window sums every interval once */
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * SEC, &w, err, sizeof(err)) == 0);
	CHECK(find(&w, 100) != NULL && find(&w, 100)->task_clock_ns == 199 * 500);
	CHECK(find(&w, 200) != NULL && find(&w, 200)->task_clock_ns == 500);
	CHECK(find(&w, -1) != NULL && find(&w, -1)->task_clock_ns == 200 * 1000);
	CHECK_EQ_U(w.resolution_s, 60);
	window_done(&w);
	db_close(db);
	/* by size: over any cap the rolled-up raw minutes go first (none are
	 * left), then, past the rules, the oldest rows of the finest level
	 * down to its newest: the cap holds whatever the churn (issue 28) */
	CHECK(store_used_bytes(s, &used_before) == 0 && used_before > 0);
	pages_before = scalar(path, "PRAGMA page_count");
	CHECK(prune(s, 1200, 1000000, 1, 1000) == 58);
	CHECK(scalar(path, "SELECT count(*) FROM interval WHERE rollup_s = 0") == 1);
	CHECK(scalar(path, "SELECT max(end_ns) FROM interval WHERE rollup_s = 0") ==
	      (int64_t)(1199 * SEC));
	CHECK(prune(s, 1200, 1000000, 1, 1000) == 2);   /* the minutes, but the newest */
	CHECK(prune(s, 1200, 1000000, 1, 1000) == 0);   /* each level's newest stays */
	CHECK(scalar(path, "SELECT count(*) FROM interval") == 2);
	CHECK(store_used_bytes(s, &used_after) == 0 && used_after <= used_before);
	store_close(s);
	CHECK(scalar(path, "PRAGMA page_count") <= pages_before);
	CHECK(scalar(path, "PRAGMA freelist_count") == 0);   /* handed back */
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-store.XXXXXX";
	char path[256], err[1024], cmd[300];
	const char *kv[] = { "version", "test", "pid", "1" };
	struct interval_data *a, *b;
	const struct window_proc *p;
	struct store *s = NULL;
	struct db *db = NULL;
	struct window w;
	sqlite3 *locker;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/s.db", dir);

	CHECK(db_open(path, &db, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "is stackd running?") != NULL);

	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-1", 1, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-1", 1, err, sizeof(err)) == 0);
	CHECK(store_set_meta(s, kv, 2, err, sizeof(err)) == 0);
	CHECK(scalar(path, "PRAGMA user_version") == STACKD_SCHEMA_VERSION);
	CHECK(scalar(path, "SELECT count(*) FROM counter_group") == 2);
	CHECK(scalar(path, "SELECT count(*) FROM boot") == 1);

	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 10 * SEC, &w, err, sizeof(err)) == -ENODATA);

	/* two intervals, written in one transaction (as a retry would) */
	a = make_interval(100, 800, 0);
	b = make_interval(101, 600, 100 * SEC + 5);
	a->next = b;
	CHECK(store_write_intervals(s, a, err, sizeof(err)) == 0);
	CHECK(scalar(path, "SELECT count(*) FROM interval") == 2);
	CHECK(scalar(path, "SELECT count(*) FROM process") == 2);   /* same (pid, start) twice */
	CHECK(scalar(path, "SELECT exit_ns FROM process WHERE pid = 100") == (int64_t)(100 * SEC + 5));
	CHECK(scalar(path, "SELECT count(*) FROM sample") == 6);

	CHECK(query_window(db, 10 * SEC, &w, err, sizeof(err)) == 0);
	CHECK_STR(w.model_name, "software");
	CHECK(w.model == &model_software);
	CHECK_EQ_U(w.n_intervals, 2);
	CHECK_EQ_U(w.from_ns, 99 * SEC);
	CHECK_EQ_U(w.to_ns, 101 * SEC);
	CHECK_EQ_U(w.ncpus, 2);
	CHECK_EQ_U(w.samples, 20);
	CHECK_EQ_U(w.groups[0].enabled_ns, 2 * SEC);
	p = find(&w, 100);
	CHECK(p != NULL);
	CHECK_STR(p->comm, "spin");
	CHECK_STR(p->cmdline, "spin 5");
	CHECK_STR(p->unit, "x.service");
	CHECK_EQ_U(p->task_clock_ns, 1400);
	CHECK_EQ_U(p->context_switches, 10);
	CHECK(p->sums[0].present && p->sums[1].present);
	CHECK_EQ_U(p->sums[0].task_clock_ns, 700);
	CHECK_EQ_U(p->sums[0].v[0], 14);
	CHECK_EQ_U(p->sums[1].v[0], 2);
	CHECK(find(&w, -1) != NULL);
	window_done(&w);

	/* a window of one interval sees only the newest */
	CHECK(query_window(db, 1 * SEC, &w, err, sizeof(err)) == 0);
	CHECK_EQ_U(w.n_intervals, 1);
	CHECK_EQ_U(find(&w, 100)->task_clock_ns, 600);
	window_done(&w);
	interval_free(a);
	interval_free(b);

	/* Busy: another writer holds the lock; the write fails whole and
	 * succeeds once the lock is gone. */
	CHECK(sqlite3_open(path, &locker) == SQLITE_OK);
	CHECK(sqlite3_exec(locker, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK);
	store_set_busy_timeout(s, 50);
	a = make_interval(102, 100, 0);
	CHECK(store_write_intervals(s, a, err, sizeof(err)) == -EBUSY);
	CHECK(scalar(path, "SELECT count(*) FROM interval") == 2);
	CHECK(sqlite3_exec(locker, "COMMIT", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(locker);
	CHECK(store_write_intervals(s, a, err, sizeof(err)) == 0);
	CHECK(scalar(path, "SELECT count(*) FROM interval") == 3);
	interval_free(a);

	/* The clock stepped back: interval 4 ends at 50 s, interval 5 at
	 * 103 s.  A window selects intervals by time, not by an id range
	 * (ids 1..5 would take in the one at 50 s). */
	a = make_interval(50, 10000, 0);
	b = make_interval(103, 200, 0);
	a->next = b;
	CHECK(store_write_intervals(s, a, err, sizeof(err)) == 0);
	interval_free(a);
	interval_free(b);
	CHECK(query_window(db, 5 * SEC, &w, err, sizeof(err)) == 0);
	CHECK_EQ_U(w.n_intervals, 4);
	CHECK_EQ_U(find(&w, 100)->task_clock_ns, 800 + 600 + 100 + 200);
	CHECK_EQ_U(w.groups[0].enabled_ns, 4 * SEC);
	window_done(&w);
	{
		struct export_cursor from_start = { 0, 0, 0 }, half = { 0, 0, 0 };
		size_t rows = 0;

		CHECK(query_export(db, 98 * SEC, 103 * SEC, WHO_PID, NULL, -1, &from_start, 100,
				   count_row, &rows, err, sizeof(err)) == 12);
		CHECK_EQ_U(rows, 12);
		/* pages: 5 rows, then from the fifth row's key, the other 7 */
		rows = 0;
		CHECK(query_export(db, 98 * SEC, 103 * SEC, WHO_PID, NULL, -1, &from_start, 5,
				   remember_row, &half, err, sizeof(err)) == 5);
		CHECK(query_export(db, 98 * SEC, 103 * SEC, WHO_PID, NULL, -1, &half, 100,
				   count_row, &rows, err, sizeof(err)) == 7);
		CHECK(query_export(db, 98 * SEC, 103 * SEC, WHO_COMM, "spin", -1, &from_start, 100,
				   count_row, &rows, err, sizeof(err)) == 8);
	}
	/* One process seen as two generations with the same identity (pid,
	 * start tick): both rows land on one stored process and add up; the
	 * interval is not refused for ever. */
	a = make_interval(104, 400, 0);
	a->procs[1] = a->procs[0];
	a->procs[1].cmdline = strdup("spin 5");
	a->procs[1].unit = strdup("x.service");
	a->rows[2] = (struct iv_row){ .proc = 1, .group = 0, .task_clock_ns = 50,
				      .context_switches = 4, .v = { 3 } };
	CHECK(store_write_intervals(s, a, err, sizeof(err)) == 0);
	interval_free(a);
	CHECK(scalar(path, "SELECT task_clock_ns FROM sample JOIN interval ON interval.id = "
		      "interval_id WHERE end_ns = 104000000000 AND group_id = (SELECT min(id) FROM "
		      "counter_group)") == 200 + 50);
	CHECK(scalar(path, "SELECT v0 FROM sample JOIN interval ON interval.id = interval_id "
		      "WHERE end_ns = 104000000000 AND group_id = (SELECT min(id) FROM "
		      "counter_group)") == 7 + 3);
	store_close(s);

	/* reopening applies nothing twice */
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-2", 2, err, sizeof(err)) == 0);
	CHECK(scalar(path, "SELECT count(*) FROM boot") == 2);
	CHECK(scalar(path, "SELECT count(*) FROM counter_group") == 2);
	store_close(s);
	db_close(db);

	/* a database from a newer stackd is refused by writer and reader */
	CHECK(sqlite3_open(path, &locker) == SQLITE_OK);
	CHECK(sqlite3_exec(locker, "PRAGMA user_version = 99", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(locker);
	CHECK(store_open(path, &s, err, sizeof(err)) == -EPROTO);
	CHECK(strstr(err, "newer than this stackd") != NULL);
	CHECK(db_open(path, &db, err, sizeof(err)) == -EPROTO);

	check_prune(dir);

	/* a failed open of a new database leaves no file behind */
	snprintf(path, sizeof(path), "%s/nodir/s.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
