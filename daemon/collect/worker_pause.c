/*
 * worker_pause.c - a worker's pause: a re-check of the sampling cost
 * (calibrate.h) asks its CPU to sample nothing for a while, and the worker
 * puts that in place, and takes it away, at its next tick.
 */
#include "daemon/collect/worker_private.h"

/* A re-check of the sampling cost asks this CPU to sample nothing for its
 * runs "without": the active group is disabled (its remainder read, as at
 * a rotation) and the switch records closed; the time until the resume is
 * dark, charged as unattributed.  No rotation meanwhile. */
static void pause_groups(struct worker *w)
{
	uint64_t t = worker_now_ns(w);

	if (w->running) {
		uint64_t values[ACC_MAX_MEMBERS];
		int nv;

		worker_group_ioctl(w, w->active, PERF_EVENT_IOC_DISABLE);
		w->enabled_acc[w->active] += t - w->enabled_since;
		/* nothing is enabled after it: whatever the ring holds is
		 * the active group's or older */
		worker_drain(w, WORKER_DRAIN_ALL);
		nv = collector_read_group(w->col, w->ev, w->active, values, ACC_MAX_MEMBERS);
		if (nv > 0)
			attrib_remainder(&w->at, w->active, t, values, (unsigned)nv);
		w->running = false;
	}
	w->paused_records = w->switch_records;
	if (w->switch_records)
		(void)worker_set_switch_records(w, false);
	worker_go_dark(w, t);
}

static void resume_groups(struct worker *w)
{
	unsigned n = w->col->n_groups;

	if (w->paused_records && !worker_set_switch_records(w, true))
		w->switch_records_failed = true;
	worker_enable_next(w, (w->active + n - 1) % n);   /* the same group first */
	worker_go_dark(w, worker_now_ns(w));
}

void worker_apply_pause(struct worker *w)
{
	int want = __atomic_load_n(&w->pause, __ATOMIC_ACQUIRE);

	if ((want != 0) == w->paused)
		return;
	if (want != 0)
		pause_groups(w);
	else
		resume_groups(w);
	w->paused = want != 0;
	pthread_mutex_lock(&w->lock);
	w->pause_applied = want;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}
