/*
 * sampling_cost.h - what sampling every context switch costs a CPU.
 *
 * The daemon measures it at start (daemon/collect/calibrate.h) and records it in
 * meta ("sampling_cost_ns", "sampling_cost_method"); SWITCH_SAMPLE_COST_NS,
 * measured by `make bench` on the 2-vCPU development VM (1.2 us extra per
 * switch; perf record -c 1 costs 1.1 us there), stands in only where no
 * measurement was made, and every surface says which it is.  Used only to
 * tell the user what a high switch rate costs, never to correct a count.
 */
#ifndef STACKD_LIB_SAMPLING_COST_H
#define STACKD_LIB_SAMPLING_COST_H

#include "lib/clock.h"

#include <stdint.h>

#define SWITCH_SAMPLE_COST_NS 1200ULL

/* Above this share of one CPU, status calls sampling costly. */
#define SAMPLING_COSTLY_FRACTION 0.02

/* Share of one CPU spent sampling at `switches_per_s` at cost_ns per
 * switch (0..1, may exceed 1 only in theory). */
static inline double sampling_cost_fraction(uint64_t switches_per_s, double cost_ns)
{
	return (double)switches_per_s * cost_ns / (double)NS_PER_SEC;
}

/* stackd's own clock sample costs more than the bare cpu-clock sample the
 * start times (daemon/collect/calibrate.h): it reads the whole group, goes through
 * the CPU's ring and is read by the worker.  Taken as twice: on the
 * development VM, periodic mode at its automatic rate against 100 Hz (make
 * bench, budget part) cost two ping-pongs 1.9 % more for 256 more samples
 * a second in one run (74 us each) and 0.1 % more for 95 more in another
 * (10 us), against a bare 28 us: about twice on average, with run-to-run
 * noise as large.  Used for the rate periodic mode samples at and for
 * what it is said to cost, never to correct a count. */
#define OWN_CLOCK_SAMPLE_FACTOR 2.0

/* Share of one CPU periodic mode costs at switches_per_s, counting them at
 * count_ns each, with hz clock samples a second of bare cost clock_ns. */
static inline double periodic_cost_fraction(uint64_t switches_per_s, double count_ns, double hz,
					    double clock_ns)
{
	return ((double)switches_per_s * count_ns + hz * OWN_CLOCK_SAMPLE_FACTOR * clock_ns) /
	       (double)NS_PER_SEC;
}

#endif
