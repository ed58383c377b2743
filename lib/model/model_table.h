/*
 * model_table.h - models made from Linux perf's own tables
 * (lib/perfdb/perfdb.h), for every CPU perf has a table for.
 *
 * Families are perf's metric groups (our td_l1 = TopdownL1 or AMD's
 * PipelineL1, td_l2, frontend = DSB/LSD/MicroSeq, flops = Flops), each
 * holding the events its metrics name, split into parts of at most
 * MODEL_MAX_EVENTS; every part carries the base (TOPDOWN.SLOTS where the
 * CPU has perf metrics, cycles, instructions).  Its metrics are perf's
 * (lib/model/model_perf.h), with our names for the Top-Down nodes.
 */
#ifndef STACKD_MODEL_TABLE_H
#define STACKD_MODEL_TABLE_H

#include "lib/model/model.h"
#include "lib/perfdb/perf_set.h"

/* The model of table t for core type unit ("cpu_core", "cpu_atom"; NULL
 * on a CPU of one core type), named name.  Built on the heap, kept for the
 * process's life; NULL when out of memory, t has no such core type, or
 * its metrics make no family. */
const struct model *model_table_build(const struct perfdb_table *t, const char *unit,
				      const char *name);

/* Slots per cycle as the table's formulas write them ("4 *
 * tma_info_core_core_clks", "5 * CPU_CLK_UNHALTED.CORE"), 0 where they
 * read TOPDOWN.SLOTS instead and so never say. */
unsigned model_table_width(const struct perf_set *set);

/* The registry's side (models.c): the model of table t for core type
 * unit, built on first use (NULL: perf has no core metric for that CPU,
 * the generic hardware model serves it); its name ("graniterapids",
 * "neoverse-v3", "alderlake_cpu_atom"); every one, for --list-models
 * (returns how many, at most max, in out); a table's core types (NULL,
 * or "cpu_core" and "cpu_atom"), returning how many. */
const struct model *model_for_table(const struct perfdb_table *t, const char *unit);
void model_table_name(const struct perfdb_table *t, const char *unit, char *buf, size_t len);
size_t model_tables_all(const struct model **out, size_t max);
unsigned model_table_core_types(const struct perfdb_table *t, const char *units[2]);
/* The hybrid model (model_hybrid.h) of a table with two core types, built
 * on first use; NULL for a table of one core type. */
const struct model *model_for_hybrid_table(const struct perfdb_table *t);

#endif
