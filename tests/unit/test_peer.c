/* The HTTP peer's uid: the loopback classifier as a pure function, then
 * real loopback TCP connections (IPv4, IPv6, IPv4 to a dual-stack
 * listener) whose client is this process or, as root, a child that became
 * nobody first: the answer must be the client's uid, never ours.  The
 * netlink query, the /proc/net fallback and peer_uid() must all agree. */
#include "daemon/serve/peer.h"
#include "daemon/serve/peer_diag.h"
#include "daemon/serve/peer_procnet.h"
#include "test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY_UID 65534

static struct sockaddr_storage addr_of(int family, const char *text, in_port_t port)
{
	struct sockaddr_storage a;

	memset(&a, 0, sizeof(a));
	a.ss_family = (sa_family_t)family;
	if (family == AF_INET) {
		struct sockaddr_in *v4 = (struct sockaddr_in *)&a;

		CHECK(inet_pton(AF_INET, text, &v4->sin_addr) == 1);
		v4->sin_port = htons(port);
	} else if (family == AF_INET6) {
		struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&a;

		CHECK(inet_pton(AF_INET6, text, &v6->sin6_addr) == 1);
		v6->sin6_port = htons(port);
	}
	return a;
}

/* The port in network order: sin_port and sin6_port are separate fields. */
static in_port_t *port_of(struct sockaddr_storage *a)
{
	if (a->ss_family == AF_INET6)
		return &((struct sockaddr_in6 *)a)->sin6_port;
	return &((struct sockaddr_in *)a)->sin_port;
}

static void test_classifier(void)
{
	static const struct {
		int family;
		const char *addr;
		bool loopback;
	} cases[] = {
		{ AF_INET, "127.0.0.1", true },
		{ AF_INET, "127.255.3.9", true },
		{ AF_INET, "126.255.255.255", false },
		{ AF_INET, "128.0.0.1", false },
		{ AF_INET, "10.0.0.1", false },
		{ AF_INET, "0.0.0.0", false },
		{ AF_INET6, "::1", true },
		{ AF_INET6, "::ffff:127.0.0.1", true },
		{ AF_INET6, "::ffff:127.9.8.7", true },
		{ AF_INET6, "::ffff:10.0.0.1", false },
		{ AF_INET6, "::127.0.0.1", false },     /* v4-compatible, not mapped */
		{ AF_INET6, "::", false },
		{ AF_INET6, "::2", false },
		{ AF_INET6, "fe80::1", false },
		{ AF_INET6, "2001:db8::1", false },
	};
	struct sockaddr_storage unix_addr = { .ss_family = AF_UNIX };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sockaddr_storage a = addr_of(cases[i].family, cases[i].addr, 80);

		if (peer_is_loopback(&a) != cases[i].loopback) {
			fprintf(stderr, "peer_is_loopback(%s) != %d\n", cases[i].addr,
				cases[i].loopback);
			exit(1);
		}
	}
	CHECK(!peer_is_loopback(&unix_addr));
}

/* The fallback's parsing, on a directory of our own: an IPv4 line, a v6
 * line, and a v4-mapped pair found in tcp (an AF_INET client of a [::]
 * listener is an IPv4 socket). */
static void test_procnet_text(void)
{
	static const char tcp[] =
		"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
		"   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1\n"
		"   1: 0100007F:D431 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1234        0 2 1\n";
	static const char tcp6[] =
		"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
		"   0: 00000000000000000000000001000000:C350 00000000000000000000000001000000:1F90 01 00000000:00000000 00:00000000 00000000  4321        0 3 1\n";
	char dir[] = "/tmp/stackd-test-peer.XXXXXX", path[256];
	struct sockaddr_storage l, r;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/tcp", dir);
	f = fopen(path, "w");
	CHECK(f != NULL && fputs(tcp, f) >= 0 && fclose(f) == 0);
	snprintf(path, sizeof(path), "%s/tcp6", dir);
	f = fopen(path, "w");
	CHECK(f != NULL && fputs(tcp6, f) >= 0 && fclose(f) == 0);

	l = addr_of(AF_INET, "127.0.0.1", 0xD431);
	r = addr_of(AF_INET, "127.0.0.1", 0x1F90);
	CHECK_EQ_U(peer_procnet_uid(dir, &l, &r), 1234);
	CHECK(peer_procnet_uid(dir, &r, &l) == PEER_UNKNOWN);   /* the other end */
	l = addr_of(AF_INET6, "::ffff:127.0.0.1", 0xD431);
	r = addr_of(AF_INET6, "::ffff:127.0.0.1", 0x1F90);
	CHECK_EQ_U(peer_procnet_uid(dir, &l, &r), 1234);
	l = addr_of(AF_INET6, "::1", 0xC350);
	r = addr_of(AF_INET6, "::1", 0x1F90);
	CHECK_EQ_U(peer_procnet_uid(dir, &l, &r), 4321);
	CHECK(peer_procnet_uid("/nonexistent", &l, &r) == PEER_UNKNOWN);

	snprintf(path, sizeof(path), "%s/tcp", dir);
	CHECK(unlink(path) == 0);
	snprintf(path, sizeof(path), "%s/tcp6", dir);
	CHECK(unlink(path) == 0);
	CHECK(rmdir(dir) == 0);
}

static void test_unix(void)
{
	int sv[2];

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	CHECK_EQ_U(peer_uid(sv[0], "/proc/net"), getuid());
	close(sv[0]);
	close(sv[1]);
}

/* A listener on addr port 0, or -errno (no IPv6 on this host). */
static int listen_on(int family, const char *addr, bool dual_stack,
		     struct sockaddr_storage *ret_bound)
{
	struct sockaddr_storage a = addr_of(family, addr, 0);
	socklen_t len = sizeof(*ret_bound);
	int fd, off = 0;

	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (dual_stack)
		CHECK(setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)) == 0);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 8) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	CHECK(getsockname(fd, (struct sockaddr *)ret_bound, &len) == 0);
	return fd;
}

static int connect_to(int family, const char *addr, struct sockaddr_storage *listener)
{
	struct sockaddr_storage a;
	int fd;

	/* the listener's port, at the address the client dials */
	a = addr_of(family, addr, ntohs(*port_of(listener)));
	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(fd >= 0);
	CHECK(connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0);
	return fd;
}

/* Every way of asking must name want as the owner of accepted's client. */
static void check_owner(int accepted, int64_t want, const char *what)
{
	struct sockaddr_storage self, other, nobody_there;
	socklen_t sl = sizeof(self), ol = sizeof(other);
	int64_t uid = -1;
	int r;

	CHECK(getsockname(accepted, (struct sockaddr *)&self, &sl) == 0);
	CHECK(getpeername(accepted, (struct sockaddr *)&other, &ol) == 0);
	CHECK_EQ_U(peer_uid(accepted, "/proc/net"), want);
	CHECK_EQ_U(peer_procnet_uid("/proc/net", &other, &self), want);
	r = peer_diag_uid(&other, &self, &uid);
	if (r < 0) {
		printf("SKIP %s: NETLINK_SOCK_DIAG unusable here (%s); /proc/net checked\n",
		       what, strerror(-r));
		return;
	}
	CHECK_EQ_U(uid, want);
	/* netlink alone: peer_uid needs no /proc/net when it works */
	CHECK_EQ_U(peer_uid(accepted, "/nonexistent"), want);
	/* a 4-tuple no socket has: port 1 on the client side */
	nobody_there = other;
	*port_of(&nobody_there) = htons(1);
	CHECK(peer_diag_uid(&nobody_there, &self, &uid) == -ENOENT);
	printf("ok %s: uid %lld by netlink and /proc/net\n", what, (long long)want);
}

/* A client in a child that is nobody before it makes its socket (a
 * socket's owner is its creator's uid); the child holds the connection
 * until hold is closed. */
static pid_t nobody_client(int family, const char *addr, struct sockaddr_storage *listener,
			   int *ret_hold)
{
	int ready[2], hold[2];
	pid_t pid;
	char c;

	CHECK(pipe(ready) == 0 && pipe(hold) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		close(hold[1]);
		if (setgid(NOBODY_UID) < 0 || setuid(NOBODY_UID) < 0)
			_exit(2);
		(void)connect_to(family, addr, listener);
		if (write(ready[1], "x", 1) != 1)
			_exit(3);
		(void)!read(hold[0], &c, 1);
		_exit(0);
	}
	close(ready[1]);
	close(hold[0]);
	CHECK(read(ready[0], &c, 1) == 1);
	close(ready[0]);
	*ret_hold = hold[1];
	return pid;
}

static void test_tcp(int family, const char *listen_addr, bool dual_stack, int client_family,
		     const char *client_addr, const char *what)
{
	struct sockaddr_storage bound;
	int lfd, client, accepted, hold, status;
	pid_t child;

	lfd = listen_on(family, listen_addr, dual_stack, &bound);
	if (lfd < 0) {
		printf("SKIP %s: cannot listen on %s (%s)\n", what, listen_addr, strerror(-lfd));
		return;
	}
	client = connect_to(client_family, client_addr, &bound);
	accepted = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	CHECK(accepted >= 0);
	check_owner(accepted, getuid(), what);
	close(accepted);
	close(client);

	if (geteuid() != 0) {
		printf("SKIP %s, client as nobody: not root, cannot setuid\n", what);
		close(lfd);
		return;
	}
	child = nobody_client(client_family, client_addr, &bound, &hold);
	accepted = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	CHECK(accepted >= 0);
	check_owner(accepted, NOBODY_UID, what);
	close(hold);
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(accepted);
	close(lfd);
}

int main(void)
{
	test_classifier();
	test_procnet_text();
	test_unix();
	test_tcp(AF_INET, "127.0.0.1", false, AF_INET, "127.0.0.1", "IPv4 loopback");
	test_tcp(AF_INET6, "::1", false, AF_INET6, "::1", "IPv6 loopback");
	test_tcp(AF_INET6, "::", true, AF_INET, "127.0.0.1", "IPv4 client of a [::] listener");
	return 0;
}
