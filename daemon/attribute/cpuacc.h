/*
 * cpuacc.h - one CPU's counter deltas per (pid, group) since the last flush.
 *
 * Filled by that CPU's worker thread at every context switch, handed to the
 * main thread whole at each flush.  An entry remembers the first and last
 * time it was charged so the main thread can tell which generation of a
 * reused pid it belongs to (proctab_resolve); an entry that holds charges
 * of two generations cannot be split there and goes to [unattributed]
 * (counted in straddles).
 *
 * So a pid's entry is cut at its leader's exit: a charge opens a new entry
 * when an exit of that pid (this CPU's mark, or the workers' shared log,
 * exitlog.h) falls after the entry began and before the charge - and also
 * when the entry began less than CPUACC_EXIT_TAIL_NS after one.  Such an
 * entry holds the exited task's last moments (its EXIT record is written
 * before its last switch-out, which may come later still, on another CPU
 * after a migration: the "tail"), or the pid's next generation, which
 * starts at its FORK record - in another CPU's ring maybe, unknown here.
 * The boundary between the two is not known on this CPU, so each charge
 * in that time keeps its own entry, and the flush gives each to the
 * generation that ran at its time.
 */
#ifndef STACKD_CPUACC_H
#define STACKD_CPUACC_H

#include "lib/model/model.h"
#include "lib/pids.h"
#include "daemon/base/u64map.h"
#include "daemon/attribute/exitlog.h"

#include <stdbool.h>
#include <stdint.h>

/* After an exit of a pid, charges to it keep apart this long (above).  A
 * dying task's tail lasts microseconds, a run-queue wait at most; the
 * cost is an entry per charge for a pid reused within it. */
#define CPUACC_EXIT_TAIL_NS 1000000000ULL

/* A group's members: the model's events, the switch sampler and the clock. */
#define ACC_MAX_MEMBERS (MODEL_MAX_EVENTS + 2)

struct acc_entry {
	int32_t pid;                  /* tgid, PID_IDLE, PID_UNATTRIBUTED (lib/pids.h) */
	uint16_t group;
	uint16_t n;                   /* members used in d[] */
	uint64_t first_ns, last_ns;   /* CLOCK_MONOTONIC key times charged */
	uint64_t time_ns;             /* CPU time of the spans: task-clock */
	uint64_t periodic_ns;         /* of which charged by clock samples
				       * (periodic mode): statistical */
	uint64_t d[ACC_MAX_MEMBERS];  /* deltas, by member index of the group */
};

struct cpuacc {
	struct acc_entry *entries;
	size_t n, cap;
	struct u64map index;   /* (pid, group) -> newest entry */
	struct u64map exits;   /* pid -> index into exit_ns */
	uint64_t *exit_ns;
	size_t n_exits, cap_exits;
	struct exitlog *shared;   /* exits seen on other CPUs (NULL: none) */
};

int cpuacc_init(struct cpuacc *a);
void cpuacc_done(struct cpuacc *a);
/* Forget every entry and mark, keeping the memory. */
void cpuacc_reset(struct cpuacc *a);

/* Add a span of time_ns and counter deltas d[0..n) to (pid, group), charged
 * at time t; periodic: a clock sample charged it (its time_ns counts in
 * periodic_ns too).  The span opens a new entry at an exit of the pid's
 * leader (the cut above).  Returns 0 or -ENOMEM. */
int cpuacc_add(struct cpuacc *a, int32_t pid, unsigned group, uint64_t t, uint64_t time_ns,
	       bool periodic, const uint64_t *d, unsigned n);

/* The leader of pid exited at time t on this CPU.  Returns 0 or -ENOMEM. */
int cpuacc_mark_exit(struct cpuacc *a, int32_t pid, uint64_t t);

#endif
