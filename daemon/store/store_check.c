/*
 * store_check.c - the whole database checked after the start, when it was
 * too large to check before (store.c checks what opening needs).  See
 * store.h.
 *
 * Why after, not before: PRAGMA quick_check reads every page, ~6 s per
 * 625 MB under load, so a start that waited for it would depend on the
 * file's size and miss systemd's 90 s start limit on a large database
 * (docs/design.md).  Opening needs only the schema and the small tables;
 * the big ones (intervals, samples, processes) are read by a thread of
 * its own at the lowest priority, on a read-only connection: WAL readers
 * never block the writer.  What it finds goes to the writer, which moves
 * a damaged file aside then, as a start would have.
 */
#include "daemon/store/store.h"
#include "daemon/store/store_guard.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

struct store_check {
	pthread_t thread;
	pthread_mutex_t lock;
	char *path;
	sqlite3 *db;        /* while the check runs: for sqlite3_interrupt */
	bool done;
	int result;
	char why[1024];
};

static void *check_thread(void *arg)
{
	struct store_check *c = arg;
	sqlite3 *db = NULL;
	char why[1024] = "";
	int r;

	/* The collector's workers and the API come first. */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	r = sqlite3_open_v2(c->path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL);
	if (r == SQLITE_OK) {
		sqlite3_busy_timeout(db, 1000);
		pthread_mutex_lock(&c->lock);
		c->db = db;
		pthread_mutex_unlock(&c->lock);
		r = store_guard_integrity(db, c->path, NULL, why, sizeof(why));
		pthread_mutex_lock(&c->lock);
		c->db = NULL;
		pthread_mutex_unlock(&c->lock);
	} else {
		snprintf(why, sizeof(why), "cannot open '%s' to check it: %s", c->path,
			 sqlite3_errstr(r));
		r = -EIO;
	}
	sqlite3_close(db);
	pthread_mutex_lock(&c->lock);
	c->result = r;
	snprintf(c->why, sizeof(c->why), "%s", why);
	c->done = true;
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

int store_check_start(const char *path, struct store_check **ret)
{
	struct store_check *c = calloc(1, sizeof(*c));
	int r;

	if (c == NULL)
		return -ENOMEM;
	c->path = strdup(path);
	if (c->path == NULL) {
		free(c);
		return -ENOMEM;
	}
	pthread_mutex_init(&c->lock, NULL);
	r = pthread_create(&c->thread, NULL, check_thread, c);
	if (r != 0) {
		pthread_mutex_destroy(&c->lock);
		free(c->path);
		free(c);
		return -r;
	}
	*ret = c;
	return 0;
}

int store_check_result(struct store_check *c, char *why, size_t len)
{
	int r = 1;

	pthread_mutex_lock(&c->lock);
	if (c->done) {
		r = c->result;
		snprintf(why, len, "%s", c->why);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

void store_check_free(struct store_check *c)
{
	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	if (c->db != NULL)
		sqlite3_interrupt(c->db);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	pthread_mutex_destroy(&c->lock);
	free(c->path);
	free(c);
}
