/*
 * recheck.c - the per-switch sampling cost measured again when the host's
 * switch rate has moved a lot since the last measurement, or when the host
 * is quiet and the figure in use was made under load (calibrate.h says
 * when and how).  Main thread, between two flushes: the runs take about
 * 0.4 s of one CPU, at most once per ten minutes (under load: at doubling
 * gaps from 30 s); the flush timer's next expiry waits that long at most.
 */
#include "daemon/recheck.h"
#include "daemon/counting.h"
#include "daemon/meta.h"
#include "daemon/collect/cpustat.h"
#include "lib/clock.h"
#include "daemon/base/log.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define RECHECK_PAUSE_WAIT_NS (200 * NS_PER_MSEC)   /* for the worker to (un)pause */

/* The runs: without sampling (cpu's worker paused), then with it; the
 * worker's time on that CPU counts as the runs' own (calibrate.h).
 * *paused_ns: how long the worker sampled nothing (unattributed time). */
static int measure(struct daemon *d, struct calibration *c, uint64_t *paused_ns)
{
	struct worker *w = worker_of_cpu(d->workers, d->n_workers, c->cpu);
	struct timespec settle = { 0, 20 * 1000 * 1000 };   /* the groups enabled */
	clockid_t clock;
	const clockid_t *beside;
	bool resumed;

	if (w == NULL)
		return -ENODEV;
	counting_hold_reviews(d, true);
	if (!worker_pause(w, true, monotonic_ns() + RECHECK_PAUSE_WAIT_NS)) {
		(void)worker_pause(w, false, monotonic_ns() + RECHECK_PAUSE_WAIT_NS);
		counting_hold_reviews(d, false);
		return -ETIMEDOUT;
	}
	/* Held and paused, the worker reviews no mode until released, so
	 * this holds for both runs.  A periodic CPU's "with sampling" run
	 * would time the clock sampler, not the per-switch one: no figure
	 * rather than a wrong one. */
	if (worker_periodic(w)) {
		(void)worker_pause(w, false, monotonic_ns() + RECHECK_PAUSE_WAIT_NS);
		counting_hold_reviews(d, false);
		return -EBUSY;
	}
	beside = worker_cpu_clock(w, &clock) == 0 ? &clock : NULL;
	*paused_ns = monotonic_ns();
	c->off_per_s = calibrate_pingpong(c->cpu, beside, &c->off_runs);
	resumed = worker_pause(w, false, monotonic_ns() + RECHECK_PAUSE_WAIT_NS);
	*paused_ns = monotonic_ns() - *paused_ns;
	nanosleep(&settle, NULL);
	c->on_per_s = resumed ? calibrate_pingpong(c->cpu, beside, &c->on_runs) : 0;
	counting_hold_reviews(d, false);
	return resumed ? 0 : -ETIMEDOUT;
}

/* Whether the calibration's CPU was quiet (CALIBRATE_QUIET_BUSY) since the
 * last call: /proc/stat, which also counts what the hypervisor took. */
static bool cpu_quiet(struct daemon *d)
{
	struct cpustat now;
	bool quiet;

	if (cpustat_read(d->calib.cpu, &now) < 0)
		return false;
	quiet = d->calib_stat_read &&
		cpustat_busy_share(&d->calib_stat, &now) < CALIBRATE_QUIET_BUSY;
	d->calib_stat = now;
	d->calib_stat_read = true;
	return quiet;
}

bool recheck_due(struct daemon *d, const struct interval_data *iv)
{
	bool quiet;

	if (d->calib.at_ns == 0)   /* never measured at all: nothing to re-check */
		return false;
	/* /proc/stat only while the figure is an estimate made under load */
	quiet = d->cost_trigger.under_load && cpu_quiet(d);
	return calibrate_trigger_step(&d->cost_trigger, iv->st.max_cpu_switch_rate, quiet,
				      iv->start_ns, iv->end_ns);
}

/* The re-check's figure c, or why the one in use stays: logged. */
static void take(struct daemon *d, const struct calibration *c, uint64_t was, uint64_t paused_ns)
{
	if (!calibrate_better(&d->calib, c)) {
		log_info("sampling cost re-checked at %llu switches/s under load: %.0f ns per "
			 "switch, an estimate (%s); keeping %.0f ns per switch, %s",
			 (unsigned long long)c->rate, c->cost_ns, c->method,
			 daemon_sampling_cost_ns(d), d->calib.credible ? "measured on a quiet CPU" :
			 "the lower estimate");
		return;
	}
	log_info("sampling cost re-checked: the busiest CPU's switch rate is %llu/s (was about "
		 "%llu/s at the last measurement); %.0f ns per switch, was %.0f ns (%s); cpu %d "
		 "sampled nothing for %.2f s of it, the runs without sampling: that time is in "
		 "this interval's unattributed CPU time", (unsigned long long)c->rate,
		 (unsigned long long)was, c->cost_ns, daemon_sampling_cost_ns(d), c->method, c->cpu,
		 (double)paused_ns / NS_PER_SEC);
	d->calib = *c;
	counting_set_budget(d);   /* the workers' budget decisions use the new figure */
	prom_set_sampling_cost(d->prom, c->cost_ns, true);
	meta_write(d);
}

void recheck_cost(struct daemon *d, uint64_t rate)
{
	uint64_t was = d->cost_trigger.base_rate, paused_ns = 0;
	struct calibration c;
	int r;

	memset(&c, 0, sizeof(c));
	c.cpu = d->calib.cpu;
	c.recheck = true;
	/* periodic mode's costs are measured at start only */
	c.clock_hz = d->calib.clock_hz;
	c.clock_per_s = d->calib.clock_per_s;
	c.count_per_s = d->calib.count_per_s;
	c.clock_runs = d->calib.clock_runs;
	c.count_runs = d->calib.count_runs;
	c.clock_sample_ns = d->calib.clock_sample_ns;
	c.switch_count_ns = d->calib.switch_count_ns;
	c.periodic_credible = d->calib.periodic_credible;
	memcpy(c.clock_method, d->calib.clock_method, sizeof(c.clock_method));
	c.rate = rate;
	r = measure(d, &c, &paused_ns);
	c.at_ns = clock_ns(CLOCK_REALTIME);
	if (r == -EBUSY) {
		log_info("not re-checking the sampling cost at %llu switches/s: cpu %d samples "
			 "periodically (the cost budget), so sampling every switch cannot be timed "
			 "there now; keeping %.0f ns per switch", (unsigned long long)rate, c.cpu,
			 daemon_sampling_cost_ns(d));
	} else if (r < 0) {
		log_warning("re-checking the sampling cost at %llu switches/s failed (%s); keeping "
			    "%.0f ns per switch%s", (unsigned long long)rate, strerror(-r),
			    daemon_sampling_cost_ns(d), paused_ns > 0 ? " (its worker was paused: that "
			    "CPU's time meanwhile went to no process)" : "");
	} else {
		calibrate_finish(&c);
		if (c.cost_ns < 0)
			log_warning("re-checking the sampling cost: %s; keeping %.0f ns per switch",
				    c.method, daemon_sampling_cost_ns(d));
		else
			take(d, &c, was, paused_ns);
	}
	/* whether the figure in use now is still an estimate made under load */
	calibrate_trigger_done(&d->cost_trigger, rate, c.at_ns, d->calib.credible);
}
