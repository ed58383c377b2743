/*
 * run_private.h - the running daemon's state, shared by run.c (start,
 * flush, signals, stop) and replan.c (a SIGHUP that changes the counter
 * groups).  Only the main thread touches it.
 */
#ifndef STACKD_RUN_PRIVATE_H
#define STACKD_RUN_PRIVATE_H

#include "daemon/run.h"
#include "daemon/collect/collector.h"
#include "daemon/attribute/exclude.h"
#include "daemon/collect/flush.h"
#include "daemon/serve/http_server.h"
#include "daemon/notify.h"
#include "daemon/plan/plan.h"
#include "daemon/attribute/proctab.h"
#include "daemon/serve/prom.h"
#include "daemon/collect/worker.h"
#include "daemon/store/writer.h"
#include "daemon/collect/calibrate.h"
#include "lib/sampling_cost.h"

#include <stdbool.h>
#include <stdint.h>

struct daemon {
	bool attribution_low;       /* the last interval's attributed share was low */
	struct config cfg;
	config_reload_fn reload;
	const struct model *model;
	char model_why[512];
	struct plan plan;              /* the groups opened, planned for this host */
	struct collector *col;         /* NULL only while a re-plan swaps it */
	struct writer w;
	struct proctab pt;
	bool pt_ready;
	struct worker *workers;
	size_t n_workers;
	struct flusher fl;
	bool fl_ready;
	uint64_t warned_lost, warned_rate, warned_late, warned_straddle;
	uint64_t started_ns;
	int sfd, tfd;
	int instance_fd;              /* the host's stackd name (instance.h), or -1 */
	struct exclusions excl;
	struct prom *prom;
	struct http_server *http;
	struct notifier notify;
	struct calibration calib;     /* the per-switch sampling cost, as last measured */
	struct calibrate_trigger cost_trigger;   /* when to measure it again */
};

/* The per-switch sampling cost measured at start, else the development
 * VM's (lib/sampling_cost.h). */
static inline double run_sampling_cost_ns(const struct daemon *d)
{
	return d->calib.cost_ns >= 0 && d->calib.method[0] != '\0' ? d->calib.cost_ns
								      : (double)SWITCH_SAMPLE_COST_NS;
}

/* Periodic mode's mean clock period as chosen: periodic_hz's, else from
 * the clock sample's cost measured at start under this budget
 * (cost_budget_clock_period). */
static inline uint64_t run_unclamped_period_ns(const struct daemon *d)
{
	if (d->cfg.periodic_hz > 0)
		return NS_PER_SEC / d->cfg.periodic_hz;
	return cost_budget_clock_period(d->calib.clock_sample_ns, d->cfg.max_sampling_cost);
}

/* ... as used: never longer than 3/5 of a group's turn, so that every
 * period drawn (up to 1.5 ln 3 = 1.65 x the mean, worker.c's draw_period)
 * fires within the turn it was drawn in. */
static inline uint64_t run_clock_period_ns(const struct daemon *d)
{
	uint64_t longest = d->cfg.rotate_period_ns * 3 / 5;
	uint64_t p = run_unclamped_period_ns(d);

	return p < longest ? p : longest;
}

/* The cost budget (max_sampling_cost, the measured cost) to every worker:
 * at start once the cost is measured, at a reload, to new workers. */
void run_set_budget(struct daemon *d);
/* Hold the workers' switch-record reviews (on) or let them go on (off):
 * a calibration's ping-pong is not this host's rate. */
void run_hold_reviews(struct daemon *d, bool on);
/* Whether the interval's busiest-CPU switch rate asks for a re-check of
 * the sampling cost (calibrate.h); one call per interval (recheck.c). */
bool run_recheck_due(struct daemon *d, const struct interval_data *iv);
/* Measure the cost again on the start's CPU, for the busiest-CPU rate
 * rate: d->calib, /metrics and meta take the new figure, the log says old
 * and new; on failure the old figure stays, said in the log. */
void run_recheck_cost(struct daemon *d, uint64_t rate);

/* One interval from what the workers hold, to the store and /metrics.
 * final: the workers make their last cut and stop (joined). */
void run_flush(struct daemon *d, bool final);
/* The daemon's facts (meta): model, plan, groups, settings. */
void run_write_meta(struct daemon *d);
/* What the plan says of each family not collected whole, in the log. */
void run_log_plan(const struct plan *p);
/* The plan for the families list on this host as it is now (its counter
 * budget read again).  0, or -errno with err saying why. */
int run_make_plan(const struct daemon *d, const char *families, struct plan *out, char *err,
		  size_t errlen);
/* Open plan's groups on every CPU, as d->cfg says (switch_event,
 * ring_pages, count_modes) into d->col.  0, or -errno with err. */
int run_open_collector(struct daemon *d, const struct plan *plan, char *err, size_t errlen);
/* One worker per CPU of d->col, started.  On failure the ones made are
 * in d->workers, for run_stop_workers(). */
int run_start_workers(struct daemon *d);
/* Join and free the workers (after a final run_flush, they have stopped). */
void run_stop_workers(struct daemon *d);

/* SIGHUP with configuration n, whose families and count_modes gave the
 * plan next (run_make_plan): keep the groups when next opens the same ones
 * with the same count modes, else switch to next (replan.c).  0 when
 * counting goes on (with next, or with the running groups when next could
 * not be opened); -errno when no groups could be opened at all: the daemon
 * must stop. */
int replan_apply(struct daemon *d, const struct config *n, const struct plan *next);

#endif
