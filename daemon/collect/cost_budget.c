/*
 * cost_budget.c - see cost_budget.h.
 */
#include "daemon/collect/cost_budget.h"

#include <math.h>

void cost_budget_init(struct cost_budget *m, uint64_t now_ns, uint64_t switches)
{
	*m = (struct cost_budget){ .window_start_ns = now_ns, .window_switches = switches };
}

void cost_budget_rebase(struct cost_budget *m, uint64_t now_ns, uint64_t switches)
{
	m->window_start_ns = now_ns;
	m->window_switches = switches;
}

bool cost_budget_review(struct cost_budget *m, const struct sampling_budget *b,
			  uint64_t now_ns, uint64_t switches)
{
	uint64_t elapsed = now_ns - m->window_start_ns;
	uint64_t n = switches - m->window_switches;

	if (b->max_cost <= 0)
		return m->periodic;
	if (now_ns < m->window_start_ns ||
	    elapsed < (m->periodic ? COST_BUDGET_WINDOW_NS : COST_BUDGET_TICK_MIN_NS))
		return false;
	m->rate = (uint64_t)((unsigned __int128)n * NS_PER_SEC / elapsed);
	m->cost = (double)m->rate * b->cost_ns / (double)NS_PER_SEC;
	m->span_ns = elapsed;
	cost_budget_rebase(m, now_ns, switches);
	if (!m->periodic)
		return m->cost > b->max_cost;
	if (m->cost >= b->max_cost / 2) {
		m->calm = 0;
		return false;
	}
	return ++m->calm >= COST_BUDGET_CALM_WINDOWS;
}

void cost_budget_set(struct cost_budget *m, bool periodic, uint64_t now_ns,
		       uint64_t switches)
{
	m->periodic = periodic;
	m->calm = 0;
	cost_budget_rebase(m, now_ns, switches);
}

uint64_t cost_budget_clock_period(double sample_ns, double max_cost)
{
	double period;

	if (sample_ns <= 0 || max_cost <= 0)
		return COST_BUDGET_FASTEST_CLOCK_NS;
	period = OWN_CLOCK_SAMPLE_FACTOR * sample_ns / (max_cost * COST_BUDGET_CLOCK_SHARE);
	if (period <= (double)COST_BUDGET_FASTEST_CLOCK_NS)
		return COST_BUDGET_FASTEST_CLOCK_NS;
	if (period >= (double)COST_BUDGET_SLOWEST_CLOCK_NS)
		return COST_BUDGET_SLOWEST_CLOCK_NS;
	/* whole microseconds, up: the figure in logs and status reads clean */
	return (uint64_t)ceil(period / 1000.0) * 1000ULL;
}
