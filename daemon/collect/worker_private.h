/*
 * worker_private.h - what the worker thread's files (worker_*.c) share,
 * and no other file: worker.h is the worker's contract.  Everything here
 * runs on the worker's thread (or a test driving it), on state it owns.
 *
 * The files, each calling only those listed below it (no loops):
 *   worker_thread.c   the thread: its loop, and each tick's due work
 *   worker_cut.c      the interval cut: everything up to now handed over
 *   worker_pause.c    a re-check's pause: sampling nothing for a while
 *   worker_rotate.c   group rotation: enable, disable, bench, go dark
 *   worker_mode.c     the sampling mode: per-switch or periodic
 *   worker_switch.c   the switch records: open, close, review
 *   worker_record.c   one ring record at a time, and the ring's drain
 *   worker.c          the worker as the main thread holds it (worker.h)
 * worker.c includes only worker.h: the files above call it, never the
 * other way round.
 */
#ifndef STACKD_WORKER_PRIVATE_H
#define STACKD_WORKER_PRIVATE_H

#include "daemon/collect/worker.h"

#include <stdbool.h>
#include <stdint.h>

/* The kernel's CLOCK_MONOTONIC, through kernel_ops (tests simulate it). */
static inline uint64_t worker_now_ns(const struct worker *w)
{
	return w->col->kops->now_ns(w->col->kops->ctx);
}

static inline void worker_group_ioctl(struct worker *w, unsigned g, unsigned long request)
{
	const struct kernel_ops *k = w->col->kops;

	/* Leader only (flags 0): PERF_IOC_FLAG_GROUP breaks sampling members. */
	if (collector_group_here(w->ev, g))
		(void)k->ioctl(k->ctx, w->ev->groups[g].fds[0], request, 0);
}

/* worker_record.c */
/* Attribute every record written before ring position end (WORKER_DRAIN_ALL:
 * every record there is; ring_head() read at a time t: those written up
 * to t).  By position, not by the records' times: a sample's time may be
 * another reader's, on its clock (worker_record.c). */
#define WORKER_DRAIN_ALL UINT64_MAX
void worker_drain(struct worker *w, uint64_t end);

/* Group g's disable just returned and no other group is enabled yet: the
 * ring's records before its head now are g's (or older), those after it
 * the next group's (group_of_foreign).  One such boundary at a time: an
 * older one still in the ring is drained first. */
static inline void worker_mark_disabled(struct worker *w, unsigned g)
{
	if (w->prev_end != 0)
		worker_drain(w, WORKER_DRAIN_ALL);
	w->prev_active = g;
	w->prev_end = ring_head(&w->ev->ring);
}

/* worker_switch.c */
/* Open (false when that failed) or close this CPU's switch records. */
bool worker_set_switch_records(struct worker *w, bool on);
/* This CPU's switches/s since the last review, for the other workers. */
void worker_publish_switch_rate(struct worker *w, uint64_t now);
/* The next review counts from now. */
void worker_rebase_switch_review(struct worker *w, uint64_t now);
/* The records on or off as this CPU and the busiest one need them. */
void worker_review_switch_records(struct worker *w, uint64_t now);

/* worker_mode.c */
/* Periodic mode: group g's clock period for its turn, drawn afresh. */
void worker_draw_period(struct worker *w, unsigned g);
/* At a rotation, before it: whether this CPU's mode should change there. */
void worker_review_mode(struct worker *w, uint64_t now);
/* Every group disabled (at time t): change the CPU's mode.  skip: the
 * group just disabled (n_groups: none). */
void worker_change_mode(struct worker *w, uint64_t t, unsigned skip);
/* Settle what periodic turns of the groups but skip left for their next
 * clock sample, at time t. */
void worker_settle_tails(struct worker *w, uint64_t t, unsigned skip);

/* worker_rotate.c */
/* Nothing is enabled from t on: that time is charged as unattributed. */
void worker_go_dark(struct worker *w, uint64_t t);
/* Enable the first schedulable group after g, g itself last. */
void worker_enable_next(struct worker *w, unsigned g);
/* Read the active group at t (into values, *nv); true when it had failed
 * (it is disabled and benched then). */
bool worker_active_failed(struct worker *w, uint64_t t, uint64_t *values, int *nv);
/* The next group's turn. */
void worker_rotate(struct worker *w);

/* worker_pause.c */
/* Put in place the pause the main thread asked for, and tell it. */
void worker_apply_pause(struct worker *w);

/* worker_cut.c */
/* Everything up to now becomes a handover for the main thread (flush seq). */
void worker_cut(struct worker *w, uint64_t seq);

#endif
