/*
 * plan_print.c - a plan (plan.h) for people (`stackd --plan`) and as JSON
 * (`stackd --plan --json`, meta "plan", /api/v1/system "plan").
 */
#include "daemon/plan/plan_print.h"

#include <stdio.h>

static void print_events(FILE *f, const struct plan *p, const struct plan_group *g)
{
	const struct model_group *mg = &p->model->groups[g->family];
	unsigned i;

	for (i = 0; i < g->n_events; i++)
		fprintf(f, "%s%s", i ? ", " : "", mg->events[g->events[i]].column);
}

static void describe(const struct plan_budget *b, char *buf, size_t len)
{
	if (b->unlimited)
		snprintf(buf, len, "software events: no counter budget");
	else
		snprintf(buf, len, "%u general counters per thread (%s), %u free for stackd; "
			 "SMT %s, NMI watchdog %s%s, %u held by another user", b->gp_total,
			 b->counters_from, b->gp_free,
			 b->smt_on ? "on" : "off", b->watchdog_on ? "on" : "off",
			 !b->watchdog_on ? "" : b->watchdog_takes_gp ? " (holds a general counter)" :
			 " (holds the fixed cycles counter: cycles takes a general one)",
			 b->reserved);
}

void plan_print_text(FILE *f, const struct plan *p)
{
	char budget[320], label[96];
	unsigned g, fam;

	describe(&p->budget, budget, sizeof(budget));
	fprintf(f, "model %s: %s\n", p->model->name, budget);
	if (p->n_groups == 0)
		fprintf(f, "no counter group fits: nothing would be collected\n");
	else if (p->n_groups == 1)
		fprintf(f, "1 counter group, always on:\n");
	else
		fprintf(f, "%u counter groups, rotating (each counts 1/%u of the time):\n",
			p->n_groups, p->n_groups);
	for (g = 0; g < p->n_groups; g++) {
		plan_group_label(p, g, label, sizeof(label));
		fprintf(f, "  %-26s %u general + %u fixed counters: ", label,
			p->groups[g].gp_needed, p->groups[g].fixed_needed);
		print_events(f, p, &p->groups[g]);
		fputc('\n', f);
	}
	for (fam = 0; fam < p->model->n_groups; fam++) {
		const struct plan_family *pf = &p->families[fam];

		if (!pf->wanted)
			fprintf(f, "  %s: not collected (turned off: families)\n",
				p->model->groups[fam].name);
		else if (pf->why[0] != '\0')
			fprintf(f, "  %s: %s\n", p->model->groups[fam].name, pf->why);
	}
}

void plan_print_json(struct jsonw *j, const struct plan *p)
{
	const struct plan_budget *b = &p->budget;
	unsigned g, fam, i;

	jsonw_object_begin(j);
	jsonw_field_string(j, "model", p->model->name);
	jsonw_key(j, "budget");
	jsonw_object_begin(j);
	jsonw_field_bool(j, "counter_limits", !b->unlimited);
	jsonw_field_bool(j, "smt", b->smt_on);
	jsonw_field_bool(j, "nmi_watchdog", b->watchdog_on);
	jsonw_field_uint(j, "held_by_others", b->reserved);
	jsonw_field_uint(j, "general_counters", b->gp_total);
	jsonw_field_string(j, "general_counters_from", b->counters_from);
	jsonw_field_uint(j, "general_free", b->gp_free);
	jsonw_field_bool(j, "cycles_on_fixed_counter", b->cycles_on_fixed);
	jsonw_object_end(j);
	jsonw_key(j, "groups");
	jsonw_array_begin(j);
	for (g = 0; g < p->n_groups; g++) {
		const struct plan_group *pg = &p->groups[g];
		const struct model_group *mg = &p->model->groups[pg->family];

		jsonw_object_begin(j);
		jsonw_field_string(j, "family", mg->name);
		jsonw_field_uint(j, "part", pg->part);
		jsonw_field_uint(j, "parts", pg->n_parts);
		jsonw_field_uint(j, "general_counters", pg->gp_needed);
		jsonw_field_uint(j, "fixed_counters", pg->fixed_needed);
		jsonw_key(j, "events");
		jsonw_array_begin(j);
		for (i = 0; i < pg->n_events; i++)
			jsonw_string(j, mg->events[pg->events[i]].column);
		jsonw_array_end(j);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
	jsonw_key(j, "families");
	jsonw_array_begin(j);
	for (fam = 0; fam < p->model->n_groups; fam++) {
		const struct plan_family *pf = &p->families[fam];

		jsonw_object_begin(j);
		jsonw_field_string(j, "name", p->model->groups[fam].name);
		jsonw_field_bool(j, "wanted", pf->wanted);
		jsonw_field_bool(j, "collected", pf->collected);
		jsonw_field_uint(j, "parts", pf->n_parts);
		jsonw_field_string_or_null(j, "why", pf->why[0] != '\0' ? pf->why :
					   !pf->wanted ? "turned off (families)" : NULL);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
	jsonw_object_end(j);
}
