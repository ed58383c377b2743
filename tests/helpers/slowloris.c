/*
 * slowloris - hold N HTTP connections open by sending a request's header
 * one byte every half second, for at most SECONDS; then report how many
 * the server accepted and when it closed them.  For the HTTP tests only
 * (loopback TCP or a Unix socket of the daemon under test).
 *
 *   slowloris unix:/PATH | tcp:PORT  N  SECONDS
 * prints: connected C closed K first_close_s F last_close_s L
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
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
	static const char head[] = "GET /api/v1/system HTTP/1.1\r\nHost: x\r\nX-Slow: ";
	struct pollfd pfd[MAX_CONN];
	double start, first = -1, last = -1;
	int n, i, connected = 0, closed = 0, open_now;
	double seconds;

	if (argc != 4 || (strncmp(argv[1], "unix:", 5) != 0 && strncmp(argv[1], "tcp:", 4) != 0)) {
		fprintf(stderr, "usage: slowloris unix:/PATH|tcp:PORT N SECONDS\n");
		return 2;
	}
	n = atoi(argv[2]);
	seconds = atof(argv[3]);
	if (n < 1 || n > MAX_CONN)
		n = MAX_CONN;
	start = now_s();
	for (i = 0; i < n; i++) {
		pfd[i].fd = dial(argv[1]);
		pfd[i].events = POLLIN;
		if (pfd[i].fd < 0)
			continue;
		connected++;
		if (send(pfd[i].fd, head, sizeof(head) - 1, MSG_NOSIGNAL) < 0) {
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
	while (open_now > 0 && now_s() - start < seconds) {
		/* a closed connection polls readable with 0 bytes */
		(void)poll(pfd, (nfds_t)n, 500);
		for (i = 0; i < n; i++) {
			char c;

			if (pfd[i].fd < 0)
				continue;
			if ((pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    recv(pfd[i].fd, &c, 1, MSG_DONTWAIT) <= 0) {
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
