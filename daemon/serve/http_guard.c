/*
 * http_guard.c - see http_guard.h.
 *
 * Shares, from the connection budget N (http_max_connections, or fewer
 * when the open-file limit allows fewer: http_budget.h): every peer
 * without full access holds at most max(2, N/8) connections, and all of
 * them together at most N - max(2, N/4), so the rest is always there for
 * root, the daemon's own user and http_full_access; a peer with full
 * access holds at most max(2, N/2).  Nobody holds more than N.
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
	pthread_cond_t work_cond;      /* a work place freed */
	unsigned max_total, max_per_peer, max_per_full, max_limited, max_work;
	unsigned total, limited, limited_work, work;
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

int http_guard_new(unsigned max_connections, unsigned max_work, struct http_guard **ret)
{
	struct http_guard *g = calloc(1, sizeof(*g));
	pthread_condattr_t attr;

	if (g == NULL)
		return -ENOMEM;
	g->max_total = at_least(max_connections, 4);
	g->max_per_peer = at_least(g->max_total / 8, 2);
	g->max_per_full = at_least(g->max_total / 2, 2);
	g->max_limited = g->max_total - at_least(g->max_total / 4, 2);
	g->max_work = at_least(max_work, 1);
	pthread_mutex_init(&g->lock, NULL);
	/* The waits run on the monotonic clock: a wall clock stepped back
	 * must not put the deadline to sleep. */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&g->stop_cond, &attr);
	pthread_cond_init(&g->work_cond, &attr);
	pthread_condattr_destroy(&attr);
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
	pthread_cond_destroy(&g->work_cond);
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

int http_guard_admit(struct http_guard *g, struct http_conn *c)
{
	int r = 0;

	pthread_mutex_lock(&g->lock);
	if (g->total >= g->max_total || (!c->full && g->limited >= g->max_limited))
		r = -EAGAIN;
	else if (held_by(g, c->peer) >= (c->full ? g->max_per_full : g->max_per_peer))
		r = -EBUSY;
	if (r == 0) {
		g->total++;
		g->limited += !c->full;
		c->admitted = true;
		c->reading = true;
		c->reading_since_ns = monotonic_ns();
		c->prev = NULL;
		c->next = g->conns;
		if (g->conns != NULL)
			g->conns->prev = c;
		g->conns = c;
	} else {
		g->stats.refused++;
	}
	pthread_mutex_unlock(&g->lock);
	return r;
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
	c->reading = false;
	pthread_mutex_unlock(&g->lock);
}

void http_guard_request_done(struct http_guard *g, struct http_conn *c)
{
	pthread_mutex_lock(&g->lock);
	c->reading = true;
	c->reading_since_ns = monotonic_ns();
	pthread_mutex_unlock(&g->lock);
}

/* Uncached answers this peer has being computed now. */
static unsigned work_of(const struct http_guard *g, const char *peer)
{
	const struct http_conn *o;
	unsigned n = 0;

	for (o = g->conns; o != NULL; o = o->next)
		if (strcmp(o->peer, peer) == 0)
			n += o->work;
	return n;
}

/* A peer with full access waits (a dashboard asks for a few series at
 * once); one without gets its answer at once: 429 is its cue to slow
 * down, and a waiting request would hold a connection of its share. */
static bool wait_for_work(struct http_guard *g, uint64_t deadline_ns)
{
	struct timespec ts = { (time_t)(deadline_ns / NS_PER_SEC),
			       (long)(deadline_ns % NS_PER_SEC) };

	while (g->work >= g->max_work)
		if (pthread_cond_timedwait(&g->work_cond, &g->lock, &ts) != 0)
			return g->work < g->max_work;
	return true;
}

int http_guard_work_begin(struct http_guard *g, struct http_conn *c)
{
	int r = 0;

	pthread_mutex_lock(&g->lock);
	if (c->full) {
		if (!wait_for_work(g, monotonic_ns() + HTTP_WORK_WAIT_NS))
			r = -EAGAIN;
	} else if (work_of(g, c->peer) >= HTTP_WORK_PER_PEER ||
		   g->limited_work >= HTTP_WORK_LIMITED_TOTAL) {
		r = -EBUSY;
	} else if (g->work >= g->max_work) {
		r = -EAGAIN;
	}
	if (r == 0) {
		c->work++;
		g->work++;
		g->limited_work += !c->full;
	} else if (r == -EBUSY) {
		g->stats.throttled++;
	} else {
		g->stats.busy++;
	}
	pthread_mutex_unlock(&g->lock);
	return r;
}

void http_guard_work_done(struct http_guard *g, struct http_conn *c)
{
	pthread_mutex_lock(&g->lock);
	c->work--;
	g->work--;
	g->limited_work -= !c->full;
	pthread_cond_signal(&g->work_cond);
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
		 * reading since is not past anything) */
		if (c->reading && now_ns > c->reading_since_ns &&
		    now_ns - c->reading_since_ns > HTTP_REQUEST_DEADLINE_NS) {
			(void)shutdown(c->fd, SHUT_RDWR);
			c->reading = false;   /* once */
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
