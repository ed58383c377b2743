/*
 * worker.c - a worker as the main thread holds it: set up and freed,
 * asked for a flush, a pause or new settings (atomics, then a nudge on its
 * eventfd), and its handovers collected and given back.  Its thread is
 * worker_thread.c.
 */
#include "daemon/collect/worker.h"
#include "lib/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define WORKER_MAX_SPARES 2

struct handover *handover_new(int cpu, struct exitlog *shared)
{
	struct handover *h = calloc(1, sizeof(*h));

	if (h == NULL)
		return NULL;
	if (cpuacc_init(&h->acc) < 0) {
		free(h);
		return NULL;
	}
	h->cpu = cpu;
	h->acc.shared = shared;
	return h;
}

void handover_free(struct handover *h)
{
	if (h == NULL)
		return;
	cpuacc_done(&h->acc);
	free(h->life);
	free(h);
}

int worker_init(struct worker *w, struct collector *col, struct cpu_events *ev,
		uint64_t rotate_ns, int32_t self_pid)
{
	pthread_condattr_t ca;

	memset(w, 0, sizeof(*w));
	w->col = col;
	w->ev = ev;
	w->rotate_ns = rotate_ns;
	w->self_pid = self_pid;
	w->period_rng = (uint64_t)ev->cpu + 1;
	for (unsigned g = 0; g < col->n_groups; g++)
		w->has_groups |= collector_group_here(ev, g);
	w->cmd_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->cmd_fd < 0)
		return -errno;
	w->cur = handover_new(ev->cpu, &col->exits);
	if (w->cur == NULL) {
		close(w->cmd_fd);
		return -ENOMEM;
	}
	attrib_init(&w->at, col->layout, col->n_groups, self_pid, &w->cur->acc);
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	return 0;
}

static void nudge(struct worker *w)
{
	uint64_t one = 1;

	(void)!write(w->cmd_fd, &one, sizeof(one));
}

void worker_request_flush(struct worker *w, uint64_t seq)
{
	__atomic_store_n(&w->flush_seq, seq, __ATOMIC_RELEASE);
	nudge(w);
}

struct handover *worker_collect(struct worker *w, uint64_t seq, uint64_t deadline_ns,
				bool *ret_timed_out)
{
	struct handover *list;
	struct timespec ts = { (time_t)(deadline_ns / NS_PER_SEC),
			       (long)(deadline_ns % NS_PER_SEC) };
	bool timed_out = false;

	pthread_mutex_lock(&w->lock);
	while (w->posted_seq < seq) {
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT) {
			timed_out = w->posted_seq < seq;
			break;
		}
	}
	list = w->ready;
	w->ready = NULL;
	pthread_mutex_unlock(&w->lock);
	if (ret_timed_out != NULL)
		*ret_timed_out = timed_out;
	return list;
}

void worker_recycle(struct worker *w, struct handover *h)
{
	struct handover *s;
	unsigned n = 0;

	pthread_mutex_lock(&w->lock);
	for (s = w->spare; s != NULL; s = s->next)
		n++;
	if (n < WORKER_MAX_SPARES) {
		h->next = w->spare;
		w->spare = h;
		h = NULL;
	}
	pthread_mutex_unlock(&w->lock);
	handover_free(h);
}

void worker_hold_review(struct worker *w, bool on)
{
	/* released: the worker re-baselines at its next tick before reviewing
	 * again, so no held time reaches a review */
	__atomic_store_n(&w->review_hold, on ? REVIEW_HELD : REVIEW_RELEASED, __ATOMIC_RELAXED);
}

bool worker_pause(struct worker *w, bool on, uint64_t deadline_ns)
{
	struct timespec ts = { (time_t)(deadline_ns / NS_PER_SEC),
			       (long)(deadline_ns % NS_PER_SEC) };
	bool done;

	__atomic_store_n(&w->pause, on ? 1 : 0, __ATOMIC_RELEASE);
	nudge(w);
	pthread_mutex_lock(&w->lock);
	while (w->pause_applied != (on ? 1 : 0))
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) == ETIMEDOUT)
			break;
	done = w->pause_applied == (on ? 1 : 0);
	pthread_mutex_unlock(&w->lock);
	return done;
}

void worker_set_rotate(struct worker *w, uint64_t rotate_ns)
{
	__atomic_store_n(&w->rotate_ns, rotate_ns, __ATOMIC_RELAXED);
}

void worker_set_budget(struct worker *w, double max_cost, double cost_ns)
{
	__atomic_store_n(&w->budget_ppm, max_cost > 0 ? (uint64_t)(max_cost * 1e6 + 0.5) : 0,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&w->cost_ps, cost_ns > 0 ? (uint64_t)(cost_ns * 1e3 + 0.5) : 0,
			 __ATOMIC_RELAXED);
}

static uint64_t to_ps(double ns)
{
	return ns > 0 ? (uint64_t)(ns * 1e3 + 0.5) : 0;
}

void worker_set_periodic(struct worker *w, uint64_t period_ns, double clock_sample_ns,
			 double switch_count_ns)
{
	__atomic_store_n(&w->clock_period_ns, period_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&w->clock_sample_ps, to_ps(clock_sample_ns), __ATOMIC_RELAXED);
	__atomic_store_n(&w->switch_count_ps, to_ps(switch_count_ns), __ATOMIC_RELAXED);
}

bool worker_periodic(const struct worker *w)
{
	return __atomic_load_n(&w->periodic_now, __ATOMIC_RELAXED) != 0;
}

struct worker *worker_of_cpu(struct worker *ws, size_t n, int cpu)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ws[i].ev != NULL && ws[i].ev->cpu == cpu)
			return &ws[i];
	return NULL;
}

int worker_cpu_clock(const struct worker *w, clockid_t *ret)
{
	if (w == NULL || !w->started)
		return -ESRCH;
	return -pthread_getcpuclockid(w->thread, ret);
}

void worker_stop(struct worker *w)
{
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	nudge(w);
	if (w->started)
		pthread_join(w->thread, NULL);
	w->started = false;
}

void worker_done(struct worker *w)
{
	struct handover *h;

	if (w->started)
		worker_stop(w);
	handover_free(w->cur);
	while ((h = w->ready) != NULL) {
		w->ready = h->next;
		handover_free(h);
	}
	while ((h = w->spare) != NULL) {
		w->spare = h->next;
		handover_free(h);
	}
	if (w->cmd_fd >= 0)
		close(w->cmd_fd);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	memset(w, 0, sizeof(*w));
	w->cmd_fd = -1;
}
