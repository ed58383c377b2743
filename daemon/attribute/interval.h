/*
 * interval.h - one flush interval, assembled by collect/flush.c and
 * written by store/store_write.c in one transaction.  Self-contained (strings copied), so a write
 * that fails can be retried at the next flush without the process table.
 */
#ifndef STACKD_INTERVAL_H
#define STACKD_INTERVAL_H

#include "daemon/attribute/container.h"
#include "daemon/plan/plan.h"
#include "lib/health_fields.h"
#include "lib/pids.h"
#include "lib/sampling_mode.h"
#include "lib/model/model.h"

#include <stddef.h>
#include <stdint.h>

struct iv_proc {
	int32_t pid;          /* > 0, or a pseudo pid (lib/pids.h) */
	uint64_t start_ns;    /* with pid: the process's identity */
	char comm[16];
	int64_t uid;          /* -1 unknown */
	char *cmdline;        /* NULL unknown */
	char *unit;
	struct container *container;   /* NULL outside containers and pods */
	uint64_t exit_ns;     /* CLOCK_REALTIME; 0 while running */
};

struct iv_row {
	uint32_t proc;        /* index into procs */
	uint16_t group;       /* plan group index */
	uint64_t task_clock_ns;
	uint64_t periodic_ns;   /* of task_clock_ns, measured periodically */
	uint64_t context_switches;
	uint64_t v[MODEL_MAX_EVENTS];
};

/* Collector health over the interval (lib/health_fields.h): each field
 * summed over CPUs, or the maximum; and the CPU that had the maximum
 * switch rate. */
struct iv_stats {
	HEALTH_FIELDS(HEALTH_DECLARE)
	int32_t busiest_cpu;          /* -1: none */
};

struct interval_data {
	uint64_t start_ns, end_ns;    /* CLOCK_REALTIME */
	unsigned ncpus;
	struct iv_stats st;
	unsigned n_groups;
	uint64_t enabled_ns[PLAN_MAX_GROUPS];     /* time each group ran, summed over CPUs */
	uint32_t unschedulable[PLAN_MAX_GROUPS];  /* times found in error state */
	struct iv_proc *procs;
	size_t n_procs, cap_procs;
	struct iv_row *rows;
	size_t n_rows, cap_rows;
	struct interval_data *next;   /* pending-write queue */
};

void interval_free(struct interval_data *iv);   /* NULL is a no-op */

/* iv's busy CPU time: idle excluded, summed over CPUs. */
static inline uint64_t interval_busy_ns(const struct interval_data *iv)
{
	uint64_t busy = 0;
	size_t i;

	for (i = 0; i < iv->n_rows; i++)
		if (iv->procs[iv->rows[i].proc].pid != PID_IDLE)
			busy += iv->rows[i].task_clock_ns;
	return busy;
}

/* iv's busy CPU time (idle excluded), or its context switches (switches),
 * charged to a process; 1 when there were none. */
static inline double interval_attributed_share(const struct interval_data *iv, bool switches)
{
	uint64_t all = 0, unattributed = 0;
	size_t i;

	for (i = 0; i < iv->n_rows; i++) {
		int32_t pid = iv->procs[iv->rows[i].proc].pid;
		uint64_t v = switches ? iv->rows[i].context_switches : iv->rows[i].task_clock_ns;

		if (pid == PID_IDLE && !switches)
			continue;
		all += v;
		if (pid == PID_UNATTRIBUTED)
			unattributed += v;
	}
	return all > 0 ? 1.0 - (double)unattributed / (double)all : 1.0;
}

/* The share of iv's CPU time (all CPUs x its length) measured in periodic
 * mode (lib/sampling_mode.h). */
static inline double interval_periodic_share(const struct interval_data *iv)
{
	return sampling_mode_share(iv->st.periodic_ns,
				   (uint64_t)iv->ncpus * (iv->end_ns - iv->start_ns));
}

#endif
