/*
 * attrib.h - delta attribution on one CPU.
 *
 * A context-switch sample fires in the task being switched OUT and carries a
 * read of its whole group and the time; the deltas since the previous sample
 * of that group on this CPU are that task's share: counter deltas from the
 * group read, CPU time (task-clock) from the two sample times.  Invariant,
 * per CPU and group: everything charged (to tasks, to stackd itself at
 * rotation, and to the unattributed bucket) sums to the counter totals and
 * to the time the group was enabled.  Nothing is spread.
 *
 * Special cases, each counted in st (lib/health_fields.h):
 *  - switch delta above 1: switches went unsampled (lost records, or this
 *    kernel's unreported idle switch-out), so the span covers several tasks.
 *    The sampled task gets its one switch; the rest goes to unattributed.
 *  - the trailing sample after an EXIT record (the dying task's last
 *    switch-out) may carry pid -1 or tid -1: it belongs to that exit.
 *  - a counter that went backwards is charged nothing and counted.
 * Pure logic: no syscalls, so unit tests drive it with constructed samples.
 */
#ifndef STACKD_ATTRIB_H
#define STACKD_ATTRIB_H

#include "cpuacc.h"
#include "plan.h"
#include "lib/health_fields.h"

#include <stdbool.h>
#include <stdint.h>

/* Where the members sit in a group read. */
struct attrib_layout {
	unsigned n_members;
	unsigned switches_idx;                 /* context-switch counter (the sampler) */
	unsigned model_idx[MODEL_MAX_EVENTS];  /* model event i -> member index */
	unsigned n_model;
};

struct attrib_cpu {
	unsigned n_groups;
	const struct attrib_layout *layout;   /* [n_groups] */
	uint64_t last[PLAN_MAX_GROUPS][ACC_MAX_MEMBERS];
	uint64_t last_time[PLAN_MAX_GROUPS];  /* last sample, or the enable */
	bool exit_pending;
	int32_t exit_pid, exit_tid;
	uint64_t exit_ns;
	int32_t self_pid;                     /* stackd: owns rotation remainders */
	struct cpuacc *acc;
	struct health_counts st;
};

void attrib_init(struct attrib_cpu *c, const struct attrib_layout *layout, unsigned n_groups,
		 int32_t self_pid, struct cpuacc *acc);

/* Group g was enabled at time t (CLOCK_MONOTONIC): its first span starts here. */
void attrib_enabled(struct attrib_cpu *c, unsigned g, uint64_t t);

/* A switch sample of group g: values[n] read at time t, pid/tid switched out. */
void attrib_sample(struct attrib_cpu *c, unsigned g, int32_t pid, int32_t tid, uint64_t t,
		   const uint64_t *values, unsigned n);

/* An EXIT record on this CPU's ring. */
void attrib_exit(struct attrib_cpu *c, int32_t pid, int32_t tid, uint64_t t);

/* Group g was disabled at time t by stackd's thread on this CPU and read:
 * the remainder since its last sample is that thread's own. */
void attrib_remainder(struct attrib_cpu *c, unsigned g, uint64_t t, const uint64_t *values,
		      unsigned n);

#endif
