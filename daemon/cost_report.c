/*
 * cost_report.c - see cost_report.h.
 */
#include "daemon/cost_report.h"
#include "daemon/counting.h"
#include "daemon/base/log.h"
#include "daemon/collect/cost_budget.h"
#include "lib/clock.h"
#include "lib/sampling_cost.h"

/* The rate periodic mode samples at, and why: what a clock sample costs. */
static void log_periodic_rate(const struct daemon *d)
{
	const struct calibration *c = &d->calib;
	uint64_t period = daemon_clock_period_ns(d);
	double hz = (double)NS_PER_SEC / (double)period;
	double share = periodic_cost_fraction(0, 0, hz, c->clock_sample_ns > 0 ? c->clock_sample_ns : 0);

	if (c->clock_sample_ns < 0) {
		log_info("periodic mode samples at %.0f Hz per CPU (%s); its cost here is %s", hz,
			 d->cfg.periodic_hz > 0 ? "periodic_hz" : "the default", c->clock_method);
		return;
	}
	log_info("periodic mode's costs here: %.1f us per clock sample, %.0f ns per counted "
		 "switch (%s)", c->clock_sample_ns / 1e3, c->switch_count_ns, c->clock_method);
	/* share: stackd's own samples, about twice the bare one timed */
	if (period < daemon_unclamped_period_ns(d))
		log_info("periodic mode samples at %.1f Hz per CPU, faster than %s, so that a "
			 "group's turn of rotate_period holds a clock sample: about %.2f%% of a "
			 "CPU in clock samples", hz, d->cfg.periodic_hz > 0 ? "periodic_hz"
			 : "its cost allows", 100.0 * share);
	else if (d->cfg.periodic_hz > 0 && d->cfg.max_sampling_cost > 0 &&
		 share > d->cfg.max_sampling_cost * COST_BUDGET_CLOCK_SHARE)
		log_warning("periodic mode samples at %.1f Hz per CPU (periodic_hz): about %.2f%% "
			    "of a CPU in clock samples, over half of max_sampling_cost (%.2f%%): "
			    "a periodic CPU may cost more than the budget", hz, 100.0 * share,
			    100.0 * d->cfg.max_sampling_cost);
	else if (d->cfg.periodic_hz > 0)
		log_info("periodic mode samples at %.1f Hz per CPU (periodic_hz): about %.2f%% of "
			 "a CPU in clock samples", hz, 100.0 * share);
	else if (period == COST_BUDGET_SLOWEST_CLOCK_NS &&
		 share > d->cfg.max_sampling_cost * COST_BUDGET_CLOCK_SHARE)
		log_warning("periodic mode samples at its slowest, %.1f Hz per CPU, and its clock "
			    "samples still cost about %.2f%% of a CPU, over half of max_sampling_cost",
			    hz, 100.0 * share);
	else
		log_info("periodic mode samples at %.1f Hz per CPU: about %.2f%% of a CPU in clock "
			 "samples, half of max_sampling_cost at most", hz, 100.0 * share);
}

void cost_report_log(const struct daemon *d)
{
	double ns = counting_budget_cost_ns(d);

	if (d->cfg.max_sampling_cost <= 0) {
		log_info("max_sampling_cost off: every context switch is sampled whatever it costs");
		return;
	}
	log_info("max_sampling_cost %.2f%%: a CPU over %.0f context switches/s (at %.0f ns "
		 "each%s) samples periodically instead", 100.0 * d->cfg.max_sampling_cost,
		 d->cfg.max_sampling_cost * (double)NS_PER_SEC / ns, ns,
		 daemon_sampling_cost_ns(d) > 0 ? "" : ", the development VM's figure: the "
		 "measured one is below what the calibration resolves");
	log_periodic_rate(d);
}

