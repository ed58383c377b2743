/*
 * model_hand_tables.h - our hand-written models and the perf tables of the
 * CPUs they were written for, so that a hand model's readers (the daemon's
 * model choice, `stackctl analyze`) also get perf's own metrics for it.
 */
#ifndef STACKD_MODEL_HAND_TABLES_H
#define STACKD_MODEL_HAND_TABLES_H

#include "lib/model/model.h"
#include "lib/perfdb/perfdb.h"

struct hand_table {
	const char *table;           /* perf's directory: "skylake" */
	const char *midr;            /* Arm: the one CPU of a shared table; NULL: all */
	const struct model *model;
};

/* The rows, in order; *n gets how many. */
const struct hand_table *model_hand_tables(size_t *n);

/* The perf table of model m: its own for a model made from one
 * (model_perf_set), the first row's for a hand model; NULL when none. */
const struct perfdb_table *model_perf_table(const struct model *m);

const struct perfdb_table *perfdb_table_named(const char *name);

#endif
