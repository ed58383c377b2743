/*
 * exitlog.h - the process leaders' exits seen by any CPU's worker, for
 * every CPU's accumulator.
 *
 * A PERF_RECORD_EXIT lands in the ring of the CPU the leader last ran on.
 * Another CPU where the same pid ran earlier in the interval, and where a
 * new process reusing that pid runs later, would otherwise keep one entry
 * for both (cpuacc.h), which the flush cannot split and stores as
 * unattributed (a "straddle").  With the exit in this log, that CPU's
 * accumulator opens a new entry for the new process too.
 *
 * Lock-free: a worker adds, every worker reads at each charge to an older
 * entry.  A slot per pid hash keeps a pid's two newest exits (a collision
 * overwrites: that pid's exits are then unknown, as without the log).  It
 * knows an exit only once the worker of the exit's CPU has drained it: a
 * new process charged on another CPU before that still shares the old
 * entry (counted as a straddle at the flush).
 */
#ifndef STACKD_EXITLOG_H
#define STACKD_EXITLOG_H

#include <stdbool.h>
#include <stdint.h>

#define EXITLOG_SLOTS 4096

struct exitlog_slot {
	uint32_t seq;           /* odd while written */
	int32_t pid;
	uint64_t exit_ns[2];    /* CLOCK_MONOTONIC, newest first; 0: none */
};

struct exitlog {
	uint64_t newest_ns;     /* the latest exit time added (a fast "none since") */
	struct exitlog_slot slots[EXITLOG_SLOTS];
};

/* All zero is an empty log. */
void exitlog_add(struct exitlog *l, int32_t pid, uint64_t exit_ns);
/* Whether pid's leader is known to have exited at a time in [from, to). */
bool exitlog_between(struct exitlog *l, int32_t pid, uint64_t from, uint64_t to);

#endif
