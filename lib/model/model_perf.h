/*
 * model_perf.h - a model with Linux perf's metrics for its CPU added.
 *
 * Every metric of the CPU's perf table (lib/perfdb/perf_set.h) whose events
 * the model's groups count joins the model's own metrics, under perf's name
 * and with perf's number: its MetricExpr evaluated on the group sums.  A
 * metric whose events all sit in one group is evaluated on that group's
 * counts alone (its ratios exact, as perf groups a metric's events); one
 * whose events are spread over groups takes each event from the group
 * that measured the target longest, scaled to the target's whole time, as
 * perf scales a multiplexed count by enabled over running time.
 */
#ifndef STACKD_MODEL_PERF_H
#define STACKD_MODEL_PERF_H

#include "lib/model/model.h"
#include "lib/perfdb/perf_set.h"

/* base with set's metrics added (those its events allow), named name
 * (NULL: base's name).  Built on the heap and kept for the process's
 * life.  NULL when out of memory. */
const struct model *model_perf_attach(const struct model *base, const struct perf_set *set,
				      const char *name);

/* The perf set behind model m, or NULL (a model without perf's metrics). */
const struct perf_set *model_perf_set(const struct model *m);

/* How many of m's metrics come from perf's table (they follow the model's
 * own, in the table's order). */
unsigned model_perf_count(const struct model *m);

/* The index of m's first metric computed by perf's formulas: our names for
 * perf's nodes (a model made from a table), then perf's own; m->n_metrics
 * when none is. */
unsigned model_perf_first(const struct model *m);

#endif
