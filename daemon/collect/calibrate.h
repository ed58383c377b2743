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
 * Under load, best-of is not enough: when another task, a CPU quota or the
 * hypervisor takes the CPU for most of every run, the best run is slow
 * too (a 50 % quota read 1,285-2,003 ns a switch, a fork storm 2,030, an
 * idle host 593), and CPUs would go periodic at rates they could sample
 * exactly.  So each run also times the CPU its own threads had (their CPU
 * clocks, and the clock of the CPU's worker for runs with sampling, whose
 * ring reading is part of the cost) against its wall time: its share.  A
 * figure rests on the best run whose share is at least CALIBRATE_MIN_SHARE
 * (credible); where no run had that, on the best rate its runs would have
 * made with the whole CPU (rate / share: an estimate, said so in the
 * method).  A measurement made under load never replaces a credible one,
 * of two made under load the lower stands (load only slows the runs, so
 * the lower is nearer the truth), and while the figure in use is an
 * estimate, the cost is measured again when the host is quiet
 * (calibrate_trigger), first CALIBRATE_QUIET_FIRST_NS after and then at
 * doubling gaps up to CALIBRATE_RECHECK_GAP_NS.
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
#include <time.h>

#define CALIBRATE_RUNS 3
#define CALIBRATE_RUN_NS (60 * 1000 * 1000ULL)   /* 60 ms each: 0.7 s in all at start */

/* A run is the CPU's own figure when its threads had this share of its
 * wall time: the rest went to others (an idle CPU gives the ping-pong 98-
 * 100 %, its worker's ring reading included). */
#define CALIBRATE_MIN_SHARE 0.85

/* One ping-pong run. */
struct calibrate_run {
	double rate;     /* round trips per second of wall time */
	double share;    /* of that wall time, the CPU time its threads (and
			  * the CPU's worker, with sampling on) had; < 0:
			  * unknown (a CPU clock could not be read) */
};

/* The runs one figure rests on. */
struct calibrate_runs {
	struct calibrate_run run[CALIBRATE_RUNS];
	unsigned n;
};

/* The figure of runs: the best rate among the runs that had at least
 * CALIBRATE_MIN_SHARE of the CPU (or whose share is unknown), *credible
 * true; else the best rate a run would have made with the whole CPU (rate
 * / share), *credible false.  *share: the share of the run it took.  0
 * when there is no run. */
double calibrate_best(const struct calibrate_runs *r, bool *credible, double *share);

struct calibration {
	int cpu;                  /* where it ran */
	double off_per_s, on_per_s;  /* best round trips per second, without and with */
	double cost_ns;           /* per sampled switch; < 0: not measured */
	/* the runs behind off_per_s and on_per_s (n 0: those rates were set
	 * by the caller, and are taken as credible) */
	struct calibrate_runs off_runs, on_runs;
	bool credible;            /* cost_ns from runs that had the CPU */
	double share;             /* the lowest share of the CPU those runs had (< 0: unknown) */
	char method[512];         /* how, for status and the API (which reads 512 bytes) */
	uint64_t at_ns;           /* when (CLOCK_REALTIME); 0: not made */
	bool recheck;             /* a re-check, not the start's */
	uint64_t rate;            /* busiest-CPU switches/s it answered (re-check) */
	/* Periodic mode's costs (at start only; a re-check keeps them). */
	uint64_t clock_hz;        /* the clock sampler's rate (calibrate_clock_hz) */
	double clock_per_s;       /* best round trips per second beside the clock sampler */
	double count_per_s;       /* ... beside the switch counter */
	struct calibrate_runs clock_runs, count_runs;   /* (as off_runs) */
	bool periodic_credible;   /* clock_sample_ns and switch_count_ns from runs that had the CPU */
	double clock_sample_ns;   /* per clock sample; < 0: not measured */
	double switch_count_ns;   /* per counted switch; < 0: not measured */
	char clock_method[256];   /* how both were measured (the API reads 256 bytes) */
};

/* CALIBRATE_RUNS runs on cpu into *out, and their figure (calibrate_best);
 * beside: the CPU clock of a thread whose time on cpu is the runs' own (the
 * CPU's worker, reading the samples they make; NULL: none).  0 when the
 * threads could not be made or pinned. */
double calibrate_pingpong(int cpu, const clockid_t *beside, struct calibrate_runs *out);

/* cost per switch from the two rates (or, where there are runs, from
 * their figures); fills c->cost_ns, c->credible, c->share and c->method. */
void calibrate_finish(struct calibration *c);

/* Whether a new measurement next should replace the figure in use cur:
 * not when next measured nothing; always when cur did not, or next is
 * credible; never when cur is credible and next is not; of two made under
 * load, the lower cost. */
bool calibrate_better(const struct calibration *cur, const struct calibration *next);

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
/* A figure made under load is measured again once an interval is quiet
 * (the calibration's CPU busy, stolen included, under CALIBRATE_QUIET_BUSY
 * of it), this long after the measurement first, then at doubling gaps. */
#define CALIBRATE_QUIET_FIRST_NS (30 * 1000000000ULL)
#define CALIBRATE_QUIET_BUSY 0.25
/* Rates below this compare as this: an idle host going from 20 to 90
 * switches/s changes nothing worth a measurement. */
#define CALIBRATE_RATE_FLOOR 1000

struct calibrate_trigger {
	uint64_t base_rate;     /* busiest-CPU switches/s at the last calibration; 0: unknown */
	uint64_t last_ns;       /* when it was made (the intervals' clock, ns) */
	uint64_t off_since_ns;  /* since then the rate is off by the factor (0: it is not) */
	unsigned skip;          /* intervals still to ignore (a calibration's own burst) */
	bool under_load;        /* the figure in use is an estimate made under load */
	uint64_t quiet_gap_ns;  /* the wait before its next quiet re-check ... */
	uint64_t quiet_after_ns;   /* ... which may come from then on */
};

/* Calibrated at now_ns (the intervals' clock), credibly or not; the rate it
 * answers is that of the next interval (the start: nothing measured it yet). */
void calibrate_trigger_init(struct calibrate_trigger *t, uint64_t now_ns, bool credible);
/* One interval [start_ns, end_ns) whose busiest CPU made rate switches/s,
 * quiet when the calibration's CPU was (CALIBRATE_QUIET_BUSY): true when
 * the cost is due a re-check now. */
bool calibrate_trigger_step(struct calibrate_trigger *t, uint64_t rate, bool quiet,
			    uint64_t start_ns, uint64_t end_ns);
/* Re-checked at now_ns for rate; credible: the figure in use now is no
 * estimate made under load.  The next interval holds the re-check's own
 * ping-pong and is not this host's rate. */
void calibrate_trigger_done(struct calibrate_trigger *t, uint64_t rate, uint64_t now_ns,
			    bool credible);

#endif
