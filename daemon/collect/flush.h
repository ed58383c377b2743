/*
 * flush.h - turn the workers' handovers into one interval for the store.
 *
 * At each flush: ask every worker to cut, collect what they hand over, apply
 * the side-band records of all CPUs in time order to the process table, then
 * charge each per-CPU entry to the process generation that owned its pid at
 * its time.  Runs in the main thread; the workers keep sampling meanwhile.
 */
#ifndef STACKD_FLUSH_H
#define STACKD_FLUSH_H

#include "daemon/collect/collector.h"
#include "daemon/attribute/interval.h"
#include "daemon/attribute/proctab.h"
#include "daemon/base/u64map.h"
#include "daemon/collect/worker.h"

#include <stdint.h>

struct flusher {
	struct collector *col;
	struct worker *workers;
	size_t n_workers;
	struct proctab *pt;
	uint64_t seq;
	uint64_t last_end_ns;           /* CLOCK_REALTIME end of the previous interval */
	struct u64map row_index;        /* (proc index, group) -> row */
	struct u64map proc_index;       /* generation -> proc index */
	struct proc_gen **gens;         /* proc index -> generation, this interval */
	size_t cap_gens;
	struct handover *extra;         /* flush_add_extra, for the next interval */
};

int flush_init(struct flusher *f, struct collector *col, struct worker *workers,
	       size_t n_workers, struct proctab *pt, uint64_t start_ns);
void flush_done(struct flusher *f);
/* The collector and workers were replaced (a re-plan, after a final
 * flush_run stopped the old ones): the next interval starts where the
 * last one ended, so the time of the switch is in it, not lost. */
void flush_rebind(struct flusher *f, struct collector *col, struct worker *workers,
		  size_t n_workers);

/* Cut every CPU now and build the interval since the last one.  final: also
 * stop the workers (after their last cut).
 * On success *ret is the caller's (interval_free()).  -ENOMEM otherwise. */
int flush_run(struct flusher *f, bool final, struct interval_data **ret);
/* flush_run in two steps, for tests that drive the workers themselves:
 * ask every worker for its cut (and to stop, if final), then take what
 * they handed over. */
int flush_request(struct flusher *f, bool final, struct interval_data **ret);
int flush_collect(struct flusher *f, struct interval_data *iv, struct interval_data **ret);

/* h, from no running worker - a re-plan's old side-band records since
 * their last cut (worker_take_rest), the switch's gap (replan.c) - goes
 * into the next interval, and every process it saw start, rename or end
 * is stored, charged or not (one that ran only while no group counted has
 * no counts, but existed).  The flusher owns h from here. */
void flush_add_extra(struct flusher *f, struct handover *h);

/* Charge a handover to iv (exposed for tests, which build handovers by hand). */
int flush_add_handover(struct flusher *f, struct interval_data *iv, const struct handover *h);

/* Apply side-band records of several handovers to the process table, in time order. */
int flush_apply_life(struct flusher *f, struct handover *const *hs, size_t n);

/* Fill procs[] details (enriching from /proc) once all handovers are in. */
int flush_finish(struct flusher *f, struct interval_data *iv);

#endif
