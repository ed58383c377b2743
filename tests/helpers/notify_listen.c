/* notify_listen SOCKET SECONDS: stand in for systemd's notification socket.
 * Binds a datagram socket at SOCKET and prints each message it receives as
 * "MS MESSAGE" (milliseconds since start, newlines as '|') for SECONDS. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	long long start = ms_now(), end;
	char buf[4096];
	int fd;

	if (argc != 3 || strlen(argv[1]) >= sizeof(un.sun_path)) {
		fprintf(stderr, "usage: notify_listen SOCKET SECONDS\n");
		return 2;
	}
	end = start + atoll(argv[2]) * 1000;
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	strcpy(un.sun_path, argv[1]);
	unlink(argv[1]);
	if (fd < 0 || bind(fd, (struct sockaddr *)&un, sizeof(un)) < 0) {
		perror("notify_listen");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (ms_now() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, (int)(end - ms_now())) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		for (char *c = buf; *c; c++)
			if (*c == '\n')
				*c = '|';
		printf("%lld %s\n", ms_now() - start, buf);
	}
	unlink(argv[1]);
	return 0;
}
