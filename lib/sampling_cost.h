/*
 * sampling_cost.h - what sampling every context switch costs a CPU.
 *
 * The daemon measures it at start (daemon/calibrate.h) and records it in
 * meta ("sampling_cost_ns", "sampling_cost_method"); SWITCH_SAMPLE_COST_NS,
 * measured by `make bench` on the 2-vCPU development VM (1.2 us extra per
 * switch; perf record -c 1 costs 1.1 us there), stands in only where no
 * measurement was made, and every surface says which it is.  Used only to
 * tell the user what a high switch rate costs, never to correct a count.
 */
#ifndef STACKD_LIB_SAMPLING_COST_H
#define STACKD_LIB_SAMPLING_COST_H

#include "clock.h"

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

#endif
