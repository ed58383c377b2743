/*
 * counting.h - what counts: the plan for this host, the per-CPU collector
 * opened for it, the workers that read it, and the cost budget they keep.
 * Called at start (startup.c), at a re-plan (replan.c) and when the cost
 * is measured again (recheck.c).
 */
#ifndef STACKD_COUNTING_H
#define STACKD_COUNTING_H

#include "daemon/daemon_state.h"

/* The plan for the families and reserved_counters settings on this host as
 * it is now (its counter budget read again, less the counters found held
 * by other users: d->held).  0, or -errno with err saying why. */
int counting_make_plan(const struct daemon *d, const char *families, const char *reserved_counters,
		       struct plan *out, char *err, size_t errlen);
/* Open plan's groups on every CPU, as d->cfg says (switch_event,
 * ring_pages, count_modes) into d->col.  A family whose events the kernel
 * refuses is taken out of plan (plan_drop.h: its reason kept, logged)
 * and the rest opened; only nothing opening at all fails.  0, or -errno
 * with err. */
int counting_open_collector(struct daemon *d, struct plan *plan, char *err, size_t errlen);
/* One worker per CPU of d->col, started.  On failure the ones made are
 * in d->workers, for counting_stop_workers(). */
int counting_start_workers(struct daemon *d);
/* Join and free the workers (after a final flush, they have stopped). */
void counting_stop_workers(struct daemon *d);
/* The cost the budget works with (the measured one, else the development
 * VM's figure when the measurement could not resolve it). */
double counting_budget_cost_ns(const struct daemon *d);
/* The cost budget (max_sampling_cost, the measured cost) to every worker:
 * at start once the cost is measured, at a reload, to new workers. */
void counting_set_budget(struct daemon *d);
/* Hold the workers' switch-record reviews (on) or let them go on (off):
 * a calibration's ping-pong is not this host's rate. */
void counting_hold_reviews(struct daemon *d, bool on);

#endif
