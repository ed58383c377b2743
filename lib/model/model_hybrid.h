/*
 * model_hybrid.h - one model for a hybrid CPU (Alder Lake and later: P-cores
 * on the cpu_core PMU, E-cores on cpu_atom), made of one model per core
 * type.
 *
 * Each core type counts its own events on its own CPUs, so the composite's
 * groups are the parts' groups, named "<family>@<unit>" ("td_l1@cpu_core",
 * "td_l1@cpu_atom"), and the collector opens each only on the CPUs of its
 * PMU (its sysfs "cpus" file).  A group's counts are then the target's
 * time on that core type: stacks are kept apart per core type, each
 * metric named "<metric>@<unit>", its coverage a share of the time on that
 * core type.  A few figures are also given for both core types together
 * (IPC, Top-Down level 1), each saying how it was combined: weighted by
 * each core type's cycles (so the combined Top-Down is a share of cycles),
 * which for IPC is instructions over cycles summed over both.
 */
#ifndef STACKD_MODEL_HYBRID_H
#define STACKD_MODEL_HYBRID_H

#include "lib/model/model.h"

#define HYBRID_MAX_TYPES 2

/* The composite of parts[i] counting on core type units[i] ("cpu_core"),
 * named name ("alderlake").  Built on the heap, kept for the process's
 * life; NULL when out of memory or the parts do not fit one model. */
const struct model *model_hybrid_build(const char *name, const struct model *const *parts,
				       const char *const *units, unsigned n);

/* How many core types m has (0: not a hybrid composite), with each one's
 * model and PMU, and the first of its groups in m (groups
 * [group_base[i], group_base[i + 1]) are part i's). */
unsigned model_hybrid_parts(const struct model *m, const struct model *parts[HYBRID_MAX_TYPES],
			    const char *units[HYBRID_MAX_TYPES],
			    unsigned group_base[HYBRID_MAX_TYPES + 1]);

/* The core type (unit) group g of m counts on; NULL for a model of one
 * core type. */
const char *model_hybrid_group_unit(const struct model *m, unsigned g);

/* The core type metric k of m is computed for, with that core type's own
 * model and the metric's index there; NULL (and m, k) for a combined
 * figure or a model of one core type. */
const char *model_hybrid_metric_part(const struct model *m, unsigned k, const struct model **part,
				     unsigned *part_k);

#endif
