/*
 * api_target.c - GET /api/v1/{processes,comms,units}/NAME: every metric of
 * one process, or of all processes of one command or unit summed, over a
 * window, each with its coverage and place in its stack.
 */
#include "lib/api_endpoints.h"
#include "lib/group_parts.h"
#include "lib/model/model_hybrid.h"
#include "lib/model/model_perf.h"
#include "lib/model/model_sanity.h"
#include "lib/model/perf_names.h"
#include "lib/pids.h"
#include "lib/sampling_mode.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool matches(const struct window_proc *p, enum query_who who, const char *what,
		    long pid)
{
	switch (who) {
	case WHO_PID:
		return p->pid > 0 && p->pid == pid;
	case WHO_COMM:
		return strcmp(p->comm, what) == 0;
	case WHO_UNIT:
		return p->unit != NULL && strcmp(p->unit, what) == 0;
	case WHO_HOST:
		return p->pid != PID_IDLE;
	}
	return false;
}

/* What the matching processes add up to. */
struct target_sums {
	struct group_sums sums[MODEL_MAX_GROUPS];   /* once every process is added */
	struct sums_acc acc;
	uint64_t task_clock_ns, context_switches;
	uint64_t periodic_ns;   /* of task_clock_ns, measured periodically */
	size_t n;
};

static void add_process(struct target_sums *t, const struct model *m,
			const struct window_proc *p)
{
	t->task_clock_ns += p->task_clock_ns;
	t->periodic_ns += p->periodic_ns;
	t->context_switches += p->context_switches;
	if (m != NULL)
		sums_acc_add(&t->acc, m, p->sums);
	t->n++;
}

static void print_process(struct jsonw *j, const struct window_proc *p)
{
	jsonw_break(j, 2);
	jsonw_object_begin(j);
	jsonw_field_int(j, "pid", p->pid);
	jsonw_field_uint(j, "start_ns", p->start_ns);
	jsonw_field_string(j, "comm", p->comm);
	jsonw_key(j, "uid");
	if (p->uid >= 0)
		jsonw_int(j, p->uid);
	else
		jsonw_null(j);
	jsonw_field_string_or_null(j, "unit", p->unit);
	jsonw_field_string_or_null(j, "cmdline", p->cmdline);
	jsonw_field_uint(j, "task_clock_ns", p->task_clock_ns);
	jsonw_field_double(j, "periodic_share", sampling_mode_share(p->periodic_ns,
								    p->task_clock_ns));
	jsonw_object_end(j);
}

/* "processes": the first 100 that match, summed all into t.  Returns how
 * many matched. */
static size_t print_processes(struct jsonw *j, const struct window *w, enum query_who who,
			      const char *what, long pid, const struct api_access *acc,
			      struct target_sums *t)
{
	size_t i;

	jsonw_key(j, "processes");
	jsonw_array_begin(j);
	for (i = 0; i < w->n_procs; i++) {
		const struct window_proc *p = &w->procs[i];

		if (!matches(p, who, what, pid) || (!acc->full && p->uid != acc->uid))
			continue;
		if (t->n < 100)
			print_process(j, p);
		add_process(t, w->model, p);
	}
	jsonw_array_end(j);
	if (w->model != NULL)
		sums_acc_finish(&t->acc, w->model, t->sums);
	return t->n;
}

static void print_totals(struct jsonw *j, const struct window *w, const struct target_sums *t)
{
	const struct model *m = w->model;
	uint64_t span = w->to_ns > w->from_ns ? w->to_ns - w->from_ns : 0;

	jsonw_break(j, 1);
	jsonw_field_uint(j, "process_count", t->n);
	jsonw_break(j, 1);
	jsonw_key(j, "window");
	jsonw_object_begin(j);
	jsonw_field_uint(j, "from_ns", w->from_ns);
	jsonw_field_uint(j, "to_ns", w->to_ns);
	jsonw_object_end(j);
	jsonw_break(j, 1);
	jsonw_field_string(j, "model", m != NULL ? m->name : w->model_name);
	jsonw_field_uint(j, "formula_version", m != NULL ? m->formula_version : 0);
	api_print_recorded_under(j, w->recorded, w->n_recorded);
	jsonw_break(j, 1);
	jsonw_field_uint(j, "task_clock_ns", t->task_clock_ns);
	jsonw_field_uint(j, "context_switches", t->context_switches);
	jsonw_field_double(j, "cpu_percent", span > 0 ?
			   (double)t->task_clock_ns * 100.0 / (double)span : NAN);
	/* the target's own sampling mode: its share of the CPU time measured
	 * periodically (statistical), whatever the host's */
	jsonw_field_double(j, "periodic_share", sampling_mode_share(t->periodic_ns,
								    t->task_clock_ns));
	jsonw_field_uint(j, "periodic_ns", t->periodic_ns);
	/* the host's, over the window: how much of its time the target's
	 * figures could miss, and how much is estimated (periodic mode) */
	api_print_attribution(j, w);
	api_print_sampling_mode(j, &w->split);
}

static void print_groups(struct jsonw *j, const struct window *w, const struct target_sums *t)
{
	const struct model *m = w->model;
	unsigned g, k;

	jsonw_break(j, 1);
	jsonw_key(j, "groups");
	jsonw_array_begin(j);
	for (g = 0; m != NULL && g < m->n_groups; g++) {
		jsonw_break(j, 2);
		jsonw_object_begin(j);
		jsonw_field_string(j, "name", m->groups[g].name);
		jsonw_field_double(j, "coverage", t->task_clock_ns > 0 ?
				   (double)t->sums[g].task_clock_ns / (double)t->task_clock_ns :
				   NAN);
		/* its figures combine groups counted at different times */
		jsonw_field_bool(j, "split", g < w->n_groups && w->groups[g].split);
		jsonw_key(j, "counts");
		jsonw_object_begin(j);
		for (k = 0; k < m->groups[g].n_events; k++)
			jsonw_field_uint(j, m->groups[g].events[k].column, t->sums[g].v[k]);
		jsonw_object_end(j);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
}

/* Linux perf's names of the metric, when it is the same quantity as one
 * of perf's (lib/model/perf_names.h): none, or "perf_names": [...]. */
static void print_perf_names(struct jsonw *j, const struct model *m, const char *metric)
{
	const char *names[PERF_NAMES_MAX];
	unsigned i, n = perf_names_of(m, metric, names);

	if (n == 0)
		return;
	jsonw_key(j, "perf_names");
	jsonw_array_begin(j);
	for (i = 0; i < n; i++)
		jsonw_string(j, names[i]);
	jsonw_array_end(j);
}

/* Computed by perf's formula, from perf's table (under perf's name, or
 * ours for a table's Top-Down node); on a hybrid CPU, its core type's. */
static bool from_perf(const struct model *m, unsigned k)
{
	const struct model *part;
	unsigned pk;

	model_hybrid_metric_part(m, k, &part, &pk);
	return pk >= model_perf_first(part);
}

/* A hybrid CPU's metric: the core type it is of, or "both" for a figure
 * combined over them (its help says how). */
static const char *hybrid_core_type(const struct model *m, unsigned k)
{
	const struct model *part;
	unsigned pk;
	const char *unit = model_hybrid_metric_part(m, k, &part, &pk);

	return unit != NULL ? unit : "both";
}

/* A value no core can produce (model_sanity.h): "health": [what, ...];
 * nothing when it passes every check. */
static void print_health(struct jsonw *j, const struct model *m, const struct group_sums *sums,
			 const struct metric_value *mv, unsigned k, unsigned flags)
{
	char text[256];
	unsigned bit;

	if (flags == 0)
		return;
	jsonw_key(j, "health");
	jsonw_array_begin(j);
	for (bit = 1; bit <= SANITY_FP_PORTS; bit <<= 1)
		if (flags & bit) {
			model_sanity_text(m, sums, mv, k, bit, text, sizeof(text));
			jsonw_string(j, text);
		}
	jsonw_array_end(j);
}

static void print_metrics(struct jsonw *j, const struct window *w, const struct target_sums *t)
{
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES];
	unsigned base[HYBRID_MAX_TYPES + 1];
	const struct model *m = w->model;
	struct metric_value mv[MODEL_MAX_METRICS];
	unsigned flags[MODEL_MAX_METRICS];
	struct model_context ctx = { .smt_on = w->smt_on,
				     .cpi_weights = w->cpi_fit.fitted ? w->cpi_fit.weights : NULL,
				     .slots = w->slots,
				     .cpuid = w->cpuid[0] ? w->cpuid : NULL };
	unsigned k;

	jsonw_break(j, 1);
	jsonw_key(j, "metrics");
	jsonw_array_begin(j);
	if (m == NULL) {
		jsonw_array_end(j);
		return;
	}
	memset(mv, 0, sizeof(mv));
	m->compute(m, t->sums, &ctx, mv);
	model_sanity(m, t->sums, mv, flags);
	for (k = 0; k < m->n_metrics; k++) {
		const struct model_metric *mm = &m->metrics[k];

		if (!mv[k].valid)
			continue;
		jsonw_break(j, 2);
		jsonw_object_begin(j);
		jsonw_field_string(j, "name", mm->name);
		jsonw_field_double(j, "value", mv[k].value);
		jsonw_field_string(j, "unit", api_metric_unit(mm->unit));
		jsonw_field_string_or_null(j, "parent", mm->parent);
		jsonw_field_string_or_null(j, "stack", mm->stack);
		jsonw_field_double(j, "coverage", mv[k].coverage);
		jsonw_field_bool(j, "core_scoped", mv[k].core_scoped);
		jsonw_field_string(j, "help", mm->help);
		jsonw_field_string(j, "source", from_perf(m, k) ? "perf" : "stackd");
		if (model_hybrid_parts(m, parts, units, base) > 0)
			jsonw_field_string(j, "core_type", hybrid_core_type(m, k));
		print_perf_names(j, m, mm->name);
		print_health(j, m, t->sums, mv, k, flags[k]);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
}

/* "stack_titles": the headings of the stacks in slots, naming the stage
 * whose slots they are (model_stack_title), and "ranges_title", naming
 * the two stages of the _low/_high ranges: what a client would otherwise
 * guess (the dashboard said "issue slots" on Zen 4). */
static void print_stack_titles(struct jsonw *j, const struct model *m)
{
	char title[256];
	const char *done[MODEL_MAX_METRICS];
	unsigned k, n = 0, i;

	if (m == NULL)
		return;
	jsonw_break(j, 1);
	jsonw_key(j, "stack_titles");
	jsonw_object_begin(j);
	for (k = 0; k < m->n_metrics; k++) {
		const char *st = m->metrics[k].stack;

		for (i = 0; st != NULL && i < n && strcmp(done[i], st) != 0; i++)
			;
		if (st == NULL || i < n || model_stack_title(m, st, title, sizeof(title)) < 0)
			continue;
		done[n++] = st;
		jsonw_field_string(j, st, title);
	}
	jsonw_object_end(j);
	if (model_ranges_title(m, title, sizeof(title)) == 0)
		jsonw_field_string(j, "ranges_title", title);
}

int api_target(const struct api_request *rq, struct api_response *resp)
{
	static const char *const keys[] = { "window", NULL };
	const struct api_access *acc = rq->acc;
	enum query_who who = rq->who;
	const char *what = rq->what;
	uint64_t window_ns = API_DEFAULT_WINDOW_NS;
	struct target_sums t;
	struct http_query q;
	const struct window *w;
	struct api_out o;
	char err[1024], *end;
	long pid = 0;
	int r;

	if (http_query_parse(rq->query, keys, &q, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "window", API_MAX_WINDOW_NS, &window_ns, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	if (who == WHO_PID && ((pid = strtol(what, &end, 10)) <= 0 || pid > INT32_MAX ||
			       *end != '\0' || *what == '\0'))
		return api_error(resp, 400, "'%s' is not a process id", what);
	r = api_window_get(rq, window_ns, &w, err, sizeof(err));
	if (r < 0)
		return api_error(resp, r == -ENODATA || r == -EAGAIN ? 503 : 500, "%s", err);
	if (api_out_open(&o) < 0) {
		api_window_put(rq, w);
		return -ENOMEM;
	}
	memset(&t, 0, sizeof(t));
	jsonw_object_begin(&o.w);
	jsonw_key(&o.w, "who");
	jsonw_object_begin(&o.w);
	jsonw_field_string(&o.w, api_who_key(who), what);
	jsonw_object_end(&o.w);
	jsonw_break(&o.w, 1);
	if (print_processes(&o.w, w, who, what, pid, acc, &t) == 0) {
		api_out_abort(&o);
		api_window_put(rq, w);
		return api_error(resp, 404, "no %s '%s' ran in the last %.0f s%s", api_who_key(who),
				 what, (double)window_ns / (double)NS_PER_SEC, acc->full ? "" : " (among your processes)");
	}
	print_totals(&o.w, w, &t);
	print_groups(&o.w, w, &t);
	print_metrics(&o.w, w, &t);
	print_stack_titles(&o.w, w->model);
	api_print_cpi_fit(&o.w, w->model, &w->cpi_fit);
	jsonw_object_end(&o.w);
	api_window_put(rq, w);
	return api_out_finish(&o, 200, true, resp);
}
