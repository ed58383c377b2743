/*
 * simpmu_table.c - the simulated PMU of a CPU that Linux perf has a table
 * for (lib/perfdb), with the kernel's rules (Linux 7.2) and the hardware's
 * counter restrictions as perf's JSON publishes them:
 *  - counters: general ones per thread and fixed ones as the caller says
 *    (the model's figures), held to perf's counter.json where it has one;
 *  - Intel fixed counters: arch/x86/events/intel/core.c,
 *    intel_glc_event_constraints and intel_grt_event_constraints: 0x00c0
 *    and pseudo 0x0100 on fixed 0, 0x003c and pseudo 0x0200 on fixed 1,
 *    pseudo 0x0300 and 0x013c on fixed 2, pseudo 0x0400 (slots) on fixed 3;
 *    intel_pmu_check_event_constraints() lets a fixed event whose event
 *    code is not 0 (use_fixed_pseudo_encoding) use any general counter too,
 *    and drops fixed counters the CPU does not have;
 *  - Intel perf metrics: event 0, umask 0x80 + i (EVENT_ATTR_STR topdown-*),
 *    as many as the table's topdown-* events reach (num_topdown_events, 8
 *    from Golden Cove); no filters on them or on slots (intel_pmu_hw_config);
 *    a metric needs slots as its leader (simpmu_ops.c);
 *  - any other event: the general counters the JSON's "Counter" field names
 *    for the table's events of that encoding (perfdb_event.counters), all
 *    of them where it names none: the check of where the kernel put it;
 *  - the kernel's own constraints, which its scheduler obeys (Skylake's
 *    HT-off rule, AMD's large-increment pairs among them): simpmu_kernel.c,
 *    by the table intel_pmu_init() gives the CPU (simpmu_ktable_for);
 *  - Arm: drivers/perf/arm_pmuv3.c, armv8pmu_get_event_idx(): CPU_CYCLES
 *    (0x11) also on the cycle counter.
 */
#include "simpmu_int.h"
#include "tests/sim/perfdb_encode.h"

#include <errno.h>
#include <string.h>

#define X86_FIXED_MATCH  0xff84ffffULL  /* X86_RAW_EVENT_MASK: event, umask, edge, inv, cmask */
#define X86_FLAG_BITS    0xffbc0000ULL  /* edge, pc, int, any, inv, cmask */
#define INTEL_SLOTS      0x0400
#define INTEL_METRIC0    0x8000
#define ARM_CPU_CYCLES   0x11

static const struct { uint16_t code; uint8_t fixed; } intel_fixed[] = {
	{ 0x00c0, 0 }, { 0x0100, 0 }, { 0x003c, 1 }, { 0x0200, 1 },
	{ 0x0300, 2 }, { 0x013c, 2 }, { INTEL_SLOTS, 3 },
};

static bool same_unit(const struct perfdb_event *e, const char *unit)
{
	return unit == NULL ? e->pmu == NULL : e->pmu != NULL && strcmp(e->pmu, unit) == 0;
}

static bool has_unit(const struct perfdb_table *t, const char *unit)
{
	unsigned i;

	for (i = 0; i < t->n_events; i++)
		if (same_unit(&t->events[i], unit))
			return true;
	return false;
}

/* 1 + the highest perf-metrics index among the table's topdown-* events. */
static unsigned metrics_of(const struct perfdb_table *t, const char *unit)
{
	unsigned i, n = 0;

	for (i = 0; i < t->n_events; i++) {
		const struct perfdb_event *e = &t->events[i];

		if (e->kind == PERFDB_EV_PERF_METRICS && same_unit(e, unit) && e->umask >= 0x80 &&
		    e->umask - 0x80u + 1 > n)
			n = e->umask - 0x80u + 1;
	}
	return n;
}

int simpmu_arch_from_table(const char *name, const struct simpmu_table_cpu *cpu,
			   struct simpmu_arch *a)
{
	const struct perfdb_table *t = perfdb_table_by_name(name);

	if (t == NULL || cpu == NULL || cpu->gp_smt == 0 || cpu->gp_nosmt == 0 ||
	    !has_unit(t, cpu->unit))
		return -EINVAL;
	/* counter.json's core figures are per logical CPU with SMT on */
	if (t->gp_counters != 0 && (t->gp_counters != cpu->gp_smt ||
				    t->fixed_counters != cpu->n_fixed))
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	a->pmu = t->name;
	a->vendor = t->vendor == PERFDB_INTEL ? SIMPMU_INTEL :
		    t->vendor == PERFDB_AMD ? SIMPMU_AMD : SIMPMU_ARM;
	a->gp_smt = cpu->gp_smt;
	a->gp_nosmt = cpu->gp_nosmt;
	a->n_fixed = cpu->n_fixed;
	a->n_metrics = a->vendor == SIMPMU_INTEL ? metrics_of(t, cpu->unit) : 0;
	if (a->n_metrics > SIMPMU_MAX_METRICS)
		return -EINVAL;
	a->table = t;
	a->unit = cpu->unit;
	a->ktable = simpmu_ktable_for(t->name, cpu->unit);
	return 0;
}

static uint32_t all_gp(unsigned n_gp)
{
	return (uint32_t)((1ULL << n_gp) - 1);
}

/* The general counters the table lets an event of raw config use: those
 * every table event of that encoding lists in "Counter". */
static uint32_t gp_mask_of(const struct simpmu_arch *a, unsigned n_gp, uint64_t config)
{
	const struct perfdb_table *t = a->table;
	uint32_t mask = all_gp(n_gp);
	unsigned i;

	for (i = 0; i < t->n_events; i++) {
		const struct perfdb_event *e = &t->events[i];
		uint64_t c, c1;
		char err[160];

		if (e->counters == 0 || !same_unit(e, a->unit) ||
		    (e->kind != PERFDB_EV_RAW && e->kind != PERFDB_EV_FIXED) ||
		    perfdb_encode(t, e, &c, &c1, err, sizeof(err)) < 0 || c != config)
			continue;
		mask &= e->counters;
	}
	return mask;
}

static int intel_need(const struct simpmu_arch *a, unsigned n_gp, uint64_t config,
		      struct simpmu_need *need)
{
	uint64_t ev = config & 0xffff, code = config & X86_FIXED_MATCH;
	size_t i;

	if (a->n_metrics > 0 && (ev & 0xff) == 0 &&
	    (ev == INTEL_SLOTS || (ev >= INTEL_METRIC0 && ev < INTEL_METRIC0 + 0x100 * a->n_metrics))) {
		if (config & X86_FLAG_BITS)
			return -EINVAL;
		if (ev == INTEL_SLOTS)
			*need = (struct simpmu_need){ .kind = SIMPMU_SLOTS,
				.mask = a->n_fixed > 3 ? SIMPMU_FIXED(3) : 0 };
		else
			*need = (struct simpmu_need){ .kind = SIMPMU_METRIC,
				.metric = (unsigned)((ev - INTEL_METRIC0) >> 8) };
		return 0;
	}
	*need = (struct simpmu_need){ .kind = SIMPMU_COUNTER };
	for (i = 0; i < sizeof(intel_fixed) / sizeof(intel_fixed[0]); i++) {
		if (intel_fixed[i].code != code)
			continue;
		if (intel_fixed[i].fixed < a->n_fixed)
			need->mask |= SIMPMU_FIXED(intel_fixed[i].fixed);
		if ((code & 0xff) != 0)
			need->mask |= all_gp(n_gp);
		return 0;
	}
	need->mask = gp_mask_of(a, n_gp, config);
	return 0;
}

int simpmu_table_need(const struct simpmu_arch *a, unsigned n_gp, struct simpmu_key key,
		      struct simpmu_need *need)
{
	if (key.type != PERF_TYPE_RAW)
		return -ENOENT;
	switch (a->vendor) {
	case SIMPMU_INTEL:
		return intel_need(a, n_gp, key.config, need);
	case SIMPMU_AMD:
		*need = (struct simpmu_need){ .kind = SIMPMU_COUNTER,
					      .mask = gp_mask_of(a, n_gp, key.config) };
		return 0;
	case SIMPMU_ARM:
	default:
		*need = (struct simpmu_need){ .kind = SIMPMU_COUNTER,
					      .mask = gp_mask_of(a, n_gp, key.config) };
		if ((key.config & 0xffff) == ARM_CPU_CYCLES)
			need->mask |= SIMPMU_FIXED(0);
		return 0;
	}
}
