/*
 * collector_degrade.c - see collector_degrade.h.
 */
#include "daemon/collect/collector_degrade.h"
#include "daemon/base/log.h"
#include "daemon/plan/plan_drop.h"

#include <stdio.h>

static void explain_nothing_opens(const struct plan *p, const char *cpuid, const char *last,
				  char *err, size_t errlen)
{
	int first;
	unsigned n = plan_dropped_families(p, &first);

	snprintf(err, errlen, "no counter of model %s opens on this host (CPU %s; %u famil%s "
		 "refused, the last: %s): choose another model (stackd --list-models; the "
		 "software model needs no PMU)", p->model->name,
		 cpuid != NULL && cpuid[0] ? cpuid : "unknown", n, n == 1 ? "y" : "ies", last);
}

int collector_open_what_opens(const struct collector_params *p, struct plan *plan,
			      const char *cpuid, struct collector **ret, char *err, size_t errlen)
{
	struct collector_refusal refusal = { 0 };
	struct collector_params q = *p;

	q.plan = plan;
	q.refusal = &refusal;
	for (;;) {
		unsigned family;
		int r;

		refusal.refused = false;   /* a failure before any open leaves none */
		r = collector_open(&q, ret, err, errlen);

		if (r == 0 || !refusal.refused)
			return r;
		family = plan->groups[refusal.group].family;
		log_warning("family %s not collected: this host refused it (%s); the other "
			    "families count", plan->model->groups[family].name, refusal.why);
		if (plan_drop_family(plan, family, refusal.why) == 0) {
			explain_nothing_opens(plan, cpuid, refusal.why, err, errlen);
			return r;
		}
	}
}
