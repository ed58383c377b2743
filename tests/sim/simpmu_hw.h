/*
 * simpmu_hw.h - the simulated PMU's hardware facts: which core PMUs it
 * knows, how many counters of which kind each has, and which counters an
 * event may use, twice: as the kernel's scheduler sees it (its constraint
 * tables, kernel_constraints.c, applied by simpmu_kernel.c) and as perf's
 * JSON publishes it ("Counter", intel_counters.c and the perf tables), a
 * separate check of where the kernel put it.
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
	/* The kernel's constraint table for this core ("skl": Linux's
	 * intel_skl_event_constraints), "amd_f17h" for AMD's family 17h+
	 * rules, NULL where the simulator has none (Arm, older Intel): the
	 * JSON's counters then stand for the kernel's. */
	const char *ktable;
};

/* NULL for a PMU the simulator does not know. */
const struct simpmu_arch *simpmu_arch_find(const char *pmu);
/* The arch of the table named name (perf's directory name) for the core
 * type and counters of cpu.  0; -EINVAL when there is no such table or core
 * type, or when the counters are missing or disagree with counter.json.
 * (simpmu_new_table refuses cpu_atom, whose PMU type is dynamic; its arch
 * serves the scheduling checks.) */
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
	/* SIMPMU_COUNTER, SIMPMU_SLOTS: the counters perf's JSON allows (its
	 * "Counter" field; fixed ones as the kernel's tables give them).  Not
	 * what the scheduler obeys: a placement outside it is a violation. */
	uint64_t mask;
	unsigned metric;     /* SIMPMU_METRIC: index in PERF_METRICS */
	/* The kernel's constraint (simpmu_kernel.c): the counters
	 * x86_schedule_events() may give it (general i bit i, fixed i bit
	 * 32 + i, perf metric i bit 48 + i), its weight, and AMD's pair flag
	 * (PERF_X86_EVENT_PAIR: an even counter and the odd one after it). */
	uint64_t kmask;
	unsigned kweight;
	bool pair;
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

/* The NMI watchdog's event: pinned cycles (kernel/watchdog_perf.c), so
 * Intel's fixed counter 1 or a general one, Arm's cycle counter or a
 * general one, AMD any general counter: the scheduler's first choice for
 * a cycles event placed before any other. */
void simpmu_hw_watchdog_need(const struct simpmu_arch *a, unsigned n_gp, struct simpmu_need *need);

/* The kernel's constraint of an event of key on arch with n_gp general
 * counters, into need's kmask, kweight and pair (simpmu_kernel.c). */
void simpmu_kernel_constraint(const struct simpmu_arch *a, unsigned n_gp, struct simpmu_key key,
			      struct simpmu_need *need);
/* The kernel table of a perf table's core type ("skl" for skylake), or
 * NULL when the simulator has none. */
const char *simpmu_ktable_for(const char *table, const char *unit);

/* One event on a CPU's list, as x86_schedule_events() sees it. */
struct simpmu_kslot {
	uint64_t kmask;
	unsigned kweight;
	bool pair;
	int prev;            /* the counter it had (hw.idx), -1: never placed */
	int assign;          /* out: its counter */
};
/* x86_schedule_events() on n events, in list order, with n_gp general
 * counters: the fast path (every event keeps its previous counter), else
 * perf_assign_events().  true with every assign set, or false. */
bool simpmu_kernel_assign(struct simpmu_kslot *s, unsigned n, unsigned n_gp);

/* A kernel constraint table entry (kernel_constraints.c, generated): an
 * event matches when (config & cmask) - code <= end - code, as in
 * constraint_match(); the first entry that matches is its constraint. */
struct simpmu_kconstraint {
	uint64_t code, end, cmask, idxmsk;
};
struct simpmu_ktable {
	const char *name;
	const struct simpmu_kconstraint *c;
	size_t n;
};
extern const struct simpmu_ktable simpmu_ktables[];
extern const size_t simpmu_n_ktables;
extern const uint64_t simpmu_kfixed_event_flags;
extern const uint16_t simpmu_amd_pair_codes[];
extern const size_t simpmu_n_amd_pair_codes;

/* Generated from perf's JSON (intel_counters.c). */
struct simpmu_counter_rule {
	const char *json;
	uint32_t config;     /* EventCode | UMask << 8 | Edge << 18 | Any << 21 | Inv << 23 | Cmask << 24 */
	uint32_t gp_mask;
};
extern const struct simpmu_counter_rule simpmu_intel_rules[];
extern const size_t simpmu_n_intel_rules;

#endif
