/*
 * plan_held.c - see plan_held.h.
 */
#include "daemon/plan/plan_held.h"

#include <string.h>

/* The first group refused PLAN_HELD_REFUSALS times on each CPU (on
 * average) since it last ran, -1. */
static int record(struct plan_held *h, const uint64_t *enabled_ns, const uint32_t *unschedulable,
		  unsigned n_groups, unsigned n_cpus, bool *refused)
{
	int starved = -1;
	unsigned g;

	*refused = false;
	for (g = 0; g < n_groups && g < PLAN_MAX_GROUPS; g++) {
		*refused |= unschedulable[g] > 0;
		if (enabled_ns[g] > 0)
			h->refusals[g] = 0;
		h->refusals[g] += unschedulable[g];
		if (starved < 0 && h->refusals[g] >= PLAN_HELD_REFUSALS * (n_cpus ? n_cpus : 1))
			starved = (int)g;
	}
	return starved;
}

int plan_held_review(struct plan_held *h, const struct plan *p, const uint64_t *enabled_ns,
		     const uint32_t *unschedulable, unsigned n_groups, unsigned n_cpus)
{
	bool refused;
	int starved = record(h, enabled_ns, unschedulable, n_groups, n_cpus, &refused);

	if (p->budget.unlimited)
		return 0;   /* software events: nothing to hold */
	if (starved >= 0 && p->budget.gp_free > 1) {
		/* one general counter is the least a group needs beside cycles */
		h->starved = starved;
		h->extra++;
		h->calm = 0;
		memset(h->refusals, 0, sizeof(h->refusals));
		return 1;
	}
	if (refused || h->extra == 0) {
		h->calm = 0;
		return 0;
	}
	if (++h->calm < PLAN_HELD_CALM)
		return 0;
	h->calm = 0;
	h->extra--;
	memset(h->refusals, 0, sizeof(h->refusals));
	return -1;
}
