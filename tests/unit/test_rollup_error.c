/* A rollup whose SQL fails is not taken as done (store_rollup_done tells
 * "never rolled up" from "could not read"): the rollup reports the error
 * and marks nothing, retention keeps the rows it failed to roll up, and a
 * done mark that cannot be read never restarts the rollups from the
 * oldest row (which would store every bucket twice).  "Nothing to roll
 * up" still counts as done.  The failures are made by interrupting one
 * named statement of the store's own connection. */
#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "daemon/store/store_private.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "test.h"
#include "test_db.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define T0 600000ULL   /* s, on a minute */

static const char *fail_sql;   /* the statement (its first bytes) to interrupt */

/* SQLite's progress handler: stop the named statement while it runs. */
static int interrupt_named(void *arg)
{
	sqlite3 *db = arg;
	sqlite3_stmt *st;

	for (st = sqlite3_next_stmt(db, NULL); st != NULL; st = sqlite3_next_stmt(db, st))
		if (sqlite3_stmt_busy(st) &&
		    strncmp(sqlite3_sql(st), fail_sql, strlen(fail_sql)) == 0)
			return 1;
	return 0;
}

static void fail_statement(struct store *s, const char *sql)
{
	fail_sql = sql;
	sqlite3_progress_handler(s->db, sql != NULL ? 1 : 0, interrupt_named, s->db);
}

/* 10 s intervals k0 .. k1 - 1 from T0, one process each. */
static void write_intervals(struct store *s, unsigned k0, unsigned k1)
{
	char err[1024];
	unsigned k;

	for (k = k0; k < k1; k++) {
		struct interval_data *iv = calloc(1, sizeof(*iv));

		CHECK(iv != NULL);
		iv->start_ns = (T0 + 10 * k) * SEC;
		iv->end_ns = (T0 + 10 * (k + 1)) * SEC;
		iv->ncpus = 1;
		iv->n_groups = 1;
		iv->procs = calloc(1, sizeof(*iv->procs));
		iv->rows = calloc(1, sizeof(*iv->rows));
		CHECK(iv->procs != NULL && iv->rows != NULL);
		iv->procs[0] = (struct iv_proc){ .pid = 100, .start_ns = SEC, .comm = "p" };
		iv->rows[0] = (struct iv_row){ .proc = 0, .task_clock_ns = 1000 + k };
		iv->n_procs = iv->n_rows = 1;
		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
}

static int prune_raw(struct store *s, uint64_t now_s)
{
	struct store_retention r = {
		.now_ns = now_s * SEC,
		.keep_ns = { 0, 1000000 * SEC, 1000000 * SEC },
		.max_intervals = 1000,
	};
	char err[1024];

	return store_prune(s, &r, err, sizeof(err));
}

static int64_t level_rows(const char *path, int rollup_s)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM interval WHERE rollup_s = %d", rollup_s);
	return scalar(path, sql);
}

/* Each moment's CPU time once: raw rows past the minutes, and the minutes. */
static int64_t stored_cpu(const char *path)
{
	return scalar(path, "SELECT sum(s.task_clock_ns) FROM sample AS s JOIN interval AS i"
		      " ON i.id = s.interval_id WHERE i.rollup_s = 60 OR (i.rollup_s = 0 AND"
		      " i.end_ns > coalesce((SELECT done_ns FROM rollup_state WHERE"
		      " rollup_s = 60), 0))");
}

/* Finding the next bucket fails: nothing is marked done, nothing pruned. */
static void check_failed_roll(const char *dir)
{
	char path[256], err[1024];
	struct store *s = NULL;
	bool more = false;
	int64_t want;

	snprintf(path, sizeof(path), "%s/roll.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-e", 1, err, sizeof(err)) == 0);
	write_intervals(s, 0, 30);   /* 5 minutes, 4 of them complete */
	want = stored_cpu(path);

	fail_statement(s, "SELECT min(end_ns) FROM interval WHERE rollup_s = ?2");
	CHECK(store_rollup(s, 50, UINT64_MAX / 2, &more, err, sizeof(err)) < 0);
	CHECK(strstr(err, "rollups") != NULL);
	fail_statement(s, NULL);
	CHECK_EQ_U(scalar(path, "SELECT count(*) FROM rollup_state"), 0);
	CHECK_EQ_U(level_rows(path, 60), 0);
	CHECK(prune_raw(s, T0 + 300) == 0);
	CHECK_EQ_U(level_rows(path, 0), 30);
	CHECK_EQ_U(stored_cpu(path), want);

	/* It works again: the four minutes, then their raw rows go. */
	CHECK(store_rollup(s, 50, UINT64_MAX / 2, &more, err, sizeof(err)) == 4 && !more);
	CHECK(prune_raw(s, T0 + 300) == 24);
	CHECK_EQ_U(stored_cpu(path), want);

	/* Nothing to roll up is done: no new row, and no error. */
	CHECK(store_rollup(s, 50, UINT64_MAX / 2, &more, err, sizeof(err)) == 0 && !more);
	store_close(s);
}

/* How far the minutes went cannot be read: the rollup fails instead of
 * starting again from the oldest raw row, and retention deletes nothing. */
static void check_unreadable_mark(const char *dir)
{
	char path[256], err[1024];
	struct store *s = NULL;
	bool more = false;
	int64_t want;

	snprintf(path, sizeof(path), "%s/mark.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-m", 1, err, sizeof(err)) == 0);
	write_intervals(s, 0, 30);
	CHECK(store_rollup(s, 50, UINT64_MAX / 2, &more, err, sizeof(err)) == 4);
	write_intervals(s, 30, 36);   /* the fifth minute complete */
	want = stored_cpu(path);

	fail_statement(s, "SELECT done_ns FROM rollup_state");
	CHECK(store_rollup(s, 50, UINT64_MAX / 2, &more, err, sizeof(err)) < 0);
	CHECK_EQ_U(level_rows(path, 60), 4);
	CHECK(prune_raw(s, T0 + 360) < 0);
	fail_statement(s, NULL);
	CHECK_EQ_U(level_rows(path, 0), 36);
	CHECK_EQ_U(stored_cpu(path), want);

	CHECK(store_rollup(s, 50, UINT64_MAX / 2, &more, err, sizeof(err)) == 1);
	CHECK_EQ_U(level_rows(path, 60), 5);
	CHECK_EQ_U(stored_cpu(path), want);
	store_close(s);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-rollup-error.XXXXXX";
	char cmd[256];

	CHECK(mkdtemp(dir) != NULL);
	check_failed_roll(dir);
	check_unreadable_mark(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
