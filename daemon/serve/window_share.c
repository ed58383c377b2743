/*
 * window_share.c - windows computed once and lent to every request that
 * asks for the same length (window_share.h).  A lent window is never
 * changed: a newer one replaces it in the table, and the old one is freed
 * when its last reader puts it back.
 */
#include "daemon/serve/window_share.h"
#include "lib/clock.h"
#include "lib/top_rank.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A computed window and how many readers hold it (the table's own
 * reference counts as one). */
struct shared {
	struct window w;       /* first: a lent window is its struct shared */
	unsigned refs;
};

struct entry {
	uint64_t window_ns;        /* 0: free */
	struct shared *cur;        /* the newest computed; NULL: none yet */
	uint64_t generation;       /* of the data cur was computed from */
	uint64_t epoch;            /* the share's epoch then (window_share_forget) */
	uint64_t made_ns;          /* CLOCK_MONOTONIC when its computation began */
	uint64_t lent_ns;          /* CLOCK_MONOTONIC when last lent or made */
	uint64_t used;             /* LRU clock */
	bool computing;            /* a request is computing a newer one */
	bool refresh;              /* the refresher is asked for a newer one */
	/* Each computation's number, and the last that failed with what:
	 * the requests that waited for it get its answer, not a turn each
	 * at the same failure (one CPU cap after another). */
	uint64_t round, failed_round;
	int failed_r;
	char failed_err[256];
};

struct window_share {
	pthread_mutex_t lock;
	pthread_cond_t done;       /* a computation ended */
	atomic_uint_fast64_t *generation;
	window_share_compute_fn *compute;
	struct entry e[WINDOW_SHARE_ENTRIES];
	uint64_t clock, computed, epoch;
	/* The refresher (window_share_start_refresher): a thread that sums
	 * a window again while requests are lent the previous one. */
	pthread_t refresher;
	bool refreshing, stop;
	pthread_cond_t wanted;     /* an entry's refresh was asked for, or stop */
	char database[4096];       /* "": the compute function takes db NULL */
	uint64_t cpu_cap_ns;
};

struct window_share *window_share_new(atomic_uint_fast64_t *generation,
				      window_share_compute_fn *compute)
{
	struct window_share *ws = calloc(1, sizeof(*ws));

	if (ws == NULL)
		return NULL;
	pthread_condattr_t ca;

	pthread_mutex_init(&ws->lock, NULL);
	/* waits are bounded on the monotonic clock (WINDOW_SHARE_WAIT_NS) */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ws->done, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&ws->wanted, NULL);
	ws->generation = generation;
	ws->compute = compute != NULL ? compute : query_window;
	return ws;
}

/* Drop one reference (under the lock, or with the share gone). */
static void unref(struct shared *sh)
{
	if (sh != NULL && --sh->refs == 0) {
		top_ranks_free(sh->w.ranks);
		window_done(&sh->w);
		free(sh);
	}
}

void window_share_free(struct window_share *ws)
{
	size_t i;

	if (ws == NULL)
		return;
	if (ws->refreshing) {
		pthread_mutex_lock(&ws->lock);
		__atomic_store_n(&ws->stop, true, __ATOMIC_RELAXED);
		pthread_cond_signal(&ws->wanted);
		pthread_mutex_unlock(&ws->lock);
		pthread_join(ws->refresher, NULL);
	}
	for (i = 0; i < WINDOW_SHARE_ENTRIES; i++)
		unref(ws->e[i].cur);
	pthread_cond_destroy(&ws->wanted);
	pthread_cond_destroy(&ws->done);
	pthread_mutex_destroy(&ws->lock);
	free(ws);
}

/* cur may still be lent for window_ns: computed from the data now stored,
 * or, for a long window, recently enough that the newer intervals are a
 * sliver of it. */
static bool current(const struct window_share *ws, const struct entry *e, uint64_t now)
{
	return e->cur != NULL && e->epoch == ws->epoch &&
	       (e->generation == atomic_load(ws->generation) ||
		now - e->made_ns < e->window_ns / WINDOW_SHARE_LAG_DIV);
}

/* cur may be lent while a newer one is computed: from this database and
 * model, and not older than a few intervals (or its lag) - after hours
 * without a request, a dashboard's burst waits for the fresh window
 * rather than take one from hours ago. */
static bool lendable(const struct window_share *ws, const struct entry *e, uint64_t now)
{
	uint64_t lag = e->window_ns / WINDOW_SHARE_LAG_DIV;

	return e->cur != NULL && e->epoch == ws->epoch &&
	       now - e->made_ns <= (lag > WINDOW_SHARE_LEND_NS ? lag : WINDOW_SHARE_LEND_NS);
}

/* Windows nobody asked for in WINDOW_SHARE_IDLE_NS go: a day's window of
 * a churning host can hold many megabytes, for no reader. */
static void drop_idle(struct window_share *ws, uint64_t now)
{
	size_t i;

	for (i = 0; i < WINDOW_SHARE_ENTRIES; i++) {
		struct entry *e = &ws->e[i];

		if (e->window_ns != 0 && !e->computing && now > e->lent_ns &&
		    now - e->lent_ns > WINDOW_SHARE_IDLE_NS) {
			unref(e->cur);
			memset(e, 0, sizeof(*e));
		}
	}
}

/* The entry of window_ns, or a free or least recently used one (not being
 * computed) made its; NULL when every entry is being computed. */
static struct entry *entry_for(struct window_share *ws, uint64_t window_ns, uint64_t now)
{
	struct entry *victim = NULL;
	size_t i;

	drop_idle(ws, now);
	for (i = 0; i < WINDOW_SHARE_ENTRIES; i++)
		if (ws->e[i].window_ns == window_ns)
			return &ws->e[i];
	for (i = 0; i < WINDOW_SHARE_ENTRIES; i++) {
		struct entry *e = &ws->e[i];

		if (!e->computing && (victim == NULL || e->used < victim->used))
			victim = e;
	}
	if (victim == NULL)
		return NULL;
	unref(victim->cur);
	memset(victim, 0, sizeof(*victim));
	victim->window_ns = window_ns;
	victim->lent_ns = now;
	return victim;
}

/* Compute a window into a new struct shared held once for the caller. */
static int compute_one(struct window_share *ws, struct db *db, uint64_t window_ns,
		       struct shared **ret, char *err, size_t errlen)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	int r;

	if (sh == NULL)
		return -ENOMEM;
	r = ws->compute(db, window_ns, &sh->w, err, errlen);
	if (r < 0) {
		free(sh);
		return r;
	}
	/* NULL when out of memory: then each request sorts for itself */
	sh->w.ranks = top_ranks_new();
	sh->refs = 1;
	*ret = sh;
	return 0;
}

/* Wait for the computation under way, until deadline: 0, or -EAGAIN
 * when it took too long (the caller answers 503: try again). */
static int wait_done(struct window_share *ws, uint64_t deadline, char *err, size_t errlen)
{
	struct timespec ts = { (time_t)(deadline / NS_PER_SEC), (long)(deadline % NS_PER_SEC) };

	if (pthread_cond_timedwait(&ws->done, &ws->lock, &ts) == ETIMEDOUT) {
		snprintf(err, errlen, "this window is still being summed for another request "
			 "(over %llu s): try again shortly",
			 (unsigned long long)(WINDOW_SHARE_WAIT_NS / NS_PER_SEC));
		return -EAGAIN;
	}
	return 0;
}

/* Lend the window of window_ns: 0; 1 when the caller must compute it
 * (*ret is its entry, marked, or NULL when none is free); or the failure
 * of the computation it waited for (-errno, err). */
static int lend_or_elect(struct window_share *ws, uint64_t window_ns, const struct window **out,
			 struct entry **ret, char *err, size_t errlen)
{
	uint64_t deadline = clock_ns(CLOCK_MONOTONIC) + WINDOW_SHARE_WAIT_NS, waited = 0;

	for (;;) {
		uint64_t now = clock_ns(CLOCK_MONOTONIC);
		struct entry *e = entry_for(ws, window_ns, now);
		int r;

		*ret = e;
		if (e == NULL)
			return 1;
		if (waited != 0 && e->failed_round == waited) {
			snprintf(err, errlen, "%s", e->failed_err);
			return e->failed_r;
		}
		if (current(ws, e, now) || ((e->computing || ws->refreshing) && lendable(ws, e, now))) {
			if (!current(ws, e, now) && !e->computing && !e->refresh) {
				/* the sums of a moment ago now, newer ones from
				 * the refresher for the next request */
				e->refresh = true;
				pthread_cond_signal(&ws->wanted);
			}
			e->cur->refs++;
			e->used = ++ws->clock;
			e->lent_ns = now;
			*out = &e->cur->w;
			return 0;
		}
		if (!e->computing) {
			e->computing = true;
			e->round++;
			return 1;
		}
		/* a computation of this window is under way: the answer is
		 * the same for us, wait rather than sum it again (then look
		 * again: the entry may have gone to another length) */
		waited = e->round;
		r = wait_done(ws, deadline, err, errlen);
		if (r < 0)
			return r;
	}
}

/* What a computation was made from: the data's generation, the share's
 * epoch and the time, all read before the sums. */
struct made {
	uint64_t generation, epoch, ns;
};

/* A computation of e ended (under the lock): its window replaces the
 * entry's (the table holds a reference of its own), or its failure is
 * the answer of the requests that waited for it. */
static void finish(struct window_share *ws, struct entry *e, int r, struct shared *sh,
		   struct made m, const char *err)
{
	/* entry_for never takes an entry being computed: e is still ours */
	e->computing = false;
	if (r == 0 && sh != NULL) {
		unref(e->cur);
		e->cur = sh;
		sh->refs++;
		e->generation = m.generation;
		e->epoch = m.epoch;
		e->made_ns = m.ns;
		e->lent_ns = clock_ns(CLOCK_MONOTONIC);
		e->used = ++ws->clock;
	} else {
		e->failed_round = e->round;
		e->failed_r = r;
		snprintf(e->failed_err, sizeof(e->failed_err), "%s", err);
	}
	pthread_cond_broadcast(&ws->done);
}

int window_share_get(void *ctx, struct db *db, uint64_t window_ns, const struct window **out,
		     char *err, size_t errlen)
{
	struct window_share *ws = ctx;
	struct shared *sh = NULL;
	struct entry *e;
	uint64_t gen, made, epoch;
	int r;

	pthread_mutex_lock(&ws->lock);
	r = lend_or_elect(ws, window_ns, out, &e, err, errlen);
	if (r <= 0) {
		pthread_mutex_unlock(&ws->lock);
		return r;
	}
	ws->computed++;
	epoch = ws->epoch;
	pthread_mutex_unlock(&ws->lock);
	/* read the generation before the data: a newer interval stored while
	 * we sum leaves the result stale, never wrongly current */
	gen = atomic_load(ws->generation);
	made = clock_ns(CLOCK_MONOTONIC);
	r = compute_one(ws, db, window_ns, &sh, err, errlen);
	pthread_mutex_lock(&ws->lock);
	if (e != NULL)
		finish(ws, e, r, sh, (struct made){ gen, epoch, made }, err);
	pthread_mutex_unlock(&ws->lock);
	if (r == 0)
		*out = &sh->w;
	return r;
}

void window_share_put(void *ctx, const struct window *w)
{
	struct window_share *ws = ctx;

	if (w == NULL)
		return;
	pthread_mutex_lock(&ws->lock);
	/* w is the first member of its struct shared */
	unref((struct shared *)(void *)(uintptr_t)w);
	pthread_mutex_unlock(&ws->lock);
}

/* The refresher's next job (under the lock): an entry asked for and not
 * being computed, marked; NULL when stopping. */
static struct entry *next_refresh(struct window_share *ws)
{
	size_t i;

	for (;;) {
		if (ws->stop)
			return NULL;
		for (i = 0; i < WINDOW_SHARE_ENTRIES; i++) {
			struct entry *e = &ws->e[i];

			if (e->refresh && !e->computing && e->window_ns != 0) {
				e->refresh = false;
				e->computing = true;
				e->round++;
				return e;
			}
		}
		pthread_cond_wait(&ws->wanted, &ws->lock);
	}
}

/* A refresh stops at the CPU time a request may take
 * (http_query_cpu_limit), or when the share is freed (stackd stopping). */
struct refresh_cap {
	const struct window_share *ws;
	uint64_t until_ns;   /* CLOCK_THREAD_CPUTIME_ID */
};

static int refresh_over(void *ctx)
{
	const struct refresh_cap *cap = ctx;

	return __atomic_load_n(&cap->ws->stop, __ATOMIC_RELAXED) ||
	       clock_ns(CLOCK_THREAD_CPUTIME_ID) > cap->until_ns;
}

static void *refresher_main(void *arg)
{
	struct window_share *ws = arg;
	struct db *db = NULL;
	uint64_t db_epoch = 0;
	struct entry *e;

	pthread_mutex_lock(&ws->lock);
	while ((e = next_refresh(ws)) != NULL) {
		struct made m = { atomic_load(ws->generation), ws->epoch, clock_ns(CLOCK_MONOTONIC) };
		uint64_t window_ns = e->window_ns;
		struct refresh_cap cap = { ws, 0 };
		struct shared *sh = NULL;
		char err[256] = "";
		int r = 0;

		ws->computed++;
		pthread_mutex_unlock(&ws->lock);
		if (db != NULL && db_epoch != m.epoch) {
			db_close(db);   /* a replaced file: read the new one */
			db = NULL;
		}
		if (db == NULL && ws->database[0] != '\0') {
			r = db_open(ws->database, &db, err, sizeof(err));
			db_epoch = m.epoch;
		}
		if (r == 0) {
			cap.until_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ws->cpu_cap_ns;
			if (db != NULL)
				db_set_stop(db, refresh_over, &cap);
			r = compute_one(ws, db, window_ns, &sh, err, sizeof(err));
			if (db != NULL)
				db_set_stop(db, NULL, NULL);
		}
		pthread_mutex_lock(&ws->lock);
		finish(ws, e, r, sh, m, err);
		if (r == 0)
			unref(sh);   /* compute_one's reference: no request holds it */
	}
	pthread_mutex_unlock(&ws->lock);
	db_close(db);
	return NULL;
}

int window_share_start_refresher(struct window_share *ws, const char *database,
				 uint64_t cpu_cap_ns)
{
	snprintf(ws->database, sizeof(ws->database), "%s", database != NULL ? database : "");
	ws->cpu_cap_ns = cpu_cap_ns;
	if (pthread_create(&ws->refresher, NULL, refresher_main, ws) != 0)
		return -EAGAIN;
	ws->refreshing = true;
	return 0;
}

void window_share_release_idle(struct window_share *ws, uint64_t now_ns)
{
	if (ws == NULL)
		return;
	pthread_mutex_lock(&ws->lock);
	drop_idle(ws, now_ns);
	pthread_mutex_unlock(&ws->lock);
}

void window_share_forget(struct window_share *ws)
{
	if (ws == NULL)
		return;
	pthread_mutex_lock(&ws->lock);
	ws->epoch++;
	pthread_mutex_unlock(&ws->lock);
}

uint64_t window_share_computed(struct window_share *ws)
{
	uint64_t n;

	pthread_mutex_lock(&ws->lock);
	n = ws->computed;
	pthread_mutex_unlock(&ws->lock);
	return n;
}
