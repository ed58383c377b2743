/*
 * peerbench.c - what one HTTP peer lookup costs on a host with many TCP
 * sockets: the NETLINK_SOCK_DIAG exact lookup (peer_diag.c, what stackd
 * uses) against the /proc/net/tcp scan (peer_procnet.c, its fallback), on
 * one loopback connection while IDLE other loopback connections are open
 * (make bench).
 * Usage: peerbench IDLE LOOKUPS
 * Prints "sockets=N netlink_us=A procnet_us=B procnet/netlink=R".
 */
#include "daemon/serve/peer.h"
#include "daemon/serve/peer_diag.h"
#include "daemon/serve/peer_procnet.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* A client connected to listener and the server's end of it, in *ret_server. */
static int connect_pair(int listener, const struct sockaddr_in *at, int *ret_server)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (const struct sockaddr *)at, sizeof(*at)) < 0)
		die("connect");
	*ret_server = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	if (*ret_server < 0)
		die("accept");
	return fd;
}

static int listen_loopback(struct sockaddr_in *ret_at)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(*ret_at);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 128) < 0 ||
	    getsockname(fd, (struct sockaddr *)ret_at, &len) < 0)
		die("listen");
	return fd;
}

int main(int argc, char **argv)
{
	struct sockaddr_storage self, other;
	socklen_t sl = sizeof(self), ol = sizeof(other);
	struct sockaddr_in at;
	struct rlimit rl;
	int idle, lookups, i, lfd, server;
	double t0, t1, t2;
	int64_t uid = -1;

	if (argc != 3)
		return fprintf(stderr, "usage: peerbench IDLE LOOKUPS\n"), 2;
	idle = atoi(argv[1]);
	lookups = atoi(argv[2]);
	/* two descriptors a connection */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	lfd = listen_loopback(&at);
	for (i = 0; i < idle; i++)
		(void)connect_pair(lfd, &at, &server);   /* held open until exit */
	(void)connect_pair(lfd, &at, &server);
	if (getsockname(server, (struct sockaddr *)&self, &sl) < 0 ||
	    getpeername(server, (struct sockaddr *)&other, &ol) < 0)
		die("getsockname");

	t0 = now_us();
	for (i = 0; i < lookups; i++)
		if (peer_diag_uid(&other, &self, &uid) < 0 || uid != getuid())
			return fprintf(stderr, "peerbench: netlink lookup failed\n"), 1;
	t1 = now_us();
	for (i = 0; i < lookups; i++)
		if (peer_procnet_uid("/proc/net", &other, &self) != getuid())
			return fprintf(stderr, "peerbench: /proc/net lookup failed\n"), 1;
	t2 = now_us();
	printf("sockets=%d netlink_us=%.2f procnet_us=%.2f procnet/netlink=%.0f\n",
	       2 * idle + 3, (t1 - t0) / lookups, (t2 - t1) / lookups, (t2 - t1) / (t1 - t0));
	return 0;
}
