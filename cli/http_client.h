/*
 * http_client.h - the one HTTP request stackctl makes: GET a path from the
 * daemon over a Unix socket or loopback TCP, read the whole answer (its
 * header fields too, for an export page's cursor).  Our
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

/* A whole answer: its status, header block and body. */
struct http_reply {
	int status;
	char *head;      /* the status line and header fields, each ending "\r\n" */
	char *body;      /* NUL-terminated (len bytes before it) */
	size_t len;
};

/* As http_client_get, asking for the media type accept, into rep
 * (http_reply_done after a 0 return).  An answer cut short before its
 * Content-Length or last chunk is -EPIPE, never a short body. */
int http_client_fetch(const char *url, const char *target, const char *accept, int timeout_ms,
		      struct http_reply *rep, char *err, size_t errlen);
/* Header field name's value (the first, copied into buf[len]): 0,
 * -ENOENT (absent) or -E2BIG. */
int http_reply_header(const struct http_reply *rep, const char *name, char *buf, size_t len);
void http_reply_done(struct http_reply *rep);   /* frees head and body */

#endif
