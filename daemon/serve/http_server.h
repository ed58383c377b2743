/*
 * http_server.h - stackd's HTTP side (libmicrohttpd): the API, /metrics and
 * the web page, on loopback TCP and/or a Unix socket.
 *
 * The server runs in its own threads with its own read-only database
 * connections, so a slow or hostile client never stalls the collector.
 * Bounded: connections, request size, time per connection, query caps
 * (api.h).  Answers computed from the store are kept until the next
 * interval is written (http_server_data_changed), so a dashboard polling
 * every second costs one query per interval, not one per poll.
 */
#ifndef STACKD_HTTP_SERVER_H
#define STACKD_HTTP_SERVER_H

#include "daemon/serve/http_config.h"
#include "daemon/serve/http_listen.h"
#include "daemon/serve/prom.h"
#include "lib/api.h"

/* What it is started with: struct http_config (http_config.h); its listen
 * addresses' syntax: http_server_parse_listen (http_listen.h). */
struct http_server;

/* Bind every listen address (the part that may need root: a socket under
 * /run/stackd) without starting a thread.  Returns 0 with *ret (NULL for
 * listen = none), -EINVAL (bad address) or another -errno, with a one-line
 * reason in err. */
int http_server_open(const struct http_config *cfg, struct http_server **ret, char *err,
		     size_t errlen);
/* Start serving (the guard's reaper and libmicrohttpd's threads): after
 * the daemon has dropped its privileges, so no thread is born with more
 * than it.  NULL is a no-op.  0 or -errno with err. */
int http_server_serve(struct http_server *s, char *err, size_t errlen);
void http_server_stop(struct http_server *s);   /* NULL is a no-op */

/* A new interval is stored, or the writer's state changed: cached answers
 * are stale. */
void http_server_data_changed(struct http_server *s);

/* The plan or model changed (a re-plan): as data_changed, and windows
 * summed before are not lent again however long they are. */
void http_server_model_changed(struct http_server *s);

/* The database file was replaced by a new one at the same path: readers
 * open it anew (connections kept open would read the old file). */
void http_server_database_replaced(struct http_server *s);

#endif
