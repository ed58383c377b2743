/*
 * http_guard.h - who may use how much of the HTTP server, so that no local
 * user can keep root's stackctl or Prometheus from an answer:
 *   - a connection share per peer (its uid when the kernel tells it: the
 *     Unix socket's SO_PEERCRED or loopback TCP; else its address), and a
 *     part of all connections kept for peers with full access;
 *   - a deadline for reading a whole request (a client trickling a header
 *     one byte at a time keeps libmicrohttpd's idle timeout from firing);
 *   - uncached work (a query that reads the store) bounded per peer and
 *     for all peers without full access together: over it, 429.
 * Thread-safe; the reaper runs in a thread of its own.
 */
#ifndef STACKD_HTTP_GUARD_H
#define STACKD_HTTP_GUARD_H

#include "lib/clock.h"

#include <stdbool.h>
#include <stdint.h>

/* Reading a request (from the connection's start or the end of the
 * previous request) takes at most this long. */
#define HTTP_REQUEST_DEADLINE_NS (10ULL * (uint64_t)NS_PER_SEC)
/* Uncached answers being computed at once: per peer, and for all peers
 * without full access together. */
#define HTTP_WORK_PER_PEER 1
#define HTTP_WORK_LIMITED_TOTAL 2

/* One connection, as the guard tracks it (libmicrohttpd's socket context). */
struct http_conn {
	int fd;
	int64_t uid;                 /* PEER_UNKNOWN when not found */
	bool full;                   /* may see every process: never limited */
	char peer[64];               /* "uid 1000" or the address: the share's key */
	bool admitted;
	bool waiting;                /* for a request's headers */
	uint64_t waiting_since_ns;   /* CLOCK_MONOTONIC */
	unsigned work;               /* uncached answers being computed */
	struct http_conn *prev, *next;
};

struct http_guard;

/* max_connections: the server's whole budget (http_max_connections). */
int http_guard_new(unsigned max_connections, struct http_guard **ret);
void http_guard_free(struct http_guard *g);   /* NULL is a no-op; stops the reaper */

/* A new connection: true when admitted (c is tracked until
 * http_guard_closed), false when its peer is over its share or the part
 * of connections for limited peers is used up; the caller then closes it. */
bool http_guard_admit(struct http_guard *g, struct http_conn *c);
void http_guard_closed(struct http_guard *g, struct http_conn *c);

/* A request's headers are in / its answer is sent (the connection waits
 * for the next request, under the deadline again). */
void http_guard_request_started(struct http_guard *g, struct http_conn *c);
void http_guard_request_done(struct http_guard *g, struct http_conn *c);

/* Before computing an uncached answer: 0 (then http_guard_work_done), or
 * -EBUSY when the peer already has its share of work running. */
int http_guard_work_begin(struct http_guard *g, struct http_conn *c);
void http_guard_work_done(struct http_guard *g, struct http_conn *c);

/* Close (shutdown) connections waiting for a request past the deadline at
 * now_ns; the count.  The reaper thread calls it; exposed for tests. */
unsigned http_guard_reap(struct http_guard *g, uint64_t now_ns);

/* Connections refused for shares, closed for deadlines, requests answered
 * 429: for logs and status. */
struct http_guard_stats {
	uint64_t refused, reaped, throttled;
};
void http_guard_stats(struct http_guard *g, struct http_guard_stats *ret);

#endif
