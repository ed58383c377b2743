/*
 * sampling_mode.c - see sampling_mode.h.
 */
#include "sampling_mode.h"

void sampling_mode_init(struct sampling_mode *m, uint64_t now_ns, uint64_t switches)
{
	*m = (struct sampling_mode){ .window_start_ns = now_ns, .window_switches = switches };
}

void sampling_mode_rebase(struct sampling_mode *m, uint64_t now_ns, uint64_t switches)
{
	m->window_start_ns = now_ns;
	m->window_switches = switches;
}

bool sampling_mode_review(struct sampling_mode *m, const struct sampling_budget *b,
			  uint64_t now_ns, uint64_t switches)
{
	uint64_t elapsed = now_ns - m->window_start_ns;
	uint64_t n = switches - m->window_switches;

	if (b->max_cost <= 0)
		return m->periodic;
	if (now_ns < m->window_start_ns || elapsed < SAMPLING_MODE_WINDOW_NS)
		return false;
	m->rate = (uint64_t)((unsigned __int128)n * NS_PER_SEC / elapsed);
	m->cost = (double)m->rate * b->cost_ns / (double)NS_PER_SEC;
	sampling_mode_rebase(m, now_ns, switches);
	if (!m->periodic)
		return m->cost > b->max_cost;
	if (m->cost >= b->max_cost / 2) {
		m->calm = 0;
		return false;
	}
	return ++m->calm >= SAMPLING_MODE_CALM_WINDOWS;
}

void sampling_mode_set(struct sampling_mode *m, bool periodic, uint64_t now_ns,
		       uint64_t switches)
{
	m->periodic = periodic;
	m->calm = 0;
	sampling_mode_rebase(m, now_ns, switches);
}
