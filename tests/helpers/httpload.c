/*
 * httpload - keep INFLIGHT HTTP requests in flight against the daemon
 * under test, each on a connection of its own (as a loop of curl runs
 * would, without a process per request), for SECONDS or until TOTAL are
 * answered; then count the answers by status.  For the HTTP tests only
 * (loopback TCP or a Unix socket).
 *
 *   httpload unix:/PATH | tcp:PORT  INFLIGHT  SECONDS  TOTAL  PATH  [HOST [TEXT]]
 * TOTAL 0: no limit but SECONDS.  Each "{n}" in PATH becomes the request's
 * number (60, 61, ...: distinct URLs the server cannot have cached).  HOST:
 * the Host header (localhost).  TEXT: count the answers containing it.
 * prints, one line each:
 *   requests R
 *   status CODE COUNT retry_after N     (CODE 000: no status line: the
 *                                        connection failed or closed)
 *   match M                             (with TEXT)
 *   match_status CODE COUNT             (the matches by status)
 * HTTPLOAD_SHOW=1 in the environment prints each matching answer to stderr.
 * HTTPLOAD_LATENCY=1 adds, from connect to the answer's end:
 *   latency_ms p50 P p99 Q max M rate R    (R: answers a second)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_INFLIGHT 512
#define ANSWER_MAX 65536
#define REQUEST_TIMEOUT_S 15.0

struct slot {
	int fd;
	bool sent;
	char req[4096];
	size_t req_len;
	char *buf;
	size_t len;
	double since;
};

static unsigned counts[600], retry[600], matches[600], matched, requests;
#define LATENCIES_MAX (1u << 20)
static double latency[LATENCIES_MAX];
static unsigned n_latency;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A non-blocking connection under way to target, or -1. */
static int dial(const char *target)
{
	int fd;

	if (strncmp(target, "unix:", 5) == 0) {
		struct sockaddr_un sun = { .sun_family = AF_UNIX };

		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", target + 5);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 &&
		    errno != EINPROGRESS && errno != EAGAIN) {
			close(fd);
			return -1;
		}
		return fd;
	}
	{
		struct sockaddr_in sin = { .sin_family = AF_INET };

		sin.sin_port = htons((unsigned short)atoi(target + 4));
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 &&
		    errno != EINPROGRESS) {
			close(fd);
			return -1;
		}
		return fd;
	}
}

/* PATH with each {n} as n. */
static void expand(const char *path, unsigned n, char *out, size_t len)
{
	size_t o = 0;

	while (*path != '\0' && o + 12 < len) {
		if (strncmp(path, "{n}", 3) == 0) {
			o += (size_t)snprintf(out + o, len - o, "%u", n);
			path += 3;
		} else {
			out[o++] = *path++;
		}
	}
	out[o] = '\0';
}

/* The answer in s (or none) counted; the slot freed. */
static void finish(struct slot *s, const char *text)
{
	unsigned code = 0;

	if (s->len > 12 && strncmp(s->buf, "HTTP/1.", 7) == 0)
		code = (unsigned)atoi(s->buf + 9);
	if (code >= 600)
		code = 0;
	counts[code]++;
	if (n_latency < LATENCIES_MAX)
		latency[n_latency++] = now_s() - s->since;
	if (code == 0 && getenv("HTTPLOAD_SHOW") != NULL)
		fprintf(stderr, "no answer: %zu bytes, %s\n", s->len, strerror(errno));
	if (s->buf != NULL) {
		char *head_end;

		s->buf[s->len] = '\0';
		head_end = strstr(s->buf, "\r\n\r\n");
		if (head_end != NULL) {
			*head_end = '\0';
			retry[code] += strcasestr(s->buf, "\r\nretry-after:") != NULL;
			*head_end = '\r';
		}
		if (text != NULL && strstr(s->buf, text) != NULL) {
			matched++;
			matches[code]++;
			if (getenv("HTTPLOAD_SHOW") != NULL)
				fprintf(stderr, "%s\n", s->buf);
		}
	}
	close(s->fd);
	s->fd = -1;
	s->len = 0;
	requests++;
}

static void start(struct slot *s, const char *target, const char *path, const char *host,
		  unsigned n)
{
	char p[2048];

	expand(path, n, p, sizeof(p));
	s->req_len = (size_t)snprintf(s->req, sizeof(s->req), "GET %s HTTP/1.1\r\nHost: %s\r\n"
				      "Connection: close\r\n\r\n", p, host);
	s->sent = false;
	s->len = 0;
	s->since = now_s();
	s->fd = dial(target);
	/* as curl and stackctl do: the request follows a connect that is
	 * complete at once (a Unix socket's) */
	if (s->fd >= 0 && strncmp(target, "unix:", 5) == 0 &&
	    send(s->fd, s->req, s->req_len, MSG_NOSIGNAL) == (ssize_t)s->req_len)
		s->sent = true;
	if (s->fd < 0 && getenv("HTTPLOAD_SHOW") != NULL)
		fprintf(stderr, "cannot connect: %s\n", strerror(errno));
	if (s->fd < 0) {
		counts[0]++;
		requests++;
	}
}

/* One step of slot s after poll said revents. */
static void step(struct slot *s, short revents, const char *text)
{
	if (!s->sent && (revents & (POLLOUT | POLLERR | POLLHUP))) {
		if (send(s->fd, s->req, s->req_len, MSG_NOSIGNAL) != (ssize_t)s->req_len) {
			finish(s, text);
			return;
		}
		s->sent = true;
	}
	if (s->sent && (revents & (POLLIN | POLLERR | POLLHUP))) {
		ssize_t got = recv(s->fd, s->buf + s->len, ANSWER_MAX - 1 - s->len, 0);
		if (got > 0)
			s->len += (size_t)got;
		if (got == 0 || (got < 0 && errno != EAGAIN) || s->len >= ANSWER_MAX - 1)
			finish(s, text);
	}
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void print_latency(double elapsed)
{
	if (n_latency == 0)
		return;
	qsort(latency, n_latency, sizeof(latency[0]), by_value);
	printf("latency_ms p50 %.2f p99 %.2f max %.2f rate %.0f\n",
	       latency[n_latency / 2] * 1e3, latency[(size_t)(n_latency * 0.99)] * 1e3,
	       latency[n_latency - 1] * 1e3, requests / elapsed);
}

int main(int argc, char **argv)
{
	static struct slot slots[MAX_INFLIGHT];
	struct pollfd pfd[MAX_INFLIGHT];
	const char *target, *path, *host = "localhost", *text = NULL;
	unsigned inflight, total, started = 0, i;
	double seconds, t0;

	if (argc < 6 || argc > 8 ||
	    (strncmp(argv[1], "unix:", 5) != 0 && strncmp(argv[1], "tcp:", 4) != 0)) {
		fprintf(stderr, "usage: httpload unix:/PATH|tcp:PORT INFLIGHT SECONDS TOTAL PATH "
			"[HOST [TEXT]]\n");
		return 2;
	}
	target = argv[1];
	inflight = (unsigned)atoi(argv[2]);
	seconds = atof(argv[3]);
	total = (unsigned)atoi(argv[4]);
	path = argv[5];
	if (argc > 6)
		host = argv[6];
	if (argc > 7)
		text = argv[7];
	if (inflight < 1 || inflight > MAX_INFLIGHT)
		inflight = MAX_INFLIGHT;
	for (i = 0; i < inflight; i++) {
		slots[i].fd = -1;
		slots[i].buf = malloc(ANSWER_MAX);
		if (slots[i].buf == NULL)
			return 1;
	}
	t0 = now_s();
	for (;;) {
		bool more = now_s() - t0 < seconds && (total == 0 || started < total);
		unsigned busy = 0;

		for (i = 0; i < inflight; i++) {
			if (slots[i].fd < 0 && more && (total == 0 || started < total))
				start(&slots[i], target, path, host, 60 + started++);
			pfd[i].fd = slots[i].fd;
			pfd[i].events = slots[i].sent ? POLLIN : POLLOUT;
			pfd[i].revents = 0;
			busy += slots[i].fd >= 0;
		}
		if (busy == 0 && !more)
			break;
		(void)poll(pfd, inflight, 100);
		for (i = 0; i < inflight; i++) {
			if (slots[i].fd < 0)
				continue;
			if (pfd[i].revents != 0)
				step(&slots[i], pfd[i].revents, text);
			else if (now_s() - slots[i].since > REQUEST_TIMEOUT_S)
				finish(&slots[i], text);   /* no answer in time: 000 */
		}
	}
	printf("requests %u\n", requests);
	if (getenv("HTTPLOAD_LATENCY") != NULL)
		print_latency(now_s() - t0);
	for (i = 0; i < 600; i++)
		if (counts[i] > 0)
			printf("status %03u %u retry_after %u\n", i, counts[i], retry[i]);
	if (text != NULL)
		printf("match %u\n", matched);
	for (i = 0; i < 600; i++)
		if (matches[i] > 0)
			printf("match_status %03u %u\n", i, matches[i]);
	return 0;
}
