/*
 * simpmu.h - a simulated PMU behind the collector's kernel seam (tests only;
 * never linked into stackd).
 *
 * A host of n logical CPUs with the counters of a real core PMU (general
 * counters per logical CPU with SMT on or off, fixed counters and the events
 * they host, the kernel's constraint tables and its greedy assignment, each
 * placement held to Linux perf's JSON masks), other users of
 * those counters (the NMI watchdog, another tool holding some), the kernel's
 * rules (group validation at open, pinned groups in ERROR when they cannot
 * be scheduled, perf-metrics groups led by slots, 48-bit counters), and a
 * scripted workload whose true counts are known.  simpmu_ops() gives the
 * struct kernel_ops that the collector, workers and rings call.
 *
 * Time is virtual and shared by every CPU: simpmu_run() switches one CPU to
 * a task and then advances the clock, every CPU running its current task
 * (idle, pid 0, until told otherwise).  Counting happens only inside the
 * simulator's calls, so a test sees the same numbers on every run.
 */
#ifndef STACKD_SIMPMU_H
#define STACKD_SIMPMU_H

#include "daemon/collect/kernel_ops.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct simpmu;
struct simpmu_task;

struct simpmu_params {
	/* libpfm4 name of the core PMU: "skl", "skx", "icl", "icx", "spr",
	 * "amd64_fam19h_zen4", "arm_n1" (any Neoverse: 6 counters + cycle counter);
	 * for simpmu_new_table, the directory of a Linux perf table (lib/perfdb:
	 * "graniterapids", "amdzen5", "arm/neoverse-v3", "alderlake"), whose
	 * events then take the counters their "Counter" field names. */
	const char *pmu;
	unsigned n_cpus;          /* logical CPUs; with SMT, CPUs 2k and 2k+1 are siblings */
	bool smt_on;
	bool nmi_watchdog;        /* a pinned cycles event on every CPU, as the kernel's */
	/* Hardware counters start here instead of 0, to reach the 48-bit wrap
	 * quickly (2^48 - 1000, say). */
	uint64_t counter_start;
	/* Abort with a message on a rule violation (two of our groups enabled on
	 * one CPU) instead of only recording it. */
	bool abort_on_violation;
};

/* What a perf table's CPU needs beyond its table (simpmu_new_table): its
 * core type on a hybrid, and its counters, which perf's counter.json gives
 * for some CPUs only (where it does, they must agree). */
struct simpmu_table_cpu {
	const char *unit;          /* "cpu_core"; NULL on a CPU of one core type */
	unsigned gp_smt, gp_nosmt; /* general counters per thread, SMT on and off */
	unsigned n_fixed;          /* Intel fixed counters; Arm: 1, the cycle counter */
};

/* The simulated host.  Returns 0, -EINVAL (unknown pmu, no CPUs) or -ENOMEM. */
int simpmu_new(const struct simpmu_params *p, struct simpmu **ret);
/* The same for the CPU of a perf table; -EINVAL also for a core type the
 * simulator does not model and counters counter.json contradicts. */
int simpmu_new_table(const struct simpmu_params *p, const struct simpmu_table_cpu *cpu,
		     struct simpmu **ret);
void simpmu_free(struct simpmu *sim);                /* NULL is a no-op */

/* The seam, calling into sim (valid until simpmu_free). */
struct kernel_ops simpmu_ops(struct simpmu *sim);

/* Counters per logical CPU as configured (general, fixed). */
unsigned simpmu_gp_counters(const struct simpmu *sim);
unsigned simpmu_fixed_counters(const struct simpmu *sim);

/* Another PMU user holds k general counters of cpu (any of them) from now
 * on, replacing what it held; k = 0 releases them.  Like any newcomer it
 * gets them only when they are free: while our running group holds them it
 * waits and takes them at the next rescheduling of the CPU (a disable).
 * Returns 0, -EINVAL (bad cpu, k over the counters). */
int simpmu_reserve(struct simpmu *sim, int cpu, unsigned k);
/* The same with exactly the general counters in mask (bit i: counter i),
 * as a tool counting a restricted event would. */
int simpmu_reserve_mask(struct simpmu *sim, int cpu, uint32_t mask);
/* From now on perf_event_open() of (type, config) on cpu (-1: any) fails
 * with err (ENOENT: as a guest kernel answers for an event its CPUID does
 * not enumerate). */
void simpmu_refuse_event(struct simpmu *sim, uint32_t type, uint64_t config, int cpu, int err);
/* Whether the other user of cpu holds its counters now. */
bool simpmu_reserved_held(const struct simpmu *sim, int cpu);

/* Another reader samples cpu's context switches from now on (a second
 * stackd, perf record).  The kernel fills one sample's data for every
 * software event of a switch and skips the fields already filled
 * (kernel/events/core.c, perf_prepare_sample and data->sample_flags, 6.x):
 * when the other reader's event comes first, each of our context-switch
 * samples on cpu carries its time - on its clock, offset_ns from ours
 * (ahead or behind) - and, when id is not 0 (its sample_type has
 * PERF_SAMPLE_ID), its id instead of ours.  The group read stays ours.
 * Returns 0, -EINVAL (bad cpu). */
int simpmu_other_reader(struct simpmu *sim, int cpu, uint64_t id, int64_t offset_ns);

/* From now on, every enable of a group of cpu that counts context
 * switches is followed, before the caller does anything else, by t
 * running there for ns: the caller was preempted right after its enable
 * (a worker under SCHED_OTHER on a busy CPU).  t NULL: no more.  Returns
 * 0, -EINVAL (bad cpu). */
int simpmu_preempt_on_enable(struct simpmu *sim, int cpu, struct simpmu_task *t, uint64_t ns);

/* Rule violations seen (two of our groups enabled at once on one CPU), and
 * the first one's description ("" when none). */
unsigned simpmu_violations(const struct simpmu *sim);
const char *simpmu_violation_text(const struct simpmu *sim);

/* Encode an event string as the collector does on sim's host: libpfm4
 * names and raw "rNN" by event_encode(), and "pmu/.../" specs ("cpu/slots/",
 * "cpu/event=0xc2,umask=0x2/") by the collector's sysfs resolver
 * (daemon/collect/sysfs_event.c) on the simulated host's own sysfs tree,
 * which holds its core PMU as the kernel publishes it: type, the format
 * files of every term and the perf-metrics events (simpmu_sysfs.c). */
int simpmu_encode(const struct simpmu *sim, const char *name, struct perf_event_attr *attr);
/* That sysfs tree's root (what SYSFS_EVENT_ROOT is on a real host). */
const char *simpmu_sysfs_root(const struct simpmu *sim);

/* A task (pid, tid, comm) whose events count at fixed rates per cycle, and
 * cycles_per_ns cycles per ns of run time.  The sim owns it.  pid 0 is the
 * idle task, which exists from the start with no cycles. */
struct simpmu_task *simpmu_task_new(struct simpmu *sim, pid_t pid, pid_t tid,
				    const char *comm, double cycles_per_ns);
struct simpmu_task *simpmu_task_idle(struct simpmu *sim);
/* Rate per cycle of the event named by event_string (see simpmu_encode).
 * Cycles count at 1 per cycle without a rate.  Returns 0 or -errno. */
int simpmu_rate_for(struct simpmu *sim, struct simpmu_task *t, const char *event_string,
		    double per_cycle);
/* The same for an event given by its type, config and config1, as a source
 * other than simpmu_encode encodes it (a perf table's fields placed by
 * tests/sim/perfdb_encode.c): a count then reaches the collector only if
 * the string it opens encodes to the same bits. */
int simpmu_rate_attr(struct simpmu *sim, struct simpmu_task *t,
		     const struct perf_event_attr *attr, double per_cycle);

/* Switch cpu to t (a context-switch sample for the task switched out, into
 * the ring, for every running sampler of cpu), then advance the clock by
 * duration_ns with every CPU running its current task. */
void simpmu_run(struct simpmu *sim, int cpu, struct simpmu_task *t, uint64_t duration_ns);
/* Advance the clock alone. */
void simpmu_advance(struct simpmu *sim, uint64_t duration_ns);

/* Side-band records written by cpu's side-band event, as the kernel does
 * at fork (in the parent), exec (COMM with the exec flag) and exit. */
void simpmu_fork(struct simpmu *sim, int cpu, const struct simpmu_task *parent,
		 const struct simpmu_task *child);
void simpmu_exec(struct simpmu *sim, int cpu, struct simpmu_task *t, const char *comm);
void simpmu_exit(struct simpmu *sim, int cpu, const struct simpmu_task *t);

/* The truth: t's run time, and the exact count of event_string over all of
 * it (whether or not anything was counting it).  -ENOENT for an event the
 * task has no rate for and that is not cycles (its truth is 0). */
uint64_t simpmu_truth_ns(const struct simpmu_task *t);
int simpmu_truth(const struct simpmu_task *t, const char *event_string, uint64_t *count);
int simpmu_truth_attr(const struct simpmu_task *t, const struct perf_event_attr *attr,
		      uint64_t *count);

/* The virtual clock (what the seam's now_ns returns). */
uint64_t simpmu_now(const struct simpmu *sim);

/* What the kernel keeps per event of fd's group leader: state, and the
 * times PERF_FORMAT_TOTAL_TIME_ENABLED / _RUNNING would report. */
enum simpmu_state { SIMPMU_ERROR = -2, SIMPMU_OFF = -1, SIMPMU_INACTIVE = 0, SIMPMU_ACTIVE = 1 };
int simpmu_group_state(const struct simpmu *sim, int fd, enum simpmu_state *state);
int simpmu_times(struct simpmu *sim, int fd, uint64_t *enabled_ns, uint64_t *running_ns);
/* Records lost to a full ring of cpu so far. */
uint64_t simpmu_lost(const struct simpmu *sim, int cpu);

#endif
