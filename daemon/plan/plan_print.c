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
			 "SMT %s; the hard-lockup watchdog %s (%s); %u kept free for other tools%s%s",
			 b->gp_total, b->counters_from, b->gp_free, b->smt_on ? "on" : "off",
			 !b->watchdog_on ? "holds no counter" : b->watchdog_takes_gp ?
			 "holds a general counter" :
			 "holds the fixed cycles counter: cycles takes a general one",
			 b->watchdog_from[0] != '\0' ? b->watchdog_from : "assumed",
			 b->reserved, b->spare_one ? " (reserved_counters = auto)" : "",
			 b->no_perf_metrics ? "; no perf metrics (slots, topdown-*)" : "");
}

static void print_families(FILE *f, const struct plan *p)
{
	unsigned fam;

	for (fam = 0; fam < p->model->n_groups && fam < MODEL_MAX_GROUPS; fam++) {
		const struct plan_family *pf = &p->families[fam];
		const char *name = p->model->groups[fam].name;

		if (pf->collected)
			fprintf(f, "  %-22s counted %3.0f%% of the time, each event %.0f%%%s%s%s\n",
				name, 100 * plan_family_share(p, fam), 100 * plan_event_share(p, fam),
				pf->n_parts > 1 ?
				"; split: its figures combine groups counted at different times ("
				: "", pf->n_parts > 1 ? pf->why : "", pf->n_parts > 1 ? ")" : "");
		else if (pf->why[0] != '\0')
			fprintf(f, "  %-22s not collected: %s\n", name, pf->why);
		else
			fprintf(f, "  %-22s not collected: turned off (families)\n", name);
	}
}

void plan_print_text(FILE *f, const struct plan *p)
{
	char budget[768], label[96];
	unsigned g;

	describe(&p->budget, budget, sizeof(budget));
	fprintf(f, "model %s: %s\n", p->model->name, budget);
	if (p->n_groups == 0)
		fprintf(f, "no counter group fits: nothing would be collected\n");
	else if (p->n_groups == 1)
		fprintf(f, "1 counter group%s, always on:\n",
			p->budget.families_auto ? " (families = auto)" : "");
	else
		fprintf(f, "%u counter groups%s, rotating (each counts 1/%u of the time):\n",
			p->n_groups, p->budget.families_auto ? " (families = auto)" : "",
			p->n_groups);
	for (g = 0; g < p->n_groups; g++) {
		plan_group_label(p, g, label, sizeof(label));
		fprintf(f, "  %-26s %u general + %u fixed counters: ", label,
			p->groups[g].gp_needed, p->groups[g].fixed_needed);
		print_events(f, p, &p->groups[g]);
		fputc('\n', f);
	}
	fprintf(f, "families:\n");
	print_families(f, p);
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
	jsonw_field_bool(j, "nmi_watchdog_takes_general", b->watchdog_takes_gp);
	jsonw_field_string(j, "nmi_watchdog_from", b->watchdog_from);
	jsonw_field_bool(j, "perf_metrics", !b->no_perf_metrics);
	jsonw_field_bool(j, "reserved_auto", b->spare_one);
	jsonw_field_bool(j, "families_auto", b->families_auto);
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
		jsonw_field_bool(j, "refused", pf->refused);
		jsonw_field_uint(j, "parts", pf->n_parts);
		/* A split family's figures combine groups counted at different
		 * times: readers label them so. */
		jsonw_field_bool(j, "split", pf->n_parts > 1);
		jsonw_field_double(j, "share", plan_family_share(p, fam));
		jsonw_field_double(j, "event_share", plan_event_share(p, fam));
		jsonw_field_string_or_null(j, "why", pf->why[0] != '\0' ? pf->why :
					   !pf->wanted ? "turned off (families)" : NULL);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
	jsonw_object_end(j);
}
