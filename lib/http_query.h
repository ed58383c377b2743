/*
 * http_query.h - strict parsing of a request's query string
 * ("window=60s&sort=frontend_bound").  Every key must be one the endpoint
 * knows, at most once, with %XX and '+' decoded; anything else is an error
 * that names the parameter, so a typo never turns into a silent default.
 * Pure and allocation-free (fuzzed by tests/fuzz/fuzz_http_query.c).
 */
#ifndef STACKD_HTTP_QUERY_H
#define STACKD_HTTP_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HTTP_QUERY_MAX_PARAMS 12
#define HTTP_QUERY_MAX_VALUE 256

struct http_query {
	unsigned n;
	struct {
		char key[32];
		char value[HTTP_QUERY_MAX_VALUE];
	} p[HTTP_QUERY_MAX_PARAMS];
};

/* Parse text (the part after '?', may be NULL or empty) allowing only the
 * keys in allowed (NULL-terminated).  Returns 0, or -EINVAL with a one-line
 * reason in err ("unknown parameter 'windw' (expected one of: window,
 * sort, limit)"). */
int http_query_parse(const char *text, const char *const *allowed, struct http_query *q,
		     char *err, size_t errlen);

/* The value of key, or NULL when it was not given. */
const char *http_query_get(const struct http_query *q, const char *key);

/* Typed readers: 0 (value stored), 1 (not given: *ret untouched) or -EINVAL
 * with a reason naming the parameter. */
int http_query_uint(const struct http_query *q, const char *key, uint64_t max, uint64_t *ret,
		    char *err, size_t errlen);
int http_query_duration(const struct http_query *q, const char *key, uint64_t max_ns,
			uint64_t *ret_ns, char *err, size_t errlen);
int http_query_bool(const struct http_query *q, const char *key, bool *ret, char *err,
		    size_t errlen);

/* A path segment ("kworker%2F0%3A1"): %XX decoded, '+' kept.  Returns the
 * length or -EINVAL (bad escape, control byte, longer than cap - 1). */
int http_query_decode_segment(const char *text, char *out, size_t cap);

#endif
