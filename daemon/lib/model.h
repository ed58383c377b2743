/*
 * model.h - what a microarchitecture model tells the collector and readers.
 *
 * A model names the counter groups to open (one libpfm4 event string, or a
 * sysfs pseudo event "pmu/name/", per member) and turns the *summed* counts of
 * those groups into metrics at query time.  Counts are stored additive, per
 * group, so any window can be summed exactly and every ratio is computed
 * inside one group (same time, no cross-group mixing; DESIGN.md section 4).
 *
 * The collector adds two members of its own to every group: the
 * context-switch event that samples (one sample per switch, reading the
 * group) and task-clock.  Their sums arrive here as context_switches and
 * task_clock_ns; task_clock_ns of a group is also how long that group
 * measured the target, which gives each metric its coverage.
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
#define MODEL_MAX_METRICS 64

struct model_event {
	const char *name;    /* libpfm4 string ("perf::PAGE-FAULTS") or "cpu/slots/" */
	const char *column;  /* name of the count in the store and the API: "page_faults" */
};

struct model_group {
	const char *name;                  /* family, e.g. "faults", "topdown_l1" */
	const struct model_event *events;  /* in the order stored as v0, v1, ... */
	unsigned n_events;
	/* The first event must lead the group (Intel perf metrics need `slots`
	 * as leader); the collector's switch sampler then joins as a member. */
	bool model_leads;
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
};

/* The sums of one group for one target (process, comm, unit...) over a window. */
struct group_sums {
	bool present;              /* the target ran while this group was enabled */
	uint64_t task_clock_ns;    /* time this group measured the target */
	uint64_t context_switches;
	uint64_t v[MODEL_MAX_EVENTS];
};

struct metric_value {
	bool valid;        /* false: the group(s) it needs did not measure the target */
	double value;
	double coverage;   /* share of the target's time its group(s) measured, 0..1 */
};

struct model {
	const char *name;          /* as libpfm4 names the PMU: "skl", or "software" */
	const char *description;
	unsigned formula_version;  /* bump when a formula changes meaning */
	const char *const *pmus;   /* libpfm4 PMU names served, NULL-terminated */
	unsigned pipeline_width;   /* slots per cycle; 0 when not applicable */
	const struct model_group *groups;
	unsigned n_groups;
	const struct model_metric *metrics;
	unsigned n_metrics;
	/* sums[n_groups] -> out[n_metrics].  Must not fail: a metric whose
	 * inputs are missing comes back with valid = false. */
	void (*compute)(const struct model *m, const struct group_sums *sums,
			struct metric_value *out);
};

/* The registry (models.c). */
extern const struct model model_software;
const struct model *model_find(const char *name);          /* NULL when unknown */
const struct model *const *model_all(size_t *n);

/* Helpers for models and readers. */
uint64_t model_total_task_clock(const struct model *m, const struct group_sums *sums);
int model_group_index(const struct model *m, const char *group_name);  /* -1 if none */
/* "page_faults,migrations": the comma-separated columns of a group, as stored
 * in counter_group.events so a reader can tell what v0.. mean. */
void model_group_columns(const struct model_group *g, char *buf, size_t len);

#endif
