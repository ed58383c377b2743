/*
 * plan_hybrid.c - see plan_hybrid.h.
 */
#include "daemon/plan/plan_hybrid.h"
#include "daemon/plan/families.h"
#include "lib/model/model_hybrid.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Part i's plan into the composite's: its families and groups at the
 * part's offset among the composite's groups. */
static void append(struct plan *out, const struct plan *sub, unsigned base)
{
	unsigned g, f;

	for (f = 0; f < sub->model->n_groups && base + f < MODEL_MAX_GROUPS; f++)
		out->families[base + f] = sub->families[f];
	for (g = 0; g < sub->n_groups && out->n_groups < PLAN_MAX_GROUPS; g++) {
		out->groups[out->n_groups] = sub->groups[g];
		out->groups[out->n_groups++].family += base;
	}
}

int plan_make_hybrid(const struct model *m, const bool off[MODEL_MAX_GROUPS],
		     const struct plan_budget *budgets, struct plan *out, char *err,
		     size_t errlen)
{
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES];
	unsigned base[HYBRID_MAX_TYPES + 1], n, i;
	int first = -ENOSPC;

	n = model_hybrid_parts(m, parts, units, base);
	if (n == 0)
		return plan_make(m, off, &budgets[0], out, err, errlen);
	memset(out, 0, sizeof(*out));
	out->model = m;
	out->budget = budgets[0];
	err[0] = '\0';
	for (i = 0; i < n; i++) {
		bool part_off[MODEL_MAX_GROUPS] = { false };
		struct plan sub;
		char why[512];
		int r;

		memcpy(part_off, off + base[i], (base[i + 1] - base[i]) * sizeof(bool));
		r = plan_make(parts[i], part_off, &budgets[i], &sub, why, sizeof(why));
		if (r < 0 && r != -ENOSPC) {
			snprintf(err, errlen, "core type %s: %s", units[i], why);
			return r;
		}
		if (r == 0)
			first = 0;
		else if (err[0] == '\0')
			snprintf(err, errlen, "core type %s: %s", units[i], why);
		append(out, &sub, base[i]);
	}
	return first;
}

unsigned plan_host_budgets(const struct model *m, const struct plan_host *host,
			   const char *families, const char *reserved_counters, unsigned held,
			   struct plan_budget budgets[HYBRID_MAX_TYPES])
{
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES];
	unsigned base[HYBRID_MAX_TYPES + 1], n, i;
	struct plan_host h = *host;

	n = model_hybrid_parts(m, parts, units, base);
	/* CPUID leaf 0xA gives a hybrid CPU's shared count (Alder Lake: the
	 * E-core's 6), not the P-core's 8 (intel_pmu_init): each core
	 * type's own figure stands there. */
	if (n > 0)
		h.gp = 0;
	else
		parts[n++] = m;
	for (i = 0; i < n; i++) {
		plan_host_budget(parts[i], "", &h, -1, -1,
				 families_reserved(reserved_counters) + held, &budgets[i]);
		families_policy(families, reserved_counters, &budgets[i]);
	}
	return n;
}

int plan_make_for_host(const struct model *m, const bool off[MODEL_MAX_GROUPS],
		       const char *families, const char *reserved_counters, unsigned held,
		       struct plan *out, char *err, size_t errlen)
{
	struct plan_budget budgets[HYBRID_MAX_TYPES];
	struct plan_host host;

	plan_host_read("", true, &host);
	plan_host_budgets(m, &host, families, reserved_counters, held, budgets);
	return plan_make_hybrid(m, off, budgets, out, err, errlen);
}
