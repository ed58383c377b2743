/*
 * worker_cut.c - the interval cut: at a flush the worker attributes
 * everything up to its own "now", closes the active group's span there,
 * and hands the interval's accumulator, side-band records and counts over
 * to the main thread (worker_collect), filling a spare one from then on.
 */
#include "daemon/collect/worker_private.h"
#include "lib/clock.h"

#include <string.h>

/* A handover given back, emptied for the next interval. */
static void handover_clear(struct handover *h)
{
	cpuacc_reset(&h->acc);
	h->n_life = 0;
	memset(&h->st, 0, sizeof(h->st));
	memset(h->enabled_ns, 0, sizeof(h->enabled_ns));
	h->cut_ns = 0;
	h->next = NULL;
}

/* Queue h for the main thread, as the answer to flush seq. */
static void post(struct worker *w, struct handover *h, uint64_t seq)
{
	struct handover **tail;

	pthread_mutex_lock(&w->lock);
	tail = &w->ready;
	while (*tail != NULL)
		tail = &(*tail)->next;
	*tail = h;
	if (seq > w->posted_seq)
		w->posted_seq = seq;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* A handover the main thread gave back (cleared), else a new one. */
static struct handover *take_spare(struct worker *w)
{
	struct handover *h;

	pthread_mutex_lock(&w->lock);
	h = w->spare;
	if (h != NULL)
		w->spare = h->next;
	pthread_mutex_unlock(&w->lock);
	if (h != NULL) {
		handover_clear(h);
		return h;
	}
	return handover_new(w->ev->cpu, &w->col->exits);
}

void worker_cut(struct worker *w, uint64_t seq)
{
	/* Every record written before now, found by its place in the ring
	 * (read first), not by its time, which may be another reader's. */
	uint64_t end = ring_head(&w->ev->ring);
	uint64_t now = worker_now_ns(w);
	struct handover *h = w->cur;
	struct handover *next;
	unsigned g;

	worker_drain(w, end);
	if (w->running) {
		uint64_t values[ACC_MAX_MEMBERS];
		unsigned failed = w->active;
		int nv;

		if (worker_active_failed(w, now, values, &nv)) {
			worker_enable_next(w, failed);
			worker_go_dark(w, now);
		} else {
			w->enabled_acc[w->active] += now - w->enabled_since;
			/* cpu-clock is not slewed like CLOCK_MONOTONIC: anchor it
			 * again, so one group left alone for long does not drift */
			if (nv > 0)
				attrib_reanchor(&w->at, w->active, worker_now_ns(w), values,
						(unsigned)nv);
		}
	}
	if (w->dark_since != 0) {   /* the dark time so far belongs here */
		attrib_lost(&w->at, w->active, w->dark_since, now);
		w->dark_since = now;
	}
	w->enabled_since = now;
	for (g = 0; g < w->col->n_groups; g++) {
		h->enabled_ns[g] = w->enabled_acc[g];
		h->unschedulable[g] = w->unschedulable[g];
		w->enabled_acc[g] = 0;
		w->unschedulable[g] = 0;
	}
	h->cut_ns = now;
	if (w->mode.periodic) {   /* clipped to the interval */
		w->at.st.periodic_ns += now - w->periodic_since;
		w->periodic_since = now;
	}
	h->st = w->at.st;
	/* From the switch counters, which count in both modes (a periodic
	 * CPU writes no switch samples, and its rate is what the budget and
	 * the warnings are about). */
	h->st.max_cpu_switch_rate = now > w->last_cut_ns ?
		(w->at.switches_counted - w->switches_at_cut) * (uint64_t)NS_PER_SEC /
		(now - w->last_cut_ns) : 0;
	memset(&w->at.st, 0, sizeof(w->at.st));
	w->last_cut_ns = now;
	w->switches_at_cut = w->at.switches_counted;

	next = take_spare(w);
	if (next == NULL) {
		/* Out of memory: keep filling the same table; the main thread
		 * gets it at the next flush that finds memory. */
		w->at.st = h->st;
		return;
	}
	w->cur = next;
	w->at.acc = &next->acc;
	post(w, h, seq);
}

struct handover *worker_take_rest(struct worker *w)
{
	struct handover *h, *rest = NULL, *next;

	w->running = false;     /* its groups are closed: nothing to read */
	w->dark_since = 0;      /* nor time to charge: the caller counts the gap */
	worker_cut(w, w->done_seq + 1);
	pthread_mutex_lock(&w->lock);
	h = w->ready;
	w->ready = NULL;
	pthread_mutex_unlock(&w->lock);
	/* the newest only (its last cut was collected before); its records */
	for (; h != NULL; h = next) {
		next = h->next;
		if (next == NULL && h->n_life > 0) {
			rest = h;
			break;
		}
		handover_free(h);
	}
	if (rest == NULL)
		return NULL;
	cpuacc_reset(&rest->acc);
	rest->acc.shared = NULL;   /* the old collector's log goes with it */
	memset(&rest->st, 0, sizeof(rest->st));
	memset(rest->enabled_ns, 0, sizeof(rest->enabled_ns));
	memset(rest->unschedulable, 0, sizeof(rest->unschedulable));
	return rest;
}
