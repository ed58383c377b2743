/*
 * simpmu_hw.h - the simulated PMU's hardware facts: which core PMUs it
 * knows, how many counters of which kind each has, and which counters an
 * event may use (the kernel's constraint tables and perf's JSON).
 */
#ifndef STACKD_SIMPMU_HW_H
#define STACKD_SIMPMU_HW_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum simpmu_vendor { SIMPMU_INTEL, SIMPMU_AMD, SIMPMU_ARM };

struct simpmu_arch {
	const char *pmu;         /* libpfm4's name */
	const char *json;        /* perf's pmu-events directory (counter rules), or NULL */
	enum simpmu_vendor vendor;
	unsigned gp_smt, gp_nosmt;   /* general counters per logical CPU */
	unsigned n_fixed;        /* Intel fixed counters; Arm: 1, the cycle counter */
	unsigned n_metrics;      /* Intel perf-metrics topdown events; 0: none */
};

/* NULL for a PMU the simulator does not know. */
const struct simpmu_arch *simpmu_arch_find(const char *pmu);

/* Counters as bits: general counter i is bit i, fixed counter i bit 32 + i. */
#define SIMPMU_FIXED(i) (1ULL << (32 + (i)))

enum simpmu_kind {
	SIMPMU_SOFTWARE,   /* no counter (software events, dummy) */
	SIMPMU_COUNTER,    /* a hardware counter from mask */
	SIMPMU_METRIC,     /* an Intel perf-metrics fraction of slots */
	SIMPMU_SLOTS,      /* Intel fixed counter 3, the base of the metrics */
};

struct simpmu_need {
	enum simpmu_kind kind;
	uint64_t mask;       /* SIMPMU_COUNTER, SIMPMU_SLOTS: counters allowed */
	unsigned metric;     /* SIMPMU_METRIC: index in PERF_METRICS */
};

/* What a counting event keys rates by: its type and config after generic
 * hardware events are turned into the PMU's raw codes and privilege bits
 * dropped, so "cycles", "CPU_CLK_UNHALTED:THREAD_P" and "r3c" agree. */
struct simpmu_key {
	uint32_t type;
	uint64_t config;
};

/* The key of attr on arch; -ENOENT for types the simulator has no PMU for. */
int simpmu_hw_key(const struct simpmu_arch *a, const struct perf_event_attr *attr,
		  struct simpmu_key *key);
bool simpmu_hw_key_eq(struct simpmu_key a, struct simpmu_key b);
/* The key every PMU's cycle count goes under. */
struct simpmu_key simpmu_hw_cycles(const struct simpmu_arch *a);

/* The counters attr may use on arch with n_gp general counters.  Returns 0,
 * -EINVAL for what the kernel refuses (filters on slots or metrics). */
int simpmu_hw_need(const struct simpmu_arch *a, unsigned n_gp, bool smt_on,
		   const struct perf_event_attr *attr, struct simpmu_need *need);

/* The NMI watchdog's cycles event: Intel fixed counter 1, Arm the cycle
 * counter, AMD any general counter (the scheduler's first choice for a
 * cycles event created before any other). */
uint64_t simpmu_hw_watchdog_mask(const struct simpmu_arch *a, unsigned n_gp);

/* Generated from perf's JSON (intel_counters.c). */
struct simpmu_counter_rule {
	const char *json;
	uint32_t config;     /* EventCode | UMask << 8 | Edge << 18 | Any << 21 | Inv << 23 | Cmask << 24 */
	uint32_t gp_mask;
};
extern const struct simpmu_counter_rule simpmu_intel_rules[];
extern const size_t simpmu_n_intel_rules;

#endif
