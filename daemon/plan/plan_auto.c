/*
 * plan_auto.c - families = auto and reserved_counters = auto (plan.h).
 *
 * The rotation gives every group the same turn (worker_rotate.c): with n
 * groups in the plan, a family of k parts is counted k/n of the time, each
 * of its events 1/n (an event that is not the base is in one part only).
 * Top-Down
 * level 1 is what people read first: the default families keep it at half
 * the time or more: its families' groups are at least half of the plan's,
 * and the rest are level 2's families, those adding the most nodes first.
 * Which families make a level is asked of the model's own formulas
 * (compute with only those families' counts present), not read from their
 * names.  A model without Top-Down keeps every family.
 */
#include "daemon/plan/plan_auto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Depth of metric k in the Top-Down tree: 1 at the top, 0 outside it. */
static unsigned td_depth(const struct model *m, unsigned k)
{
	const struct model_metric *mm = &m->metrics[k];
	unsigned depth = 1;
	int p;

	if (mm->stack == NULL || strcmp(mm->stack, "topdown") != 0)
		return 0;
	while (mm->parent != NULL && depth < 8 && (p = model_metric_index(m, mm->parent)) >= 0) {
		mm = &m->metrics[p];
		depth++;
	}
	return depth;
}

/* Counts in a plausible proportion for every event of the present
 * families: which metrics come out valid is the question, not values. */
static double probe_value(const struct model_event *e, unsigned i)
{
	if (strcmp(e->column, "cycles") == 0)
		return 1e9;
	if (strcmp(e->column, "instructions") == 0)
		return 8e8;
	if (strcmp(e->column, "slots") == 0)
		return 4e9;
	return 5e7 + i * 1e6;
}

/* How many Top-Down nodes of depth come out valid from the present
 * families' counts; *total: how many the model has. */
static unsigned valid_at(const struct model *m, const bool present[MODEL_MAX_GROUPS],
			 bool smt_on, unsigned depth, unsigned *total)
{
	struct metric_value out[MODEL_MAX_METRICS];
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct model_context ctx = { .smt_on = smt_on };
	unsigned f, i, n = 0;

	memset(sums, 0, sizeof(sums));
	for (f = 0; f < m->n_groups && f < MODEL_MAX_GROUPS; f++) {
		sums[f].present = present[f];
		if (!present[f])
			continue;
		sums[f].task_clock_ns = 1000000000;
		sums[f].context_switches = 100;
		for (i = 0; i < m->groups[f].n_events && i < MODEL_MAX_EVENTS; i++)
			sums[f].v[i] = (uint64_t)probe_value(&m->groups[f].events[i], i);
	}
	memset(out, 0, sizeof(out[0]) * m->n_metrics);
	m->compute(m, sums, &ctx, out);
	*total = 0;
	for (i = 0; i < m->n_metrics; i++)
		if (td_depth(m, i) == depth) {
			(*total)++;
			n += out[i].valid;
		}
	return n;
}

bool plan_auto_level1(const struct model *m, const bool want[MODEL_MAX_GROUPS], bool smt_on,
		      bool l1[MODEL_MAX_GROUPS])
{
	unsigned total, f;

	if (m->compute == NULL || m->n_groups > MODEL_MAX_GROUPS)
		return false;
	memcpy(l1, want, sizeof(bool) * MODEL_MAX_GROUPS);
	if (valid_at(m, l1, smt_on, 1, &total) < total || total == 0)
		return false;
	/* Drop every family level 1 does without, the last first. */
	for (f = m->n_groups; f-- > 0;) {
		if (!l1[f])
			continue;
		l1[f] = false;
		if (valid_at(m, l1, smt_on, 1, &total) < total)
			l1[f] = true;
	}
	return true;
}

/* The number of groups planned for the families on[], or -1 when one of
 * them is not collected. */
static int groups_for(const struct model *m, const bool on[MODEL_MAX_GROUPS],
		      const struct plan_budget *b)
{
	bool off[MODEL_MAX_GROUPS];
	struct plan tmp;
	char err[256];
	unsigned f;

	for (f = 0; f < MODEL_MAX_GROUPS; f++)
		off[f] = !on[f];
	if (plan_make_exact(m, off, b, &tmp, err, sizeof(err)) < 0)
		return -1;
	for (f = 0; f < m->n_groups && f < MODEL_MAX_GROUPS; f++)
		if (on[f] && !tmp.families[f].collected)
			return -1;
	return (int)tmp.n_groups;
}

/* The default families for budget b among those not turned off: level
 * 1's, then level 2's that add the most nodes while level 1's groups stay
 * at least half of all (equal turns: half the time).  Where level 1
 * cannot be collected, every family (the rest still counts). */
static void choose(const struct model *m, const bool off[MODEL_MAX_GROUPS],
		   const struct plan_budget *b, bool out_off[MODEL_MAX_GROUPS])
{
	bool want[MODEL_MAX_GROUPS], on[MODEL_MAX_GROUPS], trial[MODEL_MAX_GROUPS];
	unsigned f, total;
	int n1, n, best;

	for (f = 0; f < MODEL_MAX_GROUPS; f++)
		want[f] = !off[f];
	memcpy(out_off, off, sizeof(bool) * MODEL_MAX_GROUPS);
	if (!plan_auto_level1(m, want, b->smt_on, on))
		return;
	n1 = groups_for(m, on, b);
	if (n1 <= 0)
		return;
	n = n1;
	do {
		unsigned have = valid_at(m, on, b->smt_on, 2, &total), best_gain = 0;
		int nf;

		best = -1;
		for (f = 0; f < m->n_groups; f++) {
			unsigned gain;

			if (!want[f] || on[f])
				continue;
			memcpy(trial, on, sizeof(trial));
			trial[f] = true;
			gain = valid_at(m, trial, b->smt_on, 2, &total) - have;
			if (gain <= best_gain)
				continue;
			nf = groups_for(m, trial, b);
			if (nf > 0 && nf <= 2 * n1) {
				best = (int)f;
				best_gain = gain;
				n = nf;
			}
		}
		if (best >= 0)
			on[best] = true;
	} while (best >= 0 && n < 2 * n1);
	for (f = 0; f < MODEL_MAX_GROUPS; f++)
		out_off[f] = !on[f];
}

/* Plan with the family policy of b (its reserved counters as they are). */
static int plan_families(const struct model *m, const bool off[MODEL_MAX_GROUPS],
			 const struct plan_budget *b, bool families_auto, struct plan *out,
			 char *err, size_t errlen)
{
	bool chosen[MODEL_MAX_GROUPS];
	unsigned f;
	int r;

	if (!families_auto)
		return plan_make_exact(m, off, b, out, err, errlen);
	choose(m, off, b, chosen);
	r = plan_make_exact(m, chosen, b, out, err, errlen);
	for (f = 0; f < m->n_groups && f < MODEL_MAX_GROUPS; f++)
		if (chosen[f] && !off[f])
			snprintf(out->families[f].why, sizeof(out->families[f].why),
				 "not in the default families (families = auto): Top-Down level 1 "
				 "would count less than half the time; name it in families to "
				 "rotate it in");
	return r;
}

/* Whether plan b loses nothing against a: no family collected in a is
 * missing or in more parts in b, and b has no more groups. */
static bool loses_nothing(const struct plan *a, const struct plan *b)
{
	unsigned f;

	if (b->n_groups > a->n_groups)
		return false;
	for (f = 0; f < a->model->n_groups && f < MODEL_MAX_GROUPS; f++)
		if (a->families[f].collected && (!b->families[f].collected ||
						 b->families[f].n_parts > a->families[f].n_parts))
			return false;
	return true;
}

int plan_make(const struct model *m, const bool off[MODEL_MAX_GROUPS],
	      const struct plan_budget *b, struct plan *out, char *err, size_t errlen)
{
	if (b->families_auto || b->spare_one)
		return plan_auto(m, off, b, out, err, errlen);
	return plan_make_exact(m, off, b, out, err, errlen);
}

int plan_auto(const struct model *m, const bool off[MODEL_MAX_GROUPS],
	      const struct plan_budget *b, struct plan *out, char *err, size_t errlen)
{
	struct plan spare;
	struct plan_budget eb = *b, more;
	int r;

	eb.families_auto = eb.spare_one = false;
	r = plan_families(m, off, &eb, b->families_auto, out, err, errlen);
	if (r < 0 || !b->spare_one || eb.unlimited || eb.gp_free < 2)
		goto done;
	more = eb;
	more.reserved++;
	more.gp_free--;
	if (plan_families(m, off, &more, b->families_auto, &spare, err, errlen) == 0 &&
	    loses_nothing(out, &spare))
		*out = spare;
	err[0] = '\0';
done:
	/* The plan keeps the policy it was made with, for what prints it. */
	out->budget.families_auto = b->families_auto;
	out->budget.spare_one = b->spare_one;
	return r;
}
