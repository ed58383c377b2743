/*
 * simpmu_hw.h - the simulated PMU's hardware facts: which core PMUs it
 * knows, how many counters of which kind each has, and which counters an
 * event may use (the kernel's constraint tables and perf's JSON).
 */
#ifndef STACKD_SIMPMU_HW_H
#define STACKD_SIMPMU_HW_H

#include "lib/perfdb/perfdb.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct simpmu_table_cpu;

enum simpmu_vendor { SIMPMU_INTEL, SIMPMU_AMD, SIMPMU_ARM };

struct simpmu_arch {
	const char *pmu;         /* libpfm4's name */
	const char *json;        /* perf's pmu-events directory (counter rules), or NULL */
	enum simpmu_vendor vendor;
	unsigned gp_smt, gp_nosmt;   /* general counters per logical CPU */
	unsigned n_fixed;        /* Intel fixed counters; Arm: 1, the cycle counter */
	unsigned n_metrics;      /* Intel perf-metrics topdown events; 0: none */
	/* A CPU of Linux perf's tables (simpmu_table.c): its table and core
	 * type ("cpu_core"; NULL on a CPU of one type).  NULL for the PMUs
	 * above, whose rules are the kernel's tables and intel_counters.c. */
	const struct perfdb_table *table;
	const char *unit;
};

/* NULL for a PMU the simulator does not know. */
const struct simpmu_arch *simpmu_arch_find(const char *pmu);
/* The arch of the table named name (perf's directory name) for the core
 * type and counters of cpu.  0; -EINVAL when there is no such table or core
 * type, when the counters are missing or disagree with counter.json, or for
 * a core type the simulator does not model (cpu_atom: its PMU type is
 * dynamic). */
int simpmu_arch_from_table(const char *name, const struct simpmu_table_cpu *cpu,
			   struct simpmu_arch *a);

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
 * dropped, so "cycles", "CPU_CLK_UNHALTED:THREAD_P" and "r3c" agree; and
 * config1, which tells apart events of one code (Intel's offcore_rsp,
 * ldlat and frontend values). */
struct simpmu_key {
	uint32_t type;
	uint64_t config;
	uint64_t config1;
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

/* simpmu_hw_need for a table's arch (simpmu_table.c). */
int simpmu_table_need(const struct simpmu_arch *a, unsigned n_gp, struct simpmu_key key,
		      struct simpmu_need *need);

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
