/*
 * simpmu_kernel.c - which counters the kernel gives an event, and how it
 * puts a CPU's events on them: a second opinion beside the planner's,
 * built from the kernel's own facts (Linux 7.2.12), not from perf's JSON
 * masks the planner reads.
 *
 * Constraints (arch/x86/events/intel/core.c, x86_get_event_constraints):
 * the first entry of the core's table whose (config & cmask) - code <=
 * end - code (constraint_match) is the event's constraint; none is the
 * unconstrained one (every general counter, weight their number).  The
 * table as intel_pmu_check_event_constraints() leaves it at boot: a
 * FIXED_EVENT_CONSTRAINT keeps the fixed counters the CPU has and, unless
 * its event code is 0 (use_fixed_pseudo_encoding), gains every general
 * counter; the slots and metric entries need fixed counter 3; the rest is
 * cut to the counters the CPU has; weight = the counters left.  Matched on
 * the config without the privilege bits (usr, os, int, en), which no
 * constraint compares.  Not simulated: PEBS, LBR, BTS, shared extra
 * registers (two OCR events with different MSR values), the TSX and PDIST
 * quirks of hsw/icl/glc_get_event_constraints (all for sampling or
 * events our models do not open).
 * AMD family 17h+ (amd/core.c, amd_core_pmu_init and
 * amd_get_event_constraints_f17h): an event whose amd_get_event_code()
 * (bits 0-7 and 32-35) is a pair code takes pair_constraint: the even
 * counters that have an odd one after them, weight counters / 2, flag
 * PERF_X86_EVENT_PAIR; anything else is unconstrained.
 *
 * Assignment (arch/x86/events/core.c, x86_schedule_events and
 * perf_assign_events), followed step by step:
 *  1. fast path: in list order, each event keeps the counter it had
 *     (hw.idx) while the constraint still allows it and it is free (a pair
 *     event: both counters); the first that cannot ends the fast path, and
 *     an event never placed always does;
 *  2. slow path, every event again from scratch: by weight, lowest first,
 *     events of one weight in list order; an event whose constraint has
 *     fixed counters takes the lowest free one; else the lowest free
 *     general counter allowed (a pair event that counter and the next),
 *     each counting one against gpmax = general counters minus the pair
 *     events on the list (PMU_FL_PAIR); the first event that finds none
 *     fails the whole list.  No constraint we use has the overlap flag, so
 *     the save/restore backtracking never runs and is left out.
 * Arm has no kernel table here: armv8pmu_get_event_idx() gives CPU_CYCLES
 * the cycle counter when free, else the first free counter, which is what
 * the same pass does with the JSON's masks.
 */
#include "simpmu_hw.h"

#include <string.h>

#define IDX_FIXED        32
#define IDX_METRIC       48
#define MSK_FIXED_SLOTS  (1ULL << (IDX_FIXED + 3))
#define MSK_TOPDOWN      ((0xffULL << IDX_METRIC) | MSK_FIXED_SLOTS)
#define AMD_F17H         "amd_f17h"

/* Which init function intel_pmu_init() runs for the CPU of each of perf's
 * tables (its case labels), and so which table it schedules by. */
static const struct { const char *table, *unit, *ktable; } cpu_tables[] = {
	{ "skylake", NULL, "skl" }, { "skylakex", NULL, "skl" },
	{ "cascadelakex", NULL, "skl" },
	{ "icelake", NULL, "icl" }, { "icelakex", NULL, "icl" },
	{ "tigerlake", NULL, "icl" }, { "rocketlake", NULL, "icl" },
	/* intel_pmu_init_glc: SPR, EMR, GNR; the P-cores of ADL/RPL, MTL */
	{ "sapphirerapids", NULL, "glc" }, { "emeraldrapids", NULL, "glc" },
	{ "graniterapids", NULL, "glc" },
	{ "alderlake", "cpu_core", "glc" }, { "meteorlake", "cpu_core", "glc" },
	/* intel_pmu_init_grt and _cmt (grt's table): Gracemont, Crestmont */
	{ "alderlake", "cpu_atom", "grt" }, { "alderlaken", NULL, "grt" },
	{ "meteorlake", "cpu_atom", "grt" }, { "sierraforest", NULL, "grt" },
	{ "grandridge", NULL, "grt" },
	/* intel_pmu_init_lnc and _skt: Lunar Lake, Arrow Lake */
	{ "lunarlake", "cpu_core", "lnc" }, { "arrowlake", "cpu_core", "lnc" },
	{ "lunarlake", "cpu_atom", "skt" }, { "arrowlake", "cpu_atom", "skt" },
	/* intel_pmu_init_dkt (skt's table): Clearwater Forest */
	{ "clearwaterforest", NULL, "skt" },
};

const char *simpmu_ktable_for(const char *table, const char *unit)
{
	size_t i;

	if (strncmp(table, "amdzen", 6) == 0)
		return AMD_F17H;
	for (i = 0; i < sizeof(cpu_tables) / sizeof(cpu_tables[0]); i++)
		if (strcmp(cpu_tables[i].table, table) == 0 &&
		    (cpu_tables[i].unit == NULL || (unit != NULL &&
						    strcmp(cpu_tables[i].unit, unit) == 0)))
			return cpu_tables[i].ktable;
	return NULL;
}

static const struct simpmu_ktable *ktable_named(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < simpmu_n_ktables; i++)
		if (strcmp(simpmu_ktables[i].name, name) == 0)
			return &simpmu_ktables[i];
	return NULL;
}

static unsigned weight(uint64_t m)
{
	return (unsigned)__builtin_popcountll(m);
}

static uint64_t gp_mask(unsigned n_gp)
{
	return n_gp >= 32 ? 0xffffffffULL : (1ULL << n_gp) - 1;
}

/* intel_pmu_check_event_constraints() on one entry. */
static uint64_t checked_idxmsk(const struct simpmu_arch *a, unsigned n_gp,
			       const struct simpmu_kconstraint *c)
{
	uint64_t fixed = ((1ULL << a->n_fixed) - 1) << IDX_FIXED;
	uint64_t m = c->idxmsk;

	if (m & MSK_TOPDOWN)
		return (fixed & MSK_FIXED_SLOTS) && a->n_metrics > 0 ? m : 0;
	if (c->cmask == simpmu_kfixed_event_flags) {
		m &= fixed;
		if ((c->code & 0xff) != 0)
			m |= gp_mask(n_gp);
	}
	return m & (gp_mask(n_gp) | fixed);
}

static bool amd_pair(uint64_t config)
{
	unsigned code = (unsigned)(((config >> 24) & 0x0f00) | (config & 0xff));
	size_t i;

	for (i = 0; i < simpmu_n_amd_pair_codes; i++)
		if (simpmu_amd_pair_codes[i] == code)
			return true;
	return false;
}

void simpmu_kernel_constraint(const struct simpmu_arch *a, unsigned n_gp, struct simpmu_key key,
			      struct simpmu_need *need)
{
	const struct simpmu_ktable *t = ktable_named(a->ktable);
	size_t i;

	need->pair = false;
	if (need->kind == SIMPMU_SOFTWARE) {
		need->kmask = 0;
		need->kweight = 0;
		return;
	}
	if (a->ktable != NULL && strcmp(a->ktable, AMD_F17H) == 0) {
		need->kmask = gp_mask(n_gp);
		need->kweight = n_gp;
		if (amd_pair(key.config)) {
			need->kmask = 0;
			for (i = 0; i + 1 < n_gp; i += 2)
				need->kmask |= 1ULL << i;
			need->kweight = n_gp / 2;
			need->pair = true;
		}
		return;
	}
	if (t == NULL) {
		/* no kernel table: the JSON's counters, perf metric i as the
		 * kernel numbers it */
		need->kmask = need->kind == SIMPMU_METRIC ? 1ULL << (IDX_METRIC + need->metric) :
			      need->mask;
		need->kweight = weight(need->kmask);
		return;
	}
	need->kmask = gp_mask(n_gp);
	for (i = 0; i < t->n; i++) {
		const struct simpmu_kconstraint *c = &t->c[i];

		if ((key.config & c->cmask) - c->code <= c->end - c->code) {
			need->kmask = checked_idxmsk(a, n_gp, c);
			break;
		}
	}
	need->kweight = weight(need->kmask);
}

/* __perf_sched_find_counter: a counter for one event, or -1. */
static int find_counter(const struct simpmu_kslot *s, uint64_t *used, unsigned *nr_gp,
			unsigned max_gp)
{
	int idx;

	if (s->kmask & (~0ULL << IDX_FIXED))
		for (idx = IDX_FIXED; idx < 64; idx++) {
			uint64_t bit = 1ULL << idx;

			if ((s->kmask & bit) && !(*used & bit)) {
				*used |= bit;
				return idx;
			}
		}
	for (idx = 0; idx < IDX_FIXED; idx++) {
		uint64_t bit = 1ULL << idx;

		if (!(s->kmask & bit))
			continue;
		if (s->pair)
			bit |= bit << 1;
		if (*used & bit)
			continue;
		if ((*nr_gp)++ >= max_gp)
			return -1;
		*used |= bit;
		return idx;
	}
	return -1;
}

/* The fast path: true when every event keeps its counter. */
static bool keep_previous(struct simpmu_kslot *s, unsigned n)
{
	uint64_t used = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t bit;

		if (s[i].prev < 0 || !(s[i].kmask & (1ULL << s[i].prev)))
			return false;
		bit = 1ULL << s[i].prev;
		if (s[i].pair)
			bit |= bit << 1;
		if (used & bit)
			return false;
		used |= bit;
		s[i].assign = s[i].prev;
	}
	return true;
}

bool simpmu_kernel_assign(struct simpmu_kslot *s, unsigned n, unsigned n_gp)
{
	unsigned i, w, wmin = 64, wmax = 0, nr_gp = 0, n_pair = 0, max_gp;
	uint64_t used = 0;

	if (keep_previous(s, n))
		return true;
	for (i = 0; i < n; i++) {
		wmin = s[i].kweight < wmin ? s[i].kweight : wmin;
		wmax = s[i].kweight > wmax ? s[i].kweight : wmax;
		n_pair += s[i].pair;
	}
	max_gp = n_gp > n_pair ? n_gp - n_pair : 0;
	for (w = wmin; w <= wmax; w++)
		for (i = 0; i < n; i++) {
			if (s[i].kweight != w)
				continue;
			s[i].assign = find_counter(&s[i], &used, &nr_gp, max_gp);
			if (s[i].assign < 0)
				return false;
		}
	return true;
}
