/*
 * interval_flush.c - see interval_flush.h.
 */
#include "daemon/interval_flush.h"
#include "daemon/recheck.h"
#include "daemon/base/log.h"
#include "daemon/attribute/exclude.h"
#include "lib/clock.h"
#include "lib/sampling_cost.h"

#include <inttypes.h>
#include <stdlib.h>

/* A log line when the attributed share crosses the threshold, each way. */
static void report_attribution(struct daemon *d, const struct interval_data *iv)
{
	double cpu = interval_attributed_share(iv, false);
	double sw = interval_attributed_share(iv, true);
	uint64_t span = iv->end_ns > iv->start_ns ? iv->end_ns - iv->start_ns : 0;
	double lost_of_all = span > 0 && iv->ncpus > 0 ?
		(1.0 - cpu) * (double)interval_busy_ns(iv) / ((double)span * iv->ncpus) : 0.0;
	bool low = attribution_is_low(cpu, lost_of_all, sw);

	if (low && !d->attribution_low)
		log_warning("attributed share below %.0f%%: %.1f%% of the busy CPU time and %.1f%% "
			    "of the context switches of this interval went to a process; figures "
			    "miss part of the host's work (stackctl status says where it went)",
			    100.0 * ATTRIBUTED_WARN_BELOW, 100.0 * cpu, 100.0 * sw);
	else if (!low && d->attribution_low)
		log_info("attributed share back above %.0f%% (%.1f%% of busy CPU time, %.1f%% of "
			 "switches)", 100.0 * ATTRIBUTED_WARN_BELOW, 100.0 * cpu, 100.0 * sw);
	d->attribution_low = low;
}

static void report_health(struct daemon *d, const struct interval_data *iv)
{
	uint64_t now = monotonic_ns();

	if (iv->st.lost_records > 0 && log_throttle(&d->warned_lost, now))
		log_warning("ring buffers overflowed: %" PRIu64 " samples lost in %" PRIu64
			    " records this interval; their counts are stored as unattributed "
			    "(raise ring_pages, now %u)", iv->st.lost_samples, iv->st.lost_records,
			    d->cfg.ring_pages);
	if (d->cfg.switch_rate_warning > 0 && iv->st.max_cpu_switch_rate > d->cfg.switch_rate_warning &&
	    log_throttle(&d->warned_rate, now))
		log_warning("cpu %d: %" PRIu64 " context switches/s; sampling each costs about "
			    "%.0f%% of that CPU (about %llu ns per switch)", iv->st.busiest_cpu,
			    iv->st.max_cpu_switch_rate,
			    100.0 * sampling_cost_fraction(iv->st.max_cpu_switch_rate,
							   daemon_sampling_cost_ns(d)),
			    (unsigned long long)daemon_sampling_cost_ns(d));
	if (iv->st.late_cpus > 0 && log_throttle(&d->warned_late, now))
		log_warning("%" PRIu64 " CPU worker(s) missed the flush; their counts go into "
			    "the next interval", iv->st.late_cpus);
	if (iv->st.straddles > 0 && log_throttle(&d->warned_straddle, now))
		log_info("%" PRIu64 " spans of a reused pid could not be split between its "
			 "processes; stored as unattributed", iv->st.straddles);
	report_attribution(d, iv);
}

/* Counters another PMU user holds (daemon/plan/plan_held.h): true when the
 * plan should change, which the main loop does once iv is stored
 * (held_counters.h). */
static bool review_held(struct daemon *d, const struct interval_data *iv)
{
	int step = plan_held_review(&d->held, &d->plan, iv->enabled_ns, iv->unschedulable,
				    iv->n_groups, (unsigned)iv->ncpus);

	if (step > 0) {
		char label[96];

		plan_group_label(&d->plan, (unsigned)d->held.starved, label, sizeof(label));
		log_warning("group %s was refused by the PMU %d times without counting in "
			    "between: another PMU user (perf, a profiler, a second stackd) holds "
			    "counters; planning again with %u general counter%s held back for it",
			    label, PLAN_HELD_REFUSALS, d->held.extra, d->held.extra == 1 ? "" : "s");
	} else if (step < 0) {
		log_info("every counter group ran for %d intervals: planning again with %u "
			 "general counter%s held back for other PMU users", PLAN_HELD_CALM,
			 d->held.extra, d->held.extra == 1 ? "" : "s");
	}
	return step != 0;
}

/* Each CPU's sampling mode now, for /metrics. */
static void publish_modes(struct daemon *d)
{
	int *cpus = calloc(d->n_workers, sizeof(*cpus));
	bool *periodic = calloc(d->n_workers, sizeof(*periodic));

	if (cpus != NULL && periodic != NULL) {
		for (size_t i = 0; i < d->n_workers; i++) {
			cpus[i] = d->workers[i].ev->cpu;
			periodic[i] = worker_periodic(&d->workers[i]);
		}
		prom_set_cpu_modes(d->prom, cpus, periodic, d->n_workers);
	}
	free(cpus);
	free(periodic);
}

void interval_flush(struct daemon *d, bool final)
{
	struct interval_data *iv = NULL;
	uint64_t rate;
	bool recheck;
	size_t ran;
	int r;

	r = flush_run(&d->fl, final, &iv);
	if (r < 0) {
		log_error_r(r, "flush failed; the counts of this interval are lost");
		return;
	}
	if (exclude_apply(&d->excl, iv) < 0)
		log_warning("out of memory folding excluded processes: this interval stores them "
			    "one by one");
	report_health(d, iv);
	recheck = !final && recheck_due(d, iv);
	d->held_replan = !final && review_held(d, iv);
	rate = iv->st.max_cpu_switch_rate;
	prom_add_interval(d->prom, iv);
	publish_modes(d);
	ran = iv->n_procs;   /* iv is freed once written */
	writer_add(&d->w, iv);
	writer_flush(&d->w);
	if (!final)
		writer_maintain(&d->w);
	writer_publish(&d->w);
	notify_send(&d->notify, "STATUS=model %s: %zu processes ran in the last interval; "
		    "%" PRIu64 " intervals written%s", d->model->name, ran, writer_written(&d->w),
		    writer_pending(&d->w) > 0 ? ", some waiting: the database cannot be written" :
		    "");
	if (recheck)   /* after the interval is stored: the runs take ~0.4 s */
		recheck_cost(d, rate);
}

