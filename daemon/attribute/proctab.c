/*
 * proctab.c - see proctab.h.
 */
#include "daemon/attribute/proctab.h"
#include "daemon/attribute/procinfo.h"
#include "lib/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t ticks_to_mono(const struct proctab *pt, uint64_t ticks)
{
	int64_t boot = (int64_t)(ticks * pt->tick_ns);
	int64_t mono = boot - pt->boot_minus_mono_ns;

	return mono > 0 ? (uint64_t)mono : 0;
}

static uint64_t mono_to_start_ns(const struct proctab *pt, uint64_t mono)
{
	int64_t boot = (int64_t)mono + pt->boot_minus_mono_ns;

	if (boot < 0)
		boot = 0;
	return (uint64_t)boot / pt->tick_ns * pt->tick_ns;
}

static void gen_init_special(struct proc_gen *g, int32_t pid, const char *comm)
{
	memset(g, 0, sizeof(*g));
	g->pid = pid;
	g->uid = -1;
	g->enriched = true;
	strncpy(g->comm, comm, sizeof(g->comm) - 1);
}

int proctab_init(struct proctab *pt, const char *proc_root, uint64_t tick_ns,
		 int64_t boot_minus_mono_ns)
{
	memset(pt, 0, sizeof(*pt));
	pt->proc_root = proc_root;
	pt->tick_ns = tick_ns ? tick_ns : 10 * NS_PER_MSEC;
	pt->boot_minus_mono_ns = boot_minus_mono_ns;
	gen_init_special(&pt->idle, PID_IDLE, PID_IDLE_COMM);
	pt->idle.uid = 0;
	gen_init_special(&pt->unattributed, PID_UNATTRIBUTED, PID_UNATTRIBUTED_COMM);
	return u64map_init(&pt->by_pid, 1024);
}

int proctab_set_pods_dir(struct proctab *pt, const char *pods_dir)
{
	podnames_free(pt->podnames);
	pt->podnames = NULL;
	return podnames_new(pods_dir, &pt->podnames);
}

static void gen_free(struct proc_gen *g)
{
	free(g->cmdline);
	free(g->unit);
	free(g->container);
	free(g);
}

static struct container *container_dup(const struct container *c)
{
	struct container *copy = c != NULL ? malloc(sizeof(*copy)) : NULL;

	if (copy != NULL)
		*copy = *c;
	return copy;
}

void proctab_done(struct proctab *pt)
{
	size_t i;

	for (i = 0; i < pt->n_heads; i++) {
		struct proc_gen *g = pt->heads[i];

		while (g != NULL) {
			struct proc_gen *older = g->older;

			gen_free(g);
			g = older;
		}
	}
	free(pt->heads);
	podnames_free(pt->podnames);
	u64map_done(&pt->by_pid);
	memset(pt, 0, sizeof(*pt));
}

static struct proc_gen **head_slot(struct proctab *pt, int32_t pid, bool create)
{
	int64_t idx = u64map_get(&pt->by_pid, (uint64_t)(uint32_t)pid);

	if (idx >= 0)
		return &pt->heads[idx];
	if (!create)
		return NULL;
	if (pt->n_heads == pt->cap_heads) {
		size_t cap = pt->cap_heads ? pt->cap_heads * 2 : 1024;
		struct proc_gen **more = realloc(pt->heads, cap * sizeof(*more));

		if (more == NULL)
			return NULL;
		pt->heads = more;
		pt->cap_heads = cap;
	}
	if (u64map_put(&pt->by_pid, (uint64_t)(uint32_t)pid, (uint32_t)pt->n_heads) < 0)
		return NULL;
	pt->heads[pt->n_heads] = NULL;
	pt->empty_heads++;
	return &pt->heads[pt->n_heads++];
}

struct proc_gen *proctab_newest(struct proctab *pt, int32_t pid)
{
	struct proc_gen **slot = head_slot(pt, pid, false);

	return slot != NULL ? *slot : NULL;
}

/* Newest generation of pid started at or before t, or NULL. */
static struct proc_gen *gen_at(struct proctab *pt, int32_t pid, uint64_t t,
			       struct proc_gen **ret_newer)
{
	struct proc_gen *g = proctab_newest(pt, pid), *newer = NULL;

	while (g != NULL && g->start_mono > t) {
		newer = g;
		g = g->older;
	}
	if (ret_newer != NULL)
		*ret_newer = newer;
	return g;
}

static struct proc_gen *gen_push(struct proctab *pt, int32_t pid, uint64_t start_mono,
				 uint64_t start_ns)
{
	struct proc_gen **slot = head_slot(pt, pid, true);
	struct proc_gen *g;

	if (slot == NULL)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (g == NULL)
		return NULL;
	g->pid = pid;
	g->start_mono = start_mono;
	g->start_ns = start_ns;
	g->uid = -1;
	if (*slot == NULL)
		pt->empty_heads--;
	/* Keep the chain sorted newest first even if a start arrives late. */
	while (*slot != NULL && (*slot)->start_mono > start_mono)
		slot = &(*slot)->older;
	g->older = *slot;
	*slot = g;
	pt->n_gens++;
	return g;
}

int proctab_add_existing(struct proctab *pt, int32_t pid, uint64_t start_ticks,
			 const char *comm)
{
	uint64_t start_ns = start_ticks * pt->tick_ns;
	struct proc_gen *g = proctab_newest(pt, pid);

	if (g != NULL && g->start_ns + pt->tick_ns >= start_ns && start_ns + pt->tick_ns >= g->start_ns)
		return 0;   /* already known from its FORK record */
	g = gen_push(pt, pid, ticks_to_mono(pt, start_ticks), start_ns);
	if (g == NULL)
		return -ENOMEM;
	strncpy(g->comm, comm, sizeof(g->comm) - 1);
	return 0;
}

int proctab_scan(struct proctab *pt)
{
	pid_t *pids = NULL;
	size_t n = 0, i;
	int r;

	r = procinfo_list_pids(pt->proc_root, &pids, &n);
	if (r < 0)
		return r;
	for (i = 0; i < n; i++) {
		uint64_t ticks;
		char comm[16];

		if (procinfo_read_stat(pt->proc_root, pids[i], &ticks, comm) < 0)
			continue;   /* exited meanwhile */
		r = proctab_add_existing(pt, pids[i], ticks, comm);
		if (r < 0)
			break;
	}
	free(pids);
	return r < 0 ? r : 0;
}

/* A child starts as a copy of its parent: name, user and cgroup (so its
 * systemd unit).  A short-lived child is gone before a flush reads /proc
 * for it; it keeps these instead of showing no user (and so staying
 * invisible to its own user).  /proc, when the child is still there,
 * overrides them (a setuid exec, a move to another cgroup).  The parent is
 * read once, now, while it most likely still runs. */
static void inherit(struct proctab *pt, struct proc_gen *g, struct proc_gen *parent)
{
	memcpy(g->comm, parent->comm, sizeof(g->comm));
	if (!parent->enriched && parent->pid > 0)
		proctab_enrich(pt, parent);
	g->uid = parent->uid;
	g->unit = parent->unit != NULL ? strdup(parent->unit) : NULL;   /* NULL: unknown */
	g->container = container_dup(parent->container);
}

int proctab_fork(struct proctab *pt, int32_t pid, int32_t ppid, uint64_t t)
{
	struct proc_gen *prev = proctab_newest(pt, pid);
	struct proc_gen *parent = gen_at(pt, ppid, t, NULL);
	uint64_t start_ns = mono_to_start_ns(pt, t);
	struct proc_gen *g;

	if (prev != NULL && !prev->exited && prev->start_ns + pt->tick_ns >= start_ns &&
	    start_ns + pt->tick_ns >= prev->start_ns) {
		/* The /proc scan at start already saw this very process (it
		 * forked between the side-band event's start and the scan). */
		return 0;
	}
	if (prev != NULL && !prev->exited && prev->start_mono <= t) {
		/* Its EXIT was lost: the pid cannot be reused before it ended. */
		prev->exited = true;
		prev->exit_mono = t;
	}
	g = gen_push(pt, pid, t, start_ns);
	if (g == NULL)
		return -ENOMEM;
	if (parent != NULL)
		inherit(pt, g, parent);
	return 0;
}

void proctab_exit(struct proctab *pt, int32_t pid, uint64_t t)
{
	struct proc_gen *g = gen_at(pt, pid, t, NULL);

	if (g != NULL && !g->exited) {
		g->exited = true;
		g->exit_mono = t;
	}
}

void proctab_comm(struct proctab *pt, int32_t pid, uint64_t t, const char *comm, bool exec)
{
	struct proc_gen *g = gen_at(pt, pid, t, NULL);

	if (g == NULL)
		return;
	strncpy(g->comm, comm, sizeof(g->comm) - 1);
	g->comm[sizeof(g->comm) - 1] = '\0';
	if (exec)
		g->enriched = false;   /* new program: read its command line again */
}

/* A pid nobody announced (its FORK was lost, or it started before the
 * side-band event and after the scan).  /proc tells its start if it still
 * runs; otherwise its start is unknown and first is the best bound. */
static struct proc_gen *probe_unknown(struct proctab *pt, int32_t pid, uint64_t first)
{
	uint64_t ticks;
	char comm[16];
	struct proc_gen *g;

	if (procinfo_read_stat(pt->proc_root, pid, &ticks, comm) == 0 &&
	    ticks_to_mono(pt, ticks) <= first) {
		g = gen_push(pt, pid, ticks_to_mono(pt, ticks), ticks * pt->tick_ns);
		if (g != NULL)
			memcpy(g->comm, comm, sizeof(comm));
		return g;
	}
	g = gen_push(pt, pid, first, mono_to_start_ns(pt, first));
	if (g != NULL) {
		strncpy(g->comm, "?", sizeof(g->comm) - 1);
		g->enriched = true;   /* whatever /proc has now is someone else */
	}
	return g;
}

int proctab_resolve(struct proctab *pt, int32_t pid, uint64_t first, uint64_t last,
		    struct proc_gen **ret)
{
	struct proc_gen *g, *newer;

	if (pid == PID_IDLE) {
		*ret = &pt->idle;
		return 0;
	}
	g = gen_at(pt, pid, first, &newer);
	if (g == NULL) {
		g = probe_unknown(pt, pid, first);
		if (g == NULL)
			return -ENOMEM;
		newer = NULL;
	}
	if (newer != NULL && newer->start_mono <= last)
		return -EAGAIN;
	*ret = g;
	return 0;
}

void proctab_enrich(struct proctab *pt, struct proc_gen *g)
{
	struct procinfo info;
	uint64_t start_ns;

	if (g->enriched)
		return;
	g->enriched = true;
	if (procinfo_read(pt->proc_root, g->pid, &info) < 0)
		return;   /* gone: keep what the records said */
	start_ns = info.start_ticks * pt->tick_ns;
	/* Same process only if /proc's start is within a tick of ours (a FORK
	 * record's time and the kernel's start time can straddle a tick). */
	if (start_ns + pt->tick_ns < g->start_ns || g->start_ns + pt->tick_ns < start_ns) {
		procinfo_done(&info);
		return;
	}
	if (!g->identity_fixed)
		g->start_ns = start_ns;
	memcpy(g->comm, info.comm, sizeof(g->comm));
	g->uid = info.uid;
	free(g->cmdline);
	free(g->unit);
	free(g->container);
	g->cmdline = info.cmdline;
	g->unit = info.unit;
	g->container = info.container;
	if (g->container != NULL)
		podnames_resolve(pt->podnames, g->container);
}

static void rebuild_index(struct proctab *pt)
{
	size_t i, kept = 0;

	u64map_clear(&pt->by_pid);
	for (i = 0; i < pt->n_heads; i++) {
		if (pt->heads[i] == NULL)
			continue;
		pt->heads[kept] = pt->heads[i];
		/* Cannot fail: the map held at least as many keys before. */
		(void)u64map_put(&pt->by_pid, (uint64_t)(uint32_t)pt->heads[kept]->pid,
				 (uint32_t)kept);
		kept++;
	}
	pt->n_heads = kept;
	pt->empty_heads = 0;
}

void proctab_gc(struct proctab *pt, uint64_t horizon, uint64_t keep_from)
{
	size_t i;

	for (i = 0; i < pt->n_heads; i++) {
		struct proc_gen **link = &pt->heads[i];
		bool had = *link != NULL;

		while (*link != NULL) {
			struct proc_gen *g = *link;

			if (g->exited && g->exit_mono < horizon && g->last_charged < keep_from) {
				*link = g->older;
				gen_free(g);
				pt->n_gens--;
			} else {
				link = &g->older;
			}
		}
		if (had && pt->heads[i] == NULL)
			pt->empty_heads++;
	}
	if (pt->empty_heads > 1024 && pt->empty_heads * 2 > pt->n_heads)
		rebuild_index(pt);
}
