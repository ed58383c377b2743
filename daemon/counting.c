/*
 * counting.c - see counting.h.
 */
#include "daemon/counting.h"
#include "daemon/plan/families.h"
#include "daemon/plan/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int counting_make_plan(const struct daemon *d, const char *families, struct plan *out, char *err,
		  size_t errlen)
{
	bool off[MODEL_MAX_GROUPS];
	struct plan_budget budget;
	char why[1536];
	int r;

	r = families_parse(d->model, families, off, why, sizeof(why));
	if (r < 0) {
		snprintf(err, errlen, "families: %s", why);
		return r;
	}
	plan_detect_budget(d->model, 0, &budget);
	return plan_make(d->model, off, &budget, out, err, errlen);
}

int counting_open_collector(struct daemon *d, const struct plan *plan, char *err, size_t errlen)
{
	struct collector_params params;

	memset(&params, 0, sizeof(params));
	params.plan = plan;
	params.switch_position = d->cfg.switch_event;
	params.ring_pages = d->cfg.ring_pages;
	config_count_modes(&d->cfg, &params.count_user, &params.count_kernel);
	return collector_open(&params, &d->col, err, errlen);
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

