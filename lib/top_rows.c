/*
 * top_rows.c - see top_rows.h.
 */
#include "lib/top_rows.h"
#include "lib/group_parts.h"
#include "lib/model/model_sanity.h"
#include "lib/pids.h"
#include "lib/sampling_mode.h"
#include "lib/top_rank.h"

#include <errno.h>
#include <fnmatch.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct top_columns {
	int pid, comm, user, uid, unit, start, cmdline, processes;
	int ns, pod, container;         /* Kubernetes' names */
	int cpu, tc, cs;
	int periodic;                   /* periodic_share */
	int health;                     /* the sanity checks' flags (model_sanity.h) */
	int cycles;                     /* the summed cycles column, -1: none */
	int family[MODEL_MAX_GROUPS][MODEL_MAX_EVENTS];
	int coverage[MODEL_MAX_GROUPS];
	int metric[MODEL_MAX_METRICS];
	int slots[MODEL_MAX_METRICS];   /* Top-Down level-1 nodes only */
	int wall[MODEL_MAX_METRICS];    /* rates: the same per second of wall time */
};

/* Short table titles for the metrics people sort by; others keep their name. */
static const struct { const char *name, *title; } titles[] = {
	{ "frontend_bound", "FE" }, { "bad_speculation", "BADSPEC" },
	{ "backend_bound", "BE" }, { "retiring", "RET" }, { "ipc", "IPC" }, { "cpi", "CPI" },
	{ "fetch_latency", "FE-LAT" }, { "fetch_bandwidth", "FE-BW" },
	{ "branch_mispredicts", "BR-MISP" }, { "machine_clears", "CLEARS" },
	{ "memory_bound", "MEM" }, { "core_bound", "CORE" }, { "light_ops", "LIGHT" },
	{ "heavy_ops", "HEAVY" }, { "dsb_coverage", "DSB" }, { "mite_share", "MITE" },
	{ "lsd_share", "LSD" }, { "ms_share", "MS" },
	{ "flop_peak_fraction", "PEAK" }, { "flops_scalar_share", "SCALAR" },
	{ "flops_128b_share", "V128" }, { "flops_256b_share", "V256" },
	{ "flops_512b_share", "V512" }, { "flops_dp_share", "DP" },
	/* rates: per second of the process's CPU time, and (top_rows_wall_name)
	 * per second of wall time, as perf stat and pidstat count them */
	{ "gflops", "GFLOP/CPU-S" }, { "gflops_wall", "GFLOP/s" },
	{ "switches_per_cpu_s", "SWITCH/CPU-S" }, { "switches_per_s", "SWITCH/s" },
	{ "page_faults_per_cpu_s", "FAULT/CPU-S" }, { "page_faults_per_s", "FAULT/s" },
	{ "migrations_per_cpu_s", "MIGR/CPU-S" }, { "migrations_per_s", "MIGR/s" },
	{ "frontend_bound_slots", "FE-SLOTS" }, { "backend_bound_slots", "BE-SLOTS" },
	{ "bad_speculation_slots", "BADSPEC-SLOTS" }, { "retiring_slots", "RET-SLOTS" },
};

static const char *title_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (strcmp(titles[i].name, name) == 0)
			return titles[i].title;
	return name;
}

static const char *const by_names[] = {
	[TOP_BY_PROCESS] = "process", [TOP_BY_COMM] = "comm", [TOP_BY_UNIT] = "unit",
	[TOP_BY_USER] = "user", [TOP_BY_NAMESPACE] = "namespace", [TOP_BY_POD] = "pod",
	[TOP_BY_CONTAINER] = "container",
};

int top_rows_by_parse(const char *name, enum top_by *ret)
{
	size_t i;

	for (i = 0; i < sizeof(by_names) / sizeof(by_names[0]); i++)
		if (strcmp(name, by_names[i]) == 0) {
			*ret = (enum top_by)i;
			return 0;
		}
	return -EINVAL;
}

const char *top_rows_by_name(enum top_by by)
{
	return by_names[by];
}

/* The four Top-Down level-1 nodes every model shares get a slot count (a
 * model's own extra nodes, Zen 4's smt_contention, keep their share). */
static bool is_l1_node(const struct model_metric *mm)
{
	static const char *const l1[] = { "frontend_bound", "bad_speculation", "backend_bound",
					  "retiring" };
	size_t i;

	if (mm->stack == NULL || strcmp(mm->stack, "topdown") != 0 || mm->parent != NULL)
		return false;
	for (i = 0; i < sizeof(l1) / sizeof(l1[0]); i++)
		if (strcmp(mm->name, l1[i]) == 0)
			return true;
	return false;
}

static int add(struct rowset *rs, const char *name, enum rs_unit unit)
{
	return rowset_add_column(rs, name, title_of(name), unit);
}

static void build_key_columns(struct rowset *rs, enum top_by by, struct top_columns *c)
{
	switch (by) {
	case TOP_BY_PROCESS:
		c->pid = rowset_add_column(rs, "pid", "PID", RS_UNIT_NONE);
		c->user = rowset_add_column(rs, "user", "USER", RS_UNIT_NONE);
		c->comm = rowset_add_column(rs, "comm", "COMM", RS_UNIT_NONE);
		return;
	case TOP_BY_COMM:
		c->comm = rowset_add_column(rs, "comm", "COMM", RS_UNIT_NONE);
		break;
	case TOP_BY_UNIT:
		c->unit = rowset_add_column(rs, "unit", "UNIT", RS_UNIT_NONE);
		break;
	case TOP_BY_USER:
		c->user = rowset_add_column(rs, "user", "USER", RS_UNIT_NONE);
		c->uid = rowset_add_column(rs, "uid", "UID", RS_UNIT_NONE);
		break;
	case TOP_BY_NAMESPACE:
	case TOP_BY_POD:
	case TOP_BY_CONTAINER:
		c->ns = rowset_add_column(rs, "namespace", "NAMESPACE", RS_UNIT_NONE);
		if (by != TOP_BY_NAMESPACE)
			c->pod = rowset_add_column(rs, "pod", "POD", RS_UNIT_NONE);
		if (by == TOP_BY_CONTAINER)
			c->container = rowset_add_column(rs, "container", "CONTAINER",
							 RS_UNIT_NONE);
		break;
	}
	c->processes = rowset_add_column(rs, "processes", "PROCS", RS_UNIT_NONE);
}

static int build_columns(struct rowset *rs, const struct model *m, enum top_by by,
			 struct top_columns *c)
{
	unsigned k, g;

	build_key_columns(rs, by, c);
	c->cpu = rowset_add_column(rs, "cpu_percent", "CPU%", RS_UNIT_PERCENT);
	/* the row's own sampling mode: a process on a periodic CPU is all
	 * statistical however small the host's periodic share */
	c->periodic = rowset_add_column(rs, "periodic_share", "PERIODIC", RS_UNIT_FRACTION);
	c->tc = rowset_add_column(rs, "task_clock_ns", "CPU-TIME", RS_UNIT_NS);
	/* values no core can produce, by metric (model_sanity.h): empty when
	 * all pass */
	c->health = m != NULL ? rowset_add_column(rs, "health", "HEALTH", RS_UNIT_NONE) : -1;
	c->cs = rowset_add_column(rs, "context_switches", "SWITCHES", RS_UNIT_COUNT);
	for (g = 0; m != NULL && g < m->n_groups; g++) {
		const struct model_group *mg = &m->groups[g];

		/* cycles, instructions... are in every group of a hardware
		 * model: one column holds their sum over the groups. */
		for (k = 0; k < mg->n_events; k++) {
			int have = rowset_find_column(rs, mg->events[k].column);

			c->family[g][k] = have >= 0 ? have :
				rowset_add_column(rs, mg->events[k].column, mg->events[k].column,
						  RS_UNIT_COUNT);
		}
	}
	c->cycles = rowset_find_column(rs, "cycles");
	for (g = 0; m != NULL && g < m->n_groups; g++) {
		char name[64], title[32];

		snprintf(name, sizeof(name), "%s_coverage", m->groups[g].name);
		snprintf(title, sizeof(title), "COV:%s", m->groups[g].name);
		c->coverage[g] = rowset_add_column(rs, name, title, RS_UNIT_FRACTION);
	}
	for (k = 0; m != NULL && k < m->n_metrics; k++) {
		const struct model_metric *mm = &m->metrics[k];

		c->metric[k] = rowset_add_column(rs, mm->name, mm->title != NULL ? mm->title :
						 title_of(mm->name), mm->unit == METRIC_FRACTION ?
						 RS_UNIT_FRACTION : RS_UNIT_COUNT);
		rowset_set_tree(rs, c->metric[k], mm->stack, mm->parent);
	}
	for (k = 0; m != NULL && k < m->n_metrics; k++) {
		char name[64];

		if (m->metrics[k].unit != METRIC_RATE)
			continue;
		top_rows_wall_name(m->metrics[k].name, name, sizeof(name));
		c->wall[k] = add(rs, name, RS_UNIT_COUNT);
	}
	for (k = 0; m != NULL && m->pipeline_width > 0 && k < m->n_metrics; k++) {
		char name[64];

		if (!is_l1_node(&m->metrics[k]))
			continue;
		snprintf(name, sizeof(name), "%s_slots", m->metrics[k].name);
		c->slots[k] = add(rs, name, RS_UNIT_COUNT);
	}
	if (by == TOP_BY_PROCESS) {
		c->uid = rowset_add_column(rs, "uid", "UID", RS_UNIT_NONE);
		c->unit = rowset_add_column(rs, "unit", "UNIT", RS_UNIT_NONE);
		c->start = rowset_add_column(rs, "start_ns", "START", RS_UNIT_NONE);
		c->cmdline = rowset_add_column(rs, "cmdline", "COMMAND", RS_UNIT_NONE);
	}
	return rs->n_cols > 0 && c->cs >= 0 && (by != TOP_BY_PROCESS || c->cmdline >= 0) ?
	       0 : -ENOMEM;
}

/* The last users named while building one table: a host's processes
 * belong to a few users, and each getpwuid_r reads /etc/passwd anew (four
 * syscalls and a parse with the "files" source: most of a request's time
 * for a window of thousands of processes, issue 34). */
#define USER_MEMO 64
struct user_memo {
	int64_t uid[USER_MEMO];
	char name[USER_MEMO][64];
	unsigned n, next;
};

/* The login name of uid, "" when it has none (a container's user). */
static const char *user_name(struct user_memo *memo, int64_t uid)
{
	struct passwd pw, *found = NULL;
	char scratch[1024];
	unsigned i;
	char *buf;

	for (i = 0; i < memo->n; i++)
		if (memo->uid[i] == uid)
			return memo->name[i];
	i = memo->next;
	memo->next = (memo->next + 1) % USER_MEMO;
	if (memo->n < USER_MEMO)
		memo->n++;
	memo->uid[i] = uid;
	buf = memo->name[i];
	buf[0] = '\0';
	if (uid >= 0 && getpwuid_r((uid_t)uid, &pw, scratch, sizeof(scratch), &found) == 0 &&
	    found != NULL)
		snprintf(buf, sizeof(memo->name[i]), "%s", pw.pw_name);
	else if (uid >= 0)
		snprintf(buf, sizeof(memo->name[i]), "%lld", (long long)uid);
	return buf;
}

void top_rows_wall_name(const char *metric, char *buf, size_t len)
{
	static const char suffix[] = "_per_cpu_s";
	size_t n = strlen(metric), k = sizeof(suffix) - 1;

	if (n > k && strcmp(metric + n - k, suffix) == 0)
		snprintf(buf, len, "%.*s_per_s", (int)(n - k), metric);
	else
		snprintf(buf, len, "%s_wall", metric);
}

/* The row's health: what the sanity checks flag, or nothing. */
static int set_health(struct rowset *rs, size_t row, int col, const struct model *m,
		      const struct group_sums *sums, const struct metric_value *mv)
{
	char text[2048];

	if (col < 0 || model_sanity_line(m, sums, mv, text, sizeof(text)) == 0)
		return 0;
	return rowset_set_text(rs, row, col, text);
}

static int fill_model_cells(struct rowset *rs, size_t row, const struct window *w,
			    const struct window_proc *p, const struct top_columns *c)
{
	uint64_t span = w->to_ns > w->from_ns ? w->to_ns - w->from_ns : 0;
	const struct model *m = w->model;
	struct metric_value mv[MODEL_MAX_METRICS];
	struct model_context ctx = { .smt_on = w->smt_on,
				     .cpi_weights = w->cpi_fit.fitted ? w->cpi_fit.weights : NULL,
				     .slots = w->slots,
				     .cpuid = w->cpuid[0] ? w->cpuid : NULL };
	int cols[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS];
	int64_t vals[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS];
	unsigned g, k, n = 0, j;
	double slots = 0;

	for (g = 0; g < m->n_groups; g++) {
		if (!p->sums[g].present)
			continue;
		for (k = 0; k < m->groups[g].n_events; k++) {
			if (p->sums[g].missing & (1u << k))
				continue;   /* no part of a split family counted it */
			for (j = 0; j < n && cols[j] != c->family[g][k]; j++)
				;
			if (j == n) {
				cols[n] = c->family[g][k];
				vals[n++] = 0;
			}
			vals[j] += (int64_t)p->sums[g].v[k];
		}
		if (p->task_clock_ns > 0)
			rowset_set_double(rs, row, c->coverage[g], (double)p->sums[g].task_clock_ns /
					  (double)p->task_clock_ns);
	}
	for (j = 0; j < n; j++) {
		rowset_set_int(rs, row, cols[j], vals[j]);
		/* Every group counts cycles: their sum covers all measured time. */
		if (cols[j] == c->cycles)
			slots = (double)vals[j] * m->pipeline_width;
	}
	memset(mv, 0, sizeof(mv));
	m->compute(m, p->sums, &ctx, mv);
	if (set_health(rs, row, c->health, m, p->sums, mv) < 0)
		return -ENOMEM;
	for (k = 0; k < m->n_metrics; k++) {
		if (!mv[k].valid)
			continue;
		rowset_set_double(rs, row, c->metric[k], mv[k].value);
		/* per CPU second x the CPU time the window held, over its wall time */
		if (c->wall[k] >= 0 && span > 0)
			rowset_set_double(rs, row, c->wall[k], mv[k].value *
					  (double)p->task_clock_ns / (double)span);
		if (c->slots[k] >= 0 && slots > 0)
			rowset_set_double(rs, row, c->slots[k], mv[k].value * slots);
	}
	return 0;
}

static int fill_row(struct rowset *rs, const struct window *w, const struct window_proc *p,
		    size_t n_procs, const struct top_columns *c, struct user_memo *memo)
{
	uint64_t span = w->to_ns > w->from_ns ? w->to_ns - w->from_ns : 0;
	int row = rowset_add_row(rs);

	if (row < 0)
		return row;
	if (c->pid >= 0)
		rowset_set_int(rs, (size_t)row, c->pid, p->pid);
	if (c->processes >= 0)
		rowset_set_int(rs, (size_t)row, c->processes, (int64_t)n_procs);
	if (c->user >= 0) {
		const char *user = user_name(memo, p->uid);

		if (rowset_set_text(rs, (size_t)row, c->user, user[0] ? user : NULL) < 0)
			return -ENOMEM;
	}
	if ((c->comm >= 0 && rowset_set_text(rs, (size_t)row, c->comm, p->comm) < 0) ||
	    (c->unit >= 0 && rowset_set_text(rs, (size_t)row, c->unit, p->unit) < 0) ||
	    (c->cmdline >= 0 && rowset_set_text(rs, (size_t)row, c->cmdline, p->cmdline) < 0) ||
	    (c->ns >= 0 && rowset_set_text(rs, (size_t)row, c->ns, p->namespace_) < 0) ||
	    (c->pod >= 0 && rowset_set_text(rs, (size_t)row, c->pod, p->pod) < 0) ||
	    (c->container >= 0 &&
	     rowset_set_text(rs, (size_t)row, c->container, p->container) < 0))
		return -ENOMEM;
	if (span > 0)
		rowset_set_double(rs, (size_t)row, c->cpu,
				  (double)p->task_clock_ns * 100.0 / (double)span);
	rowset_set_int(rs, (size_t)row, c->tc, (int64_t)p->task_clock_ns);
	if (p->task_clock_ns > 0)
		rowset_set_double(rs, (size_t)row, c->periodic,
				  sampling_mode_share(p->periodic_ns, p->task_clock_ns));
	rowset_set_int(rs, (size_t)row, c->cs, (int64_t)p->context_switches);
	if (w->model != NULL && fill_model_cells(rs, (size_t)row, w, p, c) < 0)
		return -ENOMEM;
	if (c->uid >= 0 && p->uid >= 0)
		rowset_set_int(rs, (size_t)row, c->uid, p->uid);
	if (c->start >= 0)
		rowset_set_int(rs, (size_t)row, c->start, (int64_t)p->start_ns);
	return 0;
}

void top_rows_list_columns(const struct rowset *rs, char *buf, size_t len)
{
	size_t used = 0, i;

	buf[0] = '\0';
	for (i = 0; i < rs->n_cols && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", rs->cols[i].name);

		if (n > 0)
			used += (size_t)n;
	}
}

static bool kept(const struct window_proc *p, const struct top_filter *f)
{
	if (!f->include_idle && !pid_is_real(p->pid))
		return false;
	if (f->uid >= 0 && p->uid != f->uid)
		return false;
	if (f->comm != NULL && !top_rows_name_matches(f->comm, p->comm))
		return false;
	if (f->unit != NULL && (p->unit == NULL || !top_rows_name_matches(f->unit, p->unit)))
		return false;
	return true;
}

bool top_rows_name_matches(const char *pattern, const char *name)
{
	/* the name itself first: a comm with '[' or '*' in it matches itself */
	return strcmp(pattern, name) == 0 || fnmatch(pattern, name, 0) == 0;
}

static int cmp_text(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

/* Namespace, then pod, then container, as deep as by goes. */
static int cmp_k8s(const struct window_proc *a, const struct window_proc *b, enum top_by by)
{
	int d = cmp_text(a->namespace_, b->namespace_);

	if (d == 0 && by != TOP_BY_NAMESPACE)
		d = cmp_text(a->pod, b->pod);
	if (d == 0 && by == TOP_BY_CONTAINER)
		d = cmp_text(a->container, b->container);
	return d;
}

static int cmp_by_key(const void *x, const void *y, void *arg)
{
	const struct window_proc *a = *(const struct window_proc *const *)x;
	const struct window_proc *b = *(const struct window_proc *const *)y;

	switch (*(const enum top_by *)arg) {
	case TOP_BY_COMM:
		return strcmp(a->comm, b->comm);
	case TOP_BY_UNIT:
		return cmp_text(a->unit, b->unit);
	case TOP_BY_USER:
		return (a->uid > b->uid) - (a->uid < b->uid);
	case TOP_BY_NAMESPACE:
	case TOP_BY_POD:
	case TOP_BY_CONTAINER:
		return cmp_k8s(a, b, *(const enum top_by *)arg);
	case TOP_BY_PROCESS:
		break;
	}
	return 0;
}

static void add_into(struct window_proc *sum, struct sums_acc *acc, const struct model *m,
		     const struct window_proc *p)
{
	sum->task_clock_ns += p->task_clock_ns;
	sum->periodic_ns += p->periodic_ns;
	sum->context_switches += p->context_switches;
	if (m != NULL)
		sums_acc_add(acc, m, p->sums);
}

/* Sort the kept processes by the key, then sum each run of equal keys. */
static int build_groups(const struct window *w, const struct top_filter *f, enum top_by by,
			struct rowset *rs, const struct top_columns *cols, struct user_memo *memo)
{
	const struct window_proc **kept_procs = calloc(w->n_procs + 1, sizeof(*kept_procs));
	struct sums_acc *acc = malloc(sizeof(*acc));
	size_t n = 0, i, j;
	int r = 0;

	if (kept_procs == NULL || acc == NULL) {
		free(kept_procs);
		free(acc);
		return -ENOMEM;
	}
	for (i = 0; i < w->n_procs; i++)
		if (kept(&w->procs[i], f))
			kept_procs[n++] = &w->procs[i];
	qsort_r(kept_procs, n, sizeof(*kept_procs), cmp_by_key, &by);
	for (i = 0; r == 0 && i < n; i = j) {
		struct group_sums sums[MODEL_MAX_GROUPS];
		struct window_proc sum;

		memset(&sum, 0, sizeof(sum));
		memset(sums, 0, sizeof(sums));
		sum.sums = sums;
		snprintf(sum.comm, sizeof(sum.comm), "%s", kept_procs[i]->comm);
		sum.unit = kept_procs[i]->unit;
		sum.namespace_ = kept_procs[i]->namespace_;
		sum.pod = kept_procs[i]->pod;
		sum.container = kept_procs[i]->container;
		sum.uid = kept_procs[i]->uid;
		memset(acc, 0, sizeof(*acc));
		for (j = i; j < n && cmp_by_key(&kept_procs[i], &kept_procs[j], &by) == 0; j++)
			add_into(&sum, acc, w->model, kept_procs[j]);
		if (w->model != NULL)
			sums_acc_finish(acc, w->model, sum.sums);
		r = fill_row(rs, w, &sum, j - i, cols, memo);
	}
	free(kept_procs);
	free(acc);
	return r;
}

int top_rows_build(const struct window *w, const struct top_filter *f, enum top_by by,
		   struct rowset *rs)
{
	struct user_memo memo = { .n = 0 };
	struct top_columns cols;
	size_t i;
	int r;

	memset(&cols, -1, sizeof(cols));
	r = build_columns(rs, w->model, by, &cols);
	if (r == 0 && by != TOP_BY_PROCESS)
		return build_groups(w, f, by, rs, &cols, &memo) < 0 ? -ENOMEM : 0;
	for (i = 0; r == 0 && i < w->n_procs; i++)
		if (kept(&w->procs[i], f))
			r = fill_row(rs, w, &w->procs[i], 1, &cols, &memo);
	return r < 0 ? -ENOMEM : 0;
}

/* What rank_processes ranks: the processes of w, or only those f keeps
 * (f NULL: all of them, for an order kept for every filter). */
struct rank_ask {
	const struct window *w;
	const struct top_filter *f;
};

/* The processes of the ask (arg) in the order of column col
 * (top_rank_fn): each row filled as top_rows_build fills it, one at a
 * time, so the order is the one rowset_sort gives those rows. */
static int rank_processes(const void *arg, int col, struct top_rank_entry **out, size_t *n)
{
	const struct rank_ask *ask = arg;
	const struct window *w = ask->w;
	struct user_memo memo = { .n = 0 };
	struct top_rank_entry *e = calloc(w->n_procs + 1, sizeof(*e)), *x;
	struct top_columns cols;
	struct rowset scratch;
	size_t i, k = 0;
	int r;

	rowset_init(&scratch);
	memset(&cols, -1, sizeof(cols));
	r = e == NULL ? -ENOMEM : build_columns(&scratch, w->model, TOP_BY_PROCESS, &cols);
	if (r == 0 && (col < 0 || (size_t)col >= scratch.n_cols))
		r = -EINVAL;
	for (i = 0; r == 0 && i < w->n_procs; i++) {
		if (ask->f != NULL && !kept(&w->procs[i], ask->f))
			continue;
		rowset_clear_rows(&scratch);
		r = fill_row(&scratch, w, &w->procs[i], 1, &cols, &memo);
		if (r < 0)
			break;
		x = &e[k++];
		x->key = scratch.cells[col];
		x->proc = i;
		if (x->key.type == RS_TEXT && (x->key.s = strdup(x->key.s)) == NULL)
			r = -ENOMEM;
	}
	rowset_done(&scratch);
	if (r < 0) {
		top_rank_entries_free(e, k);
		return r;
	}
	qsort(e, k, sizeof(*e), top_rank_entry_compare);
	*out = e;
	*n = k;
	return 0;
}

int top_rows_build_first(const struct window *w, const struct top_filter *f, const char *sort,
			 size_t limit, struct rowset *rs, int *sort_col, size_t *kept_total)
{
	struct user_memo memo = { .n = 0 };
	const struct top_rank_entry *order = NULL;
	struct top_columns cols;
	struct rank_ask ask;
	size_t n = 0, i;
	bool owned = false;
	int r;

	*kept_total = 0;
	memset(&cols, -1, sizeof(cols));
	r = build_columns(rs, w->model, TOP_BY_PROCESS, &cols);
	if (r < 0)
		return -ENOMEM;
	*sort_col = sort != NULL ? top_rows_find_sort(rs, sort) :
		    rowset_find_column(rs, top_rows_default_sort(rs));
	if (*sort_col < 0)
		return -ENOENT;
	/* kept with the window: every process's order; else the kept ones' */
	ask.w = w;
	ask.f = w->ranks != NULL ? NULL : f;
	r = top_ranks_get(w->ranks, *sort_col, rank_processes, &ask, &order, &n, &owned);
	for (i = 0; r == 0 && i < n; i++) {
		const struct window_proc *p = &w->procs[order[i].proc];

		if (!kept(p, f))
			continue;
		if (limit == 0 || *kept_total < limit)
			r = fill_row(rs, w, p, 1, &cols, &memo);
		(*kept_total)++;
	}
	if (owned)
		top_rank_entries_free(order, n);
	return r < 0 ? -ENOMEM : 0;
}

const char *top_rows_sort_column(const char *name)
{
	static const struct { const char *alias, *column; } aliases[] = {
		{ "cpu", "task_clock_ns" }, { "frontend", "frontend_bound_slots" },
		{ "backend", "backend_bound_slots" }, { "bad_speculation", "bad_speculation_slots" },
		{ "badspec", "bad_speculation_slots" }, { "retiring", "retiring_slots" },
		{ "flops", "gflops" },
	};
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcasecmp(name, aliases[i].alias) == 0)
			return aliases[i].column;
	return name;
}

int top_rows_find_sort(const struct rowset *rs, const char *name)
{
	const char *column = top_rows_sort_column(name);
	int col = rowset_find_column(rs, column);
	size_t i;

	/* then as people write it: any case, the API name or the table title */
	for (i = 0; col < 0 && i < rs->n_cols; i++)
		if (strcasecmp(rs->cols[i].name, name) == 0 ||
		    strcasecmp(rs->cols[i].title, name) == 0)
			col = (int)i;
	return col;
}

const char *top_rows_default_sort(const struct rowset *rs)
{
	return rowset_find_column(rs, "frontend_bound_slots") >= 0 ? "frontend_bound_slots" :
	       "task_clock_ns";
}
