/*
 * plan_held.h - counters another PMU user holds, found from what the
 * running plan's groups could not do.  stackd's groups are pinned; the
 * kernel reschedules pinned events in creation order (ctx_resched), so
 * pinned events created before them (the NMI watchdog, an earlier
 * stackd, perf's :D events, a profiler's pinned events) keep their
 * counters, and a group of ours that no longer fits goes into error
 * state when enabled.  A group refused again when it comes back from its
 * bench, with no time counted in between, means fewer general counters
 * are free than the plan assumed; it would otherwise count nothing for
 * good.  The daemon plans again with one more counter held back and,
 * once its groups have run for a long calm while, tries one fewer (the
 * other user may have ended).  Pure: the daemon feeds it each interval
 * and does the re-planning (daemon/held_counters.c).
 */
#ifndef STACKD_PLAN_HELD_H
#define STACKD_PLAN_HELD_H

#include "daemon/plan/plan.h"

/* A group refused this many times per CPU with no time counted in between
 * is starved: the first refusal benches it for WORKER_BENCH_NS (10 s), so a
 * second one means the counters were still taken when it came back (a
 * burst of another tool's costs one refusal, not a re-plan).  Intervals
 * in a row with every group running before one counter is given back: 5
 * minutes at 1 s intervals. */
#define PLAN_HELD_REFUSALS 2
#define PLAN_HELD_CALM 300

struct plan_held {
	unsigned extra;    /* counters held back beyond the configured reserve */
	unsigned applied;  /* ... in the plan in force (extra until it switched) */
	unsigned calm;     /* intervals in a row without a refusal, while extra > 0 */
	int starved;       /* the group found starved at the last +1, -1: none */
	/* refusals of each group of the running plan since it last ran */
	uint32_t refusals[PLAN_MAX_GROUPS];
};

/* One interval of plan p on n_cpus CPUs: enabled_ns[g] and
 * unschedulable[g] summed over them.  +1: plan again with one more counter held back; -1: with one
 * fewer; 0: keep the plan.  h->extra moves with the answer, and on a
 * change the per-group record starts again (the next plan's groups). */
int plan_held_review(struct plan_held *h, const struct plan *p, const uint64_t *enabled_ns,
		     const uint32_t *unschedulable, unsigned n_groups, unsigned n_cpus);

#endif
