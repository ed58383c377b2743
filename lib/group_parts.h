/*
 * group_parts.h - stored counter groups back into the model's families.
 *
 * The daemon stores each group it opened (daemon/plan/plan.h): a whole family,
 * with exactly the model's columns, or a part of one, with a subset of
 * them (always with the family's base, cycles).  A reader adds a whole
 * group's counts straight into the family's sums; a part's counts go to
 * a per-target slot, and group_parts_combine() folds the slots into the
 * family: every event is scaled to the family's whole base,
 *     v_e = sum(v_e over parts counting e) * B / sum(B over those parts),
 * B being cycles (task-clock for a family without cycles), so e / cycles
 * is the rate measured by the parts that counted e, and ratios among the
 * events of one part stay exact.  An event no part counted for the target
 * is marked missing (group_sums.missing), never read as 0.
 */
#ifndef STACKD_GROUP_PARTS_H
#define STACKD_GROUP_PARTS_H

#include "lib/model/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GROUP_PARTS_MAX 256   /* stored groups a reader maps */

/* One stored counter_group row, as the current model reads it. */
struct stored_group {
	int64_t id;
	int family;          /* model group index; -1: not the current model's */
	bool whole;          /* exactly the family's columns, in order */
	int slot;            /* a part: its slot among the parts; -1 when whole */
	unsigned n;
	uint8_t col[MODEL_MAX_EVENTS];   /* stored v[k] is family event col[k] */
};

struct group_map {
	struct stored_group g[GROUP_PARTS_MAX];
	size_t n;
	unsigned n_slots;    /* stored groups that are parts */
};

/* Sums of one part for one target. */
struct part_sums {
	bool present;
	uint64_t task_clock_ns, context_switches;
	uint64_t v[MODEL_MAX_EVENTS];
};

/* Add a stored row (name, formula version, events as counter_group holds
 * them) to the map: m NULL, another model, version or family, or a
 * column m does not know make it unmapped (family -1). */
void group_map_add(struct group_map *map, const struct model *m, int64_t id,
		   const char *model_name, unsigned formula_version, const char *name,
		   const char *events);

const struct stored_group *group_map_find(const struct group_map *map, int64_t id);

/* Add one stored row's sums (tc, cs, v[k] by stored k) for a target:
 * straight into sums[family] when whole, else into parts[slot], the
 * parts array being allocated on first need (*parts, map->n_slots).
 * Returns 0, or -ENOMEM. */
int group_parts_add(const struct group_map *map, const struct stored_group *sg,
		    struct group_sums *sums, struct part_sums **parts, uint64_t tc, uint64_t cs,
		    const uint64_t *v);

/* Fold a target's parts into its sums, then free them (*parts = NULL). */
void group_parts_combine(const struct group_map *map, const struct model *m,
			 struct group_sums *sums, struct part_sums **parts);

/* Targets summed (a comm's or a unit's processes): per family, each event
 * at the rate per base of the targets that measured it, scaled to the
 * base of all of them - the fold of one target's parts, over targets.  A
 * process that ran only while one part of a split family counted leaves
 * the other part's events to the processes that were measured by it; an
 * event is missing only when no summed target measured it. */
struct sums_acc_family {
	bool present;
	uint32_t measured;   /* bit e: some target measured event e */
	uint64_t tc, cs;
	uint64_t covered[MODEL_MAX_EVENTS];   /* time each event was counted */
	double base_total;
	double v[MODEL_MAX_EVENTS], base[MODEL_MAX_EVENTS];
};
struct sums_acc {
	struct sums_acc_family f[MODEL_MAX_GROUPS];
};

/* Add one target's family sums (src[m->n_groups]); acc zeroed first. */
void sums_acc_add(struct sums_acc *acc, const struct model *m, const struct group_sums *src);
/* The summed families into out[m->n_groups]. */
void sums_acc_finish(const struct sums_acc *acc, const struct model *m, struct group_sums *out);

#endif
