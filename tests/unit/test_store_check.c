/* The start-up check does not depend on the database's size (issue 28,
 * item 10): a database over 64 MiB is opened after checking only what
 * opening needs - damage in a big table does not hold the start - and is
 * checked whole after it (store_check_start); the writer then moves the
 * damaged file aside and writes to a new one, as a start would have. */
#include "daemon/config.h"
#include "daemon/store/store.h"
#include "daemon/store/writer.h"
#include "test.h"
#include "test_db.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SEC 1000000000ULL

/* A stackd database of about 70 MB at path (process rows with long
 * command lines), its process table's root page overwritten. */
static void make_big_damaged(const char *path)
{
	struct store *s = NULL;
	char err[512];
	const char *sql;
	sqlite3 *db;
	int64_t root, page_size;
	unsigned char junk[64];
	int fd;

	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "test-boot", 1, err, sizeof(err)) == 0);
	store_close(s);
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	sql = "WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 17000)"
	      " INSERT INTO process (boot, pid, start_ns, comm, cmdline)"
	      " SELECT 1, n, n, 'big', hex(randomblob(2000)) FROM k;"
	      "PRAGMA wal_checkpoint(TRUNCATE);";
	CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	root = scalar(path, "SELECT rootpage FROM sqlite_schema WHERE name = 'process'");
	page_size = scalar(path, "PRAGMA page_size");
	CHECK(root > 1 && page_size > 0);
	memset(junk, 0xff, sizeof(junk));
	fd = open(path, O_WRONLY);
	CHECK(fd >= 0);
	CHECK(pwrite(fd, junk, sizeof(junk), (root - 1) * page_size) == (ssize_t)sizeof(junk));
	close(fd);
}

static bool moved_aside_exists(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	CHECK(d != NULL);
	while ((e = readdir(d)) != NULL)
		if (strstr(e->d_name, ".damaged-") != NULL && strstr(e->d_name, "-wal") == NULL &&
		    strstr(e->d_name, "-shm") == NULL)
			found = true;
	closedir(d);
	return found;
}

static int wait_check(struct store_check *c, char *why, size_t len)
{
	int i, r = 1;

	for (i = 0; i < 400 && r == 1; i++) {
		r = store_check_result(c, why, len);
		if (r == 1)
			usleep(50000);
	}
	return r;
}

static struct interval_data *make_interval(uint64_t end_s)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));

	CHECK(iv != NULL);
	iv->start_ns = (end_s - 1) * SEC;
	iv->end_ns = end_s * SEC;
	iv->ncpus = 1;
	return iv;
}

static void reopened(void *ctx)
{
	(*(int *)ctx)++;
}

/* The writer on the damaged file: it starts, and after some flushes the
 * background check has moved the file aside and a new one is written. */
static void test_writer_moves_aside(const char *dir, const char *path)
{
	struct writer_options o = { .database = path, .retry_buffer = 10 };
	struct writer w;
	uint64_t started = 0, s;
	int i, reopens = 0;

	make_big_damaged(path);
	writer_init(&w, &o, reopened, &reopens);
	CHECK(writer_open(&w, &model_software, NULL, &started) == 0);
	CHECK(!moved_aside_exists(dir));
	for (s = 1000, i = 0; i < 400 && !moved_aside_exists(dir); i++, s++) {
		writer_add(&w, make_interval(s));
		writer_flush(&w);
		writer_maintain(&w);
		usleep(20000);
	}
	CHECK(moved_aside_exists(dir));
	writer_add(&w, make_interval(s + 1));
	writer_flush(&w);
	CHECK_EQ_U(writer_pending(&w), 0);
	CHECK_EQ_U(reopens, 1);
	CHECK(scalar(path, "SELECT count(*) FROM process WHERE comm = 'big'") == 0);
	CHECK(scalar(path, "SELECT count(*) FROM interval") == 1);
	CHECK(writer_final_report(&w));
	writer_close(&w);
}

int main(void)
{
	char dir[] = "/tmp/stackd-test-check-XXXXXX";
	char path[PATH_MAX], why[1024], err[1024], cmd[PATH_MAX + 16];
	struct store_check *c = NULL;
	struct store *s = NULL;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/big.db", dir);
	make_big_damaged(path);

	/* The start: not held by the damage in a big table (before: the whole
	 * file read, the damage found, the file moved aside). */
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_moved_aside(s) == NULL);
	CHECK(store_check_deferred(s));
	store_close(s);
	CHECK(!moved_aside_exists(dir));

	/* After it: the whole file checked, the damage found. */
	CHECK(store_check_start(path, &c) == 0);
	CHECK(wait_check(c, why, sizeof(why)) == -EBADMSG);
	CHECK(strstr(why, "is damaged") != NULL);
	store_check_free(c);

	/* A check stopped while it runs (the daemon stopping) */
	CHECK(store_check_start(path, &c) == 0);
	store_check_free(c);

	snprintf(cmd, sizeof(cmd), "rm -f %s/*", dir);
	CHECK(system(cmd) == 0);
	test_writer_moves_aside(dir, path);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	printf("ok\n");
	return 0;
}
