/*
 * model_perf.c - see model_perf.h.
 */
#include "lib/model/model_perf.h"
#include "lib/perfdb/name_index.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NEED_MAX 64       /* events one perf metric needs, through its references */
#define NEED_NAME 128

struct perf_model {
	struct model m;                  /* first: what callers hold */
	const struct model *base;
	const struct perf_set *set;
	/* m.metrics: the base's n_base, then n_alias of our names for perf's
	 * nodes (a model of perf's table only), then n_perf of perf's. */
	unsigned n_base, n_alias, n_perf;
	unsigned *perf_index;            /* perf metric k: its index in set */
	int *home[2];                    /* perf metric k, SMT off/on: group, or -1 */
	struct alias_use {
		unsigned entry;          /* in aliases[] */
		unsigned k;              /* the perf metric it shows */
	} *alias;
	struct model_metric *metrics;
	/* Every event name perf's metrics need, resolved once: its column in
	 * each group (-1: not there), so an evaluation looks a name up in
	 * O(1) instead of comparing it with every event of every group. */
	struct name_index ev_ix;          /* name -> row of ev_col */
	char **ev_name;
	int8_t (*ev_col)[MODEL_MAX_GROUPS];
	unsigned n_ev, cap_ev;
};

/* Our names for perf's, where they are the same node: what the CLI, the
 * API, /metrics and the dashboard show for every CPU, with the tree they
 * draw.  perf's Intel names first, then its Atom-core names (Sierra
 * Forest, hybrid E-cores), then AMD's (amdzen4/5 pipeline.json); Arm's
 * sbsa.json uses ours for level 1, but AmpereOne's (ampere/ampereone/
 * metrics.json) retired_fraction and slots_lost_misspeculation_fraction. */
#define TD "topdown"
static const struct alias {
	const char *ours, *parent, *title, *stack;
	const char *perf[3];
} aliases[] = {
	{ "retiring", NULL, "RET", TD, { "tma_retiring", "retired_fraction", NULL } },
	{ "bad_speculation", NULL, "BADSPEC", TD,
	  { "tma_bad_speculation", "slots_lost_misspeculation_fraction", NULL } },
	{ "frontend_bound", NULL, "FE", TD, { "tma_frontend_bound", NULL, NULL } },
	{ "backend_bound", NULL, "BE", TD, { "tma_backend_bound", NULL, NULL } },
	{ "smt_contention", NULL, "SMT", TD, { NULL, NULL, NULL } },
	{ "fetch_latency", "frontend_bound", "FE-LAT", TD,
	  { "tma_fetch_latency", "tma_ifetch_latency", "frontend_bound_latency" } },
	{ "fetch_bandwidth", "frontend_bound", "FE-BW", TD,
	  { "tma_fetch_bandwidth", "tma_ifetch_bandwidth", "frontend_bound_bandwidth" } },
	{ "branch_mispredicts", "bad_speculation", "BR-MISP", TD,
	  { "tma_branch_mispredicts", "bad_speculation_mispredicts", NULL } },
	{ "machine_clears", "bad_speculation", "CLEARS", TD,
	  { "tma_machine_clears", "bad_speculation_pipeline_restarts", NULL } },
	{ "memory_bound", "backend_bound", "MEM", TD,
	  { "tma_memory_bound", "backend_bound_memory", NULL } },
	{ "core_bound", "backend_bound", "CORE", TD,
	  { "tma_core_bound", "backend_bound_cpu", NULL } },
	{ "light_ops", "retiring", "LIGHT", TD,
	  { "tma_light_operations", "retiring_fastpath", NULL } },
	{ "heavy_ops", "retiring", "HEAVY", TD,
	  { "tma_heavy_operations", "retiring_microcode", NULL } },
	{ "ipc", NULL, NULL, NULL, { "tma_info_thread_ipc", NULL, NULL } },
	{ "cpi", NULL, NULL, NULL, { "tma_info_thread_cpi", NULL, NULL } },
};

static const struct perf_model *perf_model_of(const struct model *m);

/* --- what a metric needs ------------------------------------------------ */

struct needs {
	char names[NEED_MAX][NEED_NAME];
	unsigned n;
	bool overflow;
};

static void need_add(void *ctx, const char *event)
{
	struct needs *nd = ctx;
	unsigned i;

	for (i = 0; i < nd->n; i++)
		if (strcasecmp(nd->names[i], event) == 0)
			return;
	if (nd->n == NEED_MAX || strlen(event) >= NEED_NAME) {
		nd->overflow = true;
		return;
	}
	snprintf(nd->names[nd->n++], NEED_NAME, "%s", event);
}

/* The column of event `name` in group g, or -1. */
static int group_column(const struct model_group *g, const char *name)
{
	unsigned e;

	for (e = 0; e < g->n_events; e++)
		if (perf_event_same(name, model_event_perf_name(&g->events[e])))
			return (int)e;
	return -1;
}

static bool counted_anywhere(const struct model *m, const char *name)
{
	unsigned g;

	for (g = 0; g < m->n_groups; g++)
		if (group_column(&m->groups[g], name) >= 0)
			return true;
	return false;
}

/* Whether metric i of the set can be computed from m's groups with SMT
 * state smt, and the group that holds all its events (-1: none does). */
static bool metric_home(const struct model *m, const struct perf_set *set, unsigned i, bool smt,
			int *home, struct needs *nd)
{
	unsigned g, k;

	memset(nd, 0, sizeof(*nd));
	*home = -1;
	if (perf_set_needs(set, i, smt, need_add, nd) < 0 || nd->overflow)
		return false;
	for (k = 0; k < nd->n; k++)
		if (!counted_anywhere(m, nd->names[k]))
			return false;
	for (g = 0; g < m->n_groups && *home < 0; g++) {
		for (k = 0; k < nd->n && group_column(&m->groups[g], nd->names[k]) >= 0; k++)
			;
		if (k == nd->n)
			*home = (int)g;
	}
	return true;
}

/* --- building --------------------------------------------------------- */

static int perf_metric_of(const struct perf_model *pm, const char *name)
{
	unsigned k;

	for (k = 0; k < pm->n_perf; k++)
		if (strcmp(perf_set_metric(pm->set, pm->perf_index[k])->name, name) == 0)
			return (int)k;
	return -1;
}

static struct model_metric *perf_mm(struct perf_model *pm, unsigned k)
{
	return &pm->metrics[pm->n_base + pm->n_alias + k];
}

static void decorate(struct model_metric *mm, const struct alias *a)
{
	mm->parent = a->parent;
	mm->title = a->title;
	mm->stack = a->stack;
	if (a->stack != NULL)
		mm->unit = METRIC_FRACTION;
}

static void metric_from_perf(struct model_metric *mm, const struct perfdb_metric *p)
{
	bool fraction;
	const char *unit;

	perf_scale(p, 1.0, &fraction, &unit);
	memset(mm, 0, sizeof(*mm));
	mm->name = p->name;
	mm->unit = fraction ? METRIC_FRACTION : METRIC_RATIO;
	mm->help = p->brief != NULL ? p->brief : "";
}

/* Resolve the names of nd: each one's column in every group. */
static int resolve_names(struct perf_model *pm, const struct needs *nd)
{
	unsigned k, g;

	for (k = 0; k < nd->n; k++) {
		char *copy;

		if (name_index_get(&pm->ev_ix, nd->names[k]) >= 0)
			continue;
		if (pm->n_ev == pm->cap_ev)
			return -ENOSPC;
		copy = strdup(nd->names[k]);
		if (copy == NULL)
			return -ENOMEM;
		pm->ev_name[pm->n_ev] = copy;
		for (g = 0; g < MODEL_MAX_GROUPS; g++)
			pm->ev_col[pm->n_ev][g] = (int8_t)(g < pm->m.n_groups ?
				group_column(&pm->m.groups[g], copy) : -1);
		name_index_put(&pm->ev_ix, copy, (int)pm->n_ev);
		pm->n_ev++;
	}
	return 0;
}

/* A made-up count for every event, the same on every call, times scale. */
struct probe {
	double scale;
};

static int probe_event(void *ctx, const char *name, double *out)
{
	const struct probe *p = ctx;
	unsigned h = 2166136261u;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)(*name | 0x20)) * 16777619u;
	*out = p->scale * (1e6 + (double)(h % 1000003u) * 1000.0);
	return 0;
}

/* Whether metric i is a count (it doubles when every count doubles:
 * tma_info_thread_clks, tma_info_thread_slots) rather than a ratio.  A
 * count of one window depends on the window's length and on how long its
 * group ran in the rotation; stackd serves ratios and rates, so such a
 * metric is left to `stackctl analyze`, which prints it from perf's own
 * scaled counts. */
static bool is_count(const struct perf_set *set, unsigned i)
{
	struct probe p1 = { 1.0 }, p2 = { 2.0 };
	struct perf_values v;
	double a, b;

	memset(&v, 0, sizeof(v));
	v.event = probe_event;
	v.ctx = &p1;
	if (perf_set_eval(set, i, &v, &a) < 0)
		return false;
	v.ctx = &p2;
	if (perf_set_eval(set, i, &v, &b) < 0)
		return false;
	return fabs(a) > 0 && fabs(b - 2.0 * a) <= 1e-9 * fabs(a);
}

/* The perf metrics the groups allow (in the table's order), placed after
 * room for every alias. */
static int find_perf_metrics(struct perf_model *pm)
{
	unsigned i, n = perf_set_count(pm->set);
	struct needs *nd = malloc(2 * sizeof(*nd));
	int r = 0;

	if (nd == NULL)
		return -ENOMEM;
	for (i = 0; i < n && r == 0; i++) {
		const struct perfdb_metric *p = perf_set_metric(pm->set, i);
		int home[2];
		bool ok0 = metric_home(&pm->m, pm->set, i, false, &home[0], &nd[0]);
		bool ok1 = metric_home(&pm->m, pm->set, i, true, &home[1], &nd[1]);

		if ((!ok0 && !ok1) || model_metric_index(pm->base, p->name) >= 0 ||
		    is_count(pm->set, i))
			continue;
		r = resolve_names(pm, &nd[0]);
		if (r == 0)
			r = resolve_names(pm, &nd[1]);
		pm->perf_index[pm->n_perf] = i;
		pm->home[0][pm->n_perf] = home[0];
		pm->home[1][pm->n_perf] = home[1];
		pm->n_perf += r == 0;
	}
	free(nd);
	return r;
}

/* Which aliases a model of perf's table only gets: those whose perf node
 * it computes under another name.  Returns how many. */
static unsigned find_aliases(struct perf_model *pm)
{
	unsigned n = 0;
	size_t a;

	for (a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++) {
		const struct alias *al = &aliases[a];
		int k = -1, j;

		if (perf_metric_of(pm, al->ours) >= 0)
			continue;  /* perf uses our name (AMD, Arm): decorated below */
		for (j = 0; j < 3 && k < 0 && al->perf[j] != NULL; j++)
			k = perf_metric_of(pm, al->perf[j]);
		if (k >= 0)
			pm->alias[n++] = (struct alias_use){ (unsigned)a, (unsigned)k };
	}
	return n;
}

static void lay_out(struct perf_model *pm)
{
	unsigned k;
	size_t a;

	if (pm->n_base > 0)
		memcpy(pm->metrics, pm->base->metrics, pm->n_base * sizeof(*pm->metrics));
	for (k = 0; k < pm->n_perf; k++)
		metric_from_perf(perf_mm(pm, k), perf_set_metric(pm->set, pm->perf_index[k]));
	for (k = 0; k < pm->n_alias; k++) {
		struct model_metric *mm = &pm->metrics[pm->n_base + k];

		*mm = *perf_mm(pm, pm->alias[k].k);
		mm->name = aliases[pm->alias[k].entry].ours;
		decorate(mm, &aliases[pm->alias[k].entry]);
	}
	if (pm->base->compute != NULL)
		return;
	for (a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++) {
		int k2 = perf_metric_of(pm, aliases[a].ours);

		if (k2 >= 0)
			decorate(perf_mm(pm, (unsigned)k2), &aliases[a]);
	}
}

static void perf_model_free(struct perf_model *pm)
{
	unsigned k;

	if (pm == NULL)
		return;
	free(pm->perf_index);
	free(pm->home[0]);
	free(pm->home[1]);
	free(pm->alias);
	free(pm->metrics);
	for (k = 0; pm->ev_name != NULL && k < pm->n_ev; k++)
		free(pm->ev_name[k]);
	free(pm->ev_name);
	free(pm->ev_col);
	name_index_free(&pm->ev_ix);
	free(pm);
}

static void perf_compute(const struct model *m, const struct group_sums *sums,
			 const struct model_context *ctx, struct metric_value *out);

const struct model *model_perf_attach(const struct model *base, const struct perf_set *set,
				      const char *name)
{
	size_t n_alias_max = sizeof(aliases) / sizeof(aliases[0]);
	unsigned n = perf_set_count(set);
	struct perf_model *pm = calloc(1, sizeof(*pm));

	if (pm == NULL)
		return NULL;
	pm->base = base;
	pm->set = set;
	pm->m = *base;
	pm->n_base = base->n_metrics;
	pm->perf_index = calloc(n + 1, sizeof(*pm->perf_index));
	pm->home[0] = calloc(n + 1, sizeof(int));
	pm->home[1] = calloc(n + 1, sizeof(int));
	pm->alias = calloc(n_alias_max, sizeof(*pm->alias));
	pm->metrics = calloc(base->n_metrics + n_alias_max + n + 1, sizeof(*pm->metrics));
	pm->cap_ev = perf_set_table(set)->n_events + 64;  /* the table's, and generic names */
	pm->ev_name = calloc(pm->cap_ev, sizeof(*pm->ev_name));
	pm->ev_col = calloc(pm->cap_ev, sizeof(*pm->ev_col));
	if (pm->perf_index == NULL || pm->home[0] == NULL || pm->home[1] == NULL ||
	    pm->alias == NULL || pm->metrics == NULL || pm->ev_name == NULL ||
	    pm->ev_col == NULL || name_index_init(&pm->ev_ix, pm->cap_ev) < 0 ||
	    find_perf_metrics(pm) < 0) {
		perf_model_free(pm);
		return NULL;
	}
	if (base->compute == NULL)
		pm->n_alias = find_aliases(pm);
	lay_out(pm);
	pm->m.name = name != NULL ? name : base->name;
	pm->m.metrics = pm->metrics;
	pm->m.n_metrics = pm->n_base + pm->n_alias + pm->n_perf;
	pm->m.compute = perf_compute;
	return &pm->m;
}

static const struct perf_model *perf_model_of(const struct model *m)
{
	if (m == NULL || m->compute != perf_compute)
		return NULL;
	return (const struct perf_model *)((const char *)m - offsetof(struct perf_model, m));
}

const struct perf_set *model_perf_set(const struct model *m)
{
	const struct perf_model *pm = perf_model_of(m);

	return pm != NULL ? pm->set : NULL;
}

unsigned model_perf_first(const struct model *m)
{
	const struct perf_model *pm = perf_model_of(m);

	return pm != NULL ? pm->n_base : m->n_metrics;
}

unsigned model_perf_count(const struct model *m)
{
	const struct perf_model *pm = perf_model_of(m);

	return pm != NULL ? pm->n_perf : 0;
}

/* --- computing ------------------------------------------------------- */

struct eval_ctx {
	const struct perf_model *pm;
	const struct model *m;
	const struct group_sums *sums;
	int home;                 /* the group every event comes from, or -1 */
	uint64_t total_ns;        /* the target's time over all groups */
	double coverage;          /* the least-covered group used so far */
};

static double group_coverage(const struct group_sums *s, uint64_t total_ns)
{
	uint64_t ns = s->covered_ns ? s->covered_ns : s->task_clock_ns;

	return total_ns ? (double)ns / (double)total_ns : 1.0;
}

/* An event's count from group g (row: its resolved name), or -ENOENT. */
static int from_group(const struct eval_ctx *c, unsigned g, int row, double *out)
{
	const struct group_sums *s = &c->sums[g];
	int col;

	if (!s->present || row < 0)
		return -ENOENT;
	col = c->pm->ev_col[row][g];
	if (col < 0 || (s->missing & (1u << col)))
		return -ENOENT;
	*out = (double)s->v[col];
	return 0;
}

static int eval_event(void *arg, const char *name, double *out)
{
	struct eval_ctx *c = arg;
	uint64_t best_ns = 0;
	int best = -1, row = name_index_get(&c->pm->ev_ix, name);
	unsigned g;
	double v;

	if (c->home >= 0) {
		const struct group_sums *h = &c->sums[c->home];

		if (from_group(c, (unsigned)c->home, row, out) < 0)
			return -ENOENT;
		c->coverage = fmin(c->coverage, group_coverage(h, c->total_ns));
		return 0;
	}
	/* Spread over groups: the longest-measured group's count, scaled to
	 * the target's whole time. */
	for (g = 0; g < c->m->n_groups; g++)
		if (from_group(c, g, row, &v) == 0 &&
		    (best < 0 || c->sums[g].task_clock_ns > best_ns)) {
			best_ns = c->sums[g].task_clock_ns;
			best = (int)g;
		}
	if (best < 0)
		return -ENOENT;
	from_group(c, (unsigned)best, row, &v);
	/* no time measured (a recording without task-clock): counts as they are */
	*out = best_ns > 0 ? v * (double)c->total_ns / (double)best_ns : v;
	c->coverage = fmin(c->coverage, group_coverage(&c->sums[best], c->total_ns));
	return 0;
}

static void put_value(struct metric_value *out, double v, double coverage)
{
	out->valid = isfinite(v);
	out->value = out->valid ? v : 0.0;
	out->coverage = out->valid ? coverage : 0.0;
	out->core_scoped = false;
}

static void perf_compute(const struct model *m, const struct group_sums *sums,
			 const struct model_context *ctx, struct metric_value *out)
{
	const struct perf_model *pm = perf_model_of(m);
	struct eval_ctx c = { pm, m, sums, -1, model_total_task_clock(m, sums), 1.0 };
	/* no context: as the hand models take it, SMT off and nothing known */
	static const struct model_context none;
	const struct model_context *cx = ctx != NULL ? ctx : &none;
	struct perf_values pv;
	unsigned k, smt = cx->smt_on ? 1 : 0;

	if (pm->base->compute != NULL)
		pm->base->compute(m, sums, ctx, out);
	memset(&pv, 0, sizeof(pv));
	pv.event = eval_event;
	pv.ctx = &c;
	pv.smt_on = cx->smt_on;
	pv.core_wide = !cx->smt_on;  /* one thread's counts: core-wide only without SMT */
	pv.slots = cx->slots > 0 ? cx->slots : m->pipeline_width;
	pv.cpuid = cx->cpuid;
	for (k = 0; k < pm->n_perf; k++) {
		const struct perfdb_metric *p = perf_set_metric(pm->set, pm->perf_index[k]);
		struct metric_value *o = &out[pm->n_base + pm->n_alias + k];
		bool fraction;
		const char *unit;
		double v;

		c.home = pm->home[smt][k];
		c.coverage = 1.0;
		memset(o, 0, sizeof(*o));
		if (perf_set_eval(pm->set, pm->perf_index[k], &pv, &v) < 0)
			continue;
		put_value(o, perf_scale(p, v, &fraction, &unit), c.coverage);
	}
	for (k = 0; k < pm->n_alias; k++)
		out[pm->n_base + k] = out[pm->n_base + pm->n_alias + pm->alias[k].k];
}
