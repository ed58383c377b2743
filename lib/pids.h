/*
 * pids.h - the pseudo-processes: pids no kernel task has, each with one
 * meaning everywhere (collector, store, readers).  Real pids are > 0.
 *
 * These values are STORED: process.pid in every database (and the golden
 * fixture) holds them, and readers know the rows by them (top shows them
 * only when asked, /metrics counts them under no command or unit).  Never
 * change a value or reuse one for another meaning; add a new one below -2.
 */
#ifndef STACKD_LIB_PIDS_H
#define STACKD_LIB_PIDS_H

#include <stdbool.h>
#include <stdint.h>

/* The CPU ran no task (the idle task, pid 0 to the kernel too). */
#define PID_IDLE              0
#define PID_IDLE_COMM         "[idle]"

/* Counts no one task can own: a span covering switches that produced no
 * sample, lost records, a sample after an exit nobody claimed, a pid
 * whose generation cannot be told. */
#define PID_UNATTRIBUTED      (-1)
#define PID_UNATTRIBUTED_COMM "[unattributed]"

/* The processes an administrator excluded (exclude_comm, exclude_unit,
 * exclude_user), summed into one row per group (daemon/attribute/exclude.h). */
#define PID_EXCLUDED          (-2)
#define PID_EXCLUDED_COMM     "[excluded]"

/* A pseudo pid in SQL text: "0", "(-1)". */
#define PIDS_STR_(x) #x
#define PIDS_STR(x) PIDS_STR_(x)

/* A real process, not one of the rows above. */
static inline bool pid_is_real(int32_t pid)
{
	return pid > 0;
}

#endif
