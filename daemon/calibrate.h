/*
 * calibrate.h - what sampling every context switch costs on this host,
 * measured at start instead of assumed (lib/sampling_cost.h has the figure
 * of the development VM, used only when no measurement could be made).
 *
 * Method: two threads pinned to one CPU bounce a byte over two pipes, so
 * each round trip is two context switches there.  The best of a few short
 * runs is taken before the workers start (nothing samples) and again once
 * they run (every switch is sampled, the worker on that CPU reading its
 * ring as it does for any process); the extra time per round trip, halved,
 * is the cost of one sampled switch.  Best-of runs, because what disturbs
 * a run on a shared host (another task on that CPU) only makes it slower.
 */
#ifndef STACKD_CALIBRATE_H
#define STACKD_CALIBRATE_H

#include <stdint.h>

#define CALIBRATE_RUNS 3
#define CALIBRATE_RUN_NS (60 * 1000 * 1000ULL)   /* 60 ms each: 0.4 s in all */

struct calibration {
	int cpu;                  /* where it ran */
	double off_per_s, on_per_s;  /* best round trips per second, without and with */
	double cost_ns;           /* per sampled switch; < 0: not measured */
	char method[256];         /* how, for status and the API */
};

/* The round trips per second of the best of CALIBRATE_RUNS runs on cpu;
 * 0 when the threads could not be made or pinned. */
double calibrate_pingpong(int cpu);

/* cost per switch from the two rates; fills c->cost_ns and c->method. */
void calibrate_finish(struct calibration *c);

#endif
