/*
 * counting.c - see counting.h.
 */
#include "daemon/counting.h"
#include "daemon/collect/collector_degrade.h"
#include "daemon/plan/families.h"
#include "daemon/plan/plan.h"
#include "daemon/plan/plan_drop.h"
#include "daemon/plan/plan_hybrid.h"
#include "daemon/model_choice.h"
#include "daemon/base/log.h"
#include "lib/model/model_hybrid.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int counting_make_plan(const struct daemon *d, const char *families, const char *reserved_counters,
		       struct plan *out, char *err, size_t errlen)
{
	bool off[MODEL_MAX_GROUPS];
	char why[1536];
	int r;

	r = families_parse(d->model, families, off, why, sizeof(why));
	if (r < 0) {
		snprintf(err, errlen, "families: %s", why);
		return r;
	}
	/* the counters other users were found holding (held_counters.c) */
	r = plan_make_for_host(d->model, off, families, reserved_counters, d->held.extra, out, err,
			       errlen);
	if (r == 0)
		plan_copy_refusals(out, &d->plan);   /* what this host refused, it still does */
	return r;
}

/* A hybrid model's core types and their CPUs, from each PMU's sysfs
 * "cpus" file (the kernel's own list of the CPUs that PMU counts on). */
static int read_core_types(const struct model *m, char cpus[][256],
			   struct collector_core_types *out, char *err, size_t errlen)
{
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES];
	unsigned base[HYBRID_MAX_TYPES + 1], n, i;

	n = model_hybrid_parts(m, parts, units, base);
	for (i = 0; i < n && i < COLLECTOR_MAX_CORE_TYPES; i++) {
		char path[128];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpus", units[i]);
		f = fopen(path, "re");
		if (f == NULL || fgets(cpus[i], 256, f) == NULL) {
			snprintf(err, errlen, "model %s counts core type %s, but %s cannot be read "
				 "(%s): not a hybrid CPU of this kind? (choose the model of one "
				 "core type)", m->name, units[i], path, f ? "empty" : strerror(errno));
			if (f != NULL)
				fclose(f);
			return -ENOENT;
		}
		fclose(f);
		cpus[i][strcspn(cpus[i], "\n")] = '\0';
		out->unit[i] = units[i];
		out->cpus[i] = cpus[i];
		out->n = i + 1;
	}
	return 0;
}

int counting_open_collector(struct daemon *d, struct plan *plan, char *err, size_t errlen)
{
	struct collector_params params;
	char cpus[COLLECTOR_MAX_CORE_TYPES][256], cpuid[96];
	int r;

	memset(&params, 0, sizeof(params));
	r = read_core_types(plan->model, cpus, &params.core_types, err, errlen);
	if (r < 0)
		return r;
	params.switch_position = d->cfg.switch_event;
	params.ring_pages = d->cfg.ring_pages;
	config_count_modes(&d->cfg, &params.count_user, &params.count_kernel);
	model_choice_host_facts(cpuid, sizeof(cpuid));
	return collector_open_what_opens(&params, plan, cpuid, &d->col, err, errlen);
}

int counting_start_workers(struct daemon *d)
{
	size_t i;
	int r;

	d->workers = calloc(d->col->n_cpus, sizeof(*d->workers));
	if (d->workers == NULL)
		return -ENOMEM;
	for (i = 0; i < d->col->n_cpus; i++) {
		r = worker_init(&d->workers[i], d->col, &d->col->cpus[i], d->cfg.rotate_period_ns,
				(int32_t)getpid());
		if (r < 0)
			return r;
		d->n_workers++;
		if (!d->workers[i].has_groups)
			log_warning("cpu %d: no counter group of the plan counts on this CPU (its "
				    "core type has none planned or none opened): its processes' "
				    "figures there are not measured", d->col->cpus[i].cpu);
	}
	counting_set_budget(d);
	for (i = 0; i < d->n_workers; i++) {
		r = worker_start(&d->workers[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

void counting_stop_workers(struct daemon *d)
{
	size_t i;

	for (i = 0; i < d->n_workers; i++)
		worker_done(&d->workers[i]);
	free(d->workers);
	d->workers = NULL;
	d->n_workers = 0;
}

/* The cost the budget works with: the measured one, unless the start's
 * calibration could not resolve it (0: a run with sampling on came out
 * no slower, which noise on a shared host does; seen on the development
 * VM, whose cost is about 1 us).  Sampling a switch is never free, and a
 * budget taking it as free would never act: then the development VM's
 * figure stands in (status still shows the measured one). */
double counting_budget_cost_ns(const struct daemon *d)
{
	double ns = daemon_sampling_cost_ns(d);

	return ns > 0 ? ns : (double)SWITCH_SAMPLE_COST_NS;
}

void counting_set_budget(struct daemon *d)
{
	size_t i;

	for (i = 0; i < d->n_workers; i++) {
		worker_set_budget(&d->workers[i], d->cfg.max_sampling_cost, counting_budget_cost_ns(d));
		worker_set_periodic(&d->workers[i], daemon_clock_period_ns(d), d->calib.clock_sample_ns,
				    d->calib.switch_count_ns);
	}
}

/* The API's threads, the workers and the flusher: from here on we collect. */
void counting_hold_reviews(struct daemon *d, bool on)
{
	size_t i;

	for (i = 0; i < d->n_workers; i++)
		worker_hold_review(&d->workers[i], on);
}

