/*
 * prom_plan.h - /metrics: which families the plan in force counts, and
 * which it left out and why (turned off, no room in the counter budget,
 * or refused by this host), one series per family of the model.
 */
#ifndef STACKD_PROM_PLAN_H
#define STACKD_PROM_PLAN_H

#include "daemon/plan/plan.h"

#include <stdio.h>

void prom_render_plan(FILE *f, const struct plan *p);

#endif
