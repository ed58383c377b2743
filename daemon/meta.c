/*
 * meta.c - see meta.h.
 */
#include "daemon/meta.h"
#include "daemon/base/log.h"
#include "daemon/plan/plan_print.h"
#include "daemon/store/store.h"
#include "lib/clock.h"
#include "lib/duration.h"
#include "lib/jsonw.h"
#include "lib/version.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What the plan says of each family that is not collected whole: once, at
 * start, in the log (stackd --plan and /api/v1/system say it too). */
void meta_log_plan(const struct plan *p)
{
	unsigned f;

	for (f = 0; f < p->model->n_groups; f++) {
		const struct plan_family *pf = &p->families[f];

		if (!pf->wanted || pf->why[0] == '\0')
			continue;
		if (pf->collected)
			log_info("family %s: %s", p->model->groups[f].name, pf->why);
		else
			log_warning("family %s: %s%s", p->model->groups[f].name, pf->why,
				    p->budget.watchdog_on ? "; sysctl kernel.nmi_watchdog=0 frees a "
				    "counter" : "");
	}
}

/* The plan as JSON, for meta "plan"; "" when out of memory. */
static char *plan_json_text(const struct plan *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw j;

	if (f == NULL)
		return NULL;
	jsonw_init(&j, f);
	plan_print_json(&j, p);
	if (fclose(f) != 0 || jsonw_done(&j) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The sampling costs as measured, "" where not measured (yet). */
struct meta_costs {
	char cost[32], cost_at[32], clock_cost[32], count_cost[32], clock_hz[32];
};

static void format_costs(const struct daemon *d, struct meta_costs *m)
{
	memset(m, 0, sizeof(*m));
	if (d->calib.method[0] != '\0' && d->calib.cost_ns >= 0)
		snprintf(m->cost, sizeof(m->cost), "%.0f", d->calib.cost_ns);
	if (d->calib.clock_method[0] != '\0' && d->calib.clock_sample_ns >= 0)
		snprintf(m->clock_cost, sizeof(m->clock_cost), "%.0f", d->calib.clock_sample_ns);
	if (d->calib.clock_method[0] != '\0' && d->calib.switch_count_ns >= 0)
		snprintf(m->count_cost, sizeof(m->count_cost), "%.0f", d->calib.switch_count_ns);
	snprintf(m->clock_hz, sizeof(m->clock_hz), "%.1f",
		 (double)NS_PER_SEC / (double)daemon_clock_period_ns(d));
	if (d->calib.at_ns != 0) {
		time_t at = (time_t)(d->calib.at_ns / NS_PER_SEC);
		struct tm tm;

		if (gmtime_r(&at, &tm) != NULL)
			strftime(m->cost_at, sizeof(m->cost_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
}

/* "groups": the names of the families collected, comma-separated. */
static void collected_groups(const struct daemon *d, char *groups, size_t len)
{
	size_t used = 0;
	unsigned g;

	groups[0] = '\0';
	for (g = 0; g < d->model->n_groups; g++) {
		int n;

		if (!d->plan.families[g].collected)
			continue;
		n = snprintf(groups + used, len - used, "%s%s", used ? "," : "",
			     d->model->groups[g].name);
		if (n > 0 && (size_t)n < len - used)
			used += (size_t)n;
	}
}

void meta_write(struct daemon *d)
{
	char interval[32], rotate[32], started[32], pid[16], ncpus[16], ring[16], slots[16], groups[512];
	char host[256] = "";
	char *plan = plan_json_text(&d->plan);
	struct meta_costs mc;

	gethostname(host, sizeof(host) - 1);
	format_costs(d, &mc);
	duration_format(d->cfg.interval_ns, interval, sizeof(interval));
	duration_format(d->cfg.rotate_period_ns, rotate, sizeof(rotate));
	snprintf(started, sizeof(started), "%" PRIu64, d->started_ns);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(ncpus, sizeof(ncpus), "%zu", d->n_workers);
	snprintf(slots, sizeof(slots), "%u", d->pmu_slots);
	snprintf(ring, sizeof(ring), "%u", d->cfg.ring_pages);
	collected_groups(d, groups, sizeof(groups));
	{
		const char *kv[] = {
			"version", STACKD_VERSION,
			"model", d->model->name,
			"model_reason", d->model_why,
			"groups", groups,
			"interval", interval,
			"rotate_period", rotate,
			"ring_pages", ring,
			"switch_event", d->cfg.switch_event == SWITCH_MEMBER ? "member" : "leader",
			"count_modes", d->cfg.count_modes,
			"exclude_comm", d->cfg.exclude_comm,
			"exclude_unit", d->cfg.exclude_unit,
			"exclude_user", d->cfg.exclude_user,
			"ncpus", ncpus,
			"smt", d->plan.budget.smt_on ? "on" : "off",
			/* Arm's #slots, which its perf Top-Down formulas need */
			"pmu_slots", slots,
			"cpuid", d->cpuid,
			"plan", plan != NULL ? plan : "",
			"pid", pid,
			"started_ns", started,
			"host", host,
			/* "": not measured (yet), lib/sampling_cost.h's figure */
			"sampling_cost_ns", mc.cost,
			"sampling_cost_method", d->calib.method,
			/* RFC 3339, UTC: when that figure was measured */
			"sampling_cost_calibrated_at", mc.cost_at,
			/* "": not measured; what one periodic sample costs,
			 * and the rate periodic mode samples at for it */
			"clock_sample_cost_ns", mc.clock_cost,
			"switch_count_cost_ns", mc.count_cost,
			"clock_sample_cost_method", d->calib.clock_method,
			"periodic_hz", mc.clock_hz,
		};
		char err[512];

		if (writer_store(&d->w) != NULL &&   /* else written when the store is open again */
		    store_set_meta(writer_store(&d->w), kv, sizeof(kv) / sizeof(kv[0]) / 2, err,
				   sizeof(err)) < 0)
			log_warning("cannot record daemon facts in the database: %s", err);
	}
	free(plan);
}

