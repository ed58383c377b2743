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

static int parse_response(char *raw, size_t len, int *status, char **body, size_t *body_len)
{
	char *head_end = strstr(raw, "\r\n\r\n"), *b;
	size_t blen;
	bool chunked;

	if (strncmp(raw, "HTTP/1.", 7) != 0 || head_end == NULL ||
	    sscanf(raw + 8, " %d", status) != 1)
		return -EPROTO;
	*head_end = '\0';
	chunked = strcasestr(raw, "\r\ntransfer-encoding: chunked") != NULL;
	b = head_end + 4;
	blen = len - (size_t)(b - raw);
	if (chunked && http_chunked_decode(b, blen, &blen) < 0)
		return -EPROTO;
	*body = malloc(blen + 1);
	if (*body == NULL)
		return -ENOMEM;
	memcpy(*body, b, blen);
	(*body)[blen] = '\0';
	*body_len = blen;
	return 0;
}

int http_client_get(const char *url, const char *target, int timeout_ms, int *status, char **body,
		    size_t *len, char *err, size_t errlen)
{
	char host[256] = "localhost", *req = NULL, *raw = NULL;
	size_t raw_len = 0;
	int fd, r, n;

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
		     "Accept: application/json\r\nConnection: close\r\n\r\n", target,
		     strchr(host, ':') ? "localhost" : host, STACKD_VERSION);
	r = n < 0 ? -ENOMEM : send_all(fd, req, (size_t)n);
	if (r == 0)
		r = recv_all(fd, timeout_ms, &raw, &raw_len);
	close(fd);
	free(req);
	if (r == 0)
		r = parse_response(raw, raw_len, status, body, len);
	free(raw);
	if (r == -EPROTO)
		return fail(r, err, errlen, url, "the answer is not HTTP (is that stackd?)");
	if (r == -ETIMEDOUT)
		return fail(r, err, errlen, url, "no answer in time (is stackd stuck?)");
	if (r < 0)
		return fail(r, err, errlen, url, NULL);
	return 0;
}
