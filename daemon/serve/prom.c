/*
 * prom.c - see prom.h.
 */
#include "daemon/serve/prom.h"
#include "lib/clock.h"
#include "lib/pids.h"
#include "daemon/base/u64map.h"
#include "lib/utf8.h"
#include "lib/version.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PROM_MAX_PROCS 4096u  /* processes followed at once (for the top-N) */
#define OTHER "[other]"

struct series {
	char key[80];            /* comm or unit; unused for processes */
	char comm[16];
	int32_t pid;
	uint64_t start_ns;       /* processes: with pid, the identity */
	bool exited;
	uint64_t last_tc;        /* CPU time in the newest interval */
	double smooth_tc;        /* processes: CPU time per interval, smoothed: top-N order */
	bool shown;              /* processes: one of the top N printed */
	uint64_t tc, cs;
	uint64_t group_tc[PLAN_MAX_GROUPS];                 /* by plan group */
	uint64_t v[PLAN_MAX_GROUPS][MODEL_MAX_EVENTS];      /* by plan group, stored order */
};

/* A bounded table of series; full tables send new keys to "[other]". */
struct table {
	struct series *s;
	size_t n, cap;
};

struct prom {
	pthread_mutex_t lock;
	const struct model *m;
	struct plan plan;        /* the groups the rows' group index names */
	unsigned max_keys, top_n;
	struct table comms, units, procs;
	struct u64map proc_index;   /* proc_key() -> index in procs */
	struct iv_stats health;  /* since the start, as add_health() adds */
	uint64_t intervals;
	/* CPU time since the start: idle, charged to no process, all */
	uint64_t idle_ns, unattributed_ns, cpu_ns;
	double last_attributed;  /* the newest interval's share of busy CPU */
	double last_periodic;    /* ...and of its CPU time measured periodically */
	uint64_t last_end_ns;    /* its end, CLOCK_REALTIME */
	double cost_ns;          /* per sampled switch; 0: not set */
	bool cost_measured;
	int *mode_cpus;          /* the CPUs, and whether each samples periodically */
	bool *mode_periodic;
	size_t n_modes;
};

int prom_new(const struct model *m, const struct plan *plan, unsigned max_keys, unsigned top_n,
	     struct prom **ret)
{
	struct prom *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return -ENOMEM;
	if (u64map_init(&p->proc_index, 1024) < 0) {
		free(p);
		return -ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	p->m = m;
	if (plan != NULL)
		p->plan = *plan;
	else
		plan_whole(m, &p->plan);
	p->max_keys = max_keys;
	p->top_n = top_n;
	*ret = p;
	return 0;
}

void prom_free(struct prom *p)
{
	if (p == NULL)
		return;
	free(p->comms.s);
	free(p->units.s);
	free(p->procs.s);
	u64map_done(&p->proc_index);
	free(p->mode_cpus);
	free(p->mode_periodic);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

static int grow(struct table *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 64;
	struct series *more;

	if (t->n < t->cap)
		return 0;
	more = realloc(t->s, ncap * sizeof(*more));
	if (more == NULL)
		return -ENOMEM;
	t->s = more;
	t->cap = ncap;
	return 0;
}

/* Index of key's series, added when new; a full table answers with its
 * "[other]" series.  -1 on memory exhaustion.  Linear: at most max_keys
 * names, looked up once per process per interval (prom_add_interval). */
static int64_t find_or_add(struct table *t, const char *key, size_t max)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->s[i].key, key) == 0)
			return (int64_t)i;
	if (t->n >= max && strcmp(key, OTHER) != 0)
		return find_or_add(t, OTHER, max + 1);
	if (grow(t) < 0)
		return -1;
	memset(&t->s[t->n], 0, sizeof(t->s[0]));
	snprintf(t->s[t->n].key, sizeof(t->s[0].key), "%s", key);
	return (int64_t)t->n++;
}

/* A process's identity as one number: pid (< 2^22) and start time in ms
 * since boot (< 2^42, 139 years). */
static uint64_t proc_key(const struct iv_proc *pr)
{
	return (pr->start_ns / 1000000) << 22 | ((uint64_t)pr->pid & 0x3fffff);
}

static int64_t find_or_add_proc(struct prom *p, const struct iv_proc *pr)
{
	uint64_t key = proc_key(pr);
	int64_t i = u64map_get(&p->proc_index, key);
	struct series *s;

	if (i >= 0)
		return i;
	if (p->procs.n >= PROM_MAX_PROCS || grow(&p->procs) < 0 ||
	    u64map_put(&p->proc_index, key, (uint32_t)p->procs.n) < 0)
		return -1;
	s = &p->procs.s[p->procs.n];
	memset(s, 0, sizeof(*s));
	s->pid = pr->pid;
	s->start_ns = pr->start_ns;
	snprintf(s->comm, sizeof(s->comm), "%s", pr->comm);
	return (int64_t)p->procs.n++;
}

static void add_row(struct table *t, int64_t i, const struct iv_row *r)
{
	struct series *s;
	unsigned k;

	if (i < 0)
		return;
	s = &t->s[i];
	s->tc += r->task_clock_ns;
	s->cs += r->context_switches;
	s->last_tc += r->task_clock_ns;
	s->group_tc[r->group] += r->task_clock_ns;
	for (k = 0; k < MODEL_MAX_EVENTS; k++)
		s->v[r->group][k] += r->v[k];
}

/* s's per-group counts moved to the new plan's indices: from[g] is the
 * old index of new group g, or -1. */
static void rekey_series(struct series *s, const int from[PLAN_MAX_GROUPS], unsigned n_groups)
{
	uint64_t tc[PLAN_MAX_GROUPS] = { 0 }, v[PLAN_MAX_GROUPS][MODEL_MAX_EVENTS];
	unsigned g;

	memset(v, 0, sizeof(v));
	for (g = 0; g < n_groups; g++) {
		if (from[g] < 0)
			continue;
		tc[g] = s->group_tc[from[g]];
		memcpy(v[g], s->v[from[g]], sizeof(v[g]));
	}
	memcpy(s->group_tc, tc, sizeof(tc));
	memcpy(s->v, v, sizeof(v));
}

static void rekey_table(struct table *t, const int from[PLAN_MAX_GROUPS], unsigned n_groups)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		rekey_series(&t->s[i], from, n_groups);
}

void prom_replan(struct prom *p, const struct plan *plan)
{
	int from[PLAN_MAX_GROUPS];
	unsigned g;

	pthread_mutex_lock(&p->lock);
	for (g = 0; g < plan->n_groups; g++)
		from[g] = plan_find_group(&p->plan, &plan->groups[g]);
	rekey_table(&p->comms, from, plan->n_groups);
	rekey_table(&p->units, from, plan->n_groups);
	rekey_table(&p->procs, from, plan->n_groups);
	p->plan = *plan;
	pthread_mutex_unlock(&p->lock);
}

/* Processes seen to exit got their last counts in the previous interval;
 * the index is rebuilt for the survivors. */
static void prune_exited(struct prom *p)
{
	struct table *t = &p->procs;
	size_t i, kept = 0;

	for (i = 0; i < t->n; i++)
		if (!t->s[i].exited)
			t->s[kept++] = t->s[i];
	if (kept == t->n)
		return;
	t->n = kept;
	u64map_clear(&p->proc_index);
	for (i = 0; i < t->n; i++) {
		struct iv_proc id = { .pid = t->s[i].pid, .start_ns = t->s[i].start_ns };

		/* cannot fail: the map held more keys before */
		(void)u64map_put(&p->proc_index, proc_key(&id), (uint32_t)i);
	}
}

/* A counter adds the interval's value; a gauge (a field that combines
 * as a max) shows the newest interval's. */
#define PROM_ADD_sum(acc, v) ((acc) + (v))
#define PROM_ADD_max(acc, v) (v)
#define PROM_NOTE_sum ""
#define PROM_NOTE_max " The newest interval's."

static void add_health(struct iv_stats *sum, const struct iv_stats *st)
{
#define ADD_FIELD(name, combine, ...) sum->name = PROM_ADD_##combine(sum->name, st->name);
	HEALTH_FIELDS(ADD_FIELD)
#undef ADD_FIELD
}

/* Smoothing of each process's CPU time per interval, and how much busier a
 * process must be than the least busy one shown to take its place: the
 * printed set of pids changes only when the ranking really does, not every
 * time two processes of similar CPU swap places (a new pid label value is a
 * new series in Prometheus). */
#define TOP_SMOOTH 0.3
#define TOP_SWAP_FACTOR 1.5

static int by_smooth_tc(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;

	return x->smooth_tc < y->smooth_tc ? 1 : x->smooth_tc > y->smooth_tc ? -1 : 0;
}

/* The least busy process shown, or NULL. */
static struct series *least_shown(struct series **ss, size_t n)
{
	struct series *low = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (ss[i]->shown && (low == NULL || ss[i]->smooth_tc < low->smooth_tc))
			low = ss[i];
	return low;
}

/* Which top_n processes /metrics prints: the shown ones stay while no
 * other is TOP_SWAP_FACTOR busier (smoothed); free places go to the busiest. */
static void select_processes(struct prom *p)
{
	struct table *t = &p->procs;
	struct series **ss;
	size_t i, shown = 0;

	for (i = 0; i < t->n; i++) {
		struct series *x = &t->s[i];

		x->smooth_tc = TOP_SMOOTH * (double)x->last_tc + (1 - TOP_SMOOTH) * x->smooth_tc;
		x->shown = x->shown || p->top_n == 0;
		shown += x->shown;
	}
	if (p->top_n == 0 || t->n == 0 || (ss = malloc(t->n * sizeof(*ss))) == NULL)
		return;
	for (i = 0; i < t->n; i++)
		ss[i] = &t->s[i];
	qsort(ss, t->n, sizeof(*ss), by_smooth_tc);
	for (i = 0; i < t->n; i++) {
		struct series *low;

		if (ss[i]->shown)
			continue;
		if (shown < p->top_n) {
			ss[i]->shown = true;
			shown++;
		} else if ((low = least_shown(ss, t->n)) != NULL &&
			   ss[i]->smooth_tc > TOP_SWAP_FACTOR * low->smooth_tc) {
			low->shown = false;
			ss[i]->shown = true;
		} else {
			break;   /* the rest are no busier */
		}
	}
	free(ss);
}

/* Series of one process of the interval, found on its first row. */
struct memo {
	bool known;
	int64_t comm, unit, proc;
};

void prom_add_interval(struct prom *p, const struct interval_data *iv)
{
	struct memo *memo = calloc(iv->n_procs ? iv->n_procs : 1, sizeof(*memo));
	size_t i;

	if (memo == NULL)
		return;   /* this interval is missing from /metrics; the store has it */
	pthread_mutex_lock(&p->lock);
	prune_exited(p);
	for (i = 0; i < p->procs.n; i++)
		p->procs.s[i].last_tc = 0;
	for (i = 0; i < p->comms.n; i++)
		p->comms.s[i].last_tc = 0;
	for (i = 0; i < p->units.n; i++)
		p->units.s[i].last_tc = 0;
	for (i = 0; i < iv->n_rows; i++) {
		const struct iv_row *r = &iv->rows[i];
		const struct iv_proc *pr = &iv->procs[r->proc];
		struct memo *m = &memo[r->proc];

		if (r->group >= p->plan.n_groups)
			continue;
		p->cpu_ns += r->task_clock_ns;
		if (pr->pid == PID_IDLE)
			p->idle_ns += r->task_clock_ns;
		else if (pr->pid == PID_UNATTRIBUTED)
			p->unattributed_ns += r->task_clock_ns;
		if (!pid_is_real(pr->pid)) {
			/* idle, unattributed, excluded: no process or unit, but a
			 * comm series each, so comms add up to the host's CPU time */
			if (!m->known) {
				m->known = true;
				m->comm = find_or_add(&p->comms, pr->comm, p->max_keys);
			}
			add_row(&p->comms, m->comm, r);
			continue;
		}
		if (!m->known) {
			m->known = true;
			m->comm = find_or_add(&p->comms, pr->comm, p->max_keys);
			m->unit = pr->unit != NULL ? find_or_add(&p->units, pr->unit, p->max_keys) : -1;
			m->proc = find_or_add_proc(p, pr);
			if (m->proc >= 0)
				p->procs.s[m->proc].exited = pr->exit_ns != 0;
		}
		add_row(&p->comms, m->comm, r);
		add_row(&p->units, m->unit, r);
		add_row(&p->procs, m->proc, r);
	}
	select_processes(p);
	add_health(&p->health, &iv->st);
	p->intervals++;
	p->last_attributed = interval_attributed_share(iv, false);
	p->last_periodic = interval_periodic_share(iv);
	p->last_end_ns = iv->end_ns;
	pthread_mutex_unlock(&p->lock);
	free(memo);
}

/* A label value as the format asks: valid UTF-8 (a process name may be
 * any bytes: invalid sequences become U+FFFD, lib/utf8.h), with \, " and
 * newline escaped. */
static void label(FILE *f, const char *v)
{
	size_t n;

	while (*v != '\0') {
		if (utf8_decode(v, &n) < 0)
			fputs(UTF8_REPLACEMENT, f);
		else if (*v == '\n')
			fputs("\\n", f);
		else if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else
			fwrite(v, 1, n, f);
		v += n;
	}
}

static void series_labels(FILE *f, const char *kind, const struct series *s)
{
	if (strcmp(kind, "process") == 0) {
		fprintf(f, "pid=\"%" PRId32 "\",comm=\"", s->pid);
		label(f, s->comm);
	} else {
		fprintf(f, "%s=\"", kind);
		label(f, s->key);
	}
	fputc('"', f);
}

/* group="td_l1"; a part of a split family also part="2/3" (each part
 * counts cycles, and any fixed-counter events, of its own turns). */
static void group_labels(const struct prom *p, FILE *f, unsigned g)
{
	const struct plan_group *pg = &p->plan.groups[g];

	fprintf(f, ",group=\"%s\"", p->m->groups[pg->family].name);
	if (pg->n_parts > 1)
		fprintf(f, ",part=\"%u/%u\"", pg->part, pg->n_parts);
}

static void render_family(struct prom *p, FILE *f, const char *kind, struct series *const *ss,
			  size_t n)
{
	const struct model *m = p->m;
	size_t i;
	unsigned g, k;

	fprintf(f, "# HELP stackd_%s_cpu_seconds_total CPU time measured, per %s.\n"
		"# TYPE stackd_%s_cpu_seconds_total counter\n", kind, kind, kind);
	for (i = 0; i < n; i++) {
		fprintf(f, "stackd_%s_cpu_seconds_total{", kind);
		series_labels(f, kind, ss[i]);
		fprintf(f, "} %.9f\n", (double)ss[i]->tc / (double)NS_PER_SEC);
	}
	fprintf(f, "# HELP stackd_%s_context_switches_total Context switches, per %s.\n"
		"# TYPE stackd_%s_context_switches_total counter\n", kind, kind, kind);
	for (i = 0; i < n; i++) {
		fprintf(f, "stackd_%s_context_switches_total{", kind);
		series_labels(f, kind, ss[i]);
		fprintf(f, "} %" PRIu64 "\n", ss[i]->cs);
	}
	fprintf(f, "# HELP stackd_%s_group_seconds_total CPU time each counter group measured "
		"(groups take turns), per %s.\n# TYPE stackd_%s_group_seconds_total counter\n",
		kind, kind, kind);
	for (i = 0; i < n; i++)
		for (g = 0; g < p->plan.n_groups; g++) {
			fprintf(f, "stackd_%s_group_seconds_total{", kind);
			series_labels(f, kind, ss[i]);
			group_labels(p, f, g);
			fprintf(f, "} %.9f\n", (double)ss[i]->group_tc[g] / (double)NS_PER_SEC);
		}
	fprintf(f, "# HELP stackd_%s_events_total Counts of each counter group's events, per "
		"%s.\n# TYPE stackd_%s_events_total counter\n", kind, kind, kind);
	for (i = 0; i < n; i++)
		for (g = 0; g < p->plan.n_groups; g++) {
			const struct plan_group *pg = &p->plan.groups[g];

			for (k = 0; k < pg->n_events; k++) {
				fprintf(f, "stackd_%s_events_total{", kind);
				series_labels(f, kind, ss[i]);
				group_labels(p, f, g);
				fprintf(f, ",event=\"%s\"} %" PRIu64 "\n",
					m->groups[pg->family].events[pg->events[k]].column,
					ss[i]->v[g][k]);
			}
		}
}

static void render_table(struct prom *p, FILE *f, const char *kind, const struct table *t,
			 size_t limit)
{
	struct series **ss;
	size_t i, n = t->n;

	if (n == 0)
		return;
	ss = malloc(n * sizeof(*ss));
	if (ss == NULL)
		return;
	n = 0;
	for (i = 0; i < t->n; i++)
		if (!limit || t->s[i].shown)   /* processes: the top N select_processes() chose */
			ss[n++] = &t->s[i];
	if (limit > 0)
		qsort(ss, n, sizeof(*ss), by_smooth_tc);
	render_family(p, f, kind, ss, n);
	free(ss);
}

static void metric(FILE *f, const char *name, const char *type, const char *help, uint64_t v)
{
	fprintf(f, "# HELP stackd_%s %s\n# TYPE stackd_%s %s\nstackd_%s %" PRIu64 "\n", name,
		help, name, type, name, v);
}

/* A health field: a count as it is; a duration (a field named *_ns) in
 * seconds, Prometheus's base unit (promtool rejects other units). */
static void health_metric(FILE *f, const char *name, const char *type, const char *help,
			  const char *field, uint64_t v)
{
	size_t n = strlen(field);

	if (n < 3 || strcmp(field + n - 3, "_ns") != 0) {
		metric(f, name, type, help, v);
		return;
	}
	fprintf(f, "# HELP stackd_%s %s\n# TYPE stackd_%s %s\nstackd_%s %" PRIu64 ".%09" PRIu64 "\n",
		name, help, name, type, name, (uint64_t)(v / NS_PER_SEC), (uint64_t)(v % NS_PER_SEC));
}

void prom_set_sampling_cost(struct prom *p, double ns_per_switch, bool measured)
{
	pthread_mutex_lock(&p->lock);
	p->cost_ns = ns_per_switch;
	p->cost_measured = measured;
	pthread_mutex_unlock(&p->lock);
}

void prom_set_cpu_modes(struct prom *p, const int *cpus, const bool *periodic, size_t n)
{
	int *c = NULL;
	bool *m = NULL;

	pthread_mutex_lock(&p->lock);
	if (n != p->n_modes) {
		c = calloc(n, sizeof(*c));
		m = calloc(n, sizeof(*m));
		if (n > 0 && (c == NULL || m == NULL)) {
			free(c);
			free(m);
			pthread_mutex_unlock(&p->lock);
			return;
		}
		free(p->mode_cpus);
		free(p->mode_periodic);
		p->mode_cpus = c;
		p->mode_periodic = m;
		p->n_modes = n;
	}
	if (n > 0) {
		memcpy(p->mode_cpus, cpus, n * sizeof(*cpus));
		memcpy(p->mode_periodic, periodic, n * sizeof(*periodic));
	}
	pthread_mutex_unlock(&p->lock);
}

/* Which CPUs sample every switch (exact) and which periodically (the cost
 * budget: statistical), as of the newest flush. */
static void render_cpu_modes(const struct prom *p, FILE *f)
{
	size_t i;

	if (p->n_modes == 0)
		return;
	fprintf(f, "# HELP stackd_cpu_sampling_periodic 1 while the CPU samples periodically "
		"(statistical: sampling every context switch would cost more than "
		"max_sampling_cost), 0 while it samples every switch (exact).\n"
		"# TYPE stackd_cpu_sampling_periodic gauge\n");
	for (i = 0; i < p->n_modes; i++)
		fprintf(f, "stackd_cpu_sampling_periodic{cpu=\"%d\"} %d\n", p->mode_cpus[i],
			p->mode_periodic[i] ? 1 : 0);
}

/* The per-switch sampling cost, for the recording rule that turns the
 * busiest CPU's switch rate into the share of it sampling takes. */
static void render_sampling_cost(const struct prom *p, FILE *f)
{
	if (p->cost_ns <= 0)
		return;
	fprintf(f, "# HELP stackd_sampling_cost_seconds_per_switch What sampling one context "
		"switch costs on this host (%s).\n# TYPE stackd_sampling_cost_seconds_per_switch "
		"gauge\nstackd_sampling_cost_seconds_per_switch %.9f\n",
		p->cost_measured ? "measured at start" : "not measured: the development VM's figure",
		p->cost_ns / (double)NS_PER_SEC);
}

/* The headline share, the CPU time behind it, and how fresh it is. */
static void render_attribution(const struct prom *p, FILE *f)
{
	fprintf(f, "# HELP stackd_attributed_ratio Share of the newest interval's busy CPU time "
		"(idle excluded) charged to a process; below %.2f every figure misses part of "
		"the host's work.\n# TYPE stackd_attributed_ratio gauge\nstackd_attributed_ratio "
		"%.6f\n", ATTRIBUTED_WARN_BELOW, p->intervals > 0 ? p->last_attributed : 1.0);
	fprintf(f, "# HELP stackd_unattributed_cpu_seconds_total CPU time charged to no process "
		"(the [unattributed] row), since stackd started.\n"
		"# TYPE stackd_unattributed_cpu_seconds_total counter\n"
		"stackd_unattributed_cpu_seconds_total %.6f\n",
		(double)p->unattributed_ns / (double)NS_PER_SEC);
	fprintf(f, "# HELP stackd_idle_cpu_seconds_total CPU time of the idle task, since stackd "
		"started.\n# TYPE stackd_idle_cpu_seconds_total counter\n"
		"stackd_idle_cpu_seconds_total %.6f\n", (double)p->idle_ns / (double)NS_PER_SEC);
	fprintf(f, "# HELP stackd_cpu_seconds_total All CPU time stackd measured (every CPU, idle "
		"included), since it started.\n# TYPE stackd_cpu_seconds_total counter\n"
		"stackd_cpu_seconds_total %.6f\n", (double)p->cpu_ns / (double)NS_PER_SEC);
	fprintf(f, "# HELP stackd_last_interval_timestamp_seconds End of the newest interval "
		"(0: none yet); a value that stops moving means stackd stopped collecting.\n"
		"# TYPE stackd_last_interval_timestamp_seconds gauge\n"
		"stackd_last_interval_timestamp_seconds %.3f\n",
		(double)p->last_end_ns / (double)NS_PER_SEC);
}

/* Which mode measured the newest interval: the share of its CPU time
 * sampled periodically (statistical) rather than at every switch (exact);
 * the counter stackd_periodic_mode_cpu_seconds_total (a health field)
 * gives it over any range. */
static void render_sampling_mode(const struct prom *p, FILE *f)
{
	fprintf(f, "# HELP stackd_periodic_share Share of the newest interval's CPU time (all "
		"CPUs) measured in periodic mode (statistical: sampling every switch would have "
		"cost more than max_sampling_cost); 0: every switch sampled (exact).\n"
		"# TYPE stackd_periodic_share gauge\nstackd_periodic_share %.6f\n",
		p->intervals > 0 ? p->last_periodic : 0.0);
}

/* The writer's state now: daemon-level, not summed from intervals. */
static void render_writer(struct writer_status_box *box, FILE *f)
{
	struct writer_status ws;

	writer_status_read(box, &ws);
	metric(f, "store_write_failing", "gauge", "1 while writes to the database fail.",
	       ws.failing_since_ns != 0);
	metric(f, "store_write_errors_total", "counter", "Failed database writes.",
	       ws.write_errors);
	metric(f, "store_pending_intervals", "gauge", "Intervals waiting in memory to be written.",
	       ws.pending);
	metric(f, "store_dropped_intervals_total", "counter",
	       "Intervals dropped unwritten (the database failed for longer than retry_buffer).",
	       ws.dropped);
	metric(f, "store_database_replaced_total", "counter",
	       "Times the database file was found deleted or replaced (and opened anew).",
	       ws.replaced);
	metric(f, "store_replaced_lost_intervals_total", "counter",
	       "Intervals written to a database file that had been deleted or replaced.",
	       ws.lost_in_replaced);
	fprintf(f, "# HELP stackd_store_last_write_timestamp_seconds When an interval was last "
		"written (0: not yet).\n# TYPE stackd_store_last_write_timestamp_seconds gauge\n"
		"stackd_store_last_write_timestamp_seconds %.3f\n",
		(double)ws.last_write_ns / (double)NS_PER_SEC);
}

void prom_render(struct prom *p, struct writer_status_box *writer, bool full, FILE *f)
{
	pthread_mutex_lock(&p->lock);
	fprintf(f, "# HELP stackd_info The running stackd and its model.\n"
		"# TYPE stackd_info gauge\nstackd_info{version=\"%s\",model=\"%s\"} 1\n",
		STACKD_VERSION, p->m->name);
	metric(f, "intervals_total", "counter", "Intervals flushed.", p->intervals);
#define PRINT_FIELD(name, combine, prom, help, ...) \
	health_metric(f, prom, HEALTH_PROM_TYPE_##combine, help PROM_NOTE_##combine, #name, \
		      p->health.name);
	HEALTH_FIELDS(PRINT_FIELD)
#undef PRINT_FIELD
	render_attribution(p, f);
	render_sampling_mode(p, f);
	render_sampling_cost(p, f);
	render_cpu_modes(p, f);
	if (writer != NULL)
		render_writer(writer, f);
	if (full) {
		render_table(p, f, "comm", &p->comms, 0);
		render_table(p, f, "unit", &p->units, 0);
		render_table(p, f, "process", &p->procs, p->top_n);
	}
	pthread_mutex_unlock(&p->lock);
}
