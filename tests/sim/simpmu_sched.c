/*
 * simpmu_sched.c - put a CPU's enabled events on its counters, as the
 * kernel does after every change (perf_event_enable -> ctx_resched).
 *
 * The CPU's event list is kept in the kernel's order: the NMI watchdog,
 * the other user if it holds its counters, our ACTIVE groups, then the
 * group being added (group_sched_in: one transaction, checked as a whole
 * by x86_schedule_events at commit).  Each try runs the kernel's
 * assignment on the whole list (simpmu_kernel.c: the fast path keeping
 * every event's previous counter, else the greedy pass by constraint
 * weight, lowest counter first), so an event already counting may move
 * to another counter but never loses its place to a newcomer.  Order, per
 * rescheduling of a CPU:
 *   1. the NMI watchdog, the other user if it holds its counters, and our
 *      ACTIVE groups: these stay;
 *   2. the other user, if it waits for its counters;
 *   3. each enabled group not yet counting (fd order): it goes ACTIVE if
 *      it fits beside the above; a pinned one goes to ERROR
 *      (kernel/events/core.c, merge_sched_in), a flexible one waits.
 * Where the kernel put each of our events is then held to perf's JSON
 * ("Counter"): a general counter the JSON does not list is a violation
 * (the kernel would count there what the hardware does not).
 */
#include "simpmu_int.h"

#include <string.h>

#define MAX_ITEMS 64   /* no PMU has more counters than bits in the mask */

/* A CPU's event list: each entry's constraint, and where its counter is
 * kept between schedulings (hw.idx). */
struct klist {
	struct simpmu_kslot s[MAX_ITEMS];
	int *idx[MAX_ITEMS];
	unsigned n;
};

static bool add_slot(struct klist *l, const struct simpmu_need *need, int *idx)
{
	if (l->n == MAX_ITEMS)
		return false;
	l->s[l->n] = (struct simpmu_kslot){ need->kmask, need->kweight, need->pair,
					    idx != NULL ? *idx : -1, -1 };
	l->idx[l->n++] = idx;
	return true;
}

static bool needs_counter(enum simpmu_kind k)
{
	return k == SIMPMU_COUNTER || k == SIMPMU_SLOTS || k == SIMPMU_METRIC;
}

static bool add_group(struct klist *l, struct sim_event *const *evs, unsigned n, bool keep)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (needs_counter(evs[i]->need.kind) &&
		    !add_slot(l, &evs[i]->need, keep ? &evs[i]->hw_idx : NULL))
			return false;
	return true;
}

static bool add_reserve(const struct simpmu *sim, struct sim_cpu *c, struct klist *l)
{
	struct simpmu_need any = { .kmask = (1ULL << sim->n_gp) - 1, .kweight = sim->n_gp };
	unsigned i;

	for (i = 0; i < 32; i++) {
		struct simpmu_need one = { .kmask = 1ULL << i, .kweight = 1 };

		if (c->reserve_mask != 0 && (c->reserve_mask & (1U << i)) &&
		    !add_slot(l, &one, &c->reserve_idx[i]))
			return false;
		if (c->reserve_mask == 0 && i < c->reserve_k &&
		    !add_slot(l, &any, &c->reserve_idx[i]))
			return false;
	}
	return true;
}

static bool list_fits(const struct simpmu *sim, struct klist *l)
{
	return simpmu_kernel_assign(l->s, l->n, sim->n_gp);
}

/* The assignment becomes every event's counter (x86_pmu_enable). */
static void list_commit(struct klist *l)
{
	unsigned i;

	for (i = 0; i < l->n; i++) {
		l->s[i].prev = l->s[i].assign;
		if (l->idx[i] != NULL)
			*l->idx[i] = l->s[i].assign;
	}
}

bool simpmu_group_fits(const struct simpmu *sim, struct sim_event *const *evs, unsigned n)
{
	struct klist l = { .n = 0 };

	/* validate_group: the group alone on an empty (fake) PMU */
	return add_group(&l, evs, n, false) && list_fits(sim, &l);
}

/* Our events' counters against perf's JSON masks. */
static void check_placement(struct simpmu *sim, const struct sim_event *leader)
{
	unsigned i;

	for (i = 0; i < leader->n_members; i++) {
		const struct sim_event *e = leader->members[i];

		if (e->need.kind == SIMPMU_COUNTER && e->hw_idx >= 0 && e->hw_idx < 32 &&
		    !(e->need.mask & (1ULL << e->hw_idx)))
			simpmu_violation(sim, "event config 0x%llx on general counter %d, which "
					 "perf's JSON does not list (counters 0x%llx)",
					 (unsigned long long)e->key.config, e->hw_idx,
					 (unsigned long long)e->need.mask);
	}
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

static void collect_base(struct simpmu *sim, int cpu, struct klist *l)
{
	struct sim_cpu *c = &sim->cpus[cpu];
	size_t i;

	l->n = 0;
	if (sim->p.nmi_watchdog)
		(void)add_slot(l, &sim->wd_need, &c->wd_idx);
	if (c->reserve_held)
		(void)add_reserve(sim, c, l);
	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (e != NULL && e->cpu == cpu && e->leader == e && e->state == SIMPMU_ACTIVE)
			(void)add_group(l, e->members, e->n_members, true);
	}
}

void simpmu_sched(struct simpmu *sim, int cpu)
{
	struct sim_cpu *c = &sim->cpus[cpu];
	struct klist base, tryme;
	size_t i;

	collect_base(sim, cpu, &base);
	if ((c->reserve_k > 0 || c->reserve_mask != 0) && !c->reserve_held) {
		tryme = base;
		if (add_reserve(sim, c, &tryme) && list_fits(sim, &tryme)) {
			list_commit(&tryme);
			c->reserve_held = true;
			base = tryme;
		}
	}
	for (i = 0; i < sim->n_ev; i++) {
		struct sim_event *e = sim->ev[i];

		if (e == NULL || e->cpu != cpu || e->leader != e || e->state != SIMPMU_INACTIVE)
			continue;
		tryme = base;
		if (add_group(&tryme, e->members, e->n_members, true) && list_fits(sim, &tryme)) {
			list_commit(&tryme);
			simpmu_set_state(sim, e, SIMPMU_ACTIVE);
			check_placement(sim, e);
			base = tryme;
		} else if (e->attr.pinned) {
			simpmu_set_state(sim, e, SIMPMU_ERROR);
		}
	}
}
