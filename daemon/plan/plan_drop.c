/*
 * plan_drop.c - see plan_drop.h.
 */
#include "daemon/plan/plan_drop.h"

#include <stdio.h>

unsigned plan_drop_family(struct plan *p, unsigned family, const char *why)
{
	unsigned g, k = 0;

	for (g = 0; g < p->n_groups; g++)
		if (p->groups[g].family != family)
			p->groups[k++] = p->groups[g];
	p->n_groups = k;
	if (family < MODEL_MAX_GROUPS) {
		struct plan_family *pf = &p->families[family];

		pf->collected = false;
		pf->refused = true;
		pf->n_parts = 0;
		snprintf(pf->why, sizeof(pf->why), "this host refused it: %s", why);
	}
	return k;
}

void plan_copy_refusals(struct plan *p, const struct plan *from)
{
	unsigned f, g, k;

	if (from == p || from->model != p->model)
		return;
	for (f = 0; f < p->model->n_groups && f < MODEL_MAX_GROUPS; f++) {
		if (!from->families[f].refused)
			continue;
		for (g = k = 0; g < p->n_groups; g++)
			if (p->groups[g].family != f)
				p->groups[k++] = p->groups[g];
		p->n_groups = k;
		p->families[f] = from->families[f];
	}
}

unsigned plan_dropped_families(const struct plan *p, int *first)
{
	unsigned f, n = 0;

	*first = -1;
	for (f = 0; f < p->model->n_groups && f < MODEL_MAX_GROUPS; f++)
		if (p->families[f].refused) {
			if (n++ == 0)
				*first = (int)f;
		}
	return n;
}
