/*
 * worker.h - one thread per CPU, pinned to it, that owns the CPU's ring,
 * attribution state and group rotation.
 *
 * Running on the CPU it serves makes two things exact: the remainder at a
 * group switch is the worker's own time (it is the task running), and its
 * wake-ups (every rotation period, and at every flush) switch out whatever
 * task runs there, so a task that never blocks is still read at least once
 * per period; no periodic sampling member is needed, and idle CPUs are not
 * woken 100 times a second by one.
 *
 * Rotation state per CPU:  ENABLED(g) -> DISABLED(g) -> ENABLED(g+1 mod n)
 * (disable first, so two groups are never schedulable at once.)  A group
 * that reads as in error state right after its enable (a pinned group the
 * PMU could not schedule) is disabled again and benched, and the next one
 * is enabled in the same rotation: no CPU time is left to a group that
 * counts nothing, and coverage counts only time a group ran.
 *
 * The main thread asks for a flush; each worker cuts at its own "now",
 * attributes everything up to the cut, and hands over a struct handover.
 *
 * The cost budget (cost_budget.h): at each rotation the worker reviews
 * what sampling every switch costs its CPU, and changes the CPU's mode
 * (per-switch, exact / periodic, statistical: collector.h, attrib.h) at
 * that rotation, between two groups' turns, every group at once:
 *   DISABLED(g) -> periods of every group set -> ENABLED(g+1 mod n)
 * so each turn of a group is in one mode.
 *
 * worker.c is the main thread's side of this contract, worker_thread.c the
 * thread; worker_private.h lists the files of the thread's jobs.
 */
#ifndef STACKD_WORKER_H
#define STACKD_WORKER_H

#include "daemon/attribute/attrib.h"
#include "daemon/collect/collector.h"
#include "daemon/attribute/cpuacc.h"
#include "daemon/collect/cost_budget.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum life_type { LIFE_FORK, LIFE_EXIT, LIFE_COMM };

/* A side-band record, kept for the main thread's process table. */
struct life_rec {
	uint8_t type;        /* enum life_type */
	bool exec;           /* COMM from exec(), not a rename */
	int32_t pid, ppid, tid;
	uint64_t time;       /* CLOCK_MONOTONIC */
	char comm[16];
};

struct handover {
	int cpu;
	uint64_t cut_ns;                     /* CLOCK_MONOTONIC */
	struct cpuacc acc;
	struct life_rec *life;
	size_t n_life, cap_life;
	struct health_counts st;             /* max_cpu_switch_rate: this CPU's rate */
	uint64_t enabled_ns[PLAN_MAX_GROUPS];   /* time each group ran since the last cut */
	uint32_t unschedulable[PLAN_MAX_GROUPS];  /* times each was found in error state */
	struct handover *next;
};

enum { REVIEW_HELD = 1, REVIEW_RELEASED = 2 };

struct worker {
	struct collector *col;
	struct cpu_events *ev;
	pthread_t thread;
	bool started;
	int cmd_fd;                /* eventfd: the main thread's nudge */
	int32_t self_pid;

	/* set by the main thread, read by the worker */
	uint64_t rotate_ns;        /* atomic */
	uint64_t flush_seq;        /* atomic: flush requested */
	int stop;                  /* atomic */
	/* atomic: the switch-record review waits (the start's calibration
	 * bounces ~500,000 switches/s through this CPU: not this host's rate):
	 * 0, REVIEW_HELD, or REVIEW_RELEASED (one more tick without review) */
	int review_hold;
	/* atomic: the cost budget (cost_budget.h): max_sampling_cost in
	 * millionths of the CPU (0: none), one sampled switch's cost in ps */
	uint64_t budget_ppm, cost_ps;
	uint64_t clock_period_ns;  /* atomic: periodic mode's mean clock period (0: default) */
	/* atomic: periodic mode's costs, bare (0: not measured, or measured
	 * at 0 - either way nothing to add to the log line) */
	uint64_t clock_sample_ps, switch_count_ps;
	int periodic_now;          /* atomic: this CPU samples periodically (/metrics) */
	int pause;                 /* atomic: sample nothing (a calibration's "without") */

	/* owned by the worker thread */
	struct attrib_cpu at;
	struct handover *cur;
	unsigned active;
	bool running;              /* active is enabled (false: every group was benched) */
	bool has_groups;           /* some group counts on this CPU (collector_group_here) */
	unsigned prev_active;      /* the group enabled before active ... */
	uint64_t prev_end;         /* ... wrote nothing at or past this ring
				    * position (its disable returned before the
				    * position was read, active's enable after;
				    * 0: no rotation since the last drain) */
	uint64_t rec_pos;          /* ring position of the record being taken */
	uint64_t next_rotate_ns;
	uint64_t last_cut_ns;
	uint64_t switches_at_cut;   /* at.switches_counted at the last cut */
	uint64_t enabled_since;                 /* when the active group was enabled */
	uint64_t enabled_acc[PLAN_MAX_GROUPS];  /* time groups ran since the last cut */
	uint32_t unschedulable[PLAN_MAX_GROUPS];
	uint64_t benched_until[PLAN_MAX_GROUPS]; /* out of rotation until then (unschedulable) */
	uint64_t done_seq;
	bool switch_records;       /* this CPU's switch records are on */
	bool switch_records_failed, switch_records_told;
	bool switch_records_needed;  /* this CPU's kernel has shown it needs them */
	uint64_t switch_review_switches;  /* at.switches_counted at the last review */
	uint64_t switch_review_ns;  /* when the records' need was last reviewed */
	uint64_t dark_since;        /* nothing enabled since (0: something is) */
	struct cost_budget mode;
	bool mode_change;           /* change the mode at this rotation */
	bool periodic_failed;       /* the kernel refused a period: per-switch for good */
	uint64_t periodic_since;    /* periodic_ns counted up to then */
	uint64_t period_rng;        /* draws each periodic turn's clock period */
	bool paused;               /* pause applied: groups and switch records off */
	bool paused_records;       /* the switch records were on before it */

	/* shared, under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct handover *ready;    /* handed over, oldest first */
	struct handover *spare;    /* returned by the main thread for reuse */
	uint64_t posted_seq;
	int setup_error;           /* pinning or enabling failed */
	int pause_applied;         /* the pause state the worker has put in place */
};

/* Set up w for CPU ev (does not start the thread). */
int worker_init(struct worker *w, struct collector *col, struct cpu_events *ev,
		uint64_t rotate_ns, int32_t self_pid);
int worker_start(struct worker *w);
/* Ask for a flush numbered seq (increasing). */
void worker_request_flush(struct worker *w, uint64_t seq);
/* Wait until w posted seq or deadline (CLOCK_MONOTONIC ns) passed; then take
 * every handover it posted.  Returns the list (oldest first) or NULL. */
struct handover *worker_collect(struct worker *w, uint64_t seq, uint64_t deadline_ns,
				bool *ret_timed_out);
/* Give a consumed handover back to its worker. */
void worker_recycle(struct worker *w, struct handover *h);
void worker_set_rotate(struct worker *w, uint64_t rotate_ns);
/* The cost budget from now: max_cost a share of one CPU (0: none), cost_ns
 * what sampling one switch costs.  Until it is set there is none. */
void worker_set_budget(struct worker *w, double max_cost, double cost_ns);
/* Periodic mode's mean clock period from the next periodic turn on
 * (cost_budget_clock_period; 0: COLLECTOR_PERIODIC_NS), and what a clock
 * sample and a counted switch cost (calibrate.h; < 0: not measured), for
 * the log line that says what periodic mode itself costs. */
void worker_set_periodic(struct worker *w, uint64_t period_ns, double clock_sample_ns,
			 double switch_count_ns);
/* Whether w's CPU samples periodically now (any thread). */
bool worker_periodic(const struct worker *w);
/* The worker of cpu among ws[n], or NULL. */
struct worker *worker_of_cpu(struct worker *ws, size_t n, int cpu);
/* The CPU-time clock of w's thread (its time reading the ring counts in
 * the calibration's runs with sampling: calibrate.h).  0, or -ESRCH when
 * it does not run, -errno. */
int worker_cpu_clock(const struct worker *w, clockid_t *ret);
/* Hold the switch-record review (on) or let it go on (off) from now. */
void worker_hold_review(struct worker *w, bool on);
/* Stop sampling on w's CPU (on) or start again (off), and wait until the
 * worker did or deadline (CLOCK_MONOTONIC ns) passed: false then.  While
 * paused, the CPU's time goes to [unattributed] (dark, counted as lost);
 * for a re-check of the sampling cost, a few hundred ms. */
bool worker_pause(struct worker *w, bool on, uint64_t deadline_ns);
/* Stop the thread: it makes a last cut (collect it afterwards with
 * worker_collect) and disables its groups. */
void worker_stop(struct worker *w);
/* After worker_stop and that last cut collected, with its groups closed
 * and its side-band event still open (a re-plan: collector_close_groups):
 * the side-band records its ring took since - the CPU's processes started,
 * renamed and ended - as a handover of those alone (no counts: its group
 * indices are the old plan's), the caller's to free.  NULL when nothing
 * came or out of memory. */
struct handover *worker_take_rest(struct worker *w);
void worker_done(struct worker *w);

/* The thread's life, exposed so tests can drive a worker on a simulated
 * clock without the thread: begin enables the first group; tick does what
 * is due (a requested cut, a rotation, or draining the ring) and returns
 * false once asked to stop; end disables every group. */
void worker_begin(struct worker *w);
bool worker_tick(struct worker *w);
/* When the thread next needs to wake by itself (CLOCK_MONOTONIC): the due
 * rotation (none while paused). */
uint64_t worker_wake_at(const struct worker *w, uint64_t now);
void worker_end(struct worker *w);

/* Take one ring record: attribute a sample, keep a side-band record, count
 * a loss or a record it cannot use (exposed for tests). */
void worker_handle_record(struct worker *w, const struct perf_event_header *h);

/* A handover for cpu, its accumulator reading the workers' shared exit
 * log; NULL when out of memory. */
struct handover *handover_new(int cpu, struct exitlog *shared);
void handover_free(struct handover *h);

#endif
