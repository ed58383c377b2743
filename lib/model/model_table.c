/*
 * model_table.c - a model made from perf's table of a CPU alone (see
 * model_table.h): its families are perf's metric groups, its events those
 * the groups' metrics name, its formulas perf's (lib/model/model_perf.c).
 */
#include "lib/model/model_table.h"
#include "lib/model/model_perf.h"
#include "lib/model/model_table_event.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Our families, each the union of perf metric groups (perf's names, from
 * the MetricGroup fields of the Intel, AMD and Arm tables). */
static const struct family_spec {
	const char *name;
	const char *groups[4];
} families[] = {
	{ "td_l1", { "TopdownL1", "PipelineL1", NULL, NULL } },
	{ "td_l2", { "TopdownL2", "PipelineL2", NULL, NULL } },
	{ "frontend", { "DSB", "LSD", "MicroSeq", NULL } },
	{ "flops", { "Flops", "FP_Arithmetic_Intensity", NULL, NULL } },
};

static bool in_group_list(const char *groups, const char *g)
{
	size_t len = strlen(g);
	const char *p = groups;

	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, ";");

		if (n == len && strncasecmp(p, g, len) == 0)
			return true;
		p += n + (p[n] == ';');
	}
	return false;
}

/* Metrics that would add groups for little: perf's fifth and sixth
 * Top-Down levels, and the per-width, per-precision and pause/assist
 * variants of the FLOPS and microcode metrics (their events beyond the
 * base metric's take a group of their own).  Any of them is still computed
 * wherever the counted events allow (model_perf.c). */
static bool left_out(const struct perfdb_metric *pm)
{
	static const char *const parts[] = { "_avx128", "_avx256", "_avx512", "_scalar_",
					     "ippause", "ipassist", "strings_cycles",
					     "_dsb_bandwidth", "_128b", "_256b", "_512b" };
	size_t i;

	if (pm->groups != NULL &&
	    (in_group_list(pm->groups, "TopdownL5") || in_group_list(pm->groups, "TopdownL6")))
		return true;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strstr(pm->name, parts[i]) != NULL)
			return true;
	return false;
}

static bool metric_in_family(const struct perfdb_metric *pm, const struct family_spec *f)
{
	unsigned g;

	if (left_out(pm))
		return false;
	for (g = 0; g < 4 && f->groups[g] != NULL; g++)
		if (pm->groups != NULL && in_group_list(pm->groups, f->groups[g]))
			return true;
	return false;
}

/* --- one family's events -------------------------------------------- */

struct collect {
	struct tevent_list *list;
	const struct perfdb_table *t;
	const char *unit;
	unsigned when;      /* bit 0: needed with SMT off, bit 1: on */
	bool unknown;       /* a name the table does not know (not openable) */
};

static void collect_event(void *ctx, const char *name)
{
	struct collect *c = ctx;

	if (tevent_add(c->list, c->t, c->unit, name, c->when) < 0)
		c->unknown = true;
}

/* Add metric i's events (both SMT states) to list; false when one cannot
 * be opened (an uncore, tool or unknown event), list then unchanged. */
static bool add_metric_events(struct tevent_list *list, const struct perf_set *set, unsigned i,
			      const char *unit)
{
	struct tevent_list trial = *list;
	struct collect c = { &trial, perf_set_table(set), unit, 1, false };

	if (perf_set_needs(set, i, false, collect_event, &c) < 0 || c.unknown)
		return false;
	c.when = 2;
	if (perf_set_needs(set, i, true, collect_event, &c) < 0 || c.unknown)
		return false;
	if (trial.n > MODEL_MAX_EVENTS)
		return false;
	*list = trial;
	return true;
}

/* "td_l2" for a family's first group, "td_l2_2" for its second. */
static void family_name(char *buf, const char *name, unsigned part)
{
	if (part == 0)
		snprintf(buf, 24, "%s", name);
	else
		snprintf(buf, 24, "%s_%u", name, part + 1);
}

/* The families of set's table: each spec's metrics' events, a family
 * split where one group could not hold them all ("td_l2", "td_l2_2").
 * Returns how many, in tf[]. */
static unsigned build_families(const struct perf_set *set, const char *unit,
			       struct tevent_list *tf, char (*names)[24], unsigned max)
{
	unsigned n = 0, f, i;

	for (f = 0; f < sizeof(families) / sizeof(families[0]) && n < max; f++) {
		unsigned part = 0;

		tevent_list_init(&tf[n], perf_set_table(set), unit);
		for (i = 0; i < perf_set_count(set); i++) {
			if (!metric_in_family(perf_set_metric(set, i), &families[f]))
				continue;
			if (add_metric_events(&tf[n], set, i, unit))
				continue;
			/* does not fit beside the others: a new part, if it fits alone */
			if (tf[n].n > tf[n].n_base && n + 1 < max) {
				family_name(names[n], families[f].name, part);
				part++;
				n++;
				tevent_list_init(&tf[n], perf_set_table(set), unit);
				if (!add_metric_events(&tf[n], set, i, unit))
					continue;
			}
		}
		if (tf[n].n > tf[n].n_base) {
			family_name(names[n], families[f].name, part);
			n++;
		}
	}
	return n;
}

/* --- the model ------------------------------------------------------- */

#define TABLE_MAX_FAMILIES MODEL_MAX_GROUPS
#define TABLE_MAX_SETS 64

struct table_model {
	struct model m;
	struct tevent_list fam[TABLE_MAX_FAMILIES];
	char fam_name[TABLE_MAX_FAMILIES][24];
	struct model_group groups[TABLE_MAX_FAMILIES];
	struct model_event events[TABLE_MAX_FAMILIES][MODEL_MAX_EVENTS];
	struct model_event_rule rules[TABLE_MAX_FAMILIES * MODEL_MAX_EVENTS];
	struct model_ratio_set sets[TABLE_MAX_SETS];
	char set_columns[TABLE_MAX_SETS][160];
	char name[48];
	char description[160];
};

static void fill_group(struct table_model *tm, unsigned f)
{
	const struct tevent_list *l = &tm->fam[f];
	unsigned e;

	for (e = 0; e < l->n && e < MODEL_MAX_EVENTS; e++) {
		const struct tevent *te = &l->ev[e];

		tm->events[f][e] = (struct model_event){ te->spec, te->column, te->perf_name,
							 te->fixed, te->paired };
	}
	tm->groups[f] = (struct model_group){ tm->fam_name[f], tm->events[f], e, l->leads };
}

/* The planner's facts: a counter mask, or an event needed in one SMT
 * state only (perf's #SMT_on formulas). */
static void fill_rules(struct table_model *tm, unsigned n_fam)
{
	unsigned f, e, n = 0;

	for (f = 0; f < n_fam; f++)
		for (e = 0; e < tm->fam[f].n; e++) {
			const struct tevent *te = &tm->fam[f].ev[e];
			enum event_when when = te->when == 1 ? EVENT_SMT_OFF :
					       te->when == 2 ? EVENT_SMT_ON : EVENT_ALWAYS;
			unsigned k;

			if (te->counters == 0 && when == EVENT_ALWAYS)
				continue;
			for (k = 0; k < n && strcmp(tm->rules[k].column, te->column) != 0; k++)
				;
			if (k < n)
				continue;  /* one rule per column, in every family */
			tm->rules[n++] = (struct model_event_rule){ te->column, when, te->counters,
								    te->counters };
		}
	tm->m.event_rules = tm->rules;
	tm->m.n_event_rules = n;
}

/* An Intel core before Ice Lake that shares its counters between two
 * threads: its tables count the sibling thread (AnyThread events,
 * CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE for perf's #SMT_on formulas). */
static bool smt_shared_counters(const struct perfdb_table *t)
{
	unsigned i;

	for (i = 0; i < t->n_events; i++)
		if (t->events[i].any || strstr(t->events[i].name, "ONE_THREAD_ACTIVE") != NULL)
			return true;
	return false;
}

/* The formula version of a table's model: its table's version ("v1.18":
 * 1018, "v59": 59000), which perf's maintainers raise with every change,
 * so intervals stored under an older table are known as such (and
 * recomputed where their events allow: lib/group_parts.c). */
static unsigned table_version(const struct perfdb_table *t)
{
	unsigned major = 0, minor = 0;

	if (t->version == NULL || sscanf(t->version, "v%u.%u", &major, &minor) < 1)
		return 1;
	return major * 1000 + minor;
}

/* --- ratio sets: perf's grouping of a metric's events ---------------- */

struct set_build {
	const struct tevent_list *l;
	uint32_t cols;            /* columns of the metric's events, bit per column */
	bool outside;             /* an event the family does not hold */
};

static void set_collect(void *ctx, const char *name)
{
	struct set_build *sb = ctx;
	unsigned e;

	if (strcmp(name, "duration_time") == 0)
		return;
	for (e = 0; e < sb->l->n; e++)
		if (perf_event_same(name, sb->l->ev[e].perf_name)) {
			if (e >= sb->l->n_base && !sb->l->ev[e].fixed)
				sb->cols |= 1u << e;
			return;
		}
	sb->outside = true;
}

/* perf opens a metric's events as one group unless its MetricConstraint
 * says not to (NO_GROUP_EVENTS, and _NMI, _SMT: where the watchdog or SMT
 * would leave too few counters; tools/perf/util/metricgroup.c): a ratio
 * set of the family, which the planner never splits.  Only a set that fits
 * beside its base in the fewest counters this model plans for (gp - 3:
 * the watchdog's, cycles and instructions on AMD) is made, so a family is
 * never left out for one. */
static void add_ratio_set(struct table_model *tm, unsigned f, const struct perf_set *set,
			  unsigned i)
{
	const struct perfdb_metric *pm = perf_set_metric(set, i);
	struct set_build sb = { &tm->fam[f], 0, false };
	unsigned e, n = tm->m.n_ratio_sets, k = 0;
	size_t used = 0;

	if (pm->constraint != NULL && strncmp(pm->constraint, "NO_GROUP_EVENTS", 15) == 0)
		return;
	if (n == TABLE_MAX_SETS || perf_set_needs(set, i, false, set_collect, &sb) < 0 ||
	    perf_set_needs(set, i, true, set_collect, &sb) < 0 || sb.outside)
		return;
	for (e = 0; e < MODEL_MAX_EVENTS + 1; e++)
		k += (sb.cols >> e) & 1;
	if (k < 2 || k + 3 > tm->m.gp_counters_smt)
		return;
	char cols[sizeof(tm->set_columns[0])];

	for (e = 0; e < tm->fam[f].n && used < sizeof(cols); e++)
		if (sb.cols & (1u << e))
			used += (size_t)snprintf(cols + used, sizeof(cols) - used, "%s%s",
						 used ? "," : "", tm->fam[f].ev[e].column);
	if (used >= sizeof(cols))
		return;
	memcpy(tm->set_columns[n], cols, used + 1);
	tm->sets[n] = (struct model_ratio_set){ tm->fam_name[f], tm->set_columns[n] };
	tm->m.n_ratio_sets = n + 1;
}

static void fill_ratio_sets(struct table_model *tm, unsigned n_fam, const struct perf_set *set)
{
	unsigned f, i;

	tm->m.ratio_sets = tm->sets;
	for (f = 0; f < n_fam; f++)
		for (i = 0; i < perf_set_count(set); i++)
			add_ratio_set(tm, f, set, i);
}

/* Counters: perf's counter.json where it has one; else the kernel's
 * figures for the PMU generation (arch/x86/events/intel/core.c: 8 general
 * counters per thread from Ice Lake, whose tables have TOPDOWN.SLOTS, 4
 * per thread with SMT on before it; amd/core.c: 6 core counters from
 * family 17h; Arm: 6, as Neoverse N1/N2/V1/V2 implement PMCR_EL0.N).
 * counter.json gives the per-thread figure with SMT on; a core before Ice
 * Lake has twice that with SMT off (its threads share 8). */
static void fill_counters(struct model *m, const struct perfdb_table *t, const char *unit,
			  bool has_slots)
{
	bool atom = unit != NULL && strcmp(unit, "cpu_atom") == 0;
	unsigned gp = atom ? t->gp_counters_atom : t->gp_counters;
	unsigned fixed = atom ? t->fixed_counters_atom : t->fixed_counters;

	/* Alder/Raptor Lake (perf's alderlake, alderlaken): the E-core keeps
	 * CPUID leaf 0xA's 6 general and 3 fixed counters, the P-core has
	 * 6 << 2 | 3 = 8 and 4 (intel_pmu_init, X86_HYBRID_PMU_ATOM_IDX). */
	if (gp == 0 && atom && strncmp(t->name, "alderlake", 9) == 0) {
		gp = 6;
		fixed = 3;
	}
	if (gp == 0)
		gp = t->vendor == PERFDB_INTEL ? (has_slots || atom ? 8 : 4) : 6;
	if (fixed == 0)
		fixed = t->vendor == PERFDB_INTEL ? (has_slots ? 4 : 3) :
			t->vendor == PERFDB_ARM ? 1 : 0;
	m->gp_counters_smt = gp;
	/* Intel before Ice Lake: the per-thread figure doubles without SMT */
	m->gp_counters_nosmt = t->vendor == PERFDB_INTEL && !has_slots && !atom &&
			       smt_shared_counters(t) ? gp * 2 : gp;
	m->fixed_counters = fixed;
}

const struct model *model_table_build(const struct perfdb_table *t, const char *unit,
				      const char *name)
{
	const struct model *m;
	const struct perf_set *set = perf_set_get(t, unit);
	struct table_model *tm;
	unsigned n, f;

	if (set == NULL)
		return NULL;
	tm = calloc(1, sizeof(*tm));
	if (tm == NULL)
		return NULL;
	n = build_families(set, unit, tm->fam, tm->fam_name, TABLE_MAX_FAMILIES);
	if (n == 0) {
		free(tm);
		return NULL;  /* no family: the registry's generic fallback */
	}
	for (f = 0; f < n; f++)
		fill_group(tm, f);
	snprintf(tm->name, sizeof(tm->name), "%s", name);
	snprintf(tm->description, sizeof(tm->description), "%s%s%s: Linux perf %s's table %s (%s)",
		 t->name, unit ? " " : "", unit ? unit : "", perfdb_source.linux_version, t->name,
		 t->version);
	tm->m.name = tm->name;
	tm->m.description = tm->description;
	tm->m.formula_version = table_version(t);
	tm->m.vendor = t->vendor == PERFDB_INTEL ? VENDOR_INTEL :
		       t->vendor == PERFDB_AMD ? VENDOR_AMD : VENDOR_ARM;
	tm->m.slot_stage = t->vendor == PERFDB_INTEL ? "issue" : "dispatch";
	tm->m.pipeline_width = model_table_width(set);
	fill_counters(&tm->m, t, unit, n > 0 && tm->fam[0].leads);
	fill_rules(tm, n);
	fill_ratio_sets(tm, n, set);
	tm->m.groups = tm->groups;
	tm->m.n_groups = n;
	m = model_perf_attach(&tm->m, set, NULL);
	if (m == NULL)
		free(tm);
	return m;
}

/* The N of "N * X" at the start of expr, or of "(N * X" inside it. */
static unsigned leading_factor(const char *expr)
{
	const char *p = expr;

	while (p != NULL && *p != '\0') {
		char *end;
		unsigned long n;

		while (*p == '(' || *p == ' ')
			p++;
		n = strtoul(p, &end, 10);
		if (end != p && n >= 2 && n <= 16 && strncmp(end, " * ", 3) == 0)
			return (unsigned)n;
		p = strchr(p, '(');
	}
	return 0;
}

unsigned model_table_width(const struct perf_set *set)
{
	static const char *const where[] = { "tma_info_thread_slots", "tma_info_core_slots",
					     "tma_frontend_bound" };
	size_t i;

	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		int k = perf_set_index(set, where[i]);
		unsigned w;

		if (k >= 0 && (w = leading_factor(perf_set_metric(set, (unsigned)k)->expr)) > 0)
			return w;
	}
	return 0;
}
