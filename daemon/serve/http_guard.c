/*
 * http_guard.c - see http_guard.h.
 *
 * Shares, from http_max_connections = N: every peer without full access
 * holds at most max(2, N/8) connections, and all of them together at most
 * N - max(2, N/4), so the rest is always there for root, the daemon's own
 * user and http_full_access.  Nobody holds more than N.
 */
#include "daemon/serve/http_guard.h"
#include "lib/clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define REAP_EVERY_NS (500ULL * (uint64_t)NS_PER_MSEC)

struct http_guard {
	pthread_mutex_t lock;
	pthread_cond_t stop_cond;
	pthread_t reaper;
	bool reaper_running, stopping;
	unsigned max_total, max_per_peer, max_limited;
	unsigned total, limited, limited_work;
	struct http_conn *conns;       /* admitted, in a list for the reaper */
	struct http_guard_stats stats;
};

static unsigned at_least(unsigned v, unsigned floor)
{
	return v > floor ? v : floor;
}

static void *reaper_main(void *arg)
{
	struct http_guard *g = arg;

	pthread_mutex_lock(&g->lock);
	while (!g->stopping) {
		uint64_t next = monotonic_ns() + REAP_EVERY_NS;
		struct timespec ts = { (time_t)(next / NS_PER_SEC), (long)(next % NS_PER_SEC) };

		pthread_cond_timedwait(&g->stop_cond, &g->lock, &ts);
		if (g->stopping)
			break;
		pthread_mutex_unlock(&g->lock);
		(void)http_guard_reap(g, monotonic_ns());
		pthread_mutex_lock(&g->lock);
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

int http_guard_new(unsigned max_connections, struct http_guard **ret)
{
	struct http_guard *g = calloc(1, sizeof(*g));

	if (g == NULL)
		return -ENOMEM;
	g->max_total = at_least(max_connections, 4);
	g->max_per_peer = at_least(g->max_total / 8, 2);
	g->max_limited = g->max_total - at_least(g->max_total / 4, 2);
	pthread_mutex_init(&g->lock, NULL);
	{
		/* The wait runs on the monotonic clock: a wall clock stepped
		 * back must not put the deadline to sleep. */
		pthread_condattr_t attr;

		pthread_condattr_init(&attr);
		pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
		pthread_cond_init(&g->stop_cond, &attr);
		pthread_condattr_destroy(&attr);
	}
	if (pthread_create(&g->reaper, NULL, reaper_main, g) != 0) {
		http_guard_free(g);
		return -EAGAIN;
	}
	g->reaper_running = true;
	*ret = g;
	return 0;
}

void http_guard_free(struct http_guard *g)
{
	if (g == NULL)
		return;
	if (g->reaper_running) {
		pthread_mutex_lock(&g->lock);
		g->stopping = true;
		pthread_cond_signal(&g->stop_cond);
		pthread_mutex_unlock(&g->lock);
		pthread_join(g->reaper, NULL);
	}
	pthread_cond_destroy(&g->stop_cond);
	pthread_mutex_destroy(&g->lock);
	free(g);
}

/* Connections this peer holds now (the list is at most max_total long). */
static unsigned held_by(const struct http_guard *g, const char *peer)
{
	const struct http_conn *c;
	unsigned n = 0;

	for (c = g->conns; c != NULL; c = c->next)
		n += strcmp(c->peer, peer) == 0;
	return n;
}

bool http_guard_admit(struct http_guard *g, struct http_conn *c)
{
	bool ok;

	pthread_mutex_lock(&g->lock);
	ok = g->total < g->max_total;
	if (ok && !c->full)
		ok = g->limited < g->max_limited && held_by(g, c->peer) < g->max_per_peer;
	if (ok) {
		g->total++;
		g->limited += !c->full;
		c->admitted = true;
		c->waiting = true;
		c->waiting_since_ns = monotonic_ns();
		c->prev = NULL;
		c->next = g->conns;
		if (g->conns != NULL)
			g->conns->prev = c;
		g->conns = c;
	} else {
		g->stats.refused++;
	}
	pthread_mutex_unlock(&g->lock);
	return ok;
}

void http_guard_closed(struct http_guard *g, struct http_conn *c)
{
	if (!c->admitted)
		return;
	pthread_mutex_lock(&g->lock);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		g->conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	g->total--;
	g->limited -= !c->full;
	c->admitted = false;
	pthread_mutex_unlock(&g->lock);
}

void http_guard_request_started(struct http_guard *g, struct http_conn *c)
{
	pthread_mutex_lock(&g->lock);
	c->waiting = false;
	pthread_mutex_unlock(&g->lock);
}

void http_guard_request_done(struct http_guard *g, struct http_conn *c)
{
	pthread_mutex_lock(&g->lock);
	c->waiting = true;
	c->waiting_since_ns = monotonic_ns();
	pthread_mutex_unlock(&g->lock);
}

int http_guard_work_begin(struct http_guard *g, struct http_conn *c)
{
	const struct http_conn *o;
	unsigned peer_work = 0;
	int r = 0;

	if (c->full)
		return 0;
	pthread_mutex_lock(&g->lock);
	for (o = g->conns; o != NULL; o = o->next)
		if (strcmp(o->peer, c->peer) == 0)
			peer_work += o->work;
	if (peer_work >= HTTP_WORK_PER_PEER || g->limited_work >= HTTP_WORK_LIMITED_TOTAL) {
		g->stats.throttled++;
		r = -EBUSY;
	} else {
		c->work++;
		g->limited_work++;
	}
	pthread_mutex_unlock(&g->lock);
	return r;
}

void http_guard_work_done(struct http_guard *g, struct http_conn *c)
{
	if (c->full)
		return;
	pthread_mutex_lock(&g->lock);
	c->work--;
	g->limited_work--;
	pthread_mutex_unlock(&g->lock);
}

unsigned http_guard_reap(struct http_guard *g, uint64_t now_ns)
{
	struct http_conn *c;
	unsigned n = 0;

	/* Under the lock: libmicrohttpd reports a close (http_guard_closed,
	 * same lock) before it closes the descriptor, so every fd here is
	 * still the connection's.  shutdown() makes its thread see the end of
	 * the stream and close it in the ordinary way. */
	pthread_mutex_lock(&g->lock);
	for (c = g->conns; c != NULL; c = c->next)
		/* (now_ns was read before the lock: a connection that started
		 * waiting since is not past anything) */
		if (c->waiting && now_ns > c->waiting_since_ns &&
		    now_ns - c->waiting_since_ns > HTTP_REQUEST_DEADLINE_NS) {
			(void)shutdown(c->fd, SHUT_RDWR);
			c->waiting = false;   /* once */
			n++;
		}
	g->stats.reaped += n;
	pthread_mutex_unlock(&g->lock);
	return n;
}

void http_guard_stats(struct http_guard *g, struct http_guard_stats *ret)
{
	pthread_mutex_lock(&g->lock);
	*ret = g->stats;
	pthread_mutex_unlock(&g->lock);
}
