/*
 * collector.h - the kernel side: per-CPU perf_event groups and rings.
 *
 * For every online CPU c and every group of the plan (plan.h), one
 * perf_event group opened system-wide (pid = -1, cpu = c): the model's
 * events plus two members of stackd's own, a context-switch event sampling
 * every switch with a read of the whole group, and cpu-clock, which times
 * each span (attrib.h).  Leaders are pinned: a group the PMU cannot
 * schedule goes into error state, which stackd counts, instead of being
 * multiplexed silently.  One side-band dummy event per CPU (never
 * disabled) receives COMM/FORK/EXIT and owns the CPU's ring; a second one
 * writes switch records while the worker needs them; every sampler writes
 * into that ring (PERF_EVENT_IOC_SET_OUTPUT).  Groups start
 * disabled: the per-CPU worker (worker_rotate.c) enables one at a time.
 */
#ifndef STACKD_COLLECTOR_H
#define STACKD_COLLECTOR_H

#include "daemon/attribute/attrib.h"
#include "daemon/collect/cost_budget.h"
#include "daemon/attribute/exitlog.h"
#include "daemon/collect/kernel_ops.h"
#include "daemon/plan/plan.h"
#include "daemon/collect/ring.h"
#include "lib/model/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum switch_position {
	SWITCH_LEADER,  /* the switch sampler leads the group (default) */
	SWITCH_MEMBER,  /* the model's first event leads, the sampler is a member:
			 * the layout Intel perf-metrics groups need (slots must
			 * lead), chosen for such groups whatever this says */
	_SWITCH_POSITION_MAX,
};

/* A hybrid CPU's core types (lib/model/model_hybrid.h): each one's PMU
 * ("cpu_core") and its CPUs, as the PMU's sysfs "cpus" file lists them
 * ("0-15").  A group of a core type is opened on that type's CPUs only. */
#define COLLECTOR_MAX_CORE_TYPES 2
struct collector_core_types {
	unsigned n;
	const char *unit[COLLECTOR_MAX_CORE_TYPES];
	const char *cpus[COLLECTOR_MAX_CORE_TYPES];
};

/* Which group the kernel refused, when one of the model's events cannot
 * be counted here (not permission, not descriptors, not a CPU going
 * offline: an event the CPU or a hypervisor's CPUID does not enumerate,
 * a kernel without it, a group the PMU can never hold), so the caller can
 * plan around it instead of stopping. */
struct collector_refusal {
	bool refused;
	unsigned group;            /* plan group index */
	int error;                 /* -errno */
	char why[384];             /* the event and the kernel's answer */
};

struct collector_params {
	const struct plan *plan;   /* the groups to open (copied) */
	struct collector_refusal *refusal;   /* out, may be NULL */
	/* Where a hybrid model's groups count (n 0: a model of one core
	 * type, every group on every CPU). */
	struct collector_core_types core_types;
	const struct kernel_ops *kops;   /* NULL: the real kernel */
	enum switch_position switch_position;
	unsigned ring_pages;       /* data pages per CPU, a power of two */
	/* Which privilege levels the model's events count (the switch
	 * sampler always counts: switches happen in the kernel). */
	bool count_user, count_kernel;
};

struct cpu_group {
	int fds[ACC_MAX_MEMBERS];  /* creation order = order in a group read */
	unsigned n_fds;            /* 0: the group does not count on this CPU
				    * (another core type's: collector_group_here) */
	int sampler_fd;
	uint64_t sampler_id;
	int clock_fd;              /* cpu-clock: samples only in periodic mode */
	uint64_t clock_id;
};

struct cpu_events {
	int cpu;
	int side_fd;               /* dummy event: side-band records, owns the ring */
	int switch_fd;             /* dummy event writing switch records while the
				    * worker needs them; -1 otherwise */
	struct ring ring;
	struct cpu_group groups[PLAN_MAX_GROUPS];   /* by plan group */
	/* switches/s counted at its worker's last rotation (atomic: every
	 * worker reads all of them, since any CPU's switch records cost
	 * every CPU's switches; worker_switch.c) */
	uint64_t switch_rate;
};

struct collector {
	const struct model *model;
	const struct kernel_ops *kops;
	struct plan plan;
	enum switch_position switch_position;
	unsigned ring_pages;
	unsigned n_groups;           /* the plan's: every one is opened */
	bool count_user, count_kernel;
	struct attrib_layout layout[PLAN_MAX_GROUPS];
	size_t n_cpus;
	struct cpu_events *cpus;
	struct exitlog exits;        /* leader exits seen on any CPU, for all */
	struct collector_refusal *refusal;   /* the params' (open only) */
	/* A hybrid model's core types: each one's PMU and CPUs (parsed) */
	unsigned n_types;
	char type_unit[COLLECTOR_MAX_CORE_TYPES][32];
	int *type_cpus[COLLECTOR_MAX_CORE_TYPES];
	size_t type_n_cpus[COLLECTOR_MAX_CORE_TYPES];
};

/* Whether group g is opened on this CPU: a hybrid CPU's group counts only
 * on its core type's CPUs, and the CPU's worker rotates the others only. */
static inline bool collector_group_here(const struct cpu_events *ce, unsigned g)
{
	return ce->groups[g].n_fds > 0;
}

/* Open everything on every online CPU.  On failure nothing stays open, and
 * err holds one line saying what failed, where, and how to fix it. */
int collector_open(const struct collector_params *p, struct collector **ret,
		   char *err, size_t errlen);
void collector_close(struct collector *c);   /* NULL is a no-op */
/* Close every counter group and switch-record event, keeping the side-band
 * events and their rings: a re-plan's old collector goes on recording the
 * processes started, renamed and ended until the new one runs (replan.c),
 * and frees the PMU's counters for it meanwhile. */
void collector_close_groups(struct collector *c);

/* Switch records (PERF_RECORD_SWITCH_CPU_WIDE) into cpu's ring, on its
 * own dummy event.  Opened only while a worker needs them (worker_switch.c):
 * while any such event merely exists, the kernel does the switch-record
 * work on every switch of the host (measured on the development VM: about
 * 5 % per switch with it opened but disabled).  0, or -errno (a kernel before 4.3, a simulated
 * one) with nothing left open. */
int collector_open_switch_records(const struct collector *c, struct cpu_events *cpu);
void collector_close_switch_records(const struct collector *c, struct cpu_events *cpu);

/* Periodic (statistical) sampling, the cost budget's fallback (worker_mode.c,
 * cost_budget.h).  Each group's cpu-clock member is a sampler too, with
 * a period so long it never fires while every switch is sampled; in
 * periodic mode it fires every period_ns of the group's run time on
 * average (cost_budget_clock_period: 1 ms, 1000 Hz per CPU, where a clock
 * sample is cheap; a second of run time then takes 1000 samples, so a
 * task's share over a 1 s interval has a standard error under 1.6 % of
 * the CPU) and the switch sampler gets that long period instead (it
 * counts on, writing no sample).  COLLECTOR_PERIODIC_NS: the period when
 * nothing else is set. */
#define COLLECTOR_PERIODIC_NS COST_BUDGET_FASTEST_CLOCK_NS
/* Never reached (2^62 ns is 146 years; the kernel refuses bit 63), and
 * not 0: PERF_EVENT_IOC_PERIOD works only on an event opened sampling. */
#define COLLECTOR_NEVER_PERIOD (1ULL << 62)

/* Set every group of cpu to periodic (on) or per-switch sampling.  Every
 * group must be disabled: a period change applies from the next enable.
 * 0, or -errno (a kernel without PERF_EVENT_IOC_PERIOD) with the groups
 * put back to per-switch sampling as far as they go. */
int collector_set_periodic(const struct collector *c, struct cpu_events *cpu, bool on);

/* The clock sampler of group g of cpu fires every period_ns from its next
 * enable on (the group disabled).  0 or -errno. */
int collector_set_clock_period(const struct collector *c, struct cpu_events *cpu, unsigned g,
			       uint64_t period_ns);

/* Read group g of cpu (STACKD_READ_FORMAT) into values.  Returns the number
 * of values, -EIO when the group is in error state (a pinned group the PMU
 * could not schedule), or -errno. */
int collector_read_group(const struct collector *c, const struct cpu_events *cpu, unsigned g,
			 uint64_t *values, unsigned max);

/* Descriptors collector_open() and the workers take on each CPU: the
 * side-band event, the worker's wakeup eventfd, and every member (the
 * model's events and the switch sampler) of each planned group. */
size_t collector_fds_per_cpu(const struct plan *p);

/* Whether this machine's PMU counts cycles for us.  0 when it does; otherwise
 * -errno and a reason in why ("cycles: not supported (no hardware PMU)"). */
int collector_probe_hardware(char *why, size_t len);

#endif
