/*
 * model.h - what a microarchitecture model tells the collector and readers.
 *
 * A model names the counter groups to open (one libpfm4 event string, or a
 * sysfs pseudo event "pmu/name/", per member) and turns the *summed* counts of
 * those groups into metrics at query time.  Counts are stored additive, per
 * group, so any window can be summed exactly.  A ratio of two events of one
 * group is computed inside that group (same time, no cross-group mixing); a
 * family the plan had to split over groups mixes them: each part's events
 * are scaled to the family's cycles (lib/group_parts.h), so a ratio across
 * two parts compares different stretches of time.
 *
 * The collector adds its context-switch sampler to every group (one sample
 * per switch, reading the group) and measures each group's time on the
 * target with a cpu-clock member.  Those arrive here as context_switches and
 * task_clock_ns; task_clock_ns of a group is also how long that group
 * measured the target, which gives each metric its coverage.  Hardware
 * models list cycles in every group (with instructions and slots where
 * fixed counters host them: Intel, Arm's cycles).
 *
 * Models are pure: no globals written, no I/O, no logging, so stackd and
 * `stackctl analyze` run the very same formulas.
 */
#ifndef STACKD_MODEL_H
#define STACKD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MODEL_MAX_EVENTS  16  /* model events per group (stored as v0..v15) */
#define MODEL_MAX_GROUPS  16
#define MODEL_MAX_METRICS 400 /* our own, and perf's (model_perf.h) */

struct model_event {
	const char *name;    /* libpfm4 string ("perf::PAGE-FAULTS") or "cpu/slots/" */
	const char *column;  /* name of the count in the store and the API: "page_faults" */
	/* How `perf stat` names it (Linux perf's JSON name, "UOPS_ISSUED.ANY",
	 * or a generic/sysfs name, "cycles", "topdown-fe-bound"): what
	 * `stackctl analyze` matches and `--perf-command` prints.  NULL: as name. */
	const char *perf_name;
	/* Needs no general-purpose counter: an Intel fixed counter (cycles,
	 * instructions, slots) or a perf-metrics pseudo event. */
	bool fixed;
	/* Takes two general counters (AMD large-increment events such as
	 * RETIRED_SSE_AVX_FLOPS, paired with the merge event by the kernel). */
	bool paired;
};

struct model_group {
	const char *name;                  /* family, e.g. "faults", "topdown_l1" */
	const struct model_event *events;  /* in the order stored as v0, v1, ... */
	unsigned n_events;
	/* The first event must lead the group (Intel perf metrics need `slots`
	 * as leader); the collector's switch sampler then joins as a member. */
	bool model_leads;
};

/* How the planner (daemon/plan/plan.c) may split a group ("family") that needs
 * more counters than the host has.  A family's events are compared with
 * its base (cycles, or task-clock when it has none) in every part; events
 * whose formulas also take ratios or differences among themselves name
 * one ratio set, and a set is never split: it is counted over the same
 * time in one part, so those ratios stay exact. */
struct model_ratio_set {
	const char *group;     /* the family: "td_l1" */
	const char *columns;   /* its events that must share a part: "uops_issued,retire_slots" */
};

/* When an event is counted at all. */
enum event_when {
	EVENT_ALWAYS,
	EVENT_SMT_ON,    /* only when the host runs two threads per core (perf's #SMT_on) */
	EVENT_SMT_OFF,   /* only when it does not */
};

/* Facts about one event (by column, in every family that has it) beyond
 * its encoding: when it is counted, and which general counters can host it
 * (bit i: counter i; 0: any).  Intel publishes the masks in the "Counter"
 * and "CounterHTOff" fields of Linux perf's pmu-events JSON. */
struct model_event_rule {
	const char *column;
	enum event_when when;
	uint32_t counters_smt, counters_nosmt;
};

enum metric_unit {
	METRIC_FRACTION,  /* of all slots (Top-Down) or of time: 0..1 */
	METRIC_RATIO,     /* IPC, CPI, per-cycle figures */
	METRIC_RATE,      /* per second of the target's CPU time */
	METRIC_COUNT,
	_METRIC_UNIT_MAX,
};

/* One node of the model's stack tree, or a scalar metric (parent NULL). */
struct model_metric {
	const char *name;    /* "frontend_bound", "page_faults_per_cpu_s" */
	const char *parent;  /* tree parent's name, NULL at the top */
	enum metric_unit unit;
	const char *help;
	/* The stack the node belongs to ("topdown", "frontend", "flops",
	 * "cpi"); NULL for a scalar such as ipc.  Nodes of one stack with no
	 * parent are its first level and sum to 1. */
	const char *stack;
	/* The table's column title (`stackctl top`): short, at most 10
	 * characters, upper case ("FE", "CM-BE"); NULL: a reader's own or the
	 * name.  Every stack node has one, so a family's columns fit. */
	const char *title;
};

/* The sums of one group for one target (process, comm, unit...) over a window. */
struct group_sums {
	bool present;              /* the target ran while this group was enabled */
	uint64_t task_clock_ns;    /* time this group measured the target */
	/* The time its least-measured event was counted, for coverage: a
	 * split family's parts each count only some events (lib/group_parts.c).
	 * 0: task_clock_ns (a whole group counts every event all along). */
	uint64_t covered_ns;
	uint64_t context_switches;
	uint64_t v[MODEL_MAX_EVENTS];
	/* Bit e set: event e was not measured (a perf recording that lacks
	 * it, or no part of a split family counted it for this target:
	 * lib/group_parts.c); formulas read it as missing, not as 0. */
	uint32_t missing;
};

struct metric_value {
	bool valid;        /* false: the group(s) it needs did not measure the target */
	double value;
	double coverage;   /* share of the target's time its group(s) measured, 0..1 */
	/* The events count the whole physical core, not only the target's
	 * thread (Intel before Ice Lake with SMT on): say so, do not charge it. */
	bool core_scoped;
};

/* What the formulas need to know beyond the counts. */
struct model_context {
	bool smt_on;       /* the measured host ran two threads per core */
	/* Regression CPI stack weights (generic model): base CPI, then one
	 * cycles-per-event weight per regressor, fitted over interval records
	 * (lib/model/cpi_fit.h); NULL when not fitted. */
	const double *cpi_weights;
	/* Slots per cycle as the measured host's PMU reports them (Arm's
	 * caps/slots, PMMIR_EL1.SLOTS: perf's #slots); 0: the model's
	 * pipeline_width. */
	unsigned slots;
	/* The measured CPU as perf's PERF_CPUID names it ("0x00000000410fd490"),
	 * for formulas that differ by revision (perf's strcmp_cpuid_str());
	 * NULL unknown. */
	const char *cpuid;
};

enum model_vendor {
	VENDOR_NONE,
	VENDOR_INTEL,
	VENDOR_AMD,
	VENDOR_ARM,
	/* A generic hardware model (model_hwgeneric.c): a PMU with no table,
	 * counted through events every PMU driver defines; the CPU's vendor
	 * is not the model's to know. */
	VENDOR_GENERIC,
};

struct model {
	const char *name;          /* as libpfm4 names the PMU: "skl", or "software" */
	const char *description;
	unsigned formula_version;  /* bump when a formula changes meaning */
	const char *const *pmus;   /* libpfm4 PMU names served, NULL-terminated */
	unsigned pipeline_width;   /* slots per cycle; 0 when not applicable */
	/* The stage whose slots Top-Down counts, as the vendor names it
	 * ("issue": Intel's allocation; "dispatch": AMD, Arm's rename to
	 * backend), and the multi-stage stacks (NULL-terminated; each stack
	 * named by its stage, "issue", "commit") measured in those same
	 * slots (Eyerman et al., multi-stage CPI stacks, ISPASS 2018, section
	 * III-A; docs/references.md).
	 * What `show` titles the stacks with (model_stack_title). */
	const char *slot_stage;
	const char *const *stage_stacks;
	enum model_vendor vendor;
	/* General-purpose counters per hardware thread with SMT on and off.
	 * The NMI watchdog, when on, costs one (on Intel it takes the fixed
	 * cycles counter, so cycles needs a general one). */
	unsigned gp_counters_smt, gp_counters_nosmt;
	/* Fixed counters the PMU has per thread (Intel: instructions, cycles,
	 * ref-cycles, and slots from Ice Lake; Arm: the cycle counter; AMD: 0). */
	unsigned fixed_counters;
	/* The planner's input (NULL/0: every event always counted, anywhere,
	 * and each compared with its family's base only). */
	const struct model_ratio_set *ratio_sets;
	unsigned n_ratio_sets;
	const struct model_event_rule *event_rules;
	unsigned n_event_rules;
	/* Peak FLOP per cycle per core, double and single precision (0: no
	 * FLOPS family). */
	unsigned peak_flop_dp, peak_flop_sp;
	/* Half precision (AVX512-FP16) and AMX BF16 FLOP per cycle per core,
	 * where the PMU counts them (0: not counted). */
	unsigned peak_flop_hp, peak_flop_amx;
	/* The vector width (bits) of the FP instructions that reach that peak
	 * on all the core's FMA units: narrower ones leave lanes empty (the
	 * FLOPS stack's width loss), as wide or wider ones do not (Ice Lake
	 * client: 256, two 256-bit FMA ports; a 512-bit FMA takes both).  The
	 * FMA units are peak_flop_dp / (2 x peak_vector_bits / 64). */
	unsigned peak_vector_bits;
	const struct model_group *groups;
	unsigned n_groups;
	const struct model_metric *metrics;
	unsigned n_metrics;
	/* sums[n_groups] -> out[n_metrics].  Must not fail: a metric whose
	 * inputs are missing comes back with valid = false. */
	void (*compute)(const struct model *m, const struct group_sums *sums,
			const struct model_context *ctx, struct metric_value *out);
	/* Constants only the model's own code reads (the generic models'
	 * regressor columns, struct generic_spec); NULL when none. */
	const void *detail;
};

/* The registry (models.c). */
extern const struct model model_software;
extern const struct model model_skl, model_skx, model_icl, model_icx, model_spr;
extern const struct model model_zen4, model_zen3, model_zen2;
extern const struct model model_arm_n1, model_arm_n2, model_arm_v1, model_arm_v2;
extern const struct model model_hw_generic, model_hw_generic_td, model_hw_generic_stalls;
const struct model *model_find(const char *name);          /* NULL when unknown */
const struct model *model_for_pmu(const char *pmu);        /* by libpfm4 PMU name */
const struct model *const *model_all(size_t *n);
/* The first model that computes the metric, NULL when none does: a name
 * some model knows is missing from the data, not misspelt. */
const struct model *model_with_metric(const char *metric_name);

/* Helpers for models and readers (model_lookup.c). */
uint64_t model_total_task_clock(const struct model *m, const struct group_sums *sums);
int model_group_index(const struct model *m, const char *group_name);  /* -1 if none */
int model_metric_index(const struct model *m, const char *metric_name); /* -1 if none */
int model_event_index(const struct model_group *g, const char *column); /* -1 if none */
/* General-purpose counters one group needs, and what the PMU offers. */
unsigned model_group_gp_needed(const struct model_group *g);
unsigned model_gp_budget(const struct model *m, bool smt_on, bool watchdog_on);
/* The heading of a stack measured in slots, from the model's facts: its
 * slot stage and width, and a level 3 of cycles where its tree has one
 * ("Top-Down: share of dispatch slots (6 per cycle)"; where the slot
 * stage and a stage stack share a name, as Intel's two "issue"s, each
 * says which it is), and of the frontend thesis's cycle decomposition
 * ("fe_cycles", shares of cycles); -ENOENT for a stack in other units
 * (FLOPS, CPI), which a reader titles itself. */
int model_stack_title(const struct model *m, const char *stack, char *buf, size_t len);
/* The heading of the two-stage ranges (name_low .. name_high), naming both
 * stages; -ENOENT for a model with no second stage. */
int model_ranges_title(const struct model *m, char *buf, size_t len);
/* The name perf prints for an event. */
const char *model_event_perf_name(const struct model_event *e);
/* "page_faults,migrations": the comma-separated columns of a group, as stored
 * in counter_group.events so a reader can tell what v0.. mean. */
void model_group_columns(const struct model_group *g, char *buf, size_t len);

#endif
