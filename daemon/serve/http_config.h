/*
 * http_config.h - what the HTTP side is started with (http_server.h):
 * apart from http_server.h so that the server's own files, below it,
 * can read it too.
 */
#ifndef STACKD_HTTP_CONFIG_H
#define STACKD_HTTP_CONFIG_H

#include "lib/api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HTTP_MAX_USERS 16
#define HTTP_MAX_LISTENERS 4   /* addresses in listen */
/* What one uncached answer may cost in CPU time unless configured
 * (http_query_cpu_limit): stackctl waits 10 s for an answer. */
#define HTTP_QUERY_CPU_DEFAULT_NS (10ULL * 1000000000ULL)

struct prom;

struct http_config {
	const char *listen;          /* "127.0.0.1:9466,unix:/run/stackd/stackd.sock"; "" or "none": off */
	/* the dashboard's files: a directory, "builtin" (the copy built into
	 * stackd, web_files.h) or "" (none) */
	const char *web_dir;
	unsigned max_connections;    /* fewer when the open-file limit says so (http_budget.h) */
	/* names a request's Host may carry beside localhost and our addresses
	 * (http_host.h): comma-separated; NULL or "": none */
	const char *allowed_hosts;
	/* CPU time one uncached answer may take; 0: HTTP_QUERY_CPU_DEFAULT_NS */
	uint64_t query_cpu_ns;
	uid_t full_uids[HTTP_MAX_USERS];   /* see every process (root always does) */
	size_t n_full_uids;
	bool anonymous_full;         /* peers we cannot identify see everything */
	struct api_info info;
	struct prom *prom;           /* what /metrics renders */
};

#endif
