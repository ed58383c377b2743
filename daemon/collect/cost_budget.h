/*
 * cost_budget.h - the cost budget: when a CPU stops sampling every
 * context switch and samples periodically instead, and when it goes back.
 * Pure logic (no syscalls, no log): the worker feeds it its switch count
 * and the time at each review, and applies what it decides (worker_mode.c).
 *
 *   PER_SWITCH --(one tick: rate x cost > budget)--> PERIODIC
 *   PERIODIC --(COST_BUDGET_CALM_WINDOWS windows in a row:
 *               rate x cost < budget / 2)--> PER_SWITCH
 *
 * A tick is the time since the last review (one rotation period, 100 ms by
 * default), a window at least COST_BUDGET_WINDOW_NS.  Going periodic is
 * judged at every tick, so a burst is capped within one rotation: a
 * ping-pong on every CPU of the development VM costs 25 % of each at
 * 740,000 switches/s sampled, and a whole 1 s window at that cost took a
 * 3 s burst down to 0.918 of its speed alone.  Coming back is judged on
 * whole windows, as before: leaving periodic mode on a calm tick inside a
 * busy second would flap.
 *
 * rate is the CPU's context switches per second, counted by the switch
 * counters in either mode; cost the measured cost of sampling one switch
 * (calibrate.h).  rate x cost is then what per-switch sampling costs, or
 * would cost, the CPU.
 */
#ifndef STACKD_COST_BUDGET_H
#define STACKD_COST_BUDGET_H

#include "lib/clock.h"
#include "lib/sampling_cost.h"

#include <stdbool.h>
#include <stdint.h>

/* A window is at least this long: a second of switches is a rate that a
 * burst (a build's fork storm, the start's calibration) moves little, and
 * at the rates that matter (over 10,000/s) it holds thousands of them. */
#define COST_BUDGET_WINDOW_NS NS_PER_SEC
/* A per-switch tick shorter than this (the shortest rotate_period) is not
 * judged yet but added to the next: a rotation right after a pause or a
 * resume holds too few switches for a rate. */
#define COST_BUDGET_TICK_MIN_NS (10ULL * NS_PER_MSEC)
/* Going back waits for three calm windows in a row, under half the
 * budget: the rate must have fallen well below the edge and stayed there,
 * so a CPU whose rate hovers at the budget changes mode at most once per
 * few seconds instead of at every window (each change costs a group
 * rotation's reads and a log line). */
#define COST_BUDGET_CALM_WINDOWS 3

struct sampling_budget {
	double max_cost;    /* share of one CPU (0.02: 2 %); 0: no budget */
	double cost_ns;     /* sampling one switch costs this much CPU time */
};

struct cost_budget {
	bool periodic;
	uint64_t window_start_ns;   /* per-switch: the tick's start */
	uint64_t window_switches;   /* the switch count at the window's start */
	unsigned calm;              /* calm windows in a row (periodic only) */
	/* The last tick or window judged, for the log line of a change. */
	uint64_t rate;              /* switches/s */
	uint64_t span_ns;           /* over this long */
	double cost;                /* rate x cost_ns, share of the CPU */
};

/* Per-switch, the first window from now (switches: the count so far). */
void cost_budget_init(struct cost_budget *m, uint64_t now_ns, uint64_t switches);

/* Start a window anew without judging the last one (a review held, or a
 * mode just applied). */
void cost_budget_rebase(struct cost_budget *m, uint64_t now_ns, uint64_t switches);

/* At a review (every rotation): per-switch, judge the tick since the last
 * review (at least COST_BUDGET_TICK_MIN_NS); periodic, the window once it
 * is COST_BUDGET_WINDOW_NS long; then start the next.  Returns true when
 * the CPU should change mode (to !m->periodic);
 * the caller then applies it and calls cost_budget_set.  No budget
 * (max_cost 0): periodic mode ends at the next review. */
bool cost_budget_review(struct cost_budget *m, const struct sampling_budget *b,
			  uint64_t now_ns, uint64_t switches);

/* Periodic mode's mean clock period: 1 ms (1000 Hz per CPU) where a clock
 * sample is cheap, longer where it is not, so that its own clock samples
 * (OWN_CLOCK_SAMPLE_FACTOR x the bare sample_ns timed at start) take at
 * most half of the budget, the rest left to the switch counting periodic
 * mode keeps; but never longer than 10 ms (100 Hz: a second of run time
 * still takes 100 samples).  sample_ns < 0 (not measured) or no budget:
 * 1 ms. */
#define COST_BUDGET_CLOCK_SHARE 0.5
#define COST_BUDGET_FASTEST_CLOCK_NS 1000000ULL
#define COST_BUDGET_SLOWEST_CLOCK_NS 10000000ULL
uint64_t cost_budget_clock_period(double sample_ns, double max_cost);

/* The mode is now periodic (or not), applied at now_ns. */
void cost_budget_set(struct cost_budget *m, bool periodic, uint64_t now_ns,
		       uint64_t switches);

#endif
