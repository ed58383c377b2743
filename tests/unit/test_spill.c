/* The spill file (issue 28, item 10): intervals a clean stop could not
 * write, saved beside the database in batches and written at the next
 * start under their own boot and plan; a replay cut short runs again
 * without storing anything twice; a damaged file is kept aside, named. */
#include "daemon/store/spill.h"
#include "daemon/store/store.h"
#include "test.h"
#include "test_db.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SEC 1000000000ULL

static struct interval_data *make_iv(uint64_t end_s, int32_t pid, const char *cmdline)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));

	CHECK(iv != NULL);
	iv->start_ns = (end_s - 1) * SEC;
	iv->end_ns = end_s * SEC;
	iv->ncpus = 2;
	iv->st.samples = 3;
	iv->st.busiest_cpu = 1;
	iv->n_groups = 1;
	iv->enabled_ns[0] = 9;
	iv->procs = calloc(1, sizeof(*iv->procs));
	iv->rows = calloc(1, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	iv->n_procs = iv->n_rows = 1;
	iv->procs[0].pid = pid;
	iv->procs[0].start_ns = 1;
	iv->procs[0].uid = 1000;
	snprintf(iv->procs[0].comm, sizeof(iv->procs[0].comm), "p%d", pid);
	iv->procs[0].cmdline = cmdline != NULL ? strdup(cmdline) : NULL;
	iv->rows[0].group = 0;
	iv->rows[0].task_clock_ns = 5;
	iv->rows[0].v[0] = 7;
	return iv;
}

static void free_all(struct interval_data *iv)
{
	while (iv != NULL) {
		struct interval_data *next = iv->next;

		interval_free(iv);
		iv = next;
	}
}

static void save(const char *path, const char *boot, const struct plan *plan,
		 struct interval_data *iv)
{
	struct spill_context ctx = {
		.model = &model_software, .plan = plan, .boot_id = boot, .booted_ns = 1,
	};
	char err[512];

	CHECK(spill_save(path, &ctx, iv, err, sizeof(err)) == 0);
	free_all(iv);
}

static bool bad_file_exists(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	CHECK(d != NULL);
	while ((e = readdir(d)) != NULL)
		if (strstr(e->d_name, ".spill.bad-") != NULL)
			found = true;
	closedir(d);
	return found;
}

int main(void)
{
	char dir[] = "/tmp/stackd-test-spill-XXXXXX";
	char path[PATH_MAX], file[PATH_MAX + 8], err[1024], cmd[PATH_MAX + 16];
	struct interval_data *iv;
	struct store *s = NULL;
	struct plan plan;
	size_t n = 0;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/stackd.db", dir);
	snprintf(file, sizeof(file), "%s%s", path, SPILL_SUFFIX);
	plan_whole(&model_software, &plan);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, &plan, "boot-a", 1, err, sizeof(err)) == 0);

	/* Two stops' worth: two batches, written in order, the file gone. */
	iv = make_iv(1000, 42, "sleep 1");
	iv->next = make_iv(1001, 43, NULL);
	save(path, "boot-a", &plan, iv);
	save(path, "boot-a", &plan, make_iv(1002, 42, "sleep 1"));
	CHECK(spill_exists(path));
	CHECK(spill_replay(s, path, &n, err, sizeof(err)) == 0);
	CHECK_EQ_U(n, 3);
	CHECK(!spill_exists(path));
	CHECK(scalar(path, "SELECT count(*) FROM interval") == 3);
	CHECK(scalar(path, "SELECT sum(samples) FROM interval") == 9);
	CHECK(scalar(path, "SELECT count(*) FROM sample WHERE v0 = 7 AND task_clock_ns = 5") == 3);
	CHECK(scalar(path, "SELECT count(*) FROM process WHERE cmdline = 'sleep 1' AND uid = 1000")
	      == 1);
	CHECK(scalar(path, "SELECT enabled_ns FROM interval_group LIMIT 1") == 9);

	/* The same batch again (a start that wrote it, then died before
	 * removing the file): skipped. */
	save(path, "boot-a", &plan, make_iv(1002, 42, "sleep 1"));
	CHECK(spill_replay(s, path, &n, err, sizeof(err)) == 0);
	CHECK_EQ_U(n, 0);
	CHECK(scalar(path, "SELECT count(*) FROM interval") == 3);

	/* Another boot's: under that boot. */
	save(path, "boot-b", &plan, make_iv(2000, 7, NULL));
	CHECK(spill_replay(s, path, &n, err, sizeof(err)) == 0);
	CHECK_EQ_U(n, 1);
	CHECK(scalar(path, "SELECT count(*) FROM interval JOIN boot ON boot.id = interval.boot"
		     " WHERE boot.boot_id = 'boot-b'") == 1);

	/* Cut short (a crash while saving): kept aside, named, nothing of it
	 * written. */
	save(path, "boot-a", &plan, make_iv(1003, 42, NULL));
	CHECK(truncate(file, 40) == 0);
	CHECK(spill_replay(s, path, &n, err, sizeof(err)) == -EBADMSG);
	CHECK(strstr(err, "kept as") != NULL);
	CHECK(!spill_exists(path));
	CHECK(bad_file_exists(dir));
	CHECK(scalar(path, "SELECT count(*) FROM interval") == 4);

	/* Nothing there: -ENOENT, nothing done. */
	CHECK(spill_replay(s, path, &n, err, sizeof(err)) == -ENOENT);
	store_close(s);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	printf("ok\n");
	return 0;
}
