/*
 * simpmu_int.h - the simulated PMU's state, shared by its files only.
 *
 * Event states follow the kernel's (include/linux/perf_event.h): OFF
 * (disabled), INACTIVE (enabled, not on counters), ACTIVE (counting), ERROR
 * (a pinned group that could not be put on counters; reads give 0 bytes
 * until it is enabled again).  A group's state is its leader's.
 */
#ifndef STACKD_SIMPMU_INT_H
#define STACKD_SIMPMU_INT_H

#include "simpmu.h"
#include "simpmu_hw.h"

#include <time.h>

#define SIMPMU_FD_BASE    100000   /* far from any real descriptor */
#define SIMPMU_MAX_GROUP  32
#define SIMPMU_MAX_RATES  64
#define SIMPMU_MAX_METRICS 8
#define SIMPMU_MASK48     ((1ULL << 48) - 1)
#define SIMPMU_MAX_PERIOD ((1ULL << 47) - 1)   /* x86_pmu.max_period: a PMI before a wrap */

/* A ring lives from mmap_ring to munmap_ring (then every event writing
 * into it loses it, as perf_mmap_close detaches them). */
struct sim_ring {
	unsigned char *map;       /* header page + data */
	size_t len, page;
	uint64_t data_size;
	uint64_t lost;            /* records dropped since the last LOST record */
	uint64_t lost_total;
	int cpu;
	struct sim_ring *next;
};

struct sim_event {
	int fd, cpu;
	struct perf_event_attr attr;
	uint64_t id;
	struct sim_event *leader;                     /* itself for a leader */
	struct sim_event *members[SIMPMU_MAX_GROUP];  /* leader only: creation order, [0] = leader */
	unsigned n_members;
	struct simpmu_need need;
	int hw_idx;               /* its counter when last placed (hw.idx), -1: never */
	struct simpmu_key key;
	enum simpmu_state state;
	uint64_t count;           /* the kernel's 64-bit count */
	uint64_t hw, hw_prev;     /* the 48-bit counter, and its value last folded into count */
	uint64_t since_sample;    /* software events: counts (cpu-clock: ns running)
				   * toward sample_period */
	uint64_t t_enabled, t_running, t_stamp;
	struct sim_ring *ring;    /* its own mapping */
	struct sim_ring *output;  /* where its records go: ring or a SET_OUTPUT target's */
	clockid_t clock;          /* CLOCK_MONOTONIC unless use_clockid says otherwise */
};

struct sim_rate {
	struct simpmu_key key;
	double per_cycle;
	uint64_t truth;           /* floor(per_cycle * cycles of all its run time) */
};

struct simpmu_task {
	const struct simpmu *sim;
	pid_t pid, tid;
	pid_t ppid, ptid;         /* set by simpmu_fork */
	char comm[16];
	double cycles_per_ns;
	uint64_t run_ns, cycles;
	struct sim_rate rates[SIMPMU_MAX_RATES];
	unsigned n_rates;
	struct simpmu_task *next;
};

struct sim_cpu {
	struct simpmu_task *cur;
	uint32_t reserve_mask;    /* other user: these general counters exactly, or */
	unsigned reserve_k;       /* any k of them */
	bool reserve_held;
	int reserve_idx[32];      /* the counters the other user last had (hw.idx) */
	int wd_idx;               /* the watchdog's */
	bool other_reader;        /* simpmu_other_reader: */
	uint64_t other_id;        /* its id on our switch samples (0: ours) */
	int64_t other_offset_ns;  /* its clock minus ours */
	struct simpmu_task *preempt_by;   /* simpmu_preempt_on_enable */
	uint64_t preempt_ns;
	uint64_t td_slots;        /* Intel fixed counter 3 since its last reset */
	uint64_t td_metric[SIMPMU_MAX_METRICS];   /* slots of each class since then */
};

struct simpmu {
	const struct simpmu_arch *arch;   /* a static one, or table_arch */
	/* an event this host's kernel refuses (simpmu_refuse_event) */
	bool refuse;
	uint32_t refuse_type;
	uint64_t refuse_config;
	int refuse_cpu;           /* -1: every CPU */
	int refuse_errno;
	struct simpmu_arch table_arch;
	char sysfs_root[64];      /* "" until made */
	struct simpmu_params p;
	unsigned n_gp;
	struct simpmu_need wd_need;   /* the NMI watchdog's event */
	uint64_t now_ns;
	uint64_t next_id;
	struct sim_cpu *cpus;
	struct sim_event **ev;    /* by fd - SIMPMU_FD_BASE */
	size_t n_ev;
	struct sim_ring *rings;
	struct simpmu_task *tasks;
	struct simpmu_task *idle;
	unsigned violations;
	char violation[256];
};

/* simpmu.c */
struct sim_event *simpmu_event(const struct simpmu *sim, int fd);
int simpmu_event_add(struct simpmu *sim, struct sim_event *e);   /* the fd, or -ENOMEM */
void simpmu_event_remove(struct simpmu *sim, struct sim_event *e);
void simpmu_violation(struct simpmu *sim, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* simpmu_sched.c: put cpu's enabled events on counters after any change. */
void simpmu_sched(struct simpmu *sim, int cpu);
void simpmu_set_state(struct simpmu *sim, struct sim_event *leader, enum simpmu_state st);
void simpmu_times_update(struct simpmu *sim, struct sim_event *leader);
/* Whether the group alone fits an empty PMU (the kernel's validate_group). */
bool simpmu_group_fits(const struct simpmu *sim, struct sim_event *const *evs, unsigned n);

/* simpmu_sysfs.c: the host's core PMU as sysfs shows it, in a temporary
 * directory (sim->sysfs_root); removed by simpmu_sysfs_remove. */
int simpmu_sysfs_make(struct simpmu *sim);
void simpmu_sysfs_remove(struct simpmu *sim);

/* simpmu_run.c: simpmu_encode with the reason of a failure in err. */
int simpmu_encode_err(const struct simpmu *sim, const char *name, struct perf_event_attr *attr,
		      char *err, size_t errlen);

/* simpmu_count.c */
void simpmu_fold(struct sim_event *e);
void simpmu_topdown_update(struct simpmu *sim, int cpu);
void simpmu_count_cpu(struct simpmu *sim, int cpu, struct simpmu_task *t, uint64_t dur_ns);
/* The read_format layout of e's read into buf (room for len bytes): bytes
 * written, or -ENOSPC. */
ssize_t simpmu_read_values(struct simpmu *sim, struct sim_event *e, void *buf, size_t len);

/* simpmu_ring.c: records; the writer's output ring takes them. */
/* Write one record (header included, size a multiple of 8); a full ring
 * drops it and counts it lost, announced by a LOST record once there is room. */
void simpmu_ring_write(struct simpmu *sim, const struct sim_event *writer, const void *rec,
		       size_t size, const struct simpmu_task *cur);
void simpmu_ring_sample(struct simpmu *sim, struct sim_event *sampler, const struct simpmu_task *out);

#endif
