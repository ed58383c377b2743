/*
 * plan_print.h - show a plan: as text for `stackd --plan`, as JSON for
 * `--plan --json`, the database's meta "plan" and /api/v1/system.
 */
#ifndef STACKD_PLAN_PRINT_H
#define STACKD_PLAN_PRINT_H

#include "daemon/plan/plan.h"
#include "lib/jsonw.h"

#include <stdio.h>

void plan_print_text(FILE *f, const struct plan *p);
void plan_print_json(struct jsonw *j, const struct plan *p);

#endif
