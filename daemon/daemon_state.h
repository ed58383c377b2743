/*
 * daemon_state.h - the running daemon's state, shared by the files of the
 * top room (run.c and the steps it calls: startup, the interval flush,
 * reload, re-plan, the cost re-check).  Only the main thread touches it.
 */
#ifndef STACKD_DAEMON_STATE_H
#define STACKD_DAEMON_STATE_H

#include "daemon/config.h"
#include "daemon/collect/collector.h"
#include "daemon/attribute/exclude.h"
#include "daemon/collect/flush.h"
#include "daemon/serve/http_server.h"
#include "daemon/notify.h"
#include "daemon/plan/plan.h"
#include "daemon/plan/plan_held.h"
#include "daemon/attribute/proctab.h"
#include "daemon/serve/prom.h"
#include "daemon/collect/worker.h"
#include "daemon/store/writer.h"
#include "daemon/collect/calibrate.h"
#include "daemon/collect/cpustat.h"
#include "lib/sampling_cost.h"

#include <stdbool.h>
#include <stdint.h>

/* Re-reads the configuration the way startup did (file, then flags). */
typedef int (*config_reload_fn)(struct config *out, char *err, size_t errlen);

struct daemon {
	bool attribution_low;       /* the last interval's attributed share was low */
	struct config cfg;
	config_reload_fn reload;
	const struct model *model;
	char model_why[512];
	unsigned pmu_slots;      /* the core PMU's caps/slots (Arm), 0 when it has none */
	char cpuid[64];          /* the CPU as perf's PERF_CPUID names it, "" unknown */
	struct plan plan;              /* the groups opened, planned for this host */
	struct plan_held held;         /* counters found held by other users */
	bool held_replan;              /* plan again around them (held_counters.h) */
	struct collector *col;         /* NULL only while a re-plan swaps it */
	struct writer w;
	struct proctab pt;
	bool pt_ready;
	struct worker *workers;
	size_t n_workers;
	struct flusher fl;
	bool fl_ready;
	uint64_t warned_lost, warned_rate, warned_late, warned_straddle, warned_signal;
	uint64_t started_ns;
	int sfd, tfd;
	int instance_fds[2];          /* the host's guard: lock file, name (instance.h) */
	struct exclusions excl;
	struct prom *prom;
	struct http_server *http;
	struct notifier notify;
	struct calibration calib;     /* the per-switch sampling cost, as last measured */
	struct calibrate_trigger cost_trigger;   /* when to measure it again */
	struct cpustat calib_stat;    /* the calibration CPU's /proc/stat at the last interval ... */
	bool calib_stat_read;         /* ... when read (recheck.c) */
};

/* The per-switch sampling cost measured at start, else the development
 * VM's (lib/sampling_cost.h). */
static inline double daemon_sampling_cost_ns(const struct daemon *d)
{
	return d->calib.cost_ns >= 0 && d->calib.method[0] != '\0' ? d->calib.cost_ns
								      : (double)SWITCH_SAMPLE_COST_NS;
}

/* Periodic mode's mean clock period as chosen: periodic_hz's, else from
 * the clock sample's cost measured at start under this budget
 * (cost_budget_clock_period). */
static inline uint64_t daemon_unclamped_period_ns(const struct daemon *d)
{
	if (d->cfg.periodic_hz > 0)
		return NS_PER_SEC / d->cfg.periodic_hz;
	return cost_budget_clock_period(d->calib.clock_sample_ns, d->cfg.max_sampling_cost);
}

/* ... as used: never longer than 3/5 of a group's turn, so that every
 * period drawn (up to 1.5 ln 3 = 1.65 x the mean, worker_mode.c's
 * worker_draw_period) fires within the turn it was drawn in. */
static inline uint64_t daemon_clock_period_ns(const struct daemon *d)
{
	uint64_t longest = d->cfg.rotate_period_ns * 3 / 5;
	uint64_t p = daemon_unclamped_period_ns(d);

	return p < longest ? p : longest;
}

#endif
