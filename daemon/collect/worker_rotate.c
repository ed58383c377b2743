/*
 * worker_rotate.c - group rotation on a worker's CPU: each group's turn,
 * disabled before the next is enabled (worker.h), a group the PMU cannot
 * schedule benched, and the time nothing runs charged as unattributed.
 */
#include "daemon/collect/worker_private.h"
#include "lib/clock.h"

#include <errno.h>

/* A group found unschedulable sits out of rotation this long, then gets
 * one more try (which costs a group read when it fails again). */
#define WORKER_BENCH_NS (10 * NS_PER_SEC)

/* A pinned group the PMU cannot schedule (counters taken by the watchdog or
 * another user) goes into error state and counts nothing: take it out of
 * rotation for a while and say so. */
static void bench(struct worker *w, unsigned g, uint64_t now)
{
	w->at.st.unschedulable++;
	w->unschedulable[g]++;
	w->benched_until[g] = now + WORKER_BENCH_NS;
}

/* Enable g; false (and g disabled and benched) when it cannot be
 * scheduled.  A pinned group that does not fit goes into error state at
 * once, so one read right after the enable tells. */
static bool try_enable(struct worker *w, unsigned g)
{
	uint64_t values[ACC_MAX_MEMBERS];
	uint64_t t = worker_now_ns(w);
	int nv;

	if (!collector_group_here(w->ev, g))
		return false;   /* another core type's group */
	if (w->mode.periodic)
		worker_draw_period(w, g);
	worker_group_ioctl(w, g, PERF_EVENT_IOC_ENABLE);
	nv = collector_read_group(w->col, w->ev, g, values, ACC_MAX_MEMBERS);
	if (nv == -EIO) {
		worker_group_ioctl(w, g, PERF_EVENT_IOC_DISABLE);
		bench(w, g, t);
		return false;
	}
	/* The read anchors the group's clock: its samples' times follow. */
	attrib_enabled(&w->at, g, worker_now_ns(w), nv > 0 ? values : NULL,
		       nv > 0 ? (unsigned)nv : 0);
	if (w->dark_since != 0) {
		attrib_lost(&w->at, g, w->dark_since, t);
		w->dark_since = 0;
	}
	w->enabled_since = t;
	w->active = g;
	w->running = true;
	return true;
}

/* Nothing is enabled from t on (every group benched or failing): that
 * time is no process's, and is charged as unattributed when it ends. */
void worker_go_dark(struct worker *w, uint64_t t)
{
	/* A CPU none of whose groups counts there (a hybrid core type with
	 * nothing planned) measures nothing by design: not lost time. */
	if (!w->running && w->dark_since == 0 && w->has_groups)
		w->dark_since = t;
}

/* Enable the first group after g (cyclically, g excluded) that is in
 * rotation and schedulable; false when none is. */
static bool enable_other(struct worker *w, unsigned g)
{
	uint64_t now = worker_now_ns(w);
	unsigned i, n = w->col->n_groups;

	w->running = false;
	for (i = 1; i < n; i++) {
		unsigned next = (g + i) % n;

		if (w->benched_until[next] > now)
			continue;
		w->benched_until[next] = 0;
		if (try_enable(w, next))
			return true;
	}
	return false;
}

/* The same, g itself last.  None: nothing runs until the next rotation. */
void worker_enable_next(struct worker *w, unsigned g)
{
	if (enable_other(w, g) || w->benched_until[g] > worker_now_ns(w))
		return;
	w->benched_until[g] = 0;
	(void)try_enable(w, g);
}

/* Whether a group other than g may run now (not benched). */
static bool others_ready(const struct worker *w, unsigned g, uint64_t now)
{
	unsigned i;

	for (i = 0; i < w->col->n_groups; i++)
		if (i != g && w->benched_until[i] <= now && collector_group_here(w->ev, i))
			return true;
	return false;
}

/* The active group, read at time t: in error state since some time after
 * it was enabled (another user took its counters), its span measured
 * nothing, so it counts for no coverage. */
bool worker_active_failed(struct worker *w, uint64_t t, uint64_t *values, int *nv)
{
	*nv = collector_read_group(w->col, w->ev, w->active, values, ACC_MAX_MEMBERS);
	if (*nv != -EIO)
		return false;
	worker_group_ioctl(w, w->active, PERF_EVENT_IOC_DISABLE);
	worker_mark_disabled(w, w->active);
	attrib_failed(&w->at, w->active, t);
	bench(w, w->active, t);
	w->enabled_since = t;
	w->running = false;
	return true;
}

void worker_rotate(struct worker *w)
{
	unsigned from = w->active;
	uint64_t values[ACC_MAX_MEMBERS];
	uint64_t t, span;
	bool moved;
	int nv;

	if (!w->running) {   /* everything was unschedulable: try again */
		worker_drain(w, WORKER_DRAIN_ALL);
		if (w->mode_change)
			worker_change_mode(w, worker_now_ns(w), w->col->n_groups);
		worker_enable_next(w, from);
		return;
	}
	t = worker_now_ns(w);
	if (!w->mode_change && !others_ready(w, from, t)) {   /* one group on, the rest benched */
		worker_drain(w, WORKER_DRAIN_ALL);
		return;
	}
	/* Disable before enabling: two groups must never compete for counters.
	 * The next enable follows at once: with the worker under SCHED_OTHER a
	 * task may preempt it, and no time should pass with nothing counting. */
	worker_group_ioctl(w, from, PERF_EVENT_IOC_DISABLE);
	span = t - w->enabled_since;
	w->enabled_acc[from] += span;
	/* after the disable returned: nothing of from's can be later */
	worker_mark_disabled(w, from);
	if (w->mode_change)
		worker_change_mode(w, t, from);
	moved = enable_other(w, from);
	w->at.st.rotations++;
	/* The old group's last samples are in the ring now; take them before
	 * its final read so the remainder is exactly what came after them. */
	worker_drain(w, WORKER_DRAIN_ALL);
	nv = collector_read_group(w->col, w->ev, from, values, ACC_MAX_MEMBERS);
	if (nv > 0) {
		attrib_remainder(&w->at, from, t, values, (unsigned)nv);
	} else if (nv == -EIO) {
		/* It failed while enabled: its span counted nothing. */
		w->enabled_acc[from] -= span;
		attrib_failed(&w->at, from, t);
		bench(w, from, t);
	}
	/* Every other group turned out unschedulable: from runs on, enabled
	 * again only now that its samples and remainder are taken (an enable
	 * restarts its span). */
	if (!moved && nv != -EIO)
		(void)try_enable(w, from);
	worker_go_dark(w, t);
}
