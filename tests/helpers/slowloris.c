/*
 * slowloris - hold N HTTP connections open by trickling requests, for at
 * most SECONDS; then report how many the server accepted and when it
 * closed them.  For the HTTP tests only (loopback TCP or a Unix socket of
 * the daemon under test).
 *
 *   slowloris unix:/PATH | tcp:PORT  N  SECONDS  [header|body [MS]]
 * header (the default): a GET's header, one byte every MS (500) ms;
 * body: a POST's whole header at once, then its body (Content-Length:
 * 100000) one byte every MS (1000) ms.
 * prints: connected C closed K first_close_s F last_close_s L
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONN 512

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dial(const char *target)
{
	int fd;

	if (strncmp(target, "unix:", 5) == 0) {
		struct sockaddr_un sun = { .sun_family = AF_UNIX };

		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", target + 5);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
	{
		struct sockaddr_in sin = { .sin_family = AF_INET };

		sin.sin_port = htons((unsigned short)atoi(target + 4));
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
}

int main(int argc, char **argv)
{
	static const char get_head[] = "GET /api/v1/system HTTP/1.1\r\nHost: localhost\r\n"
				       "X-Slow: ";
	static const char post_head[] = "POST /api/v1/system HTTP/1.1\r\nHost: localhost\r\n"
					"Content-Type: text/plain\r\nContent-Length: 100000\r\n\r\n";
	struct pollfd pfd[MAX_CONN];
	double start, first = -1, last = -1, every, next;
	int n, i, connected = 0, closed = 0, open_now;
	double seconds;
	const char *head = get_head;
	size_t head_len = sizeof(get_head) - 1;

	if (argc < 4 || argc > 6 ||
	    (strncmp(argv[1], "unix:", 5) != 0 && strncmp(argv[1], "tcp:", 4) != 0) ||
	    (argc > 4 && strcmp(argv[4], "header") != 0 && strcmp(argv[4], "body") != 0)) {
		fprintf(stderr, "usage: slowloris unix:/PATH|tcp:PORT N SECONDS [header|body [MS]]\n");
		return 2;
	}
	n = atoi(argv[2]);
	seconds = atof(argv[3]);
	every = 0.5;
	if (argc > 4 && strcmp(argv[4], "body") == 0) {
		head = post_head;
		head_len = sizeof(post_head) - 1;
		every = 1.0;
	}
	if (argc > 5)
		every = atof(argv[5]) / 1000.0;
	if (n < 1 || n > MAX_CONN)
		n = MAX_CONN;
	start = now_s();
	for (i = 0; i < n; i++) {
		pfd[i].fd = dial(argv[1]);
		pfd[i].events = POLLIN;
		if (pfd[i].fd < 0)
			continue;
		connected++;
		if (send(pfd[i].fd, head, head_len, MSG_NOSIGNAL) < 0) {
			/* the server closed it already (refused it at once): a
			 * close like any other, not a connection left open */
			double t = now_s() - start;

			close(pfd[i].fd);
			pfd[i].fd = -1;
			closed++;
			if (first < 0)
				first = t;
			last = t;
		}
	}
	open_now = connected - closed;
	next = now_s() + every;
	while (open_now > 0 && now_s() - start < seconds) {
		int wait_ms = (int)((next - now_s()) * 1000.0);
		bool send_now;

		/* a closed connection polls readable with 0 bytes (or an
		 * answer, then 0 bytes) */
		(void)poll(pfd, (nfds_t)n, wait_ms > 0 ? wait_ms : 0);
		send_now = now_s() >= next;
		if (send_now)
			next += every;
		for (i = 0; i < n; i++) {
			char c[512];

			if (pfd[i].fd < 0)
				continue;
			if ((pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    recv(pfd[i].fd, c, sizeof(c), MSG_DONTWAIT) <= 0) {
				double t = now_s() - start;

				close(pfd[i].fd);
				pfd[i].fd = -1;
				closed++;
				open_now--;
				if (first < 0)
					first = t;
				last = t;
				continue;
			}
			if (send_now)
				(void)send(pfd[i].fd, "a", 1, MSG_NOSIGNAL);
		}
	}
	for (i = 0; i < n; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	printf("connected %d closed %d first_close_s %.1f last_close_s %.1f\n", connected, closed,
	       first, last);
	return 0;
}
