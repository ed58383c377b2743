/*
 * http_client.c - see http_client.h.
 */
#include "cli/http_client.h"
#include "lib/clock.h"
#include "cli/http_chunked.h"
#include "lib/version.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int fail(int r, char *err, size_t errlen, const char *url, const char *what)
{
	snprintf(err, errlen, "%s: %s", url, what ? what : strerror(-r));
	return r;
}

static int connect_unix(const char *path, int timeout_ms)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	int fd;

	if (strlen(path) >= sizeof(un.sun_path))
		return -ENAMETOOLONG;
	memcpy(un.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&un, sizeof(un)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

/* "host:port", "[v6]:port" or "host" (port 9466). */
static int connect_tcp(const char *hostport, int timeout_ms, char *host, size_t hostlen)
{
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL, *ai;
	const char *port = "9466", *colon;
	char portbuf[16];
	int fd = -1, r = -ECONNREFUSED;

	if (hostport[0] == '[') {
		const char *close_br = strchr(hostport, ']');

		if (close_br == NULL)
			return -EINVAL;
		snprintf(host, hostlen, "%.*s", (int)(close_br - hostport - 1), hostport + 1);
		colon = close_br[1] == ':' ? close_br + 1 : NULL;
	} else {
		colon = strrchr(hostport, ':');
		snprintf(host, hostlen, "%.*s", (int)(colon ? (size_t)(colon - hostport) :
						       strlen(hostport)), hostport);
	}
	if (colon != NULL) {
		snprintf(portbuf, sizeof(portbuf), "%s", colon + 1);
		port = portbuf;
	}
	if (host[0] == '\0' || getaddrinfo(host, port, &hints, &res) != 0)
		return -EINVAL;
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			r = -errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		r = -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : r;
}

static int send_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static uint64_t now_ms(void)
{
	return monotonic_ns() / NS_PER_MSEC;
}

/* Read until the server closes (we asked for Connection: close). */
static int recv_all(int fd, int timeout_ms, char **ret, size_t *ret_len)
{
	uint64_t deadline = now_ms() + (uint64_t)timeout_ms;
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);

	if (buf == NULL)
		return -ENOMEM;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ms();
		ssize_t n;
		int p;

		if (now >= deadline) {
			free(buf);
			return -ETIMEDOUT;
		}
		p = poll(&pfd, 1, (int)(deadline - now));
		if (p < 0 && errno == EINTR)
			continue;
		if (p <= 0) {
			free(buf);
			return p == 0 ? -ETIMEDOUT : -errno;
		}
		if (len + 1 >= cap) {
			char *more = cap < HTTP_CLIENT_MAX_BODY ? realloc(buf, cap * 2) : NULL;

			if (more == NULL) {
				free(buf);
				return -EFBIG;
			}
			buf = more;
			cap *= 2;
		}
		n = recv(fd, buf + len, cap - len - 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*ret = buf;
	*ret_len = len;
	return 0;
}

/* The value of header field name in head (the header block, its lines
 * ending "\r\n", NUL-terminated), or NULL; *len: its length. */
static const char *find_header(const char *head, const char *name, size_t *len)
{
	size_t n = strlen(name);
	const char *p = strstr(head, "\r\n");

	while (p != NULL) {
		const char *line = p + 2, *end = strstr(line, "\r\n");

		if (strncasecmp(line, name, n) == 0 && line[n] == ':') {
			line += n + 1;
			while (*line == ' ' || *line == '\t')
				line++;
			*len = end != NULL ? (size_t)(end - line) : strlen(line);
			return line;
		}
		p = end;
	}
	return NULL;
}

/* raw (len bytes, NUL-terminated) into rep: the header block is cut off
 * at its empty line, the body copied.  A body shorter than its
 * Content-Length, or a chunked one without its last chunk, was cut short
 * on the way: -EPIPE, never a short answer taken for a whole one. */
static int parse_response(char *raw, size_t len, struct http_reply *rep)
{
	char *head_end = strstr(raw, "\r\n\r\n"), *b, *end;
	const char *cl;
	size_t blen, cl_len;
	bool chunked;

	if (strncmp(raw, "HTTP/1.", 7) != 0 || head_end == NULL ||
	    sscanf(raw + 8, " %d", &rep->status) != 1)
		return -EPROTO;
	head_end[2] = '\0';   /* keep the last field's "\r\n" */
	chunked = strcasestr(raw, "\r\ntransfer-encoding: chunked") != NULL;
	b = head_end + 4;
	blen = len - (size_t)(b - raw);
	cl = find_header(raw, "Content-Length", &cl_len);
	if (chunked && http_chunked_decode(b, blen, &blen) < 0)
		return -EPIPE;
	if (!chunked && cl != NULL) {
		unsigned long long want = strtoull(cl, &end, 10);

		if (end == cl || want > blen)
			return -EPIPE;
		blen = (size_t)want;
	}
	rep->body = malloc(blen + 1);
	rep->head = strdup(raw);
	if (rep->body == NULL || rep->head == NULL) {
		http_reply_done(rep);
		return -ENOMEM;
	}
	memcpy(rep->body, b, blen);
	rep->body[blen] = '\0';
	rep->len = blen;
	return 0;
}

int http_reply_header(const struct http_reply *rep, const char *name, char *buf, size_t len)
{
	size_t n;
	const char *v = rep->head != NULL ? find_header(rep->head, name, &n) : NULL;

	if (v == NULL)
		return -ENOENT;
	if (n >= len)
		return -E2BIG;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return 0;
}

void http_reply_done(struct http_reply *rep)
{
	free(rep->body);
	free(rep->head);
	rep->body = NULL;
	rep->head = NULL;
}

int http_client_fetch(const char *url, const char *target, const char *accept, int timeout_ms,
		      struct http_reply *rep, char *err, size_t errlen)
{
	char host[256] = "localhost", *req = NULL, *raw = NULL;
	size_t raw_len = 0;
	int fd, r, n;

	memset(rep, 0, sizeof(*rep));
	if (strncmp(url, "unix:", 5) == 0)
		fd = connect_unix(url + 5, timeout_ms);
	else
		fd = connect_tcp(strncmp(url, "http://", 7) == 0 ? url + 7 : url, timeout_ms, host,
				 sizeof(host));
	if (fd == -EINVAL)
		return fail(fd, err, errlen, url, "not an address (expected unix:/PATH or "
			    "http://HOST:PORT)");
	if (fd < 0)
		return fail(fd, err, errlen, url, NULL);
	n = asprintf(&req, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: stackctl/%s\r\n"
		     "Accept: %s\r\nConnection: close\r\n\r\n", target,
		     strchr(host, ':') ? "localhost" : host, STACKD_VERSION, accept);
	r = n < 0 ? -ENOMEM : send_all(fd, req, (size_t)n);
	if (r == 0)
		r = recv_all(fd, timeout_ms, &raw, &raw_len);
	close(fd);
	free(req);
	if (r == 0)
		r = parse_response(raw, raw_len, rep);
	free(raw);
	if (r == -EPROTO)
		return fail(r, err, errlen, url, "the answer is not HTTP (is that stackd?)");
	if (r == -EPIPE)
		return fail(r, err, errlen, url, "the answer was cut short (the connection "
			    "closed before its end)");
	if (r == -ETIMEDOUT)
		return fail(r, err, errlen, url, "no answer in time (is stackd stuck?)");
	if (r < 0)
		return fail(r, err, errlen, url, NULL);
	return 0;
}

int http_client_get(const char *url, const char *target, int timeout_ms, int *status, char **body,
		    size_t *len, char *err, size_t errlen)
{
	struct http_reply rep;
	int r = http_client_fetch(url, target, "application/json", timeout_ms, &rep, err, errlen);

	if (r < 0)
		return r;
	*status = rep.status;
	*body = rep.body;
	*len = rep.len;
	free(rep.head);
	return 0;
}
