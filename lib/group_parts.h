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
 *
 * A group stored under another formula version of the same model (a
 * formula changed, or perf's tables moved on) maps onto the family of the
 * same name by column name: the columns the family still has are read,
 * those it no longer has ignored, and the family's columns the group
 * lacks are missing, as for a part; so old intervals are recomputed with
 * the current formulas wherever their events are the ones those need.  A
 * family the model no longer has, a group none of whose columns remain,
 * and every group of another model (its columns may name other events)
 * stay unmapped: their counts are kept, and readers say so (struct
 * recorded_under).
 */
#ifndef STACKD_GROUP_PARTS_H
#define STACKD_GROUP_PARTS_H

#include "lib/model/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GROUP_PARTS_MAX 1024  /* stored groups of the model a reader maps */
#define GROUP_KEYS_MAX 32     /* (model, formula version) pairs it tells apart */
#define GROUP_COL_NONE 0xff   /* a stored column the family no longer has */

/* One stored counter_group row, as the current model reads it. */
struct stored_group {
	int64_t id;
	int family;          /* model group index */
	bool whole;          /* exactly the family's columns, in order */
	int slot;            /* a part: its slot among the parts; -1 when whole */
	unsigned n;          /* stored columns */
	uint8_t col[MODEL_MAX_EVENTS];   /* stored v[k] is family event col[k], or GROUP_COL_NONE */
	uint32_t has;        /* bit e: family event e is one of them */
};

/* The stored groups of one (model, formula version). */
struct group_key {
	char model[64];
	unsigned formula_version;
	unsigned n_mapped;                   /* its groups the reading model maps */
	uint32_t families;                   /* bit f: it has groups of family f (by name) */
	uint32_t counted[MODEL_MAX_GROUPS];  /* bit e: a mapped group of family f counts e */
};

/* The groups a reader maps, in id order (readers add them so; find then
 * bisects), and every (model, formula version) stored. */
struct group_map {
	struct stored_group g[GROUP_PARTS_MAX];
	size_t n;
	unsigned n_slots;    /* stored groups that are parts */
	bool unsorted;       /* added out of id order: find searches linearly */
	struct group_key keys[GROUP_KEYS_MAX];
	unsigned n_keys;
};

/* Intervals of a window recorded under another model or formula version
 * than the reader's, and what the reader made of them. */
#define RECORDED_UNDER_MAX 16
struct recorded_under {
	char model[64];
	unsigned formula_version;
	unsigned intervals;  /* of the window's (a rollup counts as one) */
	/* Its counts went through the current formulas with every event they
	 * need (in the host's SMT state). */
	bool recomputed;
	/* Else the current columns its groups lack, "a,b": the figures that
	 * need them are not computed from it.  Empty when nothing of it
	 * maps (another model; no family or column of it remains): its
	 * counts are kept, no figure is computed from them. */
	char missing[256];
};

/* Sums of one part for one target. */
struct part_sums {
	bool present;
	uint64_t task_clock_ns, context_switches;
	uint64_t v[MODEL_MAX_EVENTS];
};

/* Add a stored row (model, formula version, family name, events as
 * counter_group holds them) to the map, in id order.  It maps when m is its
 * model (any formula version), has its family, and some of its columns;
 * else it is only counted under its (model, version). */
void group_map_add(struct group_map *map, const struct model *m, int64_t id,
		   const char *model_name, unsigned formula_version, const char *name,
		   const char *events);

/* The mapped group of that id, NULL when it is not mapped. */
const struct stored_group *group_map_find(const struct group_map *map, int64_t id);

/* Whether the stored groups are all m's own (its formula version): then no
 * interval can be recorded under anything else. */
bool group_map_only(const struct group_map *map, const struct model *m);

/* What the reading model m (NULL: unknown to this build) makes of the
 * groups stored under r->model, r->formula_version with the host's SMT
 * state: r->recomputed and r->missing. */
void group_map_judge(const struct group_map *map, const struct model *m, bool smt_on,
		     struct recorded_under *r);

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
