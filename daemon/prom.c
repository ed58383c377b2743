/*
 * prom.c - see prom.h.
 */
#include "prom.h"
#include "lib/version.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PROM_MAX_PROCS 4096   /* processes followed at once (for the top-N) */
#define OTHER "[other]"

struct series {
	char key[80];            /* comm, unit, or "pid/start_ns" */
	char comm[16];
	int32_t pid;
	bool exited;
	uint64_t last_tc;        /* CPU time in the newest interval: top-N order */
	uint64_t tc, cs;
	uint64_t group_tc[MODEL_MAX_GROUPS];
	uint64_t v[MODEL_MAX_GROUPS][MODEL_MAX_EVENTS];
};

/* A bounded table of series; full tables send new keys to "[other]". */
struct table {
	struct series *s;
	size_t n, cap;
};

struct prom {
	pthread_mutex_t lock;
	const struct model *m;
	unsigned max_keys, top_n;
	struct table comms, units, procs;
	struct iv_stats health;  /* summed, except the max rate */
	uint64_t intervals;
};

int prom_new(const struct model *m, unsigned max_keys, unsigned top_n, struct prom **ret)
{
	struct prom *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return -ENOMEM;
	pthread_mutex_init(&p->lock, NULL);
	p->m = m;
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
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* Linear search: the tables hold at most a few thousand keys and this runs
 * once per stored row, in the flush thread, off the sampling path. */
static struct series *find_or_add(struct table *t, const char *key, size_t max)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->s[i].key, key) == 0)
			return &t->s[i];
	if (t->n >= max) {
		if (strcmp(key, OTHER) == 0)
			return NULL;
		return find_or_add(t, OTHER, max + 1);
	}
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		struct series *more = realloc(t->s, ncap * sizeof(*more));

		if (more == NULL)
			return NULL;
		t->s = more;
		t->cap = ncap;
	}
	memset(&t->s[t->n], 0, sizeof(t->s[0]));
	snprintf(t->s[t->n].key, sizeof(t->s[0].key), "%s", key);
	return &t->s[t->n++];
}

static void add_row(struct series *s, const struct iv_row *r)
{
	unsigned k;

	if (s == NULL)
		return;
	s->tc += r->task_clock_ns;
	s->cs += r->context_switches;
	s->last_tc += r->task_clock_ns;
	s->group_tc[r->group] += r->task_clock_ns;
	for (k = 0; k < MODEL_MAX_EVENTS; k++)
		s->v[r->group][k] += r->v[k];
}

/* Processes seen to exit got their last counts in the previous interval. */
static void prune_exited(struct table *t)
{
	size_t i, kept = 0;

	for (i = 0; i < t->n; i++)
		if (!t->s[i].exited)
			t->s[kept++] = t->s[i];
	t->n = kept;
}

static void add_health(struct iv_stats *sum, const struct iv_stats *st)
{
	sum->samples += st->samples;
	sum->lost_records += st->lost_records;
	sum->lost_samples += st->lost_samples;
	sum->throttles += st->throttles;
	sum->unsampled_switches += st->unsampled_switches;
	sum->unattributed_spans += st->unattributed_spans;
	sum->dropped += st->dropped;
	sum->rotations += st->rotations;
	sum->unschedulable += st->unschedulable;
}

void prom_add_interval(struct prom *p, const struct interval_data *iv)
{
	size_t i;

	pthread_mutex_lock(&p->lock);
	prune_exited(&p->procs);
	for (i = 0; i < p->procs.n; i++)
		p->procs.s[i].last_tc = 0;
	for (i = 0; i < p->comms.n; i++)
		p->comms.s[i].last_tc = 0;
	for (i = 0; i < p->units.n; i++)
		p->units.s[i].last_tc = 0;
	for (i = 0; i < iv->n_rows; i++) {
		const struct iv_row *r = &iv->rows[i];
		const struct iv_proc *pr = &iv->procs[r->proc];
		struct series *s;
		char key[80];

		if (r->group >= MODEL_MAX_GROUPS || pr->pid <= 0)
			continue;   /* idle and unattributed time are not a process */
		add_row(find_or_add(&p->comms, pr->comm, p->max_keys), r);
		if (pr->unit != NULL)
			add_row(find_or_add(&p->units, pr->unit, p->max_keys), r);
		snprintf(key, sizeof(key), "%" PRId32 "/%" PRIu64, pr->pid, pr->start_ns);
		s = find_or_add(&p->procs, key, PROM_MAX_PROCS);
		if (s != NULL && strcmp(s->key, OTHER) != 0) {
			s->pid = pr->pid;
			snprintf(s->comm, sizeof(s->comm), "%s", pr->comm);
			s->exited = pr->exit_ns != 0;
			add_row(s, r);
		}
	}
	add_health(&p->health, &iv->st);
	p->intervals++;
	pthread_mutex_unlock(&p->lock);
}

/* A label value with \, " and newline escaped, as the format asks. */
static void label(FILE *f, const char *v)
{
	for (; *v != '\0'; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*v, f);
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
		fprintf(f, "} %.9f\n", (double)ss[i]->tc / 1e9);
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
		for (g = 0; g < m->n_groups; g++) {
			fprintf(f, "stackd_%s_group_seconds_total{", kind);
			series_labels(f, kind, ss[i]);
			fprintf(f, ",group=\"%s\"} %.9f\n", m->groups[g].name,
				(double)ss[i]->group_tc[g] / 1e9);
		}
	fprintf(f, "# HELP stackd_%s_events_total Counts of each counter group's events, per "
		"%s.\n# TYPE stackd_%s_events_total counter\n", kind, kind, kind);
	for (i = 0; i < n; i++)
		for (g = 0; g < m->n_groups; g++)
			for (k = 0; k < m->groups[g].n_events; k++) {
				fprintf(f, "stackd_%s_events_total{", kind);
				series_labels(f, kind, ss[i]);
				fprintf(f, ",group=\"%s\",event=\"%s\"} %" PRIu64 "\n",
					m->groups[g].name, m->groups[g].events[k].column,
					ss[i]->v[g][k]);
			}
}

static int by_last_tc(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;

	return x->last_tc < y->last_tc ? 1 : x->last_tc > y->last_tc ? -1 : 0;
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
	for (i = 0; i < n; i++)
		ss[i] = &t->s[i];
	if (limit > 0 && n > limit) {
		qsort(ss, n, sizeof(*ss), by_last_tc);
		n = limit;
	}
	render_family(p, f, kind, ss, n);
	free(ss);
}

static void counter(FILE *f, const char *name, const char *help, uint64_t v)
{
	fprintf(f, "# HELP stackd_%s %s\n# TYPE stackd_%s counter\nstackd_%s %" PRIu64 "\n", name,
		help, name, name, v);
}

void prom_render(struct prom *p, bool full, FILE *f)
{
	pthread_mutex_lock(&p->lock);
	fprintf(f, "# HELP stackd_info The running stackd and its model.\n"
		"# TYPE stackd_info gauge\nstackd_info{version=\"%s\",model=\"%s\"} 1\n",
		STACKD_VERSION, p->m->name);
	counter(f, "intervals_total", "Intervals flushed.", p->intervals);
	counter(f, "samples_total", "Context-switch samples read.", p->health.samples);
	counter(f, "lost_records_total", "Ring-buffer records the kernel dropped.",
		p->health.lost_records);
	counter(f, "lost_samples_total", "Samples the kernel dropped.", p->health.lost_samples);
	counter(f, "throttles_total", "Times the kernel throttled sampling.", p->health.throttles);
	counter(f, "unattributed_spans_total", "Counter spans no process could be charged with.",
		p->health.unattributed_spans);
	counter(f, "dropped_total", "Deltas lost to memory exhaustion.", p->health.dropped);
	counter(f, "unschedulable_total", "Group reads that found a group unschedulable.",
		p->health.unschedulable);
	if (full) {
		render_table(p, f, "comm", &p->comms, 0);
		render_table(p, f, "unit", &p->units, 0);
		render_table(p, f, "process", &p->procs, p->top_n);
	}
	pthread_mutex_unlock(&p->lock);
}
