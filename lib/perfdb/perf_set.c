/*
 * perf_set.c - see perf_set.h.
 */
#include "lib/perfdb/perf_set.h"
#include "lib/perfdb/host_cpu.h"
#include "lib/perfdb/metric_expr.h"
#include "lib/perfdb/name_index.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How deep metrics may refer to metrics: perf's tables go 4-5 deep
 * (tma_fetch_latency -> tma_info_thread_slots -> ...). */
#define PERF_SET_MAX_DEPTH 24

struct perf_set {
	const struct perfdb_table *table;
	const char *unit;
	unsigned n;
	const struct perfdb_metric **metric;  /* the table's, of this core type */
	struct metric_expr **expr;            /* parsed; NULL: perf's text did not parse */
	struct name_index metric_ix;          /* metric name -> index */
	struct name_index event_ix;           /* the table's event name -> index */
};

/* Sets built so far: one per table and core type, kept for the process's
 * life (what `model_all` hands out points into them).  The only state
 * written in lib/perfdb, under a lock, once per table. */
static pthread_mutex_t sets_lock = PTHREAD_MUTEX_INITIALIZER;
static struct perf_set *sets[256];
static unsigned n_sets;

static bool unit_matches(const char *metric_unit, const char *unit)
{
	if (unit == NULL)
		return metric_unit == NULL || strcmp(metric_unit, "cpu") == 0;
	return metric_unit != NULL && strcmp(metric_unit, unit) == 0;
}

static struct perf_set *set_build(const struct perfdb_table *t, const char *unit)
{
	struct perf_set *s = calloc(1, sizeof(*s));
	unsigned i;

	if (s == NULL)
		return NULL;
	s->table = t;
	s->unit = unit;
	s->metric = calloc(t->n_metrics + 1, sizeof(*s->metric));
	s->expr = calloc(t->n_metrics + 1, sizeof(*s->expr));
	if (s->metric == NULL || s->expr == NULL) {
		free(s->metric);
		free(s->expr);
		free(s);
		return NULL;
	}
	if (name_index_init(&s->metric_ix, t->n_metrics) < 0 ||
	    name_index_init(&s->event_ix, t->n_events) < 0) {
		name_index_free(&s->metric_ix);
		free(s->metric);
		free(s->expr);
		free(s);
		return NULL;
	}
	for (i = 0; i < t->n_events; i++)
		name_index_put(&s->event_ix, t->events[i].name, (int)i);
	for (i = 0; i < t->n_metrics; i++) {
		char err[160];

		if (!unit_matches(t->metrics[i].pmu, unit))
			continue;
		s->metric[s->n] = &t->metrics[i];
		name_index_put(&s->metric_ix, t->metrics[i].name, (int)s->n);
		if (metric_expr_parse(t->metrics[i].expr, &s->expr[s->n], err, sizeof(err)) < 0)
			s->expr[s->n] = NULL;  /* tests/unit/test_metric_expr.c: none */
		s->n++;
	}
	return s;
}

const struct perf_set *perf_set_get(const struct perfdb_table *t, const char *unit)
{
	struct perf_set *found = NULL;
	unsigned i;

	pthread_mutex_lock(&sets_lock);
	for (i = 0; i < n_sets && found == NULL; i++)
		if (sets[i]->table == t &&
		    (sets[i]->unit == unit || (sets[i]->unit && unit && !strcmp(sets[i]->unit, unit))))
			found = sets[i];
	if (found == NULL && n_sets < sizeof(sets) / sizeof(sets[0])) {
		found = set_build(t, unit);
		if (found != NULL && found->n == 0 && unit != NULL) {
			/* no metric of that core type: not a core type of t */
			name_index_free(&found->metric_ix);
			name_index_free(&found->event_ix);
			free(found->metric);
			free(found->expr);
			free(found);
			found = NULL;
		} else if (found != NULL) {
			sets[n_sets++] = found;
		}
	}
	pthread_mutex_unlock(&sets_lock);
	return found;
}

unsigned perf_set_count(const struct perf_set *s)
{
	return s->n;
}

const struct perfdb_metric *perf_set_metric(const struct perf_set *s, unsigned i)
{
	return i < s->n ? s->metric[i] : NULL;
}

const struct perfdb_table *perf_set_table(const struct perf_set *s)
{
	return s->table;
}

int perf_set_index(const struct perf_set *s, const char *name)
{
	return name_index_get(&s->metric_ix, name);
}

/* --- evaluation ------------------------------------------------------- */

struct eval_state {
	const struct perf_set *s;
	const struct perf_values *v;
	unsigned depth;
};

static int env_metric(void *ctx, const char *name, double *out);

/* #literals (tool_pmu.c's constants) from what the caller knows; an
 * unknown one makes the metric missing, not wrong. */
static int env_literal(void *ctx, const char *name, double *out)
{
	const struct perf_values *v = ((struct eval_state *)ctx)->v;
	double x = NAN;

	if (strcmp(name, "smt_on") == 0)
		x = v->smt_on;
	else if (strcmp(name, "core_wide") == 0)
		x = v->core_wide;
	else if (strcmp(name, "slots") == 0 && v->slots > 0)
		x = v->slots;
	else if ((strcmp(name, "num_cpus") == 0 || strcmp(name, "num_cpus_online") == 0) &&
		 v->cpus_online > 0)
		x = v->cpus_online;
	else if (strcmp(name, "num_cores") == 0 && v->cores > 0)
		x = v->cores;
	else if ((strcmp(name, "num_packages") == 0 || strcmp(name, "num_dies") == 0) &&
		 v->packages > 0)
		x = v->packages;
	else if (strcmp(name, "system_tsc_freq") == 0 && v->tsc_hz > 0)
		x = v->tsc_hz;
	else if (strcmp(name, "has_pmem") == 0)
		x = 0;
	if (isnan(x))
		return -EINVAL;
	*out = x;
	return 0;
}

/* The table's event of that name, or NULL. */
static const struct perfdb_event *table_event(const struct perf_set *s, const char *name)
{
	int i = name_index_get(&s->event_ix, name);

	return i >= 0 ? &s->table->events[i] : NULL;
}

const struct perfdb_event *perf_set_event(const struct perf_set *s, const char *name)
{
	return table_event(s, name);
}

static int env_event(void *ctx, const char *name, double *out)
{
	const struct eval_state *st = ctx;
	const struct perfdb_event *te = table_event(st->s, name);

	/* "EV:R", a retirement latency: perf stat's own figure is the table's
	 * mean (no sampling here), so it is a constant, not a count. */
	if (te != NULL && te->kind == PERFDB_EV_RETIRE_LATENCY) {
		*out = te->retire_lat;
		return 0;
	}
	if (strcmp(name, "duration_time") == 0) {
		if (st->v->duration_s <= 0)
			return -ENOENT;
		*out = st->v->duration_s;
		return 0;
	}
	return st->v->event(st->v->ctx, name, out);
}

/* has_event(): whether this CPU's table knows the event (perf: whether it
 * parses on the host's PMUs). */
static int env_has_event(void *ctx, const char *name)
{
	const struct perfdb_table *t = ((struct eval_state *)ctx)->s->table;
	unsigned i;

	for (i = 0; i < t->n_events; i++)
		if (perf_event_same(name, t->events[i].name))
			return 1;
	return 0;
}

static int env_source_count(void *ctx, const char *name, double *out)
{
	double v;
	int r = env_event(ctx, name, &v);

	if (r < 0)
		return r;
	*out = 1;  /* core events: one PMU per CPU */
	return 0;
}

/* strcmp_cpuid_str(): whether the counted CPU is str, by perf's rule
 * (host_cpu_id_matches: arm64 header.c, x86 regex). */
static int env_strcmp_cpuid(void *ctx, const char *str)
{
	return host_cpu_id_matches(str, ((struct eval_state *)ctx)->v->cpuid);
}

static void env_init(struct metric_expr_env *env, struct eval_state *st)
{
	memset(env, 0, sizeof(*env));
	env->ctx = st;
	env->event = env_event;
	env->metric = env_metric;
	env->literal = env_literal;
	env->has_event = env_has_event;
	/* no cpuid: unknown (a metric that asks cannot be computed, and both
	 * sides of its if are needed) */
	env->strcmp_cpuid_str = st->v->cpuid != NULL ? env_strcmp_cpuid : NULL;
	env->source_count = env_source_count;
	env->aggr_nr = env_source_count;
}

static int eval_at(const struct perf_set *s, unsigned i, const struct perf_values *v,
		   unsigned depth, double *value)
{
	struct eval_state st = { s, v, depth };
	struct metric_expr_env env;

	if (depth > PERF_SET_MAX_DEPTH)
		return -ELOOP;
	if (i >= s->n || s->expr[i] == NULL)
		return -EINVAL;
	env_init(&env, &st);
	return metric_expr_eval(s->expr[i], &env, value);
}

static int env_metric(void *ctx, const char *name, double *out)
{
	const struct eval_state *st = ctx;
	int i = perf_set_index(st->s, name);

	if (i < 0)
		return -ENOENT;
	return eval_at(st->s, (unsigned)i, st->v, st->depth + 1, out);
}

int perf_set_eval(const struct perf_set *s, unsigned i, const struct perf_values *v,
		  double *value)
{
	int r = eval_at(s, i, v, 0, value);

	if (r == 0 && isnan(*value))
		return -EDOM;
	return r;
}

/* --- what a metric needs ------------------------------------------- */

struct needs_state {
	const struct perf_set *s;
	struct perf_values v;      /* literals only */
	struct eval_state st;
	void (*fn)(void *ctx, const char *event);
	void *ctx;
	unsigned depth;
	int err;
};

static int needs_at(struct needs_state *ns, unsigned i);

/* A literal the caller does not know (#slots of a CPU not yet seen) is no
 * constant: both sides of an if it decides are needed. */
static int needs_literal(void *ctx, const char *name, double *out)
{
	if (env_literal(ctx, name, out) < 0)
		*out = NAN;
	return 0;
}

static void need_name(void *ctx, const char *name)
{
	struct needs_state *ns = ctx;
	int i = perf_set_index(ns->s, name);

	if (i < 0) {
		const struct perfdb_event *te = table_event(ns->s, name);

		if (te == NULL || te->kind != PERFDB_EV_RETIRE_LATENCY)
			ns->fn(ns->ctx, name);
		return;
	}
	if (ns->err == 0) {
		ns->depth++;
		ns->err = needs_at(ns, (unsigned)i);
		ns->depth--;
	}
}

static int needs_at(struct needs_state *ns, unsigned i)
{
	struct metric_expr_env env;
	int r;

	if (ns->depth > PERF_SET_MAX_DEPTH)
		return -ELOOP;
	if (i >= ns->s->n || ns->s->expr[i] == NULL)
		return -EINVAL;
	env_init(&env, &ns->st);
	env.literal = needs_literal;
	r = metric_expr_names(ns->s->expr[i], &env, need_name, ns);
	return r < 0 ? r : ns->err;
}

int perf_set_needs(const struct perf_set *s, unsigned i, bool smt_on,
		   void (*fn)(void *ctx, const char *event), void *ctx)
{
	struct needs_state ns;

	memset(&ns, 0, sizeof(ns));
	ns.s = s;
	ns.v.smt_on = smt_on;
	ns.v.core_wide = !smt_on;
	ns.st.s = s;
	ns.st.v = &ns.v;
	ns.fn = fn;
	ns.ctx = ctx;
	return needs_at(&ns, i);
}

/* --- perf's printed figure ------------------------------------------ */

double perf_scale(const struct perfdb_metric *pm, double raw, bool *fraction,
		  const char **unit)
{
	const char *su = pm->scale_unit;
	char *end;
	double factor;

	*fraction = false;
	*unit = "";
	if (su == NULL || *su == '\0')
		return raw;
	factor = strtod(su, &end);
	if (end == su)
		factor = 1.0;
	while (*end == ' ')
		end++;
	*unit = end;
	/* "100%", "1percent of slots": a share, held as 0..1 */
	if (*end == '%' || strncmp(end, "percent", 7) == 0) {
		*fraction = true;
		return raw * factor / 100.0;
	}
	return raw * factor;
}

/* --- the same count under two names --------------------------------- */

/* Names the kernel maps to one event, per vendor: the generic hardware
 * events of arch/x86/events/intel/core.c intel_perfmon_event_map (cycles
 * 0x3c, instructions 0xc0, branches 0xc4, branch misses 0xc5; the fixed
 * counters count the same 0x3c and 0xc0), arch/x86/events/amd/core.c
 * amd_perfmon_event_map (0x76, 0xc0, 0xc2, 0xc3) and
 * drivers/perf/arm_pmuv3.c armv8_pmuv3_perf_map (CPU_CYCLES,
 * INST_RETIRED, BR_MIS_PRED), with perf's JSON names for those codes;
 * `slots` is the kernel's sysfs name of TOPDOWN.SLOTS. */
static const char *const same_count[][7] = {
	{ "cycles", "cpu-cycles", "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.THREAD_P",
	  "CPU_CLK_UNHALTED.CORE", "ls_not_halted_cyc", "cpu_cycles" },
	{ "instructions", "INST_RETIRED.ANY", "INST_RETIRED.ANY_P", "ex_ret_instr",
	  "inst_retired", NULL, NULL },
	{ "branches", "branch-instructions", "BR_INST_RETIRED.ALL_BRANCHES", "ex_ret_brn",
	  NULL, NULL, NULL },
	{ "branch-misses", "BR_MISP_RETIRED.ALL_BRANCHES", "ex_ret_brn_misp", "br_mis_pred",
	  NULL, NULL, NULL },
	{ "slots", "TOPDOWN.SLOTS", NULL, NULL, NULL, NULL, NULL },
};

/* name without a "pmu/" ... "/" that holds no terms: "cpu_core/X/" -> X */
static void bare_name(const char *name, char *buf, size_t len)
{
	const char *slash = strchr(name, '/');
	size_t n = strlen(name);

	if (slash != NULL && n > 2 && name[n - 1] == '/' && strchr(slash + 1, '=') == NULL &&
	    (size_t)(slash - name) < n - 1)
		snprintf(buf, len, "%.*s", (int)(n - 2 - (size_t)(slash - name)), slash + 1);
	else
		snprintf(buf, len, "%s", name);
}

static int same_class(const char *name)
{
	size_t c, k;

	for (c = 0; c < sizeof(same_count) / sizeof(same_count[0]); c++)
		for (k = 0; k < 7 && same_count[c][k] != NULL; k++)
			if (strcasecmp(same_count[c][k], name) == 0)
				return (int)c;
	return -1;
}

bool perf_event_same(const char *a, const char *b)
{
	char x[160], y[160];
	int ca;

	bare_name(a, x, sizeof(x));
	bare_name(b, y, sizeof(y));
	if (strcasecmp(x, y) == 0)
		return true;
	ca = same_class(x);
	return ca >= 0 && ca == same_class(y);
}
