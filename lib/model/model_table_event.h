/*
 * model_table_event.h - the events of one family of a model made from
 * perf's table (model_table.c), as they are collected: how the collector
 * opens each (its spec), the column it is stored under, perf's name for
 * it, and the planner's facts (fixed counter, counter mask, SMT state).
 */
#ifndef STACKD_MODEL_TABLE_EVENT_H
#define STACKD_MODEL_TABLE_EVENT_H

#include "lib/model/model.h"
#include "lib/perfdb/perfdb.h"

struct tevent {
	char spec[192];        /* "cpu/event=0xc2,umask=0x2/", "perf::CYCLES", "r11" */
	char column[48];       /* "uops_retired_slots" */
	char perf_name[128];   /* the table's name: "UOPS_RETIRED.SLOTS" */
	bool fixed;            /* on a fixed counter or PERF_METRICS: no general counter */
	bool paired;           /* AMD: takes a pair of counters */
	uint32_t counters;     /* general counters that may host it, 0: any */
	unsigned when;         /* bit 0: needed with SMT off, bit 1: with SMT on */
};

struct tevent_list {
	struct tevent ev[MODEL_MAX_EVENTS + 1];
	unsigned n;
	unsigned n_base;       /* the first n_base: slots, cycles, instructions */
	bool leads;            /* ev[0] (slots) must lead the group */
};

/* Start a family with its base: TOPDOWN.SLOTS where the table has perf
 * metrics (it must lead them), then cycles and instructions. */
void tevent_list_init(struct tevent_list *l, const struct perfdb_table *t, const char *unit);

/* Add event `name` (as perf's expressions spell it) needed in SMT states
 * `when`.  0, or -ENOENT when it cannot be opened as a core event (not
 * in the table, a modifier we do not apply, another PMU), -E2BIG when the
 * family is full. */
int tevent_add(struct tevent_list *l, const struct perfdb_table *t, const char *unit,
	       const char *name, unsigned when);

#endif
