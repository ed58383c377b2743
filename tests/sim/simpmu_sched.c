/*
 * simpmu_sched.c - put a CPU's enabled events on its counters, as the
 * kernel does after every change (perf_event_enable -> ctx_resched).
 *
 * Every event that needs a counter is matched to one its mask allows
 * (bipartite matching: like x86_schedule_events(), an event already counting
 * may move to another counter, but never loses its place to a newcomer).
 * Order, per rescheduling of a CPU:
 *   1. the NMI watchdog, the other user if it holds its counters, and our
 *      ACTIVE groups: these stay;
 *   2. the other user, if it waits for its counters;
 *   3. each enabled group not yet counting (fd order): it goes ACTIVE if
 *      it fits beside the above; a pinned one goes to ERROR
 *      (kernel/events/core.c, merge_sched_in), a flexible one waits.
 */
#include "simpmu_int.h"

#include <string.h>

#define MAX_ITEMS 64   /* no PMU has more counters than bits in the mask */

struct matching {
	uint64_t mask[MAX_ITEMS];
	unsigned n;
};

static bool augment(const struct matching *m, unsigned i, int owner[64], uint64_t *seen)
{
	unsigned c;

	for (c = 0; c < 64; c++) {
		uint64_t bit = 1ULL << c;

		if (!(m->mask[i] & bit) || (*seen & bit))
			continue;
		*seen |= bit;
		if (owner[c] < 0 || augment(m, (unsigned)owner[c], owner, seen)) {
			owner[c] = (int)i;
			return true;
		}
	}
	return false;
}

static bool matching_fits(const struct matching *m)
{
	int owner[64];
	unsigned i;

	for (i = 0; i < 64; i++)
		owner[i] = -1;
	for (i = 0; i < m->n; i++) {
		uint64_t seen = 0;

		if (!augment(m, i, owner, &seen))
			return false;
	}
	return true;
}

static bool add_mask(struct matching *m, uint64_t mask)
{
	if (m->n == MAX_ITEMS)
		return false;
	m->mask[m->n++] = mask;
	return true;
}

static bool add_group(struct matching *m, struct sim_event *const *evs, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		enum simpmu_kind k = evs[i]->need.kind;

		if ((k == SIMPMU_COUNTER || k == SIMPMU_SLOTS) && !add_mask(m, evs[i]->need.mask))
			return false;
	}
	return true;
}

static bool add_reserve(const struct simpmu *sim, const struct sim_cpu *c, struct matching *m)
{
	unsigned i;

	if (c->reserve_mask != 0) {
		for (i = 0; i < 32; i++)
			if ((c->reserve_mask & (1U << i)) && !add_mask(m, 1ULL << i))
				return false;
		return true;
	}
	for (i = 0; i < c->reserve_k; i++)
		if (!add_mask(m, (1ULL << sim->n_gp) - 1))
			return false;
	return true;
}

bool simpmu_group_fits(const struct simpmu *sim, struct sim_event *const *evs, unsigned n)
{
	struct matching m = { .n = 0 };

	(void)sim;
	return add_group(&m, evs, n) && matching_fits(&m);
}

void simpmu_times_update(struct simpmu *sim, struct sim_event *leader)
{
	uint64_t d = sim->now_ns - leader->t_stamp;

	if (leader->state >= SIMPMU_INACTIVE)
		leader->t_enabled += d;
	if (leader->state == SIMPMU_ACTIVE)
		leader->t_running += d;
	leader->t_stamp = sim->now_ns;
}

static bool has_slots(const struct sim_event *leader)
{
	unsigned i;

	for (i = 0; i < leader->n_members; i++)
		if (leader->members[i]->need.kind == SIMPMU_SLOTS)
			return true;
	return false;
}

void simpmu_set_state(struct simpmu *sim, struct sim_event *leader, enum simpmu_state st)
{
	simpmu_times_update(sim, leader);
	if (leader->state == SIMPMU_ACTIVE && st != SIMPMU_ACTIVE) {
		unsigned i;

		/* What it counted until now is its own (x86_pmu_stop drains it). */
		simpmu_topdown_update(sim, leader->cpu);
		for (i = 0; i < leader->n_members; i++)
			simpmu_fold(leader->members[i]);
	}
	if (leader->state != SIMPMU_ACTIVE && st == SIMPMU_ACTIVE && has_slots(leader)) {
		/* icl_set_topdown_event_period: slots and PERF_METRICS start at 0. */
		struct sim_cpu *c = &sim->cpus[leader->cpu];

		c->td_slots = 0;
		memset(c->td_metric, 0, sizeof(c->td_metric));
	}
	leader->state = st;
}

static void collect_base(struct simpmu *sim, int cpu, struct matching *m)
{
	const struct sim_cpu *c = &sim->cpus[cpu];
	size_t i;

	m->n = 0;
	if (sim->p.nmi_watchdog)
		(void)add_mask(m, simpmu_hw_watchdog_mask(sim->arch, sim->n_gp));
	if (c->reserve_held)
		(void)add_reserve(sim, c, m);
	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (e != NULL && e->cpu == cpu && e->leader == e && e->state == SIMPMU_ACTIVE)
			(void)add_group(m, e->members, e->n_members);
	}
}

void simpmu_sched(struct simpmu *sim, int cpu)
{
	struct sim_cpu *c = &sim->cpus[cpu];
	struct matching base, tryme;
	size_t i;

	collect_base(sim, cpu, &base);
	if ((c->reserve_k > 0 || c->reserve_mask != 0) && !c->reserve_held) {
		tryme = base;
		if (add_reserve(sim, c, &tryme) && matching_fits(&tryme)) {
			c->reserve_held = true;
			base = tryme;
		}
	}
	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (e == NULL || e->cpu != cpu || e->leader != e || e->state != SIMPMU_INACTIVE)
			continue;
		tryme = base;
		if (add_group(&tryme, e->members, e->n_members) && matching_fits(&tryme)) {
			simpmu_set_state(sim, e, SIMPMU_ACTIVE);
			base = tryme;
		} else if (e->attr.pinned) {
			simpmu_set_state(sim, e, SIMPMU_ERROR);
		}
	}
}
