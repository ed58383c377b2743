/*
 * switch_records.h - whether a CPU's switch records should be on (pure:
 * the worker feeds it what it saw since its last review, worker_switch.c).
 *
 * Switch records split the spans a kernel counts but does not sample (seen:
 * the idle task's switch-out on a 6.18 guest kernel).  They cost two ring
 * writes per switch on their CPU, and while any is open anywhere every
 * CPU's switches take the kernel's switch-record path: so they are judged
 * by the busiest CPU's switch rate, not their own CPU's.
 */
#ifndef STACKD_SWITCH_RECORDS_H
#define STACKD_SWITCH_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

/* Unsampled spans over 1 % of the CPU's time since the last review: they
 * are needed now; once on, they stay while such spans hold 0.25 %. */
#define SWITCH_RECORDS_ON_PPM  10000
#define SWITCH_RECORDS_OFF_PPM 2500
/* Cheap: every CPU under 10,000 switches/s to open them, all under 20,000
 * to keep them (0.3 % of each CPU at most). */
#define SWITCH_RECORDS_CHEAP_OPEN  10000
#define SWITCH_RECORDS_CHEAP_CLOSE 20000

struct switch_records_view {
	bool on;               /* this CPU's records are on now */
	bool needed_before;    /* this CPU's kernel has shown it needs them */
	uint64_t unsampled_ppm;  /* unsampled spans, millionths of the time since */
	uint64_t host_rate;    /* the busiest CPU's switches/s */
};

/* Whether they should be on from now.  Needed now: on, whatever they
 * cost (a count must not go unattributed); needed before: on while cheap;
 * on already: kept while such spans still hold enough time. */
bool switch_records_wanted(const struct switch_records_view *v);
/* This review found them needed now. */
bool switch_records_needed_now(const struct switch_records_view *v);

#endif
