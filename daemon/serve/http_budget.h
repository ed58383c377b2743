/*
 * http_budget.h - how much of the HTTP side the open-file limit allows.
 * Each connection takes two descriptors (its socket and the guard's copy
 * of it) and each uncached answer a read-only database connection (the
 * file and its -wal, a temporary file for a big sort; the -shm is shared).
 * The collector's counters, the writer and /proc reads come first: the
 * HTTP side takes what is left once they are open, less a reserve, so a
 * low `ulimit -n` (LimitNOFILE=) means fewer connections, each answered,
 * and refused ones told 503 - never a database that "cannot be read".
 */
#ifndef STACKD_HTTP_BUDGET_H
#define STACKD_HTTP_BUDGET_H

#include <stdbool.h>

/* Left to the rest of the daemon once the HTTP side starts: /proc reads,
 * a re-plan's, the writer opening its database again, sd_notify. */
#define HTTP_FD_RESERVE 16
/* The HTTP side's own: the accept thread's wakeup, libmicrohttpd's
 * (an eventfd, or a pipe). */
#define HTTP_FDS_FIXED 3
#define HTTP_FDS_PER_CONNECTION 2
#define HTTP_FDS_PER_WORK 3
/* Refused connections kept open a moment after their answer, so that the
 * client may still send its request and read the answer (http_accept.c). */
#define HTTP_FD_REFUSALS 4
/* Uncached answers computed at once in all, however many descriptors. */
#define HTTP_WORK_MAX 16
/* Never fewer than these, however few descriptors are left: the server
 * then relies on its refusals (503) when one cannot be had. */
#define HTTP_MIN_CONNECTIONS 4

struct http_budget {
	unsigned connections;        /* at once, both transports */
	unsigned work;               /* uncached answers at once */
	bool fd_bound;               /* fewer than asked, for the open-file limit */
	unsigned long long fd_limit, fds_open;   /* what it was computed from */
};

/* The budget for max_connections (http_max_connections) with fd_limit
 * descriptors allowed and fds_open open now (the listeners among them). */
void http_budget_compute(unsigned max_connections, unsigned long long fd_limit,
			 unsigned long long fds_open, struct http_budget *ret);

/* The same from this process's limit (RLIMIT_NOFILE) and open files. */
void http_budget_measure(unsigned max_connections, struct http_budget *ret);

#endif
