/*
 * test_http_guard.c - connection shares, the part kept for full access,
 * the per-peer work bound and the request deadline (http_guard.c).
 */
#include "daemon/serve/http_guard.h"
#include "test.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct http_conn conn_of(const char *peer, bool full, int fd)
{
	struct http_conn c;

	memset(&c, 0, sizeof(c));
	c.fd = fd;
	c.full = full;
	snprintf(c.peer, sizeof(c.peer), "%s", peer);
	return c;
}

/* http_max_connections = 64: 8 per limited peer, 48 for all of them, 64 in all. */
static void test_shares(void)
{
	struct http_conn c[80], extra;
	struct http_guard *g;
	struct http_guard_stats st;
	char peer[32];
	int i, admitted = 0;

	CHECK(http_guard_new(64, &g) == 0);
	for (i = 0; i < 10; i++)
		c[i] = conn_of("uid 1000", false, -1);
	for (i = 0; i < 10; i++)
		admitted += http_guard_admit(g, &c[i]);
	CHECK_EQ_U(admitted, 8);
	/* other limited peers fill the limited part: 48 in all */
	for (i = 10; i < 60; i++) {
		snprintf(peer, sizeof(peer), "uid %d", 2000 + i);
		c[i] = conn_of(peer, false, -1);
		admitted += http_guard_admit(g, &c[i]);
	}
	CHECK_EQ_U(admitted, 48);
	/* root still gets in, up to the whole budget */
	for (i = 60; i < 80; i++) {
		c[i] = conn_of("uid 0", true, -1);
		admitted += http_guard_admit(g, &c[i]);
	}
	CHECK_EQ_U(admitted, 64);
	/* the whole budget is in use: even root waits */
	extra = conn_of("uid 0", true, -1);
	CHECK(!http_guard_admit(g, &extra));
	/* a closed connection frees its peer's place */
	http_guard_closed(g, &c[0]);
	c[0] = conn_of("uid 1000", false, -1);
	CHECK(http_guard_admit(g, &c[0]));
	http_guard_stats(g, &st);
	CHECK_EQ_U(st.refused, 2 + 10 + 4 + 1);
	for (i = 0; i < 80; i++)
		http_guard_closed(g, &c[i]);
	http_guard_free(g);
}

static void test_work(void)
{
	struct http_conn a1 = conn_of("uid 1000", false, -1), a2 = conn_of("uid 1000", false, -1);
	struct http_conn b = conn_of("uid 1001", false, -1), c = conn_of("uid 1002", false, -1);
	struct http_conn root = conn_of("uid 0", true, -1);
	struct http_guard *g;

	CHECK(http_guard_new(64, &g) == 0);
	CHECK(http_guard_admit(g, &a1) && http_guard_admit(g, &a2) && http_guard_admit(g, &b) &&
	      http_guard_admit(g, &c) && http_guard_admit(g, &root));
	CHECK(http_guard_work_begin(g, &a1) == 0);
	CHECK(http_guard_work_begin(g, &a2) == -EBUSY);   /* same peer, other connection */
	CHECK(http_guard_work_begin(g, &b) == 0);
	CHECK(http_guard_work_begin(g, &c) == -EBUSY);    /* limited peers' total */
	CHECK(http_guard_work_begin(g, &root) == 0);      /* never limited */
	CHECK(http_guard_work_begin(g, &root) == 0);
	http_guard_work_done(g, &a1);
	CHECK(http_guard_work_begin(g, &c) == 0);
	http_guard_work_done(g, &b);
	http_guard_work_done(g, &c);
	http_guard_work_done(g, &root);
	http_guard_work_done(g, &root);
	http_guard_closed(g, &a1);
	http_guard_closed(g, &a2);
	http_guard_closed(g, &b);
	http_guard_closed(g, &c);
	http_guard_closed(g, &root);
	http_guard_free(g);
}

/* A connection waiting for its request past the deadline is shut down; one
 * whose request is being answered is not. */
static void test_deadline(void)
{
	int slow[2], busy[2];
	struct http_conn s, b;
	struct http_guard *g;
	char ch;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, slow) == 0);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, busy) == 0);
	s = conn_of("uid 1000", false, slow[0]);
	b = conn_of("uid 1001", false, busy[0]);
	CHECK(http_guard_new(64, &g) == 0);
	CHECK(http_guard_admit(g, &s) && http_guard_admit(g, &b));
	http_guard_request_started(g, &b);
	CHECK_EQ_U(http_guard_reap(g, s.waiting_since_ns + HTTP_REQUEST_DEADLINE_NS), 0);
	CHECK_EQ_U(http_guard_reap(g, s.waiting_since_ns + HTTP_REQUEST_DEADLINE_NS + 1), 1);
	CHECK(read(slow[1], &ch, 1) == 0);           /* the client sees the end */
	CHECK_EQ_U(http_guard_reap(g, s.waiting_since_ns + 2 * HTTP_REQUEST_DEADLINE_NS), 0);
	/* answered: waiting again, under a new deadline */
	http_guard_request_done(g, &b);
	CHECK_EQ_U(http_guard_reap(g, b.waiting_since_ns + HTTP_REQUEST_DEADLINE_NS + 1), 1);
	http_guard_closed(g, &s);
	http_guard_closed(g, &b);
	http_guard_free(g);
	close(slow[0]);
	close(slow[1]);
	close(busy[0]);
	close(busy[1]);
}

int main(void)
{
	test_shares();
	test_work();
	test_deadline();
	return 0;
}
