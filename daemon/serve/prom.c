/*
 * prom.c - see prom.h: the state /metrics prints, added to at every flush;
 * the text format of the per-target and host families is prom_render.c,
 * the per-target Top-Down figures prom_keys.c.
 */
#include "daemon/serve/prom_private.h"
#include "daemon/serve/prom_plan.h"
#include "lib/clock.h"
#include "lib/pids.h"
#include "lib/version.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int prom_new(const struct model *m, const struct plan *plan, const struct prom_limits *lim,
	     struct prom **ret)
{
	struct prom *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return -ENOMEM;
	if (u64map_init(&p->proc_index, 1024) < 0) {
		free(p);
		return -ENOMEM;
	}
	p->m = m;
	if (plan != NULL)
		p->plan = *plan;
	else
		plan_whole(m, &p->plan);
	if (prom_figures_init(&p->fig, m, &p->plan) < 0) {
		u64map_done(&p->proc_index);
		free(p);
		return -ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	p->lim = *lim;
	p->comms.top_n = lim->top_comms;
	p->units.top_n = lim->top_units;
	p->containers.top_n = lim->top_units;   /* containers: as many as units */
	p->procs.top_n = lim->top_processes;
	*ret = p;
	return 0;
}

void prom_free(struct prom *p)
{
	if (p == NULL)
		return;
	free(p->comms.s);
	free(p->units.s);
	free(p->containers.s);
	free(p->procs.s);
	u64map_done(&p->proc_index);
	prom_figures_done(&p->fig);
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
 * "[other]" series (always printed).  -1 on memory exhaustion.  Linear:
 * at most max_keys names, looked up once per process per interval. */
static int64_t find_or_add(struct table *t, const char *key, size_t max)
{
	bool other = strcmp(key, PROM_OTHER) == 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->s[i].key, key) == 0)
			return (int64_t)i;
	if (t->n >= max && !other)
		return find_or_add(t, PROM_OTHER, max + 1);
	if (grow(t) < 0)
		return -1;
	memset(&t->s[t->n], 0, sizeof(t->s[0]));
	snprintf(t->s[t->n].key, sizeof(t->s[0].key), "%s", key);
	t->s[t->n].other = other;
	t->s[t->n].shown = other;
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

/* The row into a printed series: its counters and this interval's rows. */
static void add_row(struct series *s, const struct iv_row *r)
{
	unsigned k;

	s->tc += r->task_clock_ns;
	s->cs += r->context_switches;
	s->iv_any = true;
	s->iv_tc[r->group] += r->task_clock_ns;
	s->iv_cs[r->group] += r->context_switches;
	for (k = 0; k < MODEL_MAX_EVENTS; k++)
		s->iv_v[r->group][k] += r->v[k];
}

/* The busy CPUs' counts: every row but the idle task's. */
static void add_host_row(struct host_counts *h, const struct iv_row *r)
{
	unsigned k;

	h->tc[r->group] += r->task_clock_ns;
	h->cs += r->context_switches;
	for (k = 0; k < MODEL_MAX_EVENTS; k++)
		h->v[r->group][k] += r->v[k];
}

/* The host's counts moved to the new plan's indices: from[g] is the old
 * index of new group g, or -1 (a group new to the plan starts at 0). */
static void rekey_host(struct host_counts *h, const int from[PLAN_MAX_GROUPS], unsigned n_groups)
{
	struct host_counts old = *h;
	unsigned g;

	memset(h->tc, 0, sizeof(h->tc));
	memset(h->v, 0, sizeof(h->v));
	for (g = 0; g < n_groups; g++) {
		if (from[g] < 0)
			continue;
		h->tc[g] = old.tc[from[g]];
		memcpy(h->v[g], old.v[from[g]], sizeof(h->v[g]));
	}
}

void prom_replan(struct prom *p, const struct plan *plan)
{
	int from[PLAN_MAX_GROUPS];
	struct prom_figures fig;
	unsigned g;

	/* built before the lock: on failure the old groups' map stays, and
	 * only groups both plans share map (their figures) */
	bool fresh = prom_figures_init(&fig, p->m, plan) == 0;

	pthread_mutex_lock(&p->lock);
	for (g = 0; g < plan->n_groups; g++)
		from[g] = plan_find_group(&p->plan, &plan->groups[g]);
	rekey_host(&p->host, from, plan->n_groups);
	p->plan = *plan;
	if (fresh) {
		prom_figures_done(&p->fig);
		p->fig = fig;
	}
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

/* Smoothing of each target's CPU time per interval, and how much busier a
 * target must be than the least busy one printed to take its place: the
 * printed set changes only when the ranking really does, not every time
 * two targets of similar CPU swap places (a new label value is a new
 * series in Prometheus). */
#define TOP_SMOOTH 0.3
#define TOP_SWAP_FACTOR 1.5

static int by_smooth_tc(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;

	return x->smooth_tc < y->smooth_tc ? 1 : x->smooth_tc > y->smooth_tc ? -1 : 0;
}

/* The least busy target printed, or NULL. */
static struct series *least_shown(struct series **ss, size_t n)
{
	struct series *low = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (ss[i]->shown && (low == NULL || ss[i]->smooth_tc < low->smooth_tc))
			low = ss[i];
	return low;
}

/* A target chosen: its printed counters start at 0 (a new series). */
static void show(struct series *s)
{
	s->shown = true;
	s->tc = s->cs = s->cycles = s->instructions = 0;
	memset(s->td_s, 0, sizeof(s->td_s));
	s->td_measured_s = 0;
}

/* Which top_n targets /metrics prints: the printed ones stay while no
 * other is TOP_SWAP_FACTOR busier (smoothed); free places go to the
 * busiest.  "[other]" is always printed and never ranked. */
static void select_top(struct table *t)
{
	struct series **ss;
	size_t i, n = 0, shown = 0;

	for (i = 0; i < t->n; i++) {
		struct series *x = &t->s[i];

		x->smooth_tc = TOP_SMOOTH * (double)x->last_tc + (1 - TOP_SMOOTH) * x->smooth_tc;
		shown += x->shown && !x->other;
	}
	if (t->top_n == 0 || t->n == 0 || (ss = malloc(t->n * sizeof(*ss))) == NULL)
		return;
	for (i = 0; i < t->n; i++)
		if (!t->s[i].other && t->s[i].smooth_tc > 0)
			ss[n++] = &t->s[i];
	qsort(ss, n, sizeof(*ss), by_smooth_tc);
	for (i = 0; i < n; i++) {
		struct series *low;

		if (ss[i]->shown)
			continue;
		if (shown < t->top_n) {
			show(ss[i]);
			shown++;
		} else if ((low = least_shown(ss, n)) != NULL &&
			   ss[i]->smooth_tc > TOP_SWAP_FACTOR * low->smooth_tc) {
			low->shown = false;
			show(ss[i]);
		} else {
			break;   /* the rest are no busier */
		}
	}
	free(ss);
}

/* A process's series in the container table (prom_k8s.c), or -1. */
static int64_t container_series(struct prom *p, const struct iv_proc *pr)
{
	char key[PROM_KEY_MAX];

	if (!prom_k8s_key(pr, key, sizeof(key)))
		return -1;
	return find_or_add(&p->containers, key, p->lim.max_keys);
}

/* [idle], [unattributed], [excluded]: always printed, never ranked, like
 * "[other]" (the host's busy CPU time is the comms' but [idle]'s). */
static void pin(struct series *s)
{
	if (!s->shown)
		show(s);
	s->other = true;
}

/* Series of one process of the interval, found on its first row. */
struct memo {
	bool known;
	int64_t comm, unit, ctr, proc;
};

/* The series a row of key i counts in: i's when printed, else the
 * table's "[other]" (processes: none, -1). */
static int64_t printed(struct table *t, int64_t i, size_t max, bool fold)
{
	if (i < 0 || t->s[i].shown)
		return i;
	return fold ? find_or_add(t, PROM_OTHER, max + 1) : -1;
}

/* First pass: each row's series (found or added) and its CPU time in
 * this interval, for the ranking. */
static void rank_rows(struct prom *p, const struct interval_data *iv, struct memo *memo)
{
	size_t i;

	for (i = 0; i < iv->n_rows; i++) {
		const struct iv_row *r = &iv->rows[i];
		const struct iv_proc *pr = &iv->procs[r->proc];
		struct memo *m = &memo[r->proc];

		if (r->group >= p->plan.n_groups)
			continue;
		if (!m->known) {
			m->known = true;
			m->comm = find_or_add(&p->comms, pr->comm, p->lim.max_keys);
			m->unit = m->ctr = m->proc = -1;
			/* idle, unattributed, excluded: no process or unit, but a
			 * comm series each, so comms add up to the host's CPU time */
			if (pid_is_real(pr->pid)) {
				m->unit = pr->unit != NULL ?
					find_or_add(&p->units, pr->unit, p->lim.max_keys) : -1;
				m->ctr = container_series(p, pr);
				m->proc = p->lim.top_processes ? find_or_add_proc(p, pr) : -1;
				if (m->proc >= 0)
					p->procs.s[m->proc].exited = pr->exit_ns != 0;
			}
		}
		if (m->comm >= 0 && !pid_is_real(pr->pid))
			pin(&p->comms.s[m->comm]);
		if (m->comm >= 0)
			p->comms.s[m->comm].last_tc += r->task_clock_ns;
		if (m->unit >= 0)
			p->units.s[m->unit].last_tc += r->task_clock_ns;
		if (m->ctr >= 0)
			p->containers.s[m->ctr].last_tc += r->task_clock_ns;
		if (m->proc >= 0)
			p->procs.s[m->proc].last_tc += r->task_clock_ns;
	}
}

/* Second pass, after the ranking: each row into the series printed for
 * it, and the host's. */
static void route_rows(struct prom *p, const struct interval_data *iv, const struct memo *memo)
{
	size_t i;

	for (i = 0; i < iv->n_rows; i++) {
		const struct iv_row *r = &iv->rows[i];
		const struct iv_proc *pr = &iv->procs[r->proc];
		const struct memo *m = &memo[r->proc];
		int64_t c, u, k, q;

		if (r->group >= p->plan.n_groups)
			continue;
		p->cpu_ns += r->task_clock_ns;
		if (pr->pid == PID_IDLE)
			p->idle_ns += r->task_clock_ns;
		else
			add_host_row(&p->host, r);
		if (pr->pid == PID_UNATTRIBUTED)
			p->unattributed_ns += r->task_clock_ns;
		c = printed(&p->comms, m->comm, p->lim.max_keys, true);
		u = printed(&p->units, m->unit, p->lim.max_keys, true);
		k = printed(&p->containers, m->ctr, p->lim.max_keys, true);
		q = printed(&p->procs, m->proc, 0, false);
		if (c >= 0)
			add_row(&p->comms.s[c], r);
		if (u >= 0)
			add_row(&p->units.s[u], r);
		if (k >= 0)
			add_row(&p->containers.s[k], r);
		if (q >= 0)
			add_row(&p->procs.s[q], r);
	}
}

/* Each printed series' interval through the model, then cleared. */
static void figure_table(struct prom *p, struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct series *s = &t->s[i];

		s->last_tc = 0;
		if (!s->iv_any)
			continue;
		prom_figures_add(&p->fig, p->m, p->plan.budget.smt_on, s);
		s->iv_any = false;
		memset(s->iv_tc, 0, sizeof(s->iv_tc));
		memset(s->iv_cs, 0, sizeof(s->iv_cs));
		memset(s->iv_v, 0, sizeof(s->iv_v));
	}
}

void prom_add_interval(struct prom *p, const struct interval_data *iv)
{
	struct memo *memo = calloc(iv->n_procs ? iv->n_procs : 1, sizeof(*memo));

	if (memo == NULL)
		return;   /* this interval is missing from /metrics; the store has it */
	pthread_mutex_lock(&p->lock);
	prune_exited(p);
	rank_rows(p, iv, memo);
	select_top(&p->comms);
	select_top(&p->units);
	select_top(&p->containers);
	select_top(&p->procs);
	route_rows(p, iv, memo);
	figure_table(p, &p->comms);
	figure_table(p, &p->units);
	figure_table(p, &p->containers);
	figure_table(p, &p->procs);
	add_health(&p->health, &iv->st);
	p->intervals++;
	p->last_attributed = interval_attributed_share(iv, false);
	p->last_periodic = interval_periodic_share(iv);
	p->last_end_ns = iv->end_ns;
	pthread_mutex_unlock(&p->lock);
	free(memo);
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
	fprintf(f, "# HELP stackd_info The running stackd and its model (demo=\"1\": stackd "
		"--demo, constructed data, not measured).\n# TYPE stackd_info gauge\n"
		"stackd_info{version=\"%s\",model=\"%s\"%s} 1\n", STACKD_VERSION, p->m->name,
		p->lim.demo ? ",demo=\"1\"" : "");
	metric(f, "intervals_total", "counter", "Intervals flushed.", p->intervals);
#define PRINT_FIELD(name, combine, prom, help, ...) \
	health_metric(f, prom, HEALTH_PROM_TYPE_##combine, help PROM_NOTE_##combine, #name, \
		      p->health.name);
	HEALTH_FIELDS(PRINT_FIELD)
#undef PRINT_FIELD
	prom_render_plan(f, &p->plan);
	render_attribution(p, f);
	render_sampling_mode(p, f);
	render_sampling_cost(p, f);
	if (p->lim.per_cpu)
		render_cpu_modes(p, f);
	if (writer != NULL)
		render_writer(writer, f);
	if (full) {
		prom_render_host(p, f);
		prom_render_table(p, f, "comm", &p->comms);
		prom_render_table(p, f, "unit", &p->units);
		prom_render_table(p, f, "container", &p->containers);
		prom_render_table(p, f, "process", &p->procs);
	}
	pthread_mutex_unlock(&p->lock);
}
