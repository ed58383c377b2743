/*
 * plan_cli.c - see plan_cli.h.
 */
#include "daemon/plan_cli.h"
#include "lib/model/model_hybrid.h"
#include "daemon/plan/families.h"
#include "daemon/plan/plan_print.h"
#include "daemon/model_choice.h"
#include "lib/model/model_cpu.h"
#include "daemon/plan/host_cpu_read.h"
#include "daemon/plan/plan_host.h"

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

int plan_cpu_models(const char *cpuid, const char *host_root, const struct model *models[2],
		    const char *units[2], unsigned *n, char *why, size_t len)
{
	struct host_cpu c;
	const struct model *m;
	char err[256];

	*n = 1;
	units[0] = units[1] = NULL;
	if (host_root != NULL) {
		if (host_cpu_read(host_root, &c, err, sizeof(err)) < 0) {
			snprintf(why, len, "--host %s: %s", host_root, err);
			return -EINVAL;
		}
		if (!c.has_core_pmu) {
			models[0] = &model_software;
			snprintf(why, len, "CPU %s: no core PMU under %s: the software model",
				 c.cpuid, host_root);
			return 0;
		}
		c.hypothetical = true;  /* another host: take libpfm4 as knowing it */
	} else if (host_cpu_parse_cpuid(cpuid, &c, err, sizeof(err)) < 0) {
		snprintf(why, len, "--cpuid %s: %s", cpuid, err);
		return -EINVAL;
	}
	return model_for_cpu(&c, NULL, &m, models, units, n, why, len);
}

/* The models to plan: cfg's, or the CPU's (plan_cpu_models). */
static int plan_models(const struct config *cfg, const struct plan_args *a,
		       const struct model *models[2], const char *units[2], unsigned *n,
		       char *why, size_t len)
{
	*n = 1;
	units[0] = units[1] = NULL;
	if ((a->cpuid == NULL && a->host_root == NULL) || strcmp(cfg->model, "auto") != 0) {
		unsigned base[HYBRID_MAX_TYPES + 1];
		int r = model_choose(cfg->model, &models[0], why, len);

		/* a hybrid model: each core type planned with its own budget */
		if (r == 0 && model_hybrid_parts(models[0], models, units, base) > 0)
			*n = 2;
		return r;
	}
	return plan_cpu_models(a->cpuid, a->host_root, models, units, n, why, len);
}

/* The budget --plan plans with: the host's (this one, or --host DIR's
 * files; a --cpuid CPU has none), then what the options say. */
static void plan_budget(const struct config *cfg, const struct plan_args *a,
			const struct model *m, struct plan_budget *b)
{
	const char *root = a->host_root != NULL ? a->host_root : "";
	bool live = a->cpuid == NULL && a->host_root == NULL;
	struct plan_host h;

	plan_host_read(root, live, &h);
	/* A hypothetical CPU or SMT state: the model's counter figure. */
	if (a->cpuid != NULL || (live && a->smt >= 0))
		h.gp = 0;
	if (a->cpuid != NULL)
		h.perf_metrics_known = false;
	plan_host_budget(m, root, &h, a->smt, a->watchdog,
			 families_reserved(cfg->reserved_counters), b);
	if (a->counters >= 0 && !b->unlimited)
		plan_budget_set_total(b, (unsigned)a->counters, "--counters");
	if (a->no_perf_metrics)
		b->no_perf_metrics = true;
	families_policy(cfg->families, cfg->reserved_counters, b);
}

static int plan_one(const struct config *cfg, const struct plan_args *a, const struct model *m,
		    const char *unit, bool last)
{
	bool off[MODEL_MAX_GROUPS];
	struct plan_budget budget;
	struct plan plan;
	char err[1024];
	int r;

	if (families_parse(m, cfg->families, off, err, sizeof(err)) < 0) {
		fprintf(stderr, "stackd: families: %s\n", err);
		return -EINVAL;
	}
	plan_budget(cfg, a, m, &budget);
	r = plan_make(m, off, &budget, &plan, err, sizeof(err));
	if (r < 0 && r != -ENOSPC) {
		fprintf(stderr, "stackd: %s\n", err);
		return r;
	}
	if (a->json) {
		struct jsonw j;

		jsonw_init(&j, stdout);
		if (unit != NULL) {
			jsonw_object_begin(&j);
			jsonw_field_string(&j, "core_type", unit);
			jsonw_key(&j, "plan");
		}
		plan_print_json(&j, &plan);
		if (unit != NULL)
			jsonw_object_end(&j);
		fputs(last ? "\n" : ",\n", stdout);
		if (jsonw_done(&j) < 0)
			return -EIO;
	} else {
		if (unit != NULL)
			printf("core type %s:\n", unit);
		plan_print_text(stdout, &plan);
	}
	if (r < 0)
		fprintf(stderr, "stackd: %s\n", err);
	return r;
}

int plan_cli_run(const struct config *cfg, const struct plan_args *a)
{
	const struct model *models[2];
	const char *units[2];
	char why[512];
	unsigned n, i;
	int r = 0;

	if (plan_models(cfg, a, models, units, &n, why, sizeof(why)) < 0) {
		fprintf(stderr, "stackd: model: %s (see stackd --list-models)\n", why);
		return EXIT_FAILURE;
	}
	if (!a->json)
		printf("%s\n", why);
	else if (n > 1)
		printf("[");
	for (i = 0; i < n; i++) {
		int ri = plan_one(cfg, a, models[i], n > 1 ? units[i] : NULL, i + 1 == n);

		if (ri < 0 && r == 0)
			r = ri;
	}
	if (a->json && n > 1)
		printf("]\n");
	return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
