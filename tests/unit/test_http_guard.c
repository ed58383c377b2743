/*
 * test_http_guard.c - connection shares, the part kept for full access,
 * a full-access peer's own share, the per-peer and whole-server work
 * bounds and the request deadline, body included (http_guard.c).
 */
#include "daemon/serve/http_guard.h"
#include "test.h"

#include <errno.h>
#include <pthread.h>
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

	CHECK(http_guard_new(64, 16, &g) == 0);
	for (i = 0; i < 10; i++)
		c[i] = conn_of("uid 1000", false, -1);
	for (i = 0; i < 10; i++)
		admitted += http_guard_admit(g, &c[i]) == 0;
	CHECK_EQ_U(admitted, 8);
	c[9] = conn_of("uid 1000", false, -1);
	CHECK(http_guard_admit(g, &c[9]) == -EBUSY);   /* its share: 429 */
	/* other limited peers fill the limited part: 48 in all */
	for (i = 10; i < 60; i++) {
		snprintf(peer, sizeof(peer), "uid %d", 2000 + i);
		c[i] = conn_of(peer, false, -1);
		admitted += http_guard_admit(g, &c[i]) == 0;
	}
	CHECK_EQ_U(admitted, 48);
	/* root still gets in, up to the whole budget (two root clients:
	 * neither over its own half) */
	for (i = 60; i < 80; i++) {
		c[i] = conn_of(i % 2 ? "uid 0 pid 10" : "uid 0 pid 11", true, -1);
		admitted += http_guard_admit(g, &c[i]) == 0;
	}
	CHECK_EQ_U(admitted, 64);
	/* the whole budget is in use: even root waits (503) */
	extra = conn_of("uid 0 pid 12", true, -1);
	CHECK(http_guard_admit(g, &extra) == -EAGAIN);
	/* a closed connection frees its peer's place */
	http_guard_closed(g, &c[0]);
	c[0] = conn_of("uid 1000", false, -1);
	CHECK(http_guard_admit(g, &c[0]) == 0);
	http_guard_stats(g, &st);
	CHECK_EQ_U(st.refused, 2 + 1 + 10 + 4 + 1);
	for (i = 0; i < 80; i++)
		http_guard_closed(g, &c[i]);
	http_guard_free(g);
}

/* One client with full access holds at most half the budget: it cannot
 * keep root's stackctl (another process on the Unix socket) out. */
static void test_full_share(void)
{
	struct http_conn hog[64], other;
	struct http_guard *g;
	int i, admitted = 0;

	CHECK(http_guard_new(64, 16, &g) == 0);
	for (i = 0; i < 64; i++) {
		hog[i] = conn_of("uid 0 over TCP", true, -1);
		admitted += http_guard_admit(g, &hog[i]) == 0;
	}
	CHECK_EQ_U(admitted, 32);
	other = conn_of("uid 0 pid 4242", true, -1);
	CHECK(http_guard_admit(g, &other) == 0);
	http_guard_closed(g, &other);
	for (i = 0; i < 64; i++)
		http_guard_closed(g, &hog[i]);
	http_guard_free(g);
}

static void test_work(void)
{
	struct http_conn a1 = conn_of("uid 1000", false, -1), a2 = conn_of("uid 1000", false, -1);
	struct http_conn b = conn_of("uid 1001", false, -1), c = conn_of("uid 1002", false, -1);
	struct http_conn root = conn_of("uid 0", true, -1);
	struct http_guard *g;

	CHECK(http_guard_new(64, 16, &g) == 0);
	CHECK(http_guard_admit(g, &a1) == 0 && http_guard_admit(g, &a2) == 0 &&
	      http_guard_admit(g, &b) == 0 && http_guard_admit(g, &c) == 0 &&
	      http_guard_admit(g, &root) == 0);
	CHECK(http_guard_work_begin(g, &a1) == 0);
	CHECK(http_guard_work_begin(g, &a2) == -EBUSY);   /* same peer, other connection */
	CHECK(http_guard_work_begin(g, &b) == 0);
	CHECK(http_guard_work_begin(g, &c) == -EBUSY);    /* limited peers' total */
	CHECK(http_guard_work_begin(g, &root) == 0);      /* not by shares */
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

struct waiter {
	struct http_guard *g;
	struct http_conn *c;
	int r;
};

static void *work_later(void *arg)
{
	struct waiter *w = arg;

	w->r = http_guard_work_begin(w->g, w->c);
	return NULL;
}

/* The server's work places (one database connection each): a peer with
 * full access waits for one, a limited peer is told at once. */
static void test_work_places(void)
{
	struct http_conn r1 = conn_of("uid 0 pid 1", true, -1), r2 = conn_of("uid 0 pid 2", true, -1);
	struct http_conn u = conn_of("uid 1000", false, -1);
	struct http_guard_stats st;
	struct http_guard *g;
	struct waiter w;
	pthread_t t;
	uint64_t t0;

	CHECK(http_guard_new(64, 1, &g) == 0);
	CHECK(http_guard_admit(g, &r1) == 0 && http_guard_admit(g, &r2) == 0 &&
	      http_guard_admit(g, &u) == 0);
	CHECK(http_guard_work_begin(g, &r1) == 0);
	CHECK(http_guard_work_begin(g, &u) == -EAGAIN);   /* no place: 503 at once */
	/* root's second request waits for the place, and gets it */
	w = (struct waiter){ g, &r2, 1 };
	CHECK(pthread_create(&t, NULL, work_later, &w) == 0);
	usleep(100000);
	CHECK(w.r == 1);                                   /* still waiting */
	http_guard_work_done(g, &r1);
	pthread_join(t, NULL);
	CHECK(w.r == 0);
	/* a place never freed: 503 after HTTP_WORK_WAIT_NS */
	t0 = monotonic_ns();
	CHECK(http_guard_work_begin(g, &r1) == -EAGAIN);
	CHECK(monotonic_ns() - t0 >= HTTP_WORK_WAIT_NS);
	http_guard_work_done(g, &r2);
	http_guard_stats(g, &st);
	CHECK_EQ_U(st.busy, 2);
	http_guard_closed(g, &r1);
	http_guard_closed(g, &r2);
	http_guard_closed(g, &u);
	http_guard_free(g);
}

/* A connection still reading its request past the deadline is shut down,
 * whether it trickles the header or the body; one whose request is whole
 * (being answered) is not. */
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
	CHECK(http_guard_new(64, 16, &g) == 0);
	CHECK(http_guard_admit(g, &s) == 0 && http_guard_admit(g, &b) == 0);
	http_guard_request_started(g, &b);
	CHECK_EQ_U(http_guard_reap(g, s.reading_since_ns + HTTP_REQUEST_DEADLINE_NS), 0);
	CHECK_EQ_U(http_guard_reap(g, s.reading_since_ns + HTTP_REQUEST_DEADLINE_NS + 1), 1);
	CHECK(read(slow[1], &ch, 1) == 0);           /* the client sees the end */
	CHECK_EQ_U(http_guard_reap(g, s.reading_since_ns + 2 * HTTP_REQUEST_DEADLINE_NS), 0);
	/* answered: reading the next request, under a new deadline */
	http_guard_request_done(g, &b);
	CHECK_EQ_U(http_guard_reap(g, b.reading_since_ns + HTTP_REQUEST_DEADLINE_NS + 1), 1);
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
	test_full_share();
	test_work();
	test_work_places();
	test_deadline();
	return 0;
}
