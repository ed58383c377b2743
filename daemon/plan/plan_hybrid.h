/*
 * plan_hybrid.h - the plan for a model as this host runs it: a hybrid CPU's
 * model (lib/model/model_hybrid.h) planned core type by core type, each
 * with its own PMU's budget (an E-core has fewer counters than a P-core),
 * its groups one after the other in one plan; any other model as
 * plan_make does.
 */
#ifndef STACKD_PLAN_HYBRID_H
#define STACKD_PLAN_HYBRID_H

#include "daemon/plan/plan.h"
#include "daemon/plan/plan_host.h"
#include "lib/model/model_hybrid.h"

/* Plan m's families not turned off, each core type with budgets[i] (i: its
 * part in model_hybrid_parts; budgets[0] only for a model of one core
 * type).  A core type nothing fits on is left out (its families say
 * why); 0 when at least one group is planned, else as plan_make. */
int plan_make_hybrid(const struct model *m, const bool off[MODEL_MAX_GROUPS],
		     const struct plan_budget *budgets, struct plan *out, char *err,
		     size_t errlen);

/* The budget of each core type of m (one for a model of one core type)
 * on a host whose facts are host (plan_host_read): its own counter figure
 * for a hybrid's parts, whatever CPUID leaf 0xA says for the package.
 * Returns how many. */
unsigned plan_host_budgets(const struct model *m, const struct plan_host *host,
			   const char *families, const char *reserved_counters, unsigned held,
			   struct plan_budget budgets[HYBRID_MAX_TYPES]);

/* The same with this host's budget for each core type (plan_detect_budget
 * of each part's model) under the families and reserved_counters settings
 * (families_policy), and held more general counters held back on each
 * (found held by other users: plan_held.h). */
int plan_make_for_host(const struct model *m, const bool off[MODEL_MAX_GROUPS],
		       const char *families, const char *reserved_counters, unsigned held,
		       struct plan *out, char *err, size_t errlen);

#endif
