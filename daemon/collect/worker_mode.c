/*
 * worker_mode.c - a CPU's sampling mode under the cost budget
 * (cost_budget.h): per-switch (exact) or periodic (statistical).  Reviewed
 * before each rotation, changed at one with every group disabled, and
 * said in the log; in periodic mode, each group's turn gets a clock period
 * drawn afresh.
 */
#include "daemon/collect/worker_private.h"
#include "daemon/base/log.h"
#include "lib/clock.h"

#include <string.h>

static uint64_t clock_period(const struct worker *w)
{
	uint64_t p = __atomic_load_n(&w->clock_period_ns, __ATOMIC_RELAXED);

	return p != 0 ? p : COLLECTOR_PERIODIC_NS;
}

/* In periodic mode each turn of a group samples at a period drawn afresh,
 * uniform in [A/2, 3A/2) with A = P ln 3 (P = clock_period(), the mean
 * period asked for), from the enable on.  A fixed period keeps its phase
 * to the scheduler's tick (1, 4 or 10 ms: whole multiples of 1 ms) and to
 * the rotation (100 ms) for seconds, and a task whose runs follow the tick
 * is then sampled at the same point of them every time: measured on the
 * development VM, a spinner beside a ping-pong came out 4.8 % low in one
 * run and 2.7 % high in the next, where the binomial error of the samples
 * was 1.3 %.  Each sample charges its actual delta, so a varying period
 * biases nothing.  Why A and not P: a turn of length T holds about T/d
 * samples, and the mean of 1/d over [A/2, 3A/2) is ln 3 / A, so drawing
 * around P itself would sample 1.099 times as often as asked (and cost
 * that much more than stated); around P ln 3 the rate is 1/P. */
#define PERIOD_SPREAD_LN3 1.0986122886681098

void worker_draw_period(struct worker *w, unsigned g)
{
	uint64_t a = (uint64_t)((double)clock_period(w) * PERIOD_SPREAD_LN3);
	uint64_t r;

	w->period_rng = w->period_rng * 6364136223846793005ULL + 1442695040888963407ULL;
	r = (w->period_rng >> 33) % a;
	(void)collector_set_clock_period(w->col, w->ev, g, a / 2 + r);
}

/* The cost budget as the main thread set it last. */
static struct sampling_budget budget_of(const struct worker *w)
{
	return (struct sampling_budget){
		(double)__atomic_load_n(&w->budget_ppm, __ATOMIC_RELAXED) / 1e6,
		(double)__atomic_load_n(&w->cost_ps, __ATOMIC_RELAXED) / 1e3,
	};
}

/* At a rotation, before it: whether this CPU's mode should change there. */
void worker_review_mode(struct worker *w, uint64_t now)
{
	struct sampling_budget b = budget_of(w);

	if (w->periodic_failed)
		return;
	worker_drain(w, WORKER_DRAIN_ALL);   /* the switches counted up to now */
	if (cost_budget_review(&w->mode, &b, now, w->at.switches_counted))
		w->mode_change = true;
}

/* Going periodic: what periodic mode itself costs this CPU at the rate that
 * sent it there - the clock samples, and the switch counting it keeps (the
 * budget needs the rate to see it fall; counting costs every per-CPU
 * switch counter the same, perf stat -e context-switches alike) - and,
 * where that is over the budget too, says so. */
static void log_periodic_cost(const struct worker *w, const struct sampling_budget *b)
{
	double sample_ns = (double)__atomic_load_n(&w->clock_sample_ps, __ATOMIC_RELAXED) / 1e3;
	double count_ns = (double)__atomic_load_n(&w->switch_count_ps, __ATOMIC_RELAXED) / 1e3;
	double hz = (double)NS_PER_SEC / (double)clock_period(w);
	double counting = periodic_cost_fraction(w->mode.rate, count_ns, 0, 0);
	double clock = periodic_cost_fraction(0, 0, hz, sample_ns);

	if (sample_ns <= 0 && count_ns <= 0)
		return;   /* not measured: nothing true to add */
	if (counting + clock > b->max_cost)
		log_warning("cpu %d: periodic sampling itself still costs about %.2f%% of it, over "
			    "max_sampling_cost %.2f%%: counting its %llu switches/s (%.0f ns each, "
			    "as any per-CPU switch counter does) %.2f%%, %.0f Hz of clock samples "
			    "(about %.1f us each) %.2f%%", w->ev->cpu, 100.0 * (counting + clock),
			    100.0 * b->max_cost, (unsigned long long)w->mode.rate, count_ns,
			    100.0 * counting, hz, OWN_CLOCK_SAMPLE_FACTOR * sample_ns / 1e3,
			    100.0 * clock);
	else
		log_info("cpu %d: periodic sampling costs about %.2f%% of it: counting its "
			 "switches %.2f%%, %.0f Hz of clock samples %.2f%%", w->ev->cpu,
			 100.0 * (counting + clock), 100.0 * counting, hz, 100.0 * clock);
}

static void log_mode_change(const struct worker *w, bool on)
{
	struct sampling_budget b = budget_of(w);

	if (on) {
		log_info("cpu %d: sampling every context switch costs %.2f%% of it (%llu "
			 "switches/s over the last %.0f ms x %.0f ns), over max_sampling_cost "
			 "%.2f%%: periodic sampling (%.0f Hz, statistical) from now", w->ev->cpu,
			 100.0 * w->mode.cost, (unsigned long long)w->mode.rate,
			 (double)w->mode.span_ns / NS_PER_MSEC, b.cost_ns, 100.0 * b.max_cost,
			 (double)NS_PER_SEC / (double)clock_period(w));
		log_periodic_cost(w, &b);
	} else if (b.max_cost <= 0) {
		log_info("cpu %d: max_sampling_cost off: sampling every context switch (exact) "
			 "again", w->ev->cpu);
	} else {
		log_info("cpu %d: sampling every context switch would cost %.2f%% of it (%llu "
			 "switches/s x %.0f ns), under half of max_sampling_cost %.2f%% for %d "
			 "windows of %.0f s: sampling every switch (exact) again", w->ev->cpu,
			 100.0 * w->mode.cost, (unsigned long long)w->mode.rate, b.cost_ns,
			 100.0 * b.max_cost, COST_BUDGET_CALM_WINDOWS,
			 (double)COST_BUDGET_WINDOW_NS / NS_PER_SEC);
	}
}

/* Leaving periodic mode: the tails the groups other than skip (whose
 * samples are still in the ring: rotate settles it after them) left for
 * their next clock sample are settled now, before any of them runs. */
void worker_settle_tails(struct worker *w, uint64_t t, unsigned skip)
{
	uint64_t values[ACC_MAX_MEMBERS];
	unsigned g;
	int nv;

	for (g = 0; g < w->col->n_groups; g++) {
		if (g == skip || !w->at.turn_periodic[g])
			continue;
		nv = collector_read_group(w->col, w->ev, g, values, ACC_MAX_MEMBERS);
		if (nv > 0)
			attrib_remainder(&w->at, g, t, values, (unsigned)nv);
	}
}

/* Every group of the CPU is disabled (at a rotation, at time t): the CPU
 * changes mode.  skip: the group just disabled (n_groups: none). */
void worker_change_mode(struct worker *w, uint64_t t, unsigned skip)
{
	bool on = !w->mode.periodic;
	int r;

	w->mode_change = false;
	r = collector_set_periodic(w->col, w->ev, on);
	if (r < 0 && on) {
		w->periodic_failed = true;
		log_warning("cpu %d: cannot set a sampling period (%s): sampling every context "
			    "switch whatever it costs", w->ev->cpu, strerror(-r));
		return;
	}
	if (r < 0) {   /* still periodic; the next calm review tries again */
		log_warning("cpu %d: cannot go back to sampling every switch (%s): periodic "
			    "sampling goes on", w->ev->cpu, strerror(-r));
		return;
	}
	log_mode_change(w, on);
	attrib_set_periodic(&w->at, on);
	if (on) {
		w->periodic_since = t;
		if (w->switch_records)
			(void)worker_set_switch_records(w, false);
	} else {
		w->at.st.periodic_ns += t - w->periodic_since;
		worker_settle_tails(w, t, skip);
	}
	cost_budget_set(&w->mode, on, t, w->at.switches_counted);
	__atomic_store_n(&w->periodic_now, on ? 1 : 0, __ATOMIC_RELAXED);
}
