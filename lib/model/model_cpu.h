/*
 * model_cpu.h - the model for a CPU, named by what it says of itself
 * (lib/perfdb/host_cpu.h: CPUID on x86, MIDR_EL1 on Arm) and matched
 * against Linux perf's own map of CPU ids to tables, as perf does; libpfm4
 * is not asked which CPU this is.
 *
 * A CPU perf maps to a table gets that table's model (model_table.h), or
 * our hand-written model of it (model_hand_tables.h) where libpfm4, which
 * encodes that model's events, knows the CPU; a CPU with a PMU but no
 * table gets a generic hardware model.  The daemon (daemon/model_choice.c,
 * which also decides whether a PMU counts at all) and `stackctl analyze
 * --cpuid` ask the same question here.
 */
#ifndef STACKD_MODEL_CPU_H
#define STACKD_MODEL_CPU_H

#include "lib/model/model.h"
#include "lib/perfdb/host_cpu.h"

#include <stddef.h>

/* The model for CPU c (read from a host, or a --cpuid spelling:
 * c->hypothetical).  pfm_pmu is the core PMU libpfm4 detected here (NULL:
 * none; a hypothetical CPU is taken as one libpfm4 knows).  For a hybrid
 * CPU, units[] gets its core types and models[] one model each (*n_types
 * 2), and *ret is the hybrid model of both (model_hybrid.h); else
 * *n_types is 1 and models[0] is *ret.  why says what was chosen.
 * 0, or -ENOENT. */
int model_for_cpu(const struct host_cpu *c, const char *pfm_pmu, const struct model **ret,
		  const struct model *models[2], const char *units[2], unsigned *n_types,
		  char *why, size_t len);

/* The generic hardware model for c's PMU: architectural Top-Down where its
 * sysfs "cpu" PMU shows perf metrics, else cycles, instructions, branches
 * and caches. */
const struct model *model_generic_for(const struct host_cpu *c);

#endif
