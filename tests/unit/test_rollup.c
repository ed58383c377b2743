/* Rollups and their retention against a temporary database, read back
 * through the query code stackctl and the API use: three hours of 10 s
 * intervals roll into minutes and hours; as retention removes raw
 * intervals and then minutes, every reader (window, series, export) keeps
 * summing each moment exactly once.  And a schema-1 database is migrated. */
#include "daemon/attribute/interval.h"
#include "lib/clock.h"
#include "daemon/store/store.h"
#include "daemon/store/store_schema.h"
#include "lib/db.h"
#include "lib/query.h"
#include "test.h"
#include "test_db.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)   /* unsigned: ns fields are uint64_t */
#define T0 1000000ULL             /* s; deliberately not on an hour */
#define N_INTERVALS 1080          /* 3 h of 10 s */

static uint64_t want_web, want_batch, want_unattributed;
static uint64_t want_batch_periodic;   /* of want_batch, sampled periodically */

/* Interval k: web runs in every one (on group k % 2), batch in the first
 * hour only, the unattributed counts always. */
static struct interval_data *make_interval(unsigned k)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));
	size_t n = 0;

	CHECK(iv != NULL);
	iv->start_ns = (T0 + 10 * k) * SEC;
	iv->end_ns = (T0 + 10 * (k + 1)) * SEC;
	iv->ncpus = 2;
	iv->n_groups = 2;
	iv->enabled_ns[0] = iv->enabled_ns[1] = 10 * SEC;
	iv->st.samples = 1;
	iv->st.busiest_cpu = (int32_t)(k % 2);
	iv->st.max_cpu_switch_rate = k;
	iv->procs = calloc(3, sizeof(*iv->procs));
	iv->rows = calloc(3, sizeof(*iv->rows));
	iv->procs[0] = (struct iv_proc){ .pid = 100, .start_ns = 5 * SEC, .comm = "web", .uid = 0 };
	iv->procs[1] = (struct iv_proc){ .pid = -1, .comm = "[unattributed]", .uid = -1 };
	iv->procs[2] = (struct iv_proc){ .pid = 300, .start_ns = 6 * SEC, .comm = "batch", .uid = 0 };
	iv->n_procs = k < 360 ? 3 : 2;
	iv->rows[n++] = (struct iv_row){ .proc = 0, .group = (uint16_t)(k % 2),
					 .task_clock_ns = 1000 + k, .context_switches = 1,
					 .v = { k, 2 * k } };
	iv->rows[n++] = (struct iv_row){ .proc = 1, .group = 0, .task_clock_ns = 7 };
	if (k < 360)
		iv->rows[n++] = (struct iv_row){ .proc = 2, .group = 1, .task_clock_ns = 3 * k,
						 .periodic_ns = k, .v = { 1 } };
	iv->n_rows = n;
	want_web += 1000 + k;
	want_unattributed += 7;
	if (k < 360) {
		want_batch += 3 * k;
		want_batch_periodic += k;
	}
	return iv;
}

/* The whole store, read as a window, a series and an export. */
static void check_sums(const char *path, unsigned want_resolution)
{
	struct series_bucket b[16];
	const struct model *m = NULL;
	struct window w;
	struct db *db = NULL;
	char err[1024];
	uint64_t total = 0, host_cpu = 0, host_unattributed = 0;
	int n, i;

	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 24 * 3600 * SEC, &w, err, sizeof(err)) == 0);
	CHECK(find(&w, 100) != NULL);
	CHECK_EQ_U(find(&w, 100)->task_clock_ns, want_web);
	CHECK_EQ_U(find(&w, 300)->task_clock_ns, want_batch);
	CHECK_EQ_U(find(&w, -1)->task_clock_ns, want_unattributed);
	/* each row's periodic time, summed like its CPU time at every tier */
	CHECK_EQ_U(find(&w, 300)->periodic_ns, want_batch_periodic);
	CHECK_EQ_U(find(&w, 100)->periodic_ns, 0);
	CHECK_EQ_U(w.split.unattributed_ns, want_unattributed);
	/* the whole is the intervals' CPUs x length: 2 x 10 s each */
	CHECK_EQ_U(w.split.cpu_ns, N_INTERVALS * 2 * 10 * SEC);
	CHECK_EQ_U(w.split.switches, N_INTERVALS);   /* one sample each */
	/* group 0's counts: web's v0 on even k */
	CHECK(find(&w, 100)->sums[0].present);
	CHECK_EQ_U(w.groups[0].enabled_ns, N_INTERVALS * 10 * SEC);
	CHECK_EQ_U(w.resolution_s, want_resolution);
	CHECK_EQ_U(w.from_ns, T0 * SEC);
	CHECK_EQ_U(w.to_ns, (T0 + 10 * N_INTERVALS) * SEC);
	window_done(&w);

	n = query_series(db, WHO_COMM, "web", -1, (T0 - 3600) * SEC, (T0 + 4 * 3600) * SEC,
			 3600 * SEC, b, 16, &m, err, sizeof(err));
	CHECK(n > 0);
	for (i = 0; i < n; i++) {
		total += b[i].task_clock_ns;
		host_cpu += b[i].host.cpu_ns;
		host_unattributed += b[i].host.unattributed_ns;
		/* 7 ns a 20 CPU-s interval: never flagged low */
		CHECK(!cpu_split_low(&b[i].host));
	}
	CHECK_EQ_U(total, want_web);
	/* each bucket carries the host's split, read from every tier once;
	 * web runs in every interval, so every bucket with data is listed */
	CHECK_EQ_U(host_cpu, N_INTERVALS * 2 * 10 * SEC);
	CHECK_EQ_U(host_unattributed, want_unattributed);

	db_close(db);
}

static int sum_row(const struct export_row *row, void *arg)
{
	uint64_t *sums = arg;

	sums[0] += row->task_clock_ns;
	sums[1]++;
	sums[2] = (uint64_t)row->key.interval_id;
	sums[3] = (uint64_t)row->key.process_id;
	sums[4] = (uint64_t)row->key.group_id;
	return 0;
}

static void check_export(const char *path)
{
	struct export_cursor cur = { 0, 0, 0 };
	struct db *db = NULL;
	char err[1024];
	uint64_t sums[5] = { 0, 0, 0, 0, 0 };
	int got;

	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	do {
		got = query_export(db, 0, (T0 + 24 * 3600) * SEC, WHO_PID, NULL, -1, &cur, 50,
				   sum_row, sums, err, sizeof(err));
		CHECK(got >= 0);
		cur.interval_id = (int64_t)sums[2];
		cur.process_id = (int64_t)sums[3];
		cur.group_id = (int64_t)sums[4];
	} while (got == 50);
	CHECK_EQ_U(sums[0], want_web + want_batch + want_unattributed);
	db_close(db);
}

static int prune_all(struct store *s, uint64_t keep_raw_s, uint64_t keep_minute_s)
{
	struct store_retention r = {
		.now_ns = (T0 + 10 * N_INTERVALS) * SEC,
		.keep_ns = { keep_raw_s * SEC, keep_minute_s * SEC, 1000000 * SEC },
		.max_intervals = 60,
	};
	char err[1024];
	int n, total = 0;

	while ((n = store_prune(s, &r, err, sizeof(err))) > 0)
		total += n;
	CHECK(n == 0);
	return total;
}

static void check_rollups(const char *dir)
{
	char path[256], err[1024];
	struct store *s = NULL;
	unsigned k;
	bool more = false;
	int n, made = 0;

	snprintf(path, sizeof(path), "%s/rollup.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-r", 1, err, sizeof(err)) == 0);
	for (k = 0; k < N_INTERVALS; k++) {
		struct interval_data *iv = make_interval(k);

		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	check_sums(path, 0);

	/* in bounded steps: out of time after the first bucket, then 50 a call */
	CHECK(store_rollup(s, 50, 0, &more, err, sizeof(err)) == 1 && more);
	made = 1;
	while ((n = store_rollup(s, 50, UINT64_MAX / 2, &more, err, sizeof(err))) == 50)
		made += n;
	CHECK(n >= 0 && !more);
	made += n;
	/* complete minutes end at 1000020 .. 1010760 s (the newest one is
	 * still open); complete hours at 1000800, 1004400, 1008000 s */
	CHECK_EQ_U(scalar(path, "SELECT count(*) FROM interval WHERE rollup_s = 60"), 180);
	CHECK_EQ_U(scalar(path, "SELECT count(*) FROM interval WHERE rollup_s = 3600"), 3);
	CHECK_EQ_U(made, 183);
	CHECK_EQ_U(scalar(path, "SELECT max(end_ns) FROM interval WHERE rollup_s = 3600"),
		   1008000 * SEC);
	/* a rollup holds its rows' sums: the busiest CPU of its busiest row */
	CHECK_EQ_U(scalar(path, "SELECT sum(samples) FROM interval WHERE rollup_s = 60"),
		   scalar(path, "SELECT count(*) FROM interval WHERE rollup_s = 0 AND"
			  " end_ns <= 1010760000000000"));
	CHECK_EQ_U(scalar(path, "SELECT busiest_cpu FROM interval WHERE rollup_s = 60 AND"
			  " end_ns = 1000020000000000"), 1);   /* k = 1: max rate, odd */
	CHECK(store_rollup(s, 50, UINT64_MAX / 2, &more, err, sizeof(err)) == 0);   /* nothing new */
	check_sums(path, 0);   /* raw intervals still there: the rollups are not added */
	check_export(path);

	/* raw intervals kept 1 h: older ones are read from the minutes */
	CHECK(prune_all(s, 3600, 1000000) > 0);
	CHECK_EQ_U(scalar(path, "SELECT min(end_ns) FROM interval WHERE rollup_s = 0"),
		   1007170 * SEC);
	check_sums(path, 60);
	check_export(path);

	/* minutes kept 2 h: older ones are read from the hours, and a minute
	 * goes only in a whole hour the hours hold */
	CHECK(prune_all(s, 3600, 7200) > 0);
	CHECK_EQ_U(scalar(path, "SELECT min(end_ns) FROM interval WHERE rollup_s = 60"),
		   1000860 * SEC);
	check_sums(path, 3600);
	check_export(path);
	CHECK(prune_all(s, 3600, 7200) == 0);
	store_close(s);
}

/* A database written by schema 1 (before rollups) is migrated at open,
 * its data kept; readers refuse it until then, saying why. */
static void check_migration(const char *dir)
{
	char path[256], err[1024];
	struct store *s = NULL;
	struct db *db = NULL;
	struct window w;
	sqlite3 *old;

	snprintf(path, sizeof(path), "%s/v1.db", dir);
	CHECK(sqlite3_open(path, &old) == SQLITE_OK);
	CHECK(schema_steps[0].version == 1);
	CHECK(sqlite3_exec(old, schema_steps[0].sql, NULL, NULL, NULL) == SQLITE_OK);
	CHECK(sqlite3_exec(old,
		"PRAGMA user_version = 1;"
		"INSERT INTO boot VALUES (1, 'b1', 0);"
		"INSERT INTO process VALUES (1, 1, 42, 0, 'old', NULL, 0, NULL, NULL);"
		"INSERT INTO counter_group VALUES (1, 'software', 1, 'g', 'x', 'x');"
		"INSERT INTO interval (id, boot, start_ns, end_ns, ncpus, model)"
		" VALUES (1, 1, 1000000000, 2000000000, 1, 'software');"
		"INSERT INTO interval_group VALUES (1, 1, 1000000000);"
		"INSERT INTO sample (interval_id, process_id, group_id, task_clock_ns,"
		" context_switches, v0) VALUES (1, 1, 1, 12345, 1, 1);",
		NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(old);
	CHECK(scalar(path, "PRAGMA auto_vacuum") == 0);

	CHECK(db_open(path, &db, err, sizeof(err)) == -EPROTO);
	CHECK(strstr(err, "older stackd") != NULL);

	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_reclaims_space(s));   /* small: VACUUMed into incremental mode */
	store_close(s);
	CHECK_EQ_U(scalar(path, "PRAGMA user_version"), STACKD_SCHEMA_VERSION);
	CHECK_EQ_U(scalar(path, "PRAGMA auto_vacuum"), 2);
	CHECK_EQ_U(scalar(path, "SELECT rollup_s FROM interval WHERE id = 1"), 0);
	CHECK_EQ_U(scalar(path, "SELECT count(*) FROM rollup_state"), 0);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * SEC, &w, err, sizeof(err)) == 0);
	CHECK(w.n_procs == 1 && w.procs[0].pid == 42 && w.procs[0].task_clock_ns == 12345);
	window_done(&w);
	db_close(db);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-rollup.XXXXXX";
	char cmd[256];

	CHECK(mkdtemp(dir) != NULL);
	check_rollups(dir);
	check_migration(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
