/*
 * attrib.h - delta attribution on one CPU.
 *
 * A context-switch sample fires in the task being switched OUT and carries a
 * read of its whole group and the time; the deltas since the previous sample
 * of that group on this CPU are that task's share: counter deltas from the
 * group read, CPU time (task-clock) from the group's cpu-clock member, and
 * the sample's time from that clock too (the sample's own time field can
 * carry another reader's timestamp: daemon/collector.c, ROLE_CLOCK).  Invariant,
 * per CPU and group: every count charged (to tasks, to stackd itself at
 * rotation, to the unattributed bucket) sums to the counter totals; the
 * time charged sums to the time the group was enabled, plus the time it
 * spent failing and the time no group was enabled (attrib_failed,
 * attrib_lost: unattributed), so a CPU's time adds up whole.  Nothing is
 * spread but a split span.
 *
 * Periodic mode (the cost budget, cost_budget.h): the group's cpu-clock
 * member samples instead, every COLLECTOR_PERIODIC_NS it runs, and each of
 * its samples charges the whole delta since the group's previous sample -
 * CPU time, every count, every switch in it - to the task it interrupted
 * (pid 0: [idle]).  Such spans hold many switches by design: statistical,
 * as perf record -F, not unsampled, so they count in no unsampled or
 * unattributed field.  A turn that ends in periodic mode leaves its tail
 * (the time since the last clock sample, under one period or so) in the
 * group's counts for its next clock sample, the first of its next turn:
 * charging it to stackd's thread at every rotation would bias stackd's
 * share up by half a period per rotation.  When the CPU goes back to
 * per-switch sampling, each group's tail is settled like a remainder (to
 * stackd's thread, the task its read interrupts), once.  So the invariants hold
 * in both modes, every count summing whole; in periodic mode an interval
 * may hand up to one period per group to the next.
 *
 * Special cases, each counted in st (lib/health_fields.h):
 *  - switch delta above 1: switches went unsampled (lost records, or a
 *    kernel that counts the idle task's switch-out without sampling it), so
 *    the span covers several tasks.  When the kernel's switch-in records
 *    (attrib_switch_in) say where the span changed hands and to whom, it is
 *    split there: CPU time exactly, one switch per task that ran, and the
 *    other counts in proportion to time (a split's ratios are the span's;
 *    counted in split_spans).  Otherwise the sampled task gets its one
 *    switch and the rest goes to unattributed.
 *  - the trailing sample after an EXIT record (the dying task's last
 *    switch-out) may carry pid -1 or tid -1: it belongs to that exit.
 *  - a counter that went backwards is charged nothing and counted.
 * Pure logic: no syscalls, so unit tests drive it with constructed samples.
 */
#ifndef STACKD_ATTRIB_H
#define STACKD_ATTRIB_H

#include "daemon/attribute/cpuacc.h"
#include "daemon/plan/plan.h"
#include "lib/health_fields.h"

#include <stdbool.h>
#include <stdint.h>

/* Where the members sit in a group read. */
struct attrib_layout {
	unsigned n_members;
	unsigned switches_idx;                 /* context-switch counter (the sampler) */
	bool has_clock;                        /* stackd's groups always; some tests not */
	unsigned clock_idx;                    /* cpu-clock: ns the group has run */
	unsigned model_idx[MODEL_MAX_EVENTS];  /* model event i -> member index */
	unsigned n_model;
};

/* A switch-in record: at time, next_pid replaced prev_pid on this CPU. */
struct attrib_switch_in {
	uint64_t time;
	int32_t prev_pid, next_pid;
};

#define ATTRIB_SWITCH_HISTORY 32   /* newest switch-ins kept for splitting */

struct attrib_cpu {
	unsigned n_groups;
	const struct attrib_layout *layout;   /* [n_groups] */
	uint64_t last[PLAN_MAX_GROUPS][ACC_MAX_MEMBERS];
	uint64_t last_time[PLAN_MAX_GROUPS];  /* last sample, or the enable */
	/* A sample's time is worked out from its group's cpu-clock, not taken
	 * from the sample: at anchor_time[g] the clock read anchor_clock[g]. */
	uint64_t anchor_time[PLAN_MAX_GROUPS];
	uint64_t anchor_clock[PLAN_MAX_GROUPS];
	bool failed[PLAN_MAX_GROUPS];         /* its last turn ended in error state */
	bool periodic;                        /* the CPU samples periodically */
	bool turn_periodic[PLAN_MAX_GROUPS];  /* the group's last turn did */
	bool exit_pending;
	int32_t exit_pid, exit_tid;
	uint64_t exit_ns;
	int32_t self_pid;                     /* stackd: owns rotation remainders */
	struct attrib_switch_in switch_in[ATTRIB_SWITCH_HISTORY];   /* circular */
	uint64_t n_switch_in;                 /* ever recorded; newest at (n - 1) % size */
	uint64_t samples_seen;                /* switch samples ever */
	uint64_t clock_samples_seen;          /* periodic mode's clock samples ever */
	uint64_t switches_counted;            /* the switch counters' deltas taken,
					       * ever (the worker's switch rate in
					       * either mode) */
	uint64_t unsampled_span_ns;           /* CPU time in spans holding unsampled
					       * switches (split or not); the worker
					       * reads and resets it */
	struct cpuacc *acc;
	struct health_counts st;
};

void attrib_init(struct attrib_cpu *c, const struct attrib_layout *layout, unsigned n_groups,
		 int32_t self_pid, struct cpuacc *acc);

/* Group g was enabled and then read (values[n]; NULL: not read) at time t
 * (CLOCK_MONOTONIC): its first span starts here, and its clock is anchored. */
void attrib_enabled(struct attrib_cpu *c, unsigned g, uint64_t t, const uint64_t *values,
		    unsigned n);

/* A switch sample of group g: values[n] read at the sample's time t (used
 * only for a layout without a clock), pid/tid switched out. */
void attrib_sample(struct attrib_cpu *c, unsigned g, int32_t pid, int32_t tid, uint64_t t,
		   const uint64_t *values, unsigned n);

/* A clock sample of group g (periodic mode): as attrib_sample, but pid is
 * the task the timer interrupted, charged the whole delta. */
void attrib_clock_sample(struct attrib_cpu *c, unsigned g, int32_t pid, uint64_t t,
			 const uint64_t *values, unsigned n);

/* The CPU's mode from the next enable of each group on (every group is
 * disabled when it changes: worker_mode.c).  Leaving periodic mode, each
 * group's tail is settled at its next attrib_remainder. */
void attrib_set_periodic(struct attrib_cpu *c, bool on);

/* Group g, enabled, was read (values[n]) at time t: its clock's anchor. */
void attrib_reanchor(struct attrib_cpu *c, unsigned g, uint64_t t, const uint64_t *values,
		     unsigned n);

/* CPU time from..to that no group measured (all of them unschedulable):
 * charged to unattributed under group g, so no process is credited with
 * it and the host's time still adds up. */
void attrib_lost(struct attrib_cpu *c, unsigned g, uint64_t from, uint64_t to);

/* Group g was found in error state at time t: its span since its last
 * sample counted nothing (the time goes to unattributed), and whatever it
 * counted after that sample and before it failed is charged to
 * unattributed when it is next enabled (attrib_enabled). */
void attrib_failed(struct attrib_cpu *c, unsigned g, uint64_t t);

/* A switch record on this CPU's ring, out or in (only while the worker
 * records them: on kernels that count switches they do not sample): at t
 * the CPU went from prev_pid to next_pid. */
void attrib_switch_in(struct attrib_cpu *c, uint64_t t, int32_t prev_pid, int32_t next_pid);

/* An EXIT record on this CPU's ring. */
void attrib_exit(struct attrib_cpu *c, int32_t pid, int32_t tid, uint64_t t);

/* Group g was disabled at time t by stackd's thread on this CPU and read:
 * the remainder since its last sample is that thread's own.  After a
 * periodic turn it stays for the group's next clock sample while the CPU
 * is still periodic; otherwise it is settled, whole, to that thread. */
void attrib_remainder(struct attrib_cpu *c, unsigned g, uint64_t t, const uint64_t *values,
		      unsigned n);

#endif
