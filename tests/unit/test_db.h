/*
 * test_db.h - helpers of the tests that read a database back.
 */
#ifndef STACKD_TEST_DB_H
#define STACKD_TEST_DB_H

#include "lib/api.h"
#include "lib/query.h"
#include "test.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first column of sql's first row, read on a connection of its own. */
static inline int64_t scalar(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v = -1;

	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* A window's process by pid, or NULL. */
static inline const struct window_proc *find(const struct window *w, int32_t pid)
{
	size_t i;

	for (i = 0; i < w->n_procs; i++)
		if (w->procs[i].pid == pid)
			return &w->procs[i];
	return NULL;
}

/* GET path?query on db, read as model m with full access, answers 200 with
 * want in its body. */
static inline void api_expect(const struct model *m, struct db *db, const char *path,
			      const char *query, const char *want)
{
	struct api_info info = { .database = "test", .model = m };
	struct api_access acc = { .full = true, .uid = 0 };
	struct api_response resp;

	CHECK(api_handle(&info, db, NULL, "GET", path, query, &acc, &resp) == 0);
	if (resp.status != 200 || strstr(resp.body, want) == NULL) {
		fprintf(stderr, "%s?%s: %d %s (want '%s')\n", path, query, resp.status, resp.body,
			want);
		CHECK(0);
	}
	free(resp.body);
}

#endif
