/*
 * cpuacc.h - one CPU's counter deltas per (pid, group) since the last flush.
 *
 * Filled by that CPU's worker thread at every context switch, handed to the
 * main thread whole at each flush.  An entry remembers the first and last
 * time it was charged so the main thread can tell which generation of a
 * reused pid it belongs to; an exit mark splits a pid's entries locally so
 * samples before and after a pid's exit on this CPU never share an entry.
 */
#ifndef STACKD_CPUACC_H
#define STACKD_CPUACC_H

#include "lib/model/model.h"
#include "lib/pids.h"
#include "daemon/base/u64map.h"
#include "daemon/attribute/exitlog.h"

#include <stdbool.h>
#include <stdint.h>

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
 * periodic_ns too).  When the pid's leader exited on this CPU after the entry began
 * (or on another CPU, as far as the shared exit log knows) after the entry
 * began and before t, the span opens a new entry (a new generation, or a
 * task charged after the exit).  Returns 0 or -ENOMEM. */
int cpuacc_add(struct cpuacc *a, int32_t pid, unsigned group, uint64_t t, uint64_t time_ns,
	       bool periodic, const uint64_t *d, unsigned n);

/* The leader of pid exited at time t on this CPU.  Returns 0 or -ENOMEM. */
int cpuacc_mark_exit(struct cpuacc *a, int32_t pid, uint64_t t);

#endif
