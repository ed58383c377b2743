/*
 * test_http_host.c - the Host names stackd answers to (DNS rebinding,
 * http_host.c), and what the open-file limit leaves the HTTP side
 * (http_budget.c).
 */
#include "daemon/serve/http_budget.h"
#include "daemon/serve/http_host.h"
#include "test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/un.h>

static struct sockaddr_storage v4(const char *ip)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;

	memset(&ss, 0, sizeof(ss));
	in->sin_family = AF_INET;
	in->sin_port = htons(9466);
	CHECK(inet_pton(AF_INET, ip, &in->sin_addr) == 1);
	return ss;
}

static struct sockaddr_storage v6(const char *ip)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons(9466);
	CHECK(inet_pton(AF_INET6, ip, &in6->sin6_addr) == 1);
	return ss;
}

static void test_names(void)
{
	static struct http_hosts h;
	struct sockaddr_storage lo = v4("127.0.0.1"), lo6 = v6("::1"), any = v4("0.0.0.0");
	struct sockaddr_storage lan = v4("192.168.1.7"), mapped = v6("::ffff:192.168.1.7");
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	const struct sockaddr *tcp = (const struct sockaddr *)&lo;
	const struct sockaddr *unix_sock = (const struct sockaddr *)&un;
	char err[256];

	CHECK(http_hosts_parse("stackd.example, Box-1.lan,[::1],10.0.0.1", &h, err,
			       sizeof(err)) == 0);
	CHECK_EQ_U(h.n, 4);
	http_hosts_add_addr(&h, (const struct sockaddr *)&lo);
	http_hosts_add_addr(&h, (const struct sockaddr *)&any);   /* a wildcard: no name */
	CHECK_EQ_U(h.n_addrs, 1);

	/* no Host at all (HTTP/1.0, nc): no browser sends that */
	CHECK(http_host_allowed(&h, NULL, tcp));
	/* localhost, our address, configured names: with or without a port */
	CHECK(http_host_allowed(&h, "localhost", tcp));
	CHECK(http_host_allowed(&h, "LocalHost:9466", tcp));
	CHECK(http_host_allowed(&h, "localhost:8080", tcp));   /* an SSH tunnel's port */
	CHECK(http_host_allowed(&h, "127.0.0.1:9466", tcp));
	CHECK(http_host_allowed(&h, "127.0.0.1", unix_sock));  /* a listen address */
	CHECK(http_host_allowed(&h, "stackd.example:9466", tcp));
	CHECK(http_host_allowed(&h, "box-1.LAN", unix_sock));
	CHECK(http_host_allowed(&h, "[::1]:9466", tcp));
	/* the address a wildcard listener was reached at, v4-mapped too */
	CHECK(http_host_allowed(&h, "192.168.1.7:9466", (const struct sockaddr *)&lan));
	CHECK(http_host_allowed(&h, "192.168.1.7", (const struct sockaddr *)&mapped));
	CHECK(http_host_allowed(&h, "[::1]", (const struct sockaddr *)&lo6));
	/* what a rebinding page sends: its own name */
	CHECK(!http_host_allowed(&h, "evil.example", tcp));
	CHECK(!http_host_allowed(&h, "evil.example:9466", unix_sock));
	CHECK(!http_host_allowed(&h, "localhost.evil.example", tcp));
	CHECK(!http_host_allowed(&h, "stackd.example.evil.example", tcp));
	CHECK(!http_host_allowed(&h, "localhost.", tcp));
	CHECK(!http_host_allowed(&h, "192.168.1.7", tcp));     /* not where we were reached */
	CHECK(!http_host_allowed(&h, "127.0.0.2", tcp));
	CHECK(!http_host_allowed(&h, "0.0.0.0:9466", tcp));
	/* malformed */
	CHECK(!http_host_allowed(&h, "", tcp));
	CHECK(!http_host_allowed(&h, ":9466", tcp));
	CHECK(!http_host_allowed(&h, "localhost:94660", tcp));
	CHECK(!http_host_allowed(&h, "localhost:x", tcp));
	CHECK(!http_host_allowed(&h, "::1", tcp));              /* IPv6 needs brackets */
	CHECK(!http_host_allowed(&h, "[::1", tcp));
	CHECK(!http_host_allowed(&h, "[::1]x", tcp));
	CHECK(!http_host_allowed(&h, "localhost@evil.example", tcp));

	/* the key's syntax */
	CHECK(http_hosts_parse("", &h, err, sizeof(err)) == 0 && h.n == 0);
	CHECK(http_hosts_parse("a,,b", &h, err, sizeof(err)) == -EINVAL);
	CHECK(http_hosts_parse("evil example", &h, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "'evil example'") != NULL);
	CHECK(http_hosts_parse("*", &h, err, sizeof(err)) == -EINVAL);
	CHECK(http_hosts_parse("::1", &h, err, sizeof(err)) == -EINVAL);
	CHECK(http_hosts_parse("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", &h, err, sizeof(err)) ==
	      -EINVAL);
}

static void test_budget(void)
{
	struct http_budget b;

	/* plenty of descriptors: as configured, 16 answers at once */
	http_budget_compute(64, 1024, 40, &b);
	CHECK_EQ_U(b.connections, 64);
	CHECK_EQ_U(b.work, 16);
	CHECK(!b.fd_bound);
	/* ulimit -n 64 with 27 open (the development VM's 2 CPUs): what is
	 * left after the reserve, two descriptors a connection */
	http_budget_compute(64, 64, 27, &b);
	CHECK(b.fd_bound);
	CHECK_EQ_U(b.work, 1);
	CHECK_EQ_U(b.connections, (64 - 27 - HTTP_FD_RESERVE - HTTP_FDS_FIXED - HTTP_FD_REFUSALS -
				   1 - HTTP_FDS_PER_WORK) / HTTP_FDS_PER_CONNECTION);
	CHECK(27 + HTTP_FD_RESERVE + HTTP_FDS_FIXED + HTTP_FD_REFUSALS + 1 +
	      b.work * HTTP_FDS_PER_WORK + b.connections * HTTP_FDS_PER_CONNECTION <= 64);
	/* nothing left: the floor, never none */
	http_budget_compute(64, 64, 60, &b);
	CHECK_EQ_U(b.connections, HTTP_MIN_CONNECTIONS);
	CHECK_EQ_U(b.work, 1);
	/* a budget in between */
	http_budget_compute(64, 120, 40, &b);
	CHECK(b.fd_bound && b.connections < 64 && b.work > 1 && b.work < 16);
	CHECK(40 + HTTP_FD_RESERVE + HTTP_FDS_FIXED + HTTP_FD_REFUSALS + 1 +
	      b.work * HTTP_FDS_PER_WORK + b.connections * HTTP_FDS_PER_CONNECTION <= 120);
}

int main(void)
{
	test_names();
	test_budget();
	return 0;
}
