/*
 * http_guard.h - who may use how much of the HTTP server, so that no local
 * user can keep root's stackctl or Prometheus from an answer:
 *   - a connection share per peer, whoever it is, and a part of all
 *     connections kept for peers with full access.  A peer is its uid
 *     when the kernel tells it (the Unix socket's SO_PEERCRED, loopback
 *     TCP), else its address; a peer with full access is one per process
 *     on the Unix socket and one per uid over TCP, so that a runaway
 *     client of root's cannot take root's stackctl's place;
 *   - a deadline for reading a whole request, headers and body (a client
 *     trickling one byte at a time keeps libmicrohttpd's idle timeout
 *     from firing);
 *   - uncached work (a query that reads the store) bounded per peer and
 *     for all peers without full access together (over it, 429), and for
 *     everyone together (a read-only database connection each: over it,
 *     a peer with full access waits a moment, then 503).
 * Thread-safe; the reaper runs in a thread of its own.
 */
#ifndef STACKD_HTTP_GUARD_H
#define STACKD_HTTP_GUARD_H

#include "lib/clock.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

/* Reading a request (from the connection's start or the end of the
 * previous request) takes at most this long, its body included. */
#define HTTP_REQUEST_DEADLINE_NS (10ULL * (uint64_t)NS_PER_SEC)
/* Uncached answers being computed at once: per peer, and for all peers
 * without full access together. */
#define HTTP_WORK_PER_PEER 1
#define HTTP_WORK_LIMITED_TOTAL 2
/* How long a peer with full access waits for one of the server's work
 * places before it is told 503. */
#define HTTP_WORK_WAIT_NS (2ULL * (uint64_t)NS_PER_SEC)

/* One connection, as the guard tracks it (libmicrohttpd's socket context). */
struct http_conn {
	int fd;                      /* the guard's own copy of the socket */
	int mhd_fd;                  /* libmicrohttpd's */
	int64_t uid;                 /* PEER_UNKNOWN when not found */
	bool full;                   /* may see every process: never limited */
	char peer[64];               /* "uid 1000", "uid 0 pid 42" or the address: the share's key */
	struct sockaddr_storage local;   /* the address the peer reached (http_host.h) */
	bool admitted;
	bool reading;                /* a request: not yet whole */
	uint64_t reading_since_ns;   /* CLOCK_MONOTONIC */
	unsigned work;               /* uncached answers being computed */
	bool niced;                  /* its thread runs niced (http_request.c) */
	struct http_conn *prev, *next;
	struct http_conn *pending_next;   /* waiting for libmicrohttpd (http_conn.c) */
};

struct http_guard;

/* max_connections: the server's whole budget; max_work: uncached answers
 * computed at once in all (http_budget.h). */
int http_guard_new(unsigned max_connections, unsigned max_work, struct http_guard **ret);
void http_guard_free(struct http_guard *g);   /* NULL is a no-op; stops the reaper */

/* A new connection: 0 when admitted (c is tracked until
 * http_guard_closed), -EBUSY when its peer holds its share already,
 * -EAGAIN when the server (or the part for limited peers) is full; the
 * caller then answers and closes it. */
int http_guard_admit(struct http_guard *g, struct http_conn *c);
void http_guard_closed(struct http_guard *g, struct http_conn *c);

/* A request is whole (headers and body read) / its answer is sent (the
 * connection waits for the next request, under the deadline again). */
void http_guard_request_started(struct http_guard *g, struct http_conn *c);
void http_guard_request_done(struct http_guard *g, struct http_conn *c);

/* Before computing an uncached answer: 0 (then http_guard_work_done),
 * -EBUSY when the peer (or all limited peers) already has its share of
 * work running, -EAGAIN when every place is taken (after waiting up to
 * HTTP_WORK_WAIT_NS, for a peer with full access). */
int http_guard_work_begin(struct http_guard *g, struct http_conn *c);
void http_guard_work_done(struct http_guard *g, struct http_conn *c);

/* Close (shutdown) connections reading a request past the deadline at
 * now_ns; the count.  The reaper thread calls it; exposed for tests. */
unsigned http_guard_reap(struct http_guard *g, uint64_t now_ns);

/* Connections refused for shares or a full server, closed for deadlines,
 * requests answered 429, and 503 for want of a work place: for logs and
 * status. */
struct http_guard_stats {
	uint64_t refused, reaped, throttled, busy;
};
void http_guard_stats(struct http_guard *g, struct http_guard_stats *ret);

#endif
