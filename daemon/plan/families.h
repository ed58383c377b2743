/*
 * families.h - the `families` setting: which of the model's counter groups
 * (metric families) stackd collects.
 */
#ifndef STACKD_FAMILIES_H
#define STACKD_FAMILIES_H

#include "lib/model/model.h"

#include <stdbool.h>
#include <stddef.h>

/* "auto" (see families_auto), "all", or a comma-separated list; an entry names a group ("td_l1") or
 * the groups it begins ("flops" = flops_a, flops_b); "-entry" leaves those
 * out again ("all,-fe_uops").  Sets off[g] for each group left out.
 * Returns 0, or -EINVAL with err naming the entry no group of m matches,
 * and m's groups, or saying that nothing would be left. */
int families_parse(const struct model *m, const char *list, bool off[MODEL_MAX_GROUPS],
		   char *err, size_t errlen);

/* "auto": the planner picks the families for the host's budget
 * (plan.h families_auto); families_parse leaves every family on. */
bool families_auto(const char *list);

struct plan_budget;
/* reserved_counters ("auto" or a number): the general counters to hold
 * back for other tools (0 for auto: plan_budget.spare_one decides). */
unsigned families_reserved(const char *reserved_counters);
/* Its syntax: auto, or 0..32 (for config checks). */
int families_check_reserved(const char *value, char *err, size_t errlen);
/* The settings' policy into b: families_auto, spare_one. */
void families_policy(const char *families, const char *reserved_counters,
		     struct plan_budget *b);

/* The syntax alone, before the model is known (for config checks). */
int families_check_syntax(const char *list, char *err, size_t errlen);

#endif
