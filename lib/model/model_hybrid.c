/*
 * model_hybrid.c - see model_hybrid.h.
 */
#include "lib/model/model_hybrid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The figures given for both core types together: IPC from the summed
 * counts (every part counts cycles and instructions), and, where every
 * part has them, cycle-weighted means of each core type's value. */
#define COMBINED_IPC 0
static const char *const combined_names[] = {
	[COMBINED_IPC] = "ipc", "frontend_bound", "bad_speculation", "backend_bound", "retiring",
};
#define N_COMBINED (sizeof(combined_names) / sizeof(combined_names[0]))

struct hybrid_model {
	struct model m;
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES];
	unsigned n_parts;
	unsigned group_base[HYBRID_MAX_TYPES + 1], metric_base[HYBRID_MAX_TYPES + 1];
	struct model_group groups[MODEL_MAX_GROUPS];
	/* combined metric k: its index in each part's metrics, -1 none */
	int comb_src[N_COMBINED][HYBRID_MAX_TYPES];
	unsigned comb_out[N_COMBINED];   /* and its own index in m */
	unsigned n_comb;
	char name[48], description[256];
};

static void hybrid_compute(const struct model *m, const struct group_sums *sums,
			   const struct model_context *ctx, struct metric_value *out);

static const struct hybrid_model *as_hybrid(const struct model *m)
{
	return m != NULL && m->compute == hybrid_compute ? (const struct hybrid_model *)m : NULL;
}

/* "<a>@<unit>" on the heap (kept with the model), NULL on no memory. */
static char *suffixed(const char *a, const char *unit)
{
	size_t n = strlen(a) + strlen(unit) + 2;
	char *s = malloc(n);

	if (s != NULL)
		snprintf(s, n, "%s@%s", a, unit);
	return s;
}

/* Intel's own words for its core types, short enough for a column title. */
static const char *type_letter(const char *unit)
{
	return strcmp(unit, "cpu_atom") == 0 ? "E" : strcmp(unit, "cpu_core") == 0 ? "P" : unit;
}

static char *titled(const char *title, const char *unit)
{
	size_t n = strlen(title) + strlen(unit) + 2;
	char *s = malloc(n);

	if (s != NULL)
		snprintf(s, n, "%s:%s", type_letter(unit), title);
	return s;
}

static int add_groups(struct hybrid_model *h)
{
	unsigned i, g, k = 0;

	for (i = 0; i < h->n_parts; i++) {
		h->group_base[i] = k;
		for (g = 0; g < h->parts[i]->n_groups; g++, k++) {
			if (k == MODEL_MAX_GROUPS)
				return -1;
			h->groups[k] = h->parts[i]->groups[g];
			h->groups[k].name = suffixed(h->parts[i]->groups[g].name, h->units[i]);
			if (h->groups[k].name == NULL)
				return -1;
		}
	}
	h->group_base[h->n_parts] = k;
	h->m.groups = h->groups;
	h->m.n_groups = k;
	return 0;
}

/* The parts' ratio sets under the composite's group names, and their
 * event rules (by column: a column both parts have takes part 0's). */
static int add_rules(struct hybrid_model *h)
{
	unsigned i, k, n_sets = 0, n_rules = 0;
	struct model_ratio_set *sets;
	struct model_event_rule *rules;

	for (i = 0; i < h->n_parts; i++) {
		n_sets += h->parts[i]->n_ratio_sets;
		n_rules += h->parts[i]->n_event_rules;
	}
	sets = calloc(n_sets + 1, sizeof(*sets));
	rules = calloc(n_rules + 1, sizeof(*rules));
	if (sets == NULL || rules == NULL) {
		free(sets);
		free(rules);
		return -1;
	}
	h->m.ratio_sets = sets;
	h->m.event_rules = rules;
	for (i = 0; i < h->n_parts; i++) {
		const struct model *p = h->parts[i];

		for (k = 0; k < p->n_ratio_sets; k++) {
			sets[h->m.n_ratio_sets] = p->ratio_sets[k];
			sets[h->m.n_ratio_sets].group = suffixed(p->ratio_sets[k].group, h->units[i]);
			if (sets[h->m.n_ratio_sets++].group == NULL)
				return -1;
		}
		for (k = 0; k < p->n_event_rules; k++)
			rules[h->m.n_event_rules++] = p->event_rules[k];
	}
	return 0;
}

/* One part's metric, renamed for its core type: its stack, parent and
 * title too, so each core type's tree stands apart. */
static int add_part_metric(struct model_metric *out, const struct model_metric *in,
			   const char *unit)
{
	*out = *in;
	out->name = suffixed(in->name, unit);
	out->parent = in->parent != NULL ? suffixed(in->parent, unit) : NULL;
	out->stack = in->stack != NULL ? suffixed(in->stack, unit) : NULL;
	out->title = in->title != NULL ? titled(in->title, unit) : NULL;
	return out->name == NULL || (in->parent != NULL && out->parent == NULL) ||
	       (in->stack != NULL && out->stack == NULL) ||
	       (in->title != NULL && out->title == NULL) ? -1 : 0;
}

/* The combined figures every part has: kept in the composite's own
 * metrics after the parts', with the help saying how they combine. */
static unsigned find_combined(struct hybrid_model *h, struct model_metric *metrics, unsigned k)
{
	unsigned c, i;

	for (c = 0; c < N_COMBINED; c++) {
		const struct model_metric *first = NULL;
		int idx[HYBRID_MAX_TYPES];
		bool all = true;

		for (i = 0; i < h->n_parts; i++) {
			idx[i] = model_metric_index(h->parts[i], combined_names[c]);
			all &= idx[i] >= 0;
			if (idx[i] >= 0 && first == NULL)
				first = &h->parts[i]->metrics[idx[i]];
		}
		if ((!all && c != COMBINED_IPC) || k == MODEL_MAX_METRICS)
			continue;
		memcpy(h->comb_src[h->n_comb], idx, sizeof(idx));
		h->comb_out[h->n_comb++] = k;
		if (first != NULL)
			metrics[k] = *first;
		else
			metrics[k] = (struct model_metric){ .name = "ipc", .unit = METRIC_RATIO };
		metrics[k].help = c == COMBINED_IPC ?
			"Instructions per cycle on both core types: instructions over cycles, each "
			"summed over every core type the target ran on" :
			"Both core types together: each core type's share weighted by its cycles, "
			"so a share of cycles (a P-core cycle weighs as much as an E-core cycle, "
			"though their slot widths and clocks differ)";
		k++;
	}
	return k;
}

static int add_metrics(struct hybrid_model *h)
{
	struct model_metric *metrics;
	unsigned i, j, k = 0;

	metrics = calloc(MODEL_MAX_METRICS, sizeof(*metrics));
	if (metrics == NULL)
		return -1;
	h->m.metrics = metrics;
	for (i = 0; i < h->n_parts; i++) {
		const struct model *p = h->parts[i];

		h->metric_base[i] = k;
		if (k + p->n_metrics + N_COMBINED > MODEL_MAX_METRICS)
			return -1;
		for (j = 0; j < p->n_metrics; j++, k++)
			if (add_part_metric(&metrics[k], &p->metrics[j], h->units[i]) < 0)
				return -1;
	}
	h->metric_base[h->n_parts] = k;
	h->m.n_metrics = find_combined(h, metrics, k);
	return 0;
}

static void fill_facts(struct hybrid_model *h, const char *name)
{
	const struct model *p0 = h->parts[0];
	unsigned i;

	snprintf(h->name, sizeof(h->name), "%s", name);
	snprintf(h->description, sizeof(h->description), "%s: a hybrid CPU, each core type "
		 "counted with its own model (%s on %s, %s on %s)", name, p0->name, h->units[0],
		 h->parts[1]->name, h->units[1]);
	h->m = *p0;
	h->m.name = h->name;
	h->m.description = h->description;
	h->m.pmus = NULL;
	/* Slots differ per core type: each part's formulas know its own. */
	h->m.pipeline_width = 0;
	h->m.slot_stage = NULL;
	h->m.stage_stacks = NULL;
	h->m.n_ratio_sets = 0;
	h->m.n_event_rules = 0;
	for (i = 1; i < h->n_parts; i++)
		if (h->parts[i]->formula_version > h->m.formula_version)
			h->m.formula_version = h->parts[i]->formula_version;
	h->m.compute = hybrid_compute;
	h->m.detail = NULL;
}

const struct model *model_hybrid_build(const char *name, const struct model *const *parts,
				       const char *const *units, unsigned n)
{
	struct hybrid_model *h;
	unsigned i;

	if (n < 2 || n > HYBRID_MAX_TYPES)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return NULL;
	h->n_parts = n;
	for (i = 0; i < n; i++) {
		h->parts[i] = parts[i];
		h->units[i] = units[i];
	}
	fill_facts(h, name);
	/* On failure what was made stays allocated: a model lives for the
	 * process, and this one is never made again (the registry keeps
	 * the NULL). */
	if (add_groups(h) < 0 || add_rules(h) < 0 || add_metrics(h) < 0)
		return NULL;
	return &h->m;
}

/* The cycles a part's groups counted for the target (each group measures
 * its own stretch of the target's time on that core type, so their sum
 * is the cycles of the time measured there). */
static double part_cycles(const struct hybrid_model *h, unsigned i, const struct group_sums *sums)
{
	double cycles = 0;
	unsigned g, e;

	for (g = h->group_base[i]; g < h->group_base[i + 1]; g++) {
		const struct model_group *mg = &h->groups[g];

		if (!sums[g].present)
			continue;
		e = (unsigned)model_event_index(mg, "cycles");
		if (model_event_index(mg, "cycles") >= 0 && !(sums[g].missing & (1u << e)))
			cycles += (double)sums[g].v[e];
	}
	return cycles;
}

/* Instructions per cycle over every group that counts both, on every
 * core type; its coverage: the share of the target's time those groups
 * measured. */
static void combined_ipc(const struct hybrid_model *h, const struct group_sums *sums,
			 struct metric_value *v)
{
	double inst = 0, cyc = 0, measured = 0, total = 0;
	unsigned g;

	for (g = 0; g < h->m.n_groups; g++) {
		int ci = model_event_index(&h->groups[g], "cycles");
		int ii = model_event_index(&h->groups[g], "instructions");

		if (!sums[g].present)
			continue;
		total += (double)sums[g].task_clock_ns;
		if (ci < 0 || ii < 0 || (sums[g].missing & (1u << ci | 1u << ii)))
			continue;
		cyc += (double)sums[g].v[ci];
		inst += (double)sums[g].v[ii];
		measured += (double)sums[g].task_clock_ns;
	}
	memset(v, 0, sizeof(*v));
	if (cyc <= 0)
		return;
	v->valid = true;
	v->value = inst / cyc;
	v->coverage = total > 0 ? measured / total : 0;
}

/* The target's time a part's groups measured (each its own stretch). */
static double part_time(const struct hybrid_model *h, unsigned i, const struct group_sums *sums)
{
	double t = 0;
	unsigned g;

	for (g = h->group_base[i]; g < h->group_base[i + 1]; g++)
		if (sums[g].present)
			t += (double)sums[g].task_clock_ns;
	return t;
}

/* Figure c over the core types: each one's value weighted by its cycles;
 * its coverage, each one's weighted by its time (coverage is a share of
 * time). */
static void combine(const struct hybrid_model *h, const double cycles[HYBRID_MAX_TYPES],
		    const double time[HYBRID_MAX_TYPES], unsigned c, struct metric_value *out)
{
	struct metric_value *v = &out[h->comb_out[c]];
	double sum = 0, weight = 0, cov = 0, tw = 0;
	unsigned i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < h->n_parts; i++) {
		const struct metric_value *p = &out[h->metric_base[i] + (unsigned)h->comb_src[c][i]];

		if (cycles[i] <= 0)
			continue;   /* the target did not run there (as far as measured) */
		if (!p->valid)
			return;     /* a core type it ran on does not say: no combined figure */
		sum += p->value * cycles[i];
		cov += p->coverage * time[i];
		tw += time[i];
		weight += cycles[i];
		v->core_scoped |= p->core_scoped;
	}
	if (weight <= 0)
		return;
	v->valid = true;
	v->value = sum / weight;
	v->coverage = tw > 0 ? cov / tw : 0;
}

static void hybrid_compute(const struct model *m, const struct group_sums *sums,
			   const struct model_context *ctx, struct metric_value *out)
{
	const struct hybrid_model *h = as_hybrid(m);
	double cycles[HYBRID_MAX_TYPES], time[HYBRID_MAX_TYPES];
	unsigned i, c;

	for (i = 0; i < h->n_parts; i++) {
		struct model_context part = *ctx;

		/* the host's slots are read from one PMU; each core type's
		 * formulas take their own width */
		part.slots = 0;
		h->parts[i]->compute(h->parts[i], sums + h->group_base[i], &part,
				     out + h->metric_base[i]);
		cycles[i] = part_cycles(h, i, sums);
		time[i] = part_time(h, i, sums);
	}
	for (c = 0; c < h->n_comb; c++)
		if (strcmp(h->m.metrics[h->comb_out[c]].name, "ipc") == 0)
			combined_ipc(h, sums, &out[h->comb_out[c]]);
		else
			combine(h, cycles, time, c, out);
}

unsigned model_hybrid_parts(const struct model *m, const struct model *parts[HYBRID_MAX_TYPES],
			    const char *units[HYBRID_MAX_TYPES],
			    unsigned group_base[HYBRID_MAX_TYPES + 1])
{
	const struct hybrid_model *h = as_hybrid(m);
	unsigned i;

	if (h == NULL)
		return 0;
	for (i = 0; i < h->n_parts; i++) {
		parts[i] = h->parts[i];
		units[i] = h->units[i];
		group_base[i] = h->group_base[i];
	}
	group_base[h->n_parts] = h->group_base[h->n_parts];
	return h->n_parts;
}

const char *model_hybrid_group_unit(const struct model *m, unsigned g)
{
	const struct hybrid_model *h = as_hybrid(m);
	unsigned i;

	for (i = 0; h != NULL && i < h->n_parts; i++)
		if (g >= h->group_base[i] && g < h->group_base[i + 1])
			return h->units[i];
	return NULL;
}

const char *model_hybrid_metric_part(const struct model *m, unsigned k, const struct model **part,
				     unsigned *part_k)
{
	const struct hybrid_model *h = as_hybrid(m);
	unsigned i;

	*part = m;
	*part_k = k;
	for (i = 0; h != NULL && i < h->n_parts; i++)
		if (k >= h->metric_base[i] && k < h->metric_base[i + 1]) {
			*part = h->parts[i];
			*part_k = k - h->metric_base[i];
			return h->units[i];
		}
	return NULL;
}
