/*
 * cpuacc.c - see cpuacc.h.
 */
#include "daemon/attribute/cpuacc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t entry_key(int32_t pid, unsigned group)
{
	return ((uint64_t)(uint32_t)pid << 16) | (group & 0xffff);
}

int cpuacc_init(struct cpuacc *a)
{
	int r;

	memset(a, 0, sizeof(*a));
	r = u64map_init(&a->index, 256);
	if (r < 0)
		return r;
	r = u64map_init(&a->exits, 16);
	if (r < 0) {
		u64map_done(&a->index);
		return r;
	}
	return 0;
}

void cpuacc_done(struct cpuacc *a)
{
	free(a->entries);
	free(a->exit_ns);
	u64map_done(&a->index);
	u64map_done(&a->exits);
	memset(a, 0, sizeof(*a));
}

void cpuacc_reset(struct cpuacc *a)
{
	a->n = 0;
	a->n_exits = 0;
	u64map_clear(&a->index);
	u64map_clear(&a->exits);
}

static struct acc_entry *new_entry(struct cpuacc *a, int32_t pid, unsigned group, uint64_t t)
{
	struct acc_entry *e;

	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		struct acc_entry *more = realloc(a->entries, cap * sizeof(*more));

		if (more == NULL)
			return NULL;
		a->entries = more;
		a->cap = cap;
	}
	if (u64map_put(&a->index, entry_key(pid, group), (uint32_t)a->n) < 0)
		return NULL;
	e = &a->entries[a->n++];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->group = (uint16_t)group;
	e->first_ns = t;
	e->last_ns = t;
	return e;
}

/* Whether pid's leader is known to have exited at a time in [from, to):
 * on this CPU (its mark) or on another (the shared log). */
static bool exit_between(struct cpuacc *a, int32_t pid, uint64_t from, uint64_t to)
{
	int64_t mark = u64map_get(&a->exits, (uint64_t)(uint32_t)pid);

	if (mark >= 0 && from <= a->exit_ns[mark] && a->exit_ns[mark] < to)
		return true;
	return a->shared != NULL && exitlog_between(a->shared, pid, from, to);
}

int cpuacc_add(struct cpuacc *a, int32_t pid, unsigned group, uint64_t t, uint64_t time_ns,
	       bool periodic, const uint64_t *d, unsigned n)
{
	struct acc_entry *e = NULL;
	int64_t idx;
	unsigned i;

	idx = u64map_get(&a->index, entry_key(pid, group));
	if (idx >= 0) {
		uint64_t from;

		e = &a->entries[idx];
		/* The cut at an exit (cpuacc.h): an exit after this entry
		 * began and before this delta, or one shortly before it began. */
		from = e->first_ns > CPUACC_EXIT_TAIL_NS ? e->first_ns - CPUACC_EXIT_TAIL_NS : 0;
		if (exit_between(a, pid, from, t))
			e = NULL;
	}
	if (e == NULL) {
		e = new_entry(a, pid, group, t);
		if (e == NULL)
			return -ENOMEM;
	}
	if (n > ACC_MAX_MEMBERS)
		n = ACC_MAX_MEMBERS;
	e->time_ns += time_ns;
	if (periodic)
		e->periodic_ns += time_ns;
	for (i = 0; i < n; i++)
		e->d[i] += d[i];
	if (n > e->n)
		e->n = (uint16_t)n;
	if (t < e->first_ns)
		e->first_ns = t;
	if (t > e->last_ns)
		e->last_ns = t;
	return 0;
}

int cpuacc_mark_exit(struct cpuacc *a, int32_t pid, uint64_t t)
{
	int64_t mark = u64map_get(&a->exits, (uint64_t)(uint32_t)pid);

	if (mark >= 0) {
		a->exit_ns[mark] = t;
		return 0;
	}
	if (a->n_exits == a->cap_exits) {
		size_t cap = a->cap_exits ? a->cap_exits * 2 : 64;
		uint64_t *more = realloc(a->exit_ns, cap * sizeof(*more));

		if (more == NULL)
			return -ENOMEM;
		a->exit_ns = more;
		a->cap_exits = cap;
	}
	if (u64map_put(&a->exits, (uint64_t)(uint32_t)pid, (uint32_t)a->n_exits) < 0)
		return -ENOMEM;
	a->exit_ns[a->n_exits++] = t;
	return 0;
}
