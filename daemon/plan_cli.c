/*
 * plan_cli.c - see plan_cli.h.
 */
#include "daemon/plan_cli.h"
#include "daemon/plan/families.h"
#include "daemon/plan/plan_print.h"
#include "daemon/model_choice.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int plan_args_on_off(const char *v)
{
	if (strcmp(v, "on") == 0 || strcmp(v, "1") == 0)
		return 1;
	if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0)
		return 0;
	return -1;
}

int plan_cli_run(const struct config *cfg, const struct plan_args *a)
{
	bool off[MODEL_MAX_GROUPS];
	const struct model *m = NULL;
	struct plan_budget budget;
	struct plan plan;
	char why[512], err[1024];
	int r;

	if (model_choose(cfg->model, &m, why, sizeof(why)) < 0) {
		fprintf(stderr, "stackd: model: %s (see stackd --list-models)\n", why);
		return EXIT_FAILURE;
	}
	if (families_parse(m, cfg->families, off, err, sizeof(err)) < 0) {
		fprintf(stderr, "stackd: families: %s\n", err);
		return EXIT_FAILURE;
	}
	plan_budget_for(m, a->smt >= 0 ? a->smt == 1 : plan_host_smt_on(),
			a->watchdog >= 0 ? a->watchdog == 1 : plan_host_watchdog_on(), a->reserved,
			&budget);
	/* This host's SMT state: its CPU's counter figure too, as the daemon
	 * would plan (a hypothetical SMT state: the model's). */
	if (a->smt < 0)
		plan_apply_host_counters(&budget);
	r = plan_make(m, off, &budget, &plan, err, sizeof(err));
	if (r < 0 && r != -ENOSPC) {
		fprintf(stderr, "stackd: %s\n", err);
		return EXIT_FAILURE;
	}
	if (a->json) {
		struct jsonw j;

		jsonw_init(&j, stdout);
		plan_print_json(&j, &plan);
		putchar('\n');
		if (jsonw_done(&j) < 0)
			return EXIT_FAILURE;
	} else {
		plan_print_text(stdout, &plan);
	}
	if (r < 0) {
		fprintf(stderr, "stackd: %s\n", err);
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
