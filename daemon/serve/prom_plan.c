/*
 * prom_plan.c - see prom_plan.h.
 */
#include "daemon/serve/prom_plan.h"

/* Why a family is not counted, as a label value: a fixed set, so the
 * series stay few and alerts can match them. */
static const char *reason_of(const struct plan_family *pf)
{
	if (pf->collected)
		return "";
	if (pf->refused)
		return "refused";
	if (!pf->wanted)
		return "turned_off";
	return "no_room";
}

void prom_render_plan(FILE *f, const struct plan *p)
{
	unsigned fam;

	if (p == NULL || p->model == NULL)
		return;
	fprintf(f, "# HELP stackd_family_collected 1 when the family's counter groups count, 0 "
		"when the plan left it out (reason: turned_off by the families setting, no_room "
		"in the counter budget, or refused by this host's kernel or PMU: the log and "
		"/api/v1/system say which event).\n# TYPE stackd_family_collected gauge\n");
	for (fam = 0; fam < p->model->n_groups && fam < MODEL_MAX_GROUPS; fam++) {
		const struct plan_family *pf = &p->families[fam];

		fprintf(f, "stackd_family_collected{family=\"%s\",reason=\"%s\"} %d\n",
			p->model->groups[fam].name, reason_of(pf), pf->collected ? 1 : 0);
	}
}
