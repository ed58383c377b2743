/*
 * api.h - the HTTP API's answers (docs/api.md): /api/v1/top,
 * /api/v1/{processes,comms,units}/NAME, /api/v1/series, /api/v1/export and
 * /api/v1/system, computed from a read-only database connection.  No
 * sockets here: stackd's http_request.c serves these over HTTP, and
 * `stackctl --db FILE` calls the very same function in-process, so the CLI
 * reads one JSON contract whichever way it gets its data.
 */
#ifndef STACKD_API_H
#define STACKD_API_H

#include "lib/query.h"
#include "lib/clock.h"
#include "lib/writer_status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Caps that keep one request cheap.  A window may reach back as far as
 * any data can be kept (stackd.conf's longest retention_hour): old data
 * comes from the hour rollups, so a long window costs little more than the
 * raw intervals it spans, which retention_raw bounds. */
#define API_MAX_WINDOW_NS (3650ULL * 86400 * NS_PER_SEC)
#define API_MAX_LIMIT 10000
#define API_MAX_POINTS 2000
#define API_MAX_EXPORT_ROWS 20000

/* Where /top and /processes (/comms, /units) take a window's per-process
 * sums from.  get lends a window to read, never to change, until put; the
 * daemon shares one per window length between requests that differ only
 * in sort, limit, filter or name (daemon/serve/window_share.h).  NULL in
 * api_info: each request computes its own (query_window), as stackctl
 * --db does. */
struct api_windows {
	int (*get)(void *ctx, struct db *db, uint64_t window_ns, const struct window **out,
		   char *err, size_t errlen);
	void (*put)(void *ctx, const struct window *w);
	void *ctx;
};

/* What the answers say about the collector beyond the database.  Zero /
 * NULL fields are read from the database's meta table instead (stackctl
 * --db reading a file has no running daemon to ask). */
struct api_info {
	const char *database;
	const struct model *model;   /* the model collecting now */
	uint64_t started_ns;         /* CLOCK_REALTIME */
	uint64_t interval_ns, rotate_period_ns;
	bool in_daemon;              /* answered by the running stackd itself */
	struct writer_status_box *writer;   /* the daemon's writer, read live; NULL: none */
	const struct api_windows *windows;  /* NULL: computed per request */
};

/* Who asks: full sees every process, otherwise only uid's. */
struct api_access {
	bool full;
	int64_t uid;
};

struct api_response {
	int status;                  /* 200, 400, 403, 404, 405, 500, 503 */
	char *body;                  /* malloc'd; the caller frees */
	size_t len;
	const char *content_type;
	bool cacheable;              /* the same until the next stored interval */
	/* header fields beyond the usual ones (a CSV export page's cursor):
	 * name NULL ends the list */
	struct api_header {
		const char *name;
		char value[96];
	} headers[3];
};

/* Answer method path?query.  db may be NULL when the store cannot be
 * opened (db_err says why).  Returns 0, or -ENOMEM (no response). */
int api_handle(const struct api_info *info, struct db *db, const char *db_err,
	       const char *method, const char *path, const char *query,
	       const struct api_access *acc, struct api_response *resp);

/* An error answer {"error": "..."} with status; returns 0 or -ENOMEM. */
int api_error(struct api_response *resp, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
