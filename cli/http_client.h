/*
 * http_client.h - the one HTTP request stackctl makes: GET a path from the
 * daemon over a Unix socket or loopback TCP, read the whole answer.  Our
 * own small client rather than libcurl: it needs no proxy or TLS logic
 * (both would only get in the way on loopback), and its errors name the
 * address the user can fix.
 */
#ifndef STACKCTL_HTTP_CLIENT_H
#define STACKCTL_HTTP_CLIENT_H

#include <stddef.h>

#define HTTP_CLIENT_MAX_BODY (512u << 20)

/* url: "unix:/run/stackd/stackd.sock", "http://127.0.0.1:9466",
 * "http://[::1]:9466", "localhost:9466".  target: "/api/v1/top?limit=5".
 * Returns 0 with the status and the body (malloc'd, NUL-terminated);
 * -ECONNREFUSED / -ENOENT (nobody listens there), -ETIMEDOUT, -EPROTO (not
 * an HTTP answer), -EINVAL (bad url), other -errno; err says which. */
int http_client_get(const char *url, const char *target, int timeout_ms, int *status, char **body,
		    size_t *len, char *err, size_t errlen);

#endif
