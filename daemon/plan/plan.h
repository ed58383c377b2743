/*
 * plan.h - the counter groups stackd opens on this host, planned for its PMU.
 *
 * A model lists families ("td_l1", "fe_uops", ...): the events whose ratios
 * its formulas take.  A family that needs more general-purpose counters
 * than the host has free (SMT halves them on Intel before Ice Lake, the
 * NMI watchdog takes one, another PMU user may hold some) is split into
 * parts that each fit, along its ratio sets only (model.h): every part
 * carries the family's base (cycles, and its events on fixed counters:
 * instructions and slots on Intel), and readers
 * compare each event with the base of the part that counted it
 * (model_combine_parts).  A family that cannot fit even so is left out,
 * with the reason, instead of being opened to sit in error state.
 *
 * Pure: no I/O (plan_detect_budget reads sysfs/procfs and is separate).
 */
#ifndef STACKD_PLAN_H
#define STACKD_PLAN_H

#include "lib/model/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLAN_MAX_GROUPS 32

/* What the host offers each logical CPU. */
struct plan_budget {
	bool smt_on;
	bool watchdog_on;      /* kernel.nmi_watchdog holds a counter */
	unsigned reserved;     /* general counters another PMU user holds */
	unsigned gp_total;     /* general counters per thread for this SMT state */
	unsigned gp_free;      /* left for stackd's events */
	bool cycles_on_fixed;  /* cycles may use a fixed counter (free of the watchdog) */
	bool watchdog_takes_gp;  /* the watchdog holds a general counter (no fixed ones: AMD) */
	bool unlimited;        /* software events: no counter budget */
	char counters_from[200];  /* where gp_total comes from: the host's PMU or the model */
	char watchdog_from[200];  /* how watchdog_on was told ("": assumed) */
	bool no_perf_metrics;  /* no slots/topdown-* (a guest's vPMU): families needing them drop */
	/* Policy (plan_auto.c): families = auto (the default families sized
	 * to this budget), reserved_counters = auto (one more general counter
	 * held back for other tools where that costs the plan no part). */
	bool families_auto;
	bool spare_one;
};

/* One perf_event group to open on every CPU: a family or a part of one. */
struct plan_group {
	unsigned family;                    /* the model group index */
	unsigned part, n_parts;             /* 1-based; n_parts 1: the whole family */
	unsigned n_events;
	uint8_t events[MODEL_MAX_EVENTS];   /* family event indices, as stored v0, v1, ... */
	unsigned gp_needed;                 /* general counters it takes */
	unsigned fixed_needed;              /* fixed counters it takes */
};

struct plan_family {
	bool wanted;             /* asked for (the families setting) */
	bool collected;          /* at least one group counts it */
	bool refused;            /* the host would not open it (plan_drop.h) */
	unsigned n_parts;
	char why[384];           /* split or left out: why; "" otherwise */
};

struct plan {
	const struct model *model;
	struct plan_budget budget;
	struct plan_group groups[PLAN_MAX_GROUPS];
	unsigned n_groups;
	struct plan_family families[MODEL_MAX_GROUPS];
};

/* The budget of a model's PMU on a host in this state, with the model's
 * counter figures. */
void plan_budget_for(const struct model *m, bool smt_on, bool watchdog_on, unsigned reserved,
		     struct plan_budget *out);
/* The same with gp general counters per thread, as the host reported them
 * (from says where). */
void plan_budget_set_total(struct plan_budget *b, unsigned gp, const char *from);

/* Plan the families not turned off.  Returns 0 when at least one group is
 * planned, -ENOSPC when nothing fits (err says why), -EINVAL on a model
 * whose rules do not match its groups (a bug: err names it). */
int plan_make(const struct model *m, const bool off[MODEL_MAX_GROUPS],
	      const struct plan_budget *b, struct plan *out, char *err, size_t errlen);

/* The host's budget: SMT from /sys/devices/system/cpu/smt/active, the
 * watchdog as holding a counter when the perf hard-lockup detector runs
 * (plan_host.h), the general counters per thread from the model's figure
 * for that SMT state, or the CPU's when a hypervisor exposes fewer. */
void plan_detect_budget(const struct model *m, unsigned reserved, struct plan_budget *out);
bool plan_host_smt_on(void);
bool plan_host_watchdog_on(void);
/* The same for a host whose files are copied under root (stackd --plan
 * --host DIR): false where the files do not say. */
bool plan_root_smt_on(const char *root);
bool plan_root_watchdog_on(const char *root);
/* General counters per thread as the CPU reports them (CPUID leaf 0xA, via
 * libpfm4's architectural Intel PMU; name: that PMU's); 0 when it does not
 * (AMD, Arm, no PMU, LIBPFM_FORCE_PMU). */
unsigned plan_host_counters(char *name, size_t len);
/* b with the CPU's figure when it is below the model's (a hypervisor that
 * exposes fewer counters; plan_budget_set_total). */
void plan_apply_host_counters(struct plan_budget *b);

/* Every family of m whole, in the model's order: what a host with counters
 * to spare opens, and what the store registers when given no plan. */
void plan_whole(const struct model *m, struct plan *out);

/* "cycles,instructions,uops_issued": the stored columns of group g (as
 * counter_group.events), and the event names as opened. */
void plan_group_columns(const struct plan *p, unsigned g, char *columns, size_t clen,
			char *names, size_t nlen);

/* Whether a and b open the same perf_event groups in the same order (same
 * model, family, part and events per group): a reload whose new plan
 * equals the running one reopens nothing. */
bool plan_groups_equal(const struct plan *a, const struct plan *b);
/* The index in p of the group equal to g, or -1: where a group's
 * per-group data goes when the plan changes. */
int plan_find_group(const struct plan *p, const struct plan_group *g);

/* The share of the time family f is counted (one of its groups is on;
 * groups take equal turns: worker_rotate.c), and the share each of its
 * events is (a split family's are in one part each); 0: not collected. */
double plan_family_share(const struct plan *p, unsigned f);
double plan_event_share(const struct plan *p, unsigned f);

/* "td_l1", or "td_l1 (part 2/3)" for a part. */
void plan_group_label(const struct plan *p, unsigned g, char *buf, size_t len);

#endif
