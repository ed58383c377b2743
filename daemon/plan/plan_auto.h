/*
 * plan_auto.h - the planner's policies (plan.h, struct plan_budget):
 * families = auto and reserved_counters = auto.  Internal to daemon/plan.
 */
#ifndef STACKD_PLAN_AUTO_H
#define STACKD_PLAN_AUTO_H

#include "daemon/plan/plan.h"

/* plan_make without the policies: exactly the families not turned off,
 * with exactly the budget's reserved counters. */
int plan_make_exact(const struct model *m, const bool off[MODEL_MAX_GROUPS],
		    const struct plan_budget *b, struct plan *out, char *err, size_t errlen);

/* plan_make with b's policies (families_auto, spare_one); plan_make
 * (plan.h) is here too: plan.c plans, this file decides what. */
int plan_auto(const struct model *m, const bool off[MODEL_MAX_GROUPS],
	      const struct plan_budget *b, struct plan *out, char *err, size_t errlen);

/* Which of m's families its Top-Down level 1 needs (want[]: those it may
 * take): a smallest set whose counts make every level-1 node valid.  false
 * when m has no Top-Down or the wanted families cannot make it. */
bool plan_auto_level1(const struct model *m, const bool want[MODEL_MAX_GROUPS],
		      bool smt_on, bool l1[MODEL_MAX_GROUPS]);

#endif
