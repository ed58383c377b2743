/*
 * calibrate.h - what sampling every context switch costs on this host,
 * measured at start instead of assumed (lib/sampling_cost.h has the figure
 * of the development VM, used only when no measurement could be made).
 *
 * Method: two threads pinned to one CPU bounce a byte over two pipes, so
 * each round trip is two context switches there.  The best of a few short
 * runs is taken before any counter of stackd's is open (nothing samples;
 * interleaved with the periodic-mode runs below) and again once
 * they run (every switch is sampled, the worker on that CPU reading its
 * ring as it does for any process); the extra time per round trip, halved,
 * is the cost of one sampled switch.  Best-of runs, because what disturbs
 * a run on a shared host (another task on that CPU) only makes it slower.
 *
 * Re-check: the cost is measured again (the same runs, on the same CPU;
 * "without" then means with that CPU's worker paused, worker_pause():
 * its groups disabled but open, so the kernel's switch hook stays on and
 * its cost, at most ns_per_counted_switch, is not in a re-check's figure)
 * when the busiest CPU's switch rate has moved by CALIBRATE_RECHECK_FACTOR
 * either way from the rate of the last measurement and stayed so for
 * CALIBRATE_RECHECK_HOLD_NS, at most once per CALIBRATE_RECHECK_GAP_NS.
 * struct calibrate_trigger decides, from one interval's rate at a time.
 *
 * What periodic mode costs (cost_budget.h), once at start: the same
 * ping-pong beside a cpu-clock sampler firing every
 * 100 us (10 kHz) on that CPU (the cost of a clock sample, for
 * the rate periodic mode samples at: cost_budget_clock_period), and
 * beside a counting-only context-switch event there (the cost of counting
 * a switch, which periodic mode still does: the budget needs the rate to
 * see it fall), each against the runs without.  Each event is opened for
 * its own runs alone and closed after them: an open software switch
 * event, even a disabled one, turns the kernel's switch hook on
 * (perf_swevent_init), which the runs without must not have.  A
 * clock sample is an interrupt, and on a VM a timer interrupt is two
 * exits to the hypervisor: measured on the development VM, 27-31 us per
 * sample at 1, 4 and 10 kHz alike (perf record -e cpu-clock -C 1 beside a
 * ping-pong there), so 1000 Hz costs such a CPU 2.8 %, over a 2 % budget
 * on its own; on bare metal it is about a microsecond.  The sampler has
 * no ring (its samples are dropped at output): the copy of ~60 bytes is
 * left out, a few hundred ns at most against the interrupt.
 */
#ifndef STACKD_CALIBRATE_H
#define STACKD_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#define CALIBRATE_RUNS 3
#define CALIBRATE_RUN_NS (60 * 1000 * 1000ULL)   /* 60 ms each: 0.7 s in all at start */

struct calibration {
	int cpu;                  /* where it ran */
	double off_per_s, on_per_s;  /* best round trips per second, without and with */
	double cost_ns;           /* per sampled switch; < 0: not measured */
	char method[256];         /* how, for status and the API */
	uint64_t at_ns;           /* when (CLOCK_REALTIME); 0: not made */
	bool recheck;             /* a re-check, not the start's */
	uint64_t rate;            /* busiest-CPU switches/s it answered (re-check) */
	/* Periodic mode's costs (at start only; a re-check keeps them). */
	uint64_t clock_hz;        /* the clock sampler's rate (calibrate_clock_hz) */
	double clock_per_s;       /* best round trips per second beside the clock sampler */
	double count_per_s;       /* ... beside the switch counter */
	double clock_sample_ns;   /* per clock sample; < 0: not measured */
	double switch_count_ns;   /* per counted switch; < 0: not measured */
	char clock_method[256];   /* how both were measured */
};

/* The round trips per second of the best of CALIBRATE_RUNS runs on cpu;
 * 0 when the threads could not be made or pinned. */
double calibrate_pingpong(int cpu);

/* cost per switch from the two rates; fills c->cost_ns and c->method. */
void calibrate_finish(struct calibration *c);

#define CALIBRATE_CLOCK_HZ 10000ULL   /* a clear loss even at 1 us a sample */

/* The clock sampler's rate: CALIBRATE_CLOCK_HZ, or half of
 * kernel.perf_event_max_sample_rate where that is lower: the kernel
 * throttles a sampler above it, and the loss spread over samples that
 * were never taken would read as a cheaper sample (<= 0: unknown). */
uint64_t calibrate_clock_hz(long max_sample_rate);

/* On c->cpu, CALIBRATE_PERIODIC_ROUNDS rounds of three runs - without,
 * beside a cpu-clock sampler, beside a counting-only context-switch event
 * (opened through k) - each figure the best of its runs: c->off_per_s,
 * c->clock_per_s, c->count_per_s (0: that one could not run). */
#define CALIBRATE_PERIODIC_ROUNDS 3
struct kernel_ops;
void calibrate_periodic_runs(struct calibration *c, const struct kernel_ops *k);

/* the costs per clock sample and per counted switch from off_per_s,
 * clock_per_s and count_per_s; fills c->clock_sample_ns,
 * c->switch_count_ns and c->clock_method. */
void calibrate_finish_periodic(struct calibration *c);

#define CALIBRATE_RECHECK_FACTOR 4
#define CALIBRATE_RECHECK_HOLD_NS (30 * 1000000000ULL)
#define CALIBRATE_RECHECK_GAP_NS (600 * 1000000000ULL)
/* Rates below this compare as this: an idle host going from 20 to 90
 * switches/s changes nothing worth a measurement. */
#define CALIBRATE_RATE_FLOOR 1000

struct calibrate_trigger {
	uint64_t base_rate;     /* busiest-CPU switches/s at the last calibration; 0: unknown */
	uint64_t last_ns;       /* when it was made (the intervals' clock, ns) */
	uint64_t off_since_ns;  /* since then the rate is off by the factor (0: it is not) */
	unsigned skip;          /* intervals still to ignore (a calibration's own burst) */
};

/* Calibrated at now_ns (the intervals' clock); the rate it answers is that of
 * the next interval (the start: nothing measured it yet). */
void calibrate_trigger_init(struct calibrate_trigger *t, uint64_t now_ns);
/* One interval [start_ns, end_ns) whose busiest CPU made rate switches/s:
 * true when the cost is due a re-check now. */
bool calibrate_trigger_step(struct calibrate_trigger *t, uint64_t rate, uint64_t start_ns,
			    uint64_t end_ns);
/* Re-checked at now_ns for rate; the next interval holds the re-check's
 * own ping-pong and is not this host's rate. */
void calibrate_trigger_done(struct calibrate_trigger *t, uint64_t rate, uint64_t now_ns);

#endif
