/* The database writer's queue: intervals wait while the database cannot be
 * written, the oldest beyond retry_buffer are dropped and counted, a
 * deleted file is opened anew (the daemon told, to record its facts), and
 * what waited goes out with the next write that succeeds; after a re-plan
 * (writer_replan) rows are stored under the new plan's groups. */
#include "daemon/config.h"
#include "daemon/store/writer.h"
#include "test.h"
#include "test_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SEC 1000000000ULL

static struct interval_data *make_interval(uint64_t end_s)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));

	CHECK(iv != NULL);
	iv->start_ns = (end_s - 1) * SEC;
	iv->end_ns = end_s * SEC;
	iv->ncpus = 1;
	return iv;
}

/* The writer's options from c, filled by the daemon's own mapping (a
 * field it dropped would show here). */
static struct writer_options options(const struct config *c)
{
	struct writer_options o;

	config_writer_options(c, &o);
	return o;
}

static void count_reopen(void *ctx)
{
	(*(int *)ctx)++;
}

static void add_and_flush(struct writer *w, uint64_t end_s)
{
	writer_add(w, make_interval(end_s));
	writer_flush(w);
	writer_publish(w);
}

/* One interval with one process and one row of plan group g, written. */
static void write_row(struct writer *w, uint64_t end_s, unsigned g)
{
	struct interval_data *iv = make_interval(end_s);

	iv->n_groups = 1;
	iv->procs = calloc(1, sizeof(*iv->procs));
	iv->rows = calloc(1, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	iv->n_procs = iv->n_rows = 1;
	iv->procs[0].pid = 42;
	iv->procs[0].start_ns = 1;
	iv->procs[0].uid = -1;
	snprintf(iv->procs[0].comm, sizeof(iv->procs[0].comm), "p");
	iv->rows[0].group = (uint16_t)g;
	iv->rows[0].task_clock_ns = 1;
	writer_add(w, iv);
	writer_flush(w);
	CHECK_EQ_U(writer_pending(w), 0);
}

/* The plan changed in place (as the daemon's does on SIGHUP): index 0 was
 * faults, is migrations after writer_replan. */
static void test_replan(const char *dir)
{
	bool off[MODEL_MAX_GROUPS] = { true, false };
	struct plan_budget b;
	struct plan plan;
	struct config c;
	struct writer_options o;
	struct writer w;
	uint64_t started = 0;
	int reopens = 0;
	char err[512];

	config_defaults(&c);
	snprintf(c.database, sizeof(c.database), "%s/replan.db", dir);
	plan_whole(&model_software, &plan);
	o = options(&c);
	writer_init(&w, &o, count_reopen, &reopens);
	CHECK(writer_open(&w, &model_software, &plan, &started) == 0);
	write_row(&w, 2000, 0);
	CHECK(scalar(c.database, "SELECT count(*) FROM sample JOIN counter_group AS g ON "
		     "g.id = group_id WHERE g.name = 'faults'") == 1);
	plan_budget_for(&model_software, false, false, 0, &b);
	CHECK(plan_make(&model_software, off, &b, &plan, err, sizeof(err)) == 0);
	CHECK(writer_replan(&w, err, sizeof(err)) == 0);
	write_row(&w, 2001, 0);
	CHECK(scalar(c.database, "SELECT count(*) FROM sample JOIN counter_group AS g ON "
		     "g.id = group_id WHERE g.name = 'migrations'") == 1);
	CHECK(scalar(c.database, "SELECT count(*) FROM sample") == 2);
	CHECK(writer_final_report(&w));
	writer_close(&w);
}

int main(void)
{
	char dir[] = "/tmp/stackd-test-writer-XXXXXX";
	struct writer_status st;
	struct config c;
	struct writer_options o;
	struct writer w;
	uint64_t started = 0;
	int reopens = 0;
	char path[PATH_MAX], cmd[64];
	uint64_t s;

	CHECK(mkdtemp(dir) != NULL);
	config_defaults(&c);
	snprintf(c.database, sizeof(c.database), "%s/stackd.db", dir);
	snprintf(path, sizeof(path), "%s", c.database);
	c.retry_buffer = 2;
	o = options(&c);
	writer_init(&w, &o, count_reopen, &reopens);
	CHECK(writer_open(&w, &model_software, NULL, &started) == 0);
	CHECK(started != 0);
	add_and_flush(&w, 1000);
	CHECK_EQ_U(writer_written(&w), 1);
	CHECK_EQ_U(writer_pending(&w), 0);

	/* The file deleted, and no directory to make it anew in (the path the
	 * writer reads is pointed elsewhere): nothing can be written. */
	CHECK(unlink(path) == 0);
	snprintf(c.database, sizeof(c.database), "%s/gone/stackd.db", dir);
	for (s = 1001; s <= 1005; s++)
		add_and_flush(&w, s);
	CHECK_EQ_U(writer_pending(&w), 2);
	CHECK_EQ_U(writer_written(&w), 1);
	CHECK(writer_store(&w) == NULL);
	writer_status_read(writer_box(&w), &st);
	CHECK_EQ_U(st.replaced, 1);
	CHECK_EQ_U(st.dropped, 3);
	CHECK_EQ_U(st.write_errors, 5);
	CHECK_EQ_U(st.pending, 2);
	CHECK(st.failing_since_ns != 0 && st.last_error[0] != '\0');
	CHECK_EQ_U(reopens, 0);

	/* Back in place: a new file, the daemon told, the two waiting written. */
	snprintf(c.database, sizeof(c.database), "%s", path);
	add_and_flush(&w, 1006);
	CHECK_EQ_U(reopens, 1);
	CHECK(writer_store(&w) != NULL);
	CHECK_EQ_U(writer_pending(&w), 0);
	CHECK_EQ_U(writer_written(&w), 1 + 3);
	writer_status_read(writer_box(&w), &st);
	CHECK(st.failing_since_ns == 0 && st.last_error[0] == '\0' && st.last_write_ns != 0);
	CHECK(writer_final_report(&w));
	writer_close(&w);
	test_replan(dir);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	printf("ok\n");
	return 0;
}
