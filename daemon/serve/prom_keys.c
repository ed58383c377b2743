/*
 * prom_keys.c - each printed target's Top-Down nodes, cycles and
 * instructions, from its newest interval through the model's own formulas
 * (what `stackctl top` runs), so /metrics needs no event series per target
 * and the recording rules no per-target arithmetic (prom.h).
 *
 * A node is printed as CPU seconds: its share in the interval times the
 * target's CPU time then; stackd_*_topdown_measured_seconds_total adds
 * the CPU time of the intervals whose level 1 was computed, so over any
 * window rate(node) / rate(measured) is the node's share, weighted by
 * CPU time.
 */
#include "daemon/serve/prom_private.h"
#include "lib/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The node's depth in its tree: 1 for a first-level node. */
static unsigned node_depth(const struct model *m, unsigned k)
{
	unsigned depth = 1, guard = 0;
	const char *parent = m->metrics[k].parent;

	while (parent != NULL && guard++ < 8) {
		int i = model_metric_index(m, parent);

		depth++;
		parent = i >= 0 ? m->metrics[i].parent : NULL;
	}
	return depth;
}

/* Levels 1 and 2 of the model's "topdown" stack, in the model's order. */
static void pick_nodes(struct prom_figures *fig, const struct model *m)
{
	unsigned k;

	for (k = 0; k < m->n_metrics && fig->n_nodes < PROM_MAX_NODES; k++)
		if (m->metrics[k].stack != NULL && strcmp(m->metrics[k].stack, "topdown") == 0 &&
		    node_depth(m, k) <= 2)
			fig->node[fig->n_nodes++] = (int)k;
}

int prom_figures_init(struct prom_figures *fig, const struct model *m, const struct plan *plan)
{
	unsigned g;

	memset(fig, 0, sizeof(*fig));
	fig->map = calloc(1, sizeof(*fig->map));
	if (fig->map == NULL)
		return -ENOMEM;
	for (g = 0; g < plan->n_groups; g++) {
		char cols[MODEL_MAX_EVENTS * 48], names[MODEL_MAX_EVENTS * 96];

		plan_group_columns(plan, g, cols, sizeof(cols), names, sizeof(names));
		group_map_add(fig->map, m, g + 1, m->name, m->formula_version,
			      m->groups[plan->groups[g].family].name, cols);
	}
	for (g = 0; g < m->n_groups && g < MODEL_MAX_GROUPS; g++) {
		fig->cycles_ev[g] = model_event_index(&m->groups[g], "cycles");
		fig->instr_ev[g] = model_event_index(&m->groups[g], "instructions");
		if (fig->cycles_ev[g] < 0 || fig->instr_ev[g] < 0)
			fig->cycles_ev[g] = fig->instr_ev[g] = -1;
		else
			fig->has_ipc = true;
	}
	pick_nodes(fig, m);
	return 0;
}

void prom_figures_done(struct prom_figures *fig)
{
	free(fig->map);
	fig->map = NULL;
}

/* s's newest interval as the model's family sums; false when none of
 * its groups maps (or memory ran out: the interval is left out). */
static bool interval_sums(const struct prom_figures *fig, const struct model *m,
			  const struct series *s, struct group_sums *sums)
{
	struct part_sums *parts = NULL;
	unsigned g;
	bool any = false;

	memset(sums, 0, MODEL_MAX_GROUPS * sizeof(*sums));
	for (g = 0; g < PLAN_MAX_GROUPS; g++) {
		const struct stored_group *sg;

		if (s->iv_tc[g] == 0 && s->iv_cs[g] == 0)
			continue;
		sg = group_map_find(fig->map, g + 1);
		if (sg == NULL)
			continue;
		if (group_parts_add(fig->map, sg, sums, &parts, s->iv_tc[g], s->iv_cs[g],
				    s->iv_v[g]) < 0) {
			free(parts);
			return false;
		}
		any = true;
	}
	group_parts_combine(fig->map, m, sums, &parts);
	return any;
}

void prom_figures_add(const struct prom_figures *fig, const struct model *m, bool smt_on,
		      struct series *s)
{
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct metric_value *mv;
	const struct model_context ctx = { .smt_on = smt_on };
	double sec = 0;
	unsigned g, i;
	bool level1 = true;

	if (!s->iv_any || !interval_sums(fig, m, s, sums))
		return;
	for (g = 0; g < m->n_groups && g < MODEL_MAX_GROUPS; g++) {
		if (!sums[g].present || fig->cycles_ev[g] < 0)
			continue;
		s->cycles += sums[g].v[fig->cycles_ev[g]];
		s->instructions += sums[g].v[fig->instr_ev[g]];
	}
	if (fig->n_nodes == 0)
		return;
	mv = calloc(m->n_metrics, sizeof(*mv));
	if (mv == NULL)
		return;
	m->compute(m, sums, &ctx, mv);
	for (g = 0; g < PLAN_MAX_GROUPS; g++)
		sec += (double)s->iv_tc[g];
	sec /= (double)NS_PER_SEC;
	for (i = 0; i < fig->n_nodes; i++)
		if (m->metrics[fig->node[i]].parent == NULL && !mv[fig->node[i]].valid)
			level1 = false;
	if (level1) {
		s->td_measured_s += sec;
		for (i = 0; i < fig->n_nodes; i++)
			if (mv[fig->node[i]].valid)
				s->td_s[i] += sec * mv[fig->node[i]].value;
	}
	free(mv);
}
