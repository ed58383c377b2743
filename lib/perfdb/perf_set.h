/*
 * perf_set.h - perf's metrics of one CPU table, parsed once and evaluated on
 * whatever counts a caller has: `stackctl analyze` on a recording's rows, a
 * model (lib/model/model_perf.c) on its groups' sums.
 *
 * "Same names and numbers as perf" then holds by construction: the name is
 * the JSON's MetricName, the number its MetricExpr (lib/perfdb/metric_expr.h)
 * times its ScaleUnit, for the Linux version perfdb_source names.
 */
#ifndef STACKD_PERF_SET_H
#define STACKD_PERF_SET_H

#include "lib/perfdb/perfdb.h"

#include <stdbool.h>

struct perf_set;

/* What a set is evaluated on. */
struct perf_values {
	/* The count of an event named as perfdb.h spells it; 0 and *out, or
	 * -ENOENT when it was not counted. */
	int (*event)(void *ctx, const char *name, double *out);
	void *ctx;
	bool smt_on;           /* #SMT_on */
	bool core_wide;        /* #core_wide: counts cover whole cores */
	double slots;          /* #slots: the PMU's caps/slots (Arm); 0 unknown */
	double cpus_online;    /* #num_cpus_online, #num_cpus; 0 unknown */
	double cores;          /* #num_cores; 0 unknown */
	double packages;       /* #num_packages, #num_dies; 0 unknown */
	double tsc_hz;         /* #system_tsc_freq; 0 unknown */
	double duration_s;     /* duration_time; 0 unknown */
	const char *cpuid;     /* for strcmp_cpuid_str(); NULL unknown */
};

/* The parsed metrics of table t for core type unit ("cpu_core",
 * "cpu_atom"; NULL: a table without core types).  Built once per table and
 * unit, kept for the life of the process; NULL when out of memory or when
 * unit names no core type of t. */
const struct perf_set *perf_set_get(const struct perfdb_table *t, const char *unit);

unsigned perf_set_count(const struct perf_set *s);
const struct perfdb_metric *perf_set_metric(const struct perf_set *s, unsigned i);
const struct perfdb_table *perf_set_table(const struct perf_set *s);
int perf_set_index(const struct perf_set *s, const char *name);  /* -1: none */
/* The table's event of that name (as perf's expressions spell it), or NULL. */
const struct perfdb_event *perf_set_event(const struct perf_set *s, const char *name);

/* Metric i's expression value (before ScaleUnit): 0, -ENOENT when an event
 * it needs was not counted, -EDOM when it cannot be computed (a division by
 * zero: perf prints nothing then either), -ELOOP on a metric that refers to
 * itself. */
int perf_set_eval(const struct perf_set *s, unsigned i, const struct perf_values *v,
		  double *value);

/* The events metric i needs (through the metrics it refers to) when the
 * host's SMT state is smt_on: fn once per name, perhaps more than once for
 * one name.  Returns 0, or -ELOOP. */
int perf_set_needs(const struct perf_set *s, unsigned i, bool smt_on,
		   void (*fn)(void *ctx, const char *event), void *ctx);

/* What perf prints for metric pm with expression value raw: raw times the
 * ScaleUnit's factor.  *fraction: the unit is a percentage ("100%",
 * "1percent of slots"), and the value returned is then a share 0..1 (the
 * printed figure / 100), as every stackd surface holds shares; *unit: the
 * rest of the ScaleUnit ("GHz", "per instruction"; "" when none). */
double perf_scale(const struct perfdb_metric *pm, double raw, bool *fraction,
		  const char **unit);

/* Whether a (a metric's event name) and b (a counted event's perf name)
 * are the same count: case apart, a "pmu/EVENT/" with no terms is EVENT, and
 * the names the kernel maps to one event are one ("cycles" and
 * CPU_CLK_UNHALTED.THREAD, ...; perf_set.c lists them with their source). */
bool perf_event_same(const char *a, const char *b);

#endif
