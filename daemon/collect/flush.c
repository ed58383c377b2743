/*
 * flush.c - see flush.h.
 */
#include "daemon/collect/flush.h"
#include "lib/clock.h"
#include "lib/pids.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How long the main thread waits for a worker's cut.  Workers run under
 * SCHED_OTHER (worker_thread.c says why): a wake-up on a busy CPU comes a few
 * milliseconds late at worst (make bench), so missing this means the CPU
 * is wedged or starved; its data then arrives with the next flush. */
#define FLUSH_WAIT_NS (500 * NS_PER_MSEC)
/* Exited processes stay known this long for their trailing samples. */
#define FLUSH_KEEP_EXITED_NS (10ULL * NS_PER_SEC)

int flush_init(struct flusher *f, struct collector *col, struct worker *workers,
	       size_t n_workers, struct proctab *pt, uint64_t start_ns)
{
	int r;

	memset(f, 0, sizeof(*f));
	f->col = col;
	f->workers = workers;
	f->n_workers = n_workers;
	f->pt = pt;
	f->last_end_ns = start_ns;
	r = u64map_init(&f->row_index, 1024);
	if (r < 0)
		return r;
	r = u64map_init(&f->proc_index, 512);
	if (r < 0) {
		u64map_done(&f->row_index);
		return r;
	}
	return 0;
}

void flush_done(struct flusher *f)
{
	while (f->extra != NULL) {
		struct handover *h = f->extra;

		f->extra = h->next;
		handover_free(h);
	}
	u64map_done(&f->row_index);
	u64map_done(&f->proc_index);
	free(f->gens);
	memset(f, 0, sizeof(*f));
}

void flush_rebind(struct flusher *f, struct collector *col, struct worker *workers,
		  size_t n_workers)
{
	f->col = col;
	f->workers = workers;
	f->n_workers = n_workers;
}

static int proc_of(struct flusher *f, struct interval_data *iv, struct proc_gen *g,
		   uint32_t *ret)
{
	int64_t idx = u64map_get(&f->proc_index, (uint64_t)(uintptr_t)g);

	if (idx >= 0) {
		*ret = (uint32_t)idx;
		return 0;
	}
	if (iv->n_procs == iv->cap_procs) {
		size_t cap = iv->cap_procs ? iv->cap_procs * 2 : 64;
		struct iv_proc *more = realloc(iv->procs, cap * sizeof(*more));

		if (more == NULL)
			return -ENOMEM;
		iv->procs = more;
		iv->cap_procs = cap;
	}
	if (iv->n_procs >= f->cap_gens) {
		size_t cap = f->cap_gens ? f->cap_gens * 2 : 64;
		struct proc_gen **more = realloc(f->gens, cap * sizeof(*more));

		if (more == NULL)
			return -ENOMEM;
		f->gens = more;
		f->cap_gens = cap;
	}
	if (u64map_put(&f->proc_index, (uint64_t)(uintptr_t)g, (uint32_t)iv->n_procs) < 0)
		return -ENOMEM;
	memset(&iv->procs[iv->n_procs], 0, sizeof(iv->procs[0]));
	f->gens[iv->n_procs] = g;
	*ret = (uint32_t)iv->n_procs++;
	return 0;
}

static struct iv_row *row_of(struct flusher *f, struct interval_data *iv, uint32_t proc,
			     unsigned group)
{
	uint64_t key = ((uint64_t)proc << 16) | group;
	int64_t idx = u64map_get(&f->row_index, key);
	struct iv_row *row;

	if (idx >= 0)
		return &iv->rows[idx];
	if (iv->n_rows == iv->cap_rows) {
		size_t cap = iv->cap_rows ? iv->cap_rows * 2 : 256;
		struct iv_row *more = realloc(iv->rows, cap * sizeof(*more));

		if (more == NULL)
			return NULL;
		iv->rows = more;
		iv->cap_rows = cap;
	}
	if (u64map_put(&f->row_index, key, (uint32_t)iv->n_rows) < 0)
		return NULL;
	row = &iv->rows[iv->n_rows++];
	memset(row, 0, sizeof(*row));
	row->proc = proc;
	row->group = (uint16_t)group;
	return row;
}

/* A CPU's health counts into the interval's, each as its field combines. */
static void add_stats(struct iv_stats *sum, const struct handover *h)
{
	if (h->st.max_cpu_switch_rate > sum->max_cpu_switch_rate || sum->busiest_cpu < 0)
		sum->busiest_cpu = h->cpu;
#define ADD_FIELD(name, combine, ...) \
	sum->name = HEALTH_COMBINE_##combine(sum->name, h->st.name);
	HEALTH_FIELDS(ADD_FIELD)
#undef ADD_FIELD
}

int flush_add_handover(struct flusher *f, struct interval_data *iv, const struct handover *h)
{
	const struct collector *col = f->col;
	size_t i;
	unsigned g;

	for (i = 0; i < h->acc.n; i++) {
		const struct acc_entry *e = &h->acc.entries[i];
		const struct attrib_layout *lay;
		struct proc_gen *gen;
		struct iv_row *row;
		uint32_t proc;
		unsigned k;
		int r;

		if (e->group >= col->n_groups)
			continue;
		lay = &col->layout[e->group];
		if (e->pid == PID_UNATTRIBUTED) {
			gen = &f->pt->unattributed;
		} else {
			r = proctab_resolve(f->pt, e->pid, e->first_ns, e->last_ns, &gen);
			if (r == -EAGAIN) {
				iv->st.straddles++;
				gen = &f->pt->unattributed;
			} else if (r < 0) {
				return r;
			}
		}
		gen->last_charged = f->seq;
		r = proc_of(f, iv, gen, &proc);
		if (r < 0)
			return r;
		row = row_of(f, iv, proc, e->group);
		if (row == NULL)
			return -ENOMEM;
		row->task_clock_ns += e->time_ns;
		row->periodic_ns += e->periodic_ns;
		row->context_switches += e->d[lay->switches_idx];
		for (k = 0; k < lay->n_model; k++)
			row->v[k] += e->d[lay->model_idx[k]];
	}
	for (g = 0; g < col->n_groups; g++) {
		iv->enabled_ns[g] += h->enabled_ns[g];
		iv->unschedulable[g] += h->unschedulable[g];
	}
	add_stats(&iv->st, h);
	return 0;
}

static int life_cmp(const void *a, const void *b)
{
	const struct life_rec *x = *(const struct life_rec *const *)a;
	const struct life_rec *y = *(const struct life_rec *const *)b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* Same instant: a fork precedes anything else about the new task. */
	return (int)x->type - (int)y->type;
}

int flush_apply_life(struct flusher *f, struct handover *const *hs, size_t n)
{
	const struct life_rec **all;
	size_t total = 0, k = 0, i, j;
	int r = 0;

	for (i = 0; i < n; i++)
		total += hs[i]->n_life;
	if (total == 0)
		return 0;
	all = malloc(total * sizeof(*all));
	if (all == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		for (j = 0; j < hs[i]->n_life; j++)
			all[k++] = &hs[i]->life[j];
	qsort(all, total, sizeof(*all), life_cmp);
	for (i = 0; i < total && r == 0; i++) {
		const struct life_rec *lr = all[i];

		switch (lr->type) {
		case LIFE_FORK:
			r = proctab_fork(f->pt, lr->pid, lr->ppid, lr->time);
			break;
		case LIFE_EXIT:
			proctab_exit(f->pt, lr->pid, lr->time);
			break;
		case LIFE_COMM:
			proctab_comm(f->pt, lr->pid, lr->time, lr->comm, lr->exec);
			break;
		default:
			break;
		}
	}
	free(all);
	return r;
}

static char *dup_or_null(const char *s)
{
	return s != NULL ? strdup(s) : NULL;
}

int flush_finish(struct flusher *f, struct interval_data *iv)
{
	uint64_t real_minus_mono = clock_ns(CLOCK_REALTIME) - monotonic_ns();
	size_t i;

	for (i = 0; i < iv->n_procs; i++) {
		struct proc_gen *g = f->gens[i];
		struct iv_proc *p = &iv->procs[i];

		proctab_enrich(f->pt, g);
		g->identity_fixed = true;
		p->pid = g->pid;
		p->start_ns = g->start_ns;
		memcpy(p->comm, g->comm, sizeof(p->comm));
		p->uid = g->uid;
		p->cmdline = dup_or_null(g->cmdline);
		p->unit = dup_or_null(g->unit);
		if (g->container != NULL) {
			p->container = malloc(sizeof(*p->container));
			if (p->container == NULL)
				return -ENOMEM;
			*p->container = *g->container;
		}
		if ((g->cmdline != NULL && p->cmdline == NULL) || (g->unit != NULL && p->unit == NULL))
			return -ENOMEM;
		p->exit_ns = g->exited ? g->exit_mono + real_minus_mono : 0;
	}
	return 0;
}

void flush_add_extra(struct flusher *f, struct handover *h)
{
	struct handover **tail = &f->extra;

	while (*tail != NULL)
		tail = &(*tail)->next;
	h->next = NULL;
	*tail = h;
}

/* The processes an extra handover (the side-band of a re-plan's switch)
 * saw start, rename or end, stored whether or not anything charged them:
 * one that ran only while no group counted has no counts, but existed. */
static int add_seen(struct flusher *f, struct interval_data *iv, const struct handover *h)
{
	uint32_t proc;
	size_t j;
	int r;

	for (j = 0; j < h->n_life; j++) {
		const struct life_rec *lr = &h->life[j];
		struct proc_gen *g;

		g = proctab_newest(f->pt, lr->pid);
		while (g != NULL && g->start_mono > lr->time)
			g = g->older;
		if (g == NULL)
			continue;
		r = proc_of(f, iv, g, &proc);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Processes stored before that exited in this interval without being
 * charged in it still need their exit time written. */
static int add_exited(struct flusher *f, struct interval_data *iv, struct handover *const *hs,
		      size_t n)
{
	size_t i, j;
	uint32_t proc;
	int r;

	for (i = 0; i < n; i++) {
		for (j = 0; j < hs[i]->n_life; j++) {
			const struct life_rec *lr = &hs[i]->life[j];
			struct proc_gen *g;

			if (lr->type != LIFE_EXIT)
				continue;
			g = proctab_newest(f->pt, lr->pid);
			while (g != NULL && g->start_mono > lr->time)
				g = g->older;
			if (g == NULL || !g->identity_fixed)
				continue;
			r = proc_of(f, iv, g, &proc);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int flush_run(struct flusher *f, bool final, struct interval_data **ret)
{
	struct interval_data *iv;
	int r = flush_request(f, final, &iv);

	return r < 0 ? r : flush_collect(f, iv, ret);
}

int flush_request(struct flusher *f, bool final, struct interval_data **ret)
{
	struct interval_data *iv;
	size_t i;

	iv = calloc(1, sizeof(*iv));
	if (iv == NULL)
		return -ENOMEM;
	iv->st.busiest_cpu = -1;
	iv->n_groups = f->col->n_groups;
	iv->ncpus = (unsigned)f->n_workers;
	iv->start_ns = f->last_end_ns;
	iv->end_ns = clock_ns(CLOCK_REALTIME);
	f->last_end_ns = iv->end_ns;
	f->seq++;
	u64map_clear(&f->row_index);
	u64map_clear(&f->proc_index);

	for (i = 0; i < f->n_workers; i++)
		worker_request_flush(&f->workers[i], f->seq);
	/* Stopping: each worker makes its last cut, then disables its groups. */
	if (final)
		for (i = 0; i < f->n_workers; i++)
			worker_stop(&f->workers[i]);
	*ret = iv;
	return 0;
}

/* The handovers of one flush, and whose each is: a worker's index, or
 * NO_WORKER for an extra one (flush_add_extra). */
#define NO_WORKER SIZE_MAX
struct taken {
	struct handover **hs;
	size_t *owner_of;
	size_t n, cap;
};

static int take_one(struct taken *t, struct handover *h, size_t owner)
{
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		struct handover **more = realloc(t->hs, ncap * sizeof(*more));
		size_t *more_owner;

		if (more == NULL)
			return -ENOMEM;
		t->hs = more;
		more_owner = realloc(t->owner_of, ncap * sizeof(*more_owner));
		if (more_owner == NULL)
			return -ENOMEM;
		t->owner_of = more_owner;
		t->cap = ncap;
	}
	h->next = NULL;
	t->hs[t->n] = h;
	t->owner_of[t->n++] = owner;
	return 0;
}

/* Every worker's cut (waiting for each until the deadline; a late one
 * counted), then the extra handovers. */
static int take_all(struct flusher *f, struct interval_data *iv, struct taken *t)
{
	uint64_t deadline = monotonic_ns() + FLUSH_WAIT_NS;
	size_t i;
	int r = 0;

	for (i = 0; i < f->n_workers; i++) {
		bool late = false;
		struct handover *h = worker_collect(&f->workers[i], f->seq, deadline, &late);

		if (late)
			iv->st.late_cpus++;
		while (h != NULL) {
			struct handover *next = h->next;

			if (take_one(t, h, i) < 0) {
				r = -ENOMEM;
				handover_free(h);
			}
			h = next;
		}
	}
	while (f->extra != NULL) {
		struct handover *h = f->extra;

		f->extra = h->next;
		if (take_one(t, h, NO_WORKER) < 0) {
			r = -ENOMEM;
			handover_free(h);
		}
	}
	return r;
}

int flush_collect(struct flusher *f, struct interval_data *iv, struct interval_data **ret)
{
	struct taken t = { NULL, NULL, 0, 0 };
	size_t i;
	int r;

	r = take_all(f, iv, &t);
	if (r == 0)
		r = flush_apply_life(f, t.hs, t.n);
	for (i = 0; i < t.n && r == 0; i++)
		r = flush_add_handover(f, iv, t.hs[i]);
	for (i = 0; i < t.n && r == 0; i++)
		if (t.owner_of[i] == NO_WORKER)
			r = add_seen(f, iv, t.hs[i]);
	if (r == 0)
		r = add_exited(f, iv, t.hs, t.n);
	if (r == 0)
		r = flush_finish(f, iv);
	for (i = 0; i < t.n; i++) {
		if (t.owner_of[i] == NO_WORKER)
			handover_free(t.hs[i]);
		else
			worker_recycle(&f->workers[t.owner_of[i]], t.hs[i]);
	}
	free(t.hs);
	free(t.owner_of);
	{
		uint64_t now = monotonic_ns();

		proctab_gc(f->pt, now > FLUSH_KEEP_EXITED_NS ? now - FLUSH_KEEP_EXITED_NS : 0,
			   f->seq > 1 ? f->seq - 1 : 0);
	}
	if (r < 0) {
		interval_free(iv);
		return r;
	}
	*ret = iv;
	return 0;
}
