/*
 * model_software.c - the fallback model for hosts without a hardware PMU.
 *
 * Software events only: the collector's own members give task-clock and
 * context switches in every group; the families rotate.  Two groups, so that
 * rotation runs on every machine, including VMs and CI, through the very
 * code the hardware models use.  Formula version 1.
 */
#include "lib/model/model.h"
#include "lib/clock.h"

static const struct model_event faults_events[] = {
	{ "perf::PAGE-FAULTS", "page_faults", "page-faults", true, false },
};

static const struct model_event migrations_events[] = {
	{ "perf::CPU-MIGRATIONS", "migrations", "cpu-migrations", true, false },
};

static const struct model_group software_groups[] = {
	{ "faults", faults_events, 1, false },
	{ "migrations", migrations_events, 1, false },
};

enum {
	SW_GROUP_FAULTS,
	SW_GROUP_MIGRATIONS,
};

enum {
	SW_SWITCHES_PER_CPU_S,
	SW_PAGE_FAULTS_PER_CPU_S,
	SW_MIGRATIONS_PER_CPU_S,
	_SW_METRIC_MAX,
};

static const struct model_metric software_metrics[] = {
	[SW_SWITCHES_PER_CPU_S] = { "switches_per_cpu_s", NULL, METRIC_RATE,
		"context switches per second of the process's CPU time" },
	[SW_PAGE_FAULTS_PER_CPU_S] = { "page_faults_per_cpu_s", NULL, METRIC_RATE,
		"page faults per second of CPU time, measured while the faults group ran" },
	[SW_MIGRATIONS_PER_CPU_S] = { "migrations_per_cpu_s", NULL, METRIC_RATE,
		"CPU migrations per second of CPU time, measured while the migrations group ran" },
};

/* count per second of the time the same group measured: a ratio inside one group */
static void rate_in_group(const struct group_sums *g, uint64_t count, uint64_t total_ns,
			  struct metric_value *out)
{
	if (!g->present || g->task_clock_ns == 0 || total_ns == 0) {
		out->valid = false;
		return;
	}
	out->valid = true;
	out->value = (double)count * (double)NS_PER_SEC / (double)g->task_clock_ns;
	out->coverage = (double)g->task_clock_ns / (double)total_ns;
}

static void software_compute(const struct model *m, const struct group_sums *sums,
			     const struct model_context *ctx, struct metric_value *out)
{
	uint64_t total_ns = model_total_task_clock(m, sums);
	uint64_t switches = 0;
	unsigned i;

	(void)ctx;

	for (i = 0; i < m->n_groups; i++)
		if (sums[i].present)
			switches += sums[i].context_switches;
	/* Switches are counted by every group, so their total has full coverage. */
	if (total_ns > 0) {
		out[SW_SWITCHES_PER_CPU_S].valid = true;
		out[SW_SWITCHES_PER_CPU_S].value =
			(double)switches * (double)NS_PER_SEC / (double)total_ns;
		out[SW_SWITCHES_PER_CPU_S].coverage = 1.0;
	} else {
		out[SW_SWITCHES_PER_CPU_S].valid = false;
	}
	rate_in_group(&sums[SW_GROUP_FAULTS], sums[SW_GROUP_FAULTS].v[0], total_ns,
		      &out[SW_PAGE_FAULTS_PER_CPU_S]);
	rate_in_group(&sums[SW_GROUP_MIGRATIONS], sums[SW_GROUP_MIGRATIONS].v[0], total_ns,
		      &out[SW_MIGRATIONS_PER_CPU_S]);
}

const struct model model_software = {
	.name = "software",
	.description = "software events only (no hardware PMU): task-clock, "
		       "context switches, page faults, migrations",
	.formula_version = 1,
	.pmus = (const char *const[]){ "perf", NULL },
	.pipeline_width = 0,
	.vendor = VENDOR_NONE,
	.fixed_counters = 0,  /* software events: no counters at all */
	.ratio_sets = NULL,   /* each count per second of its own family's time */
	.n_ratio_sets = 0,
	.groups = software_groups,
	.n_groups = sizeof(software_groups) / sizeof(software_groups[0]),
	.metrics = software_metrics,
	.n_metrics = _SW_METRIC_MAX,
	.compute = software_compute,
};
