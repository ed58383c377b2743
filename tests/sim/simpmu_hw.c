/*
 * simpmu_hw.c - see simpmu_hw.h.  Sources (Linux 6.12):
 *  - counters: tools/perf/pmu-events/arch/x86/<arch>/counter.json (core:
 *    Skylake 3 fixed + 4 general, Ice Lake and Sapphire Rapids 4 + 8); the
 *    Skylake JSON: "the four (eight when Hyperthreading is disabled)
 *    programmable counters"; AMD Zen 4: 6 core counters (PerfMonV2); Arm
 *    Neoverse: 6 event counters + the cycle counter (PMCCNTR);
 *  - fixed counters: arch/x86/events/intel/core.c, intel_skl_event_constraints
 *    and intel_icl_event_constraints (0x00c0 -> fixed 0, 0x003c -> 1, 0x0300
 *    -> 2, 0x0400 slots -> 3, 0x0100 -> 0 on Ice Lake+), and
 *    intel_pmu_check_event_constraints(): a fixed event may also use any
 *    general counter unless its event code is 0 (a pseudo encoding);
 *  - the kernel's constraints (which counters its scheduler may use, the
 *    Skylake HT-off rule among them): simpmu_kernel.c, from its tables;
 *  - perf metrics: intel_pmu_hw_config() refuses filters on slots and metric
 *    events; metric i is event 0, umask 0x80 + i (ICL 4 of them, SPR 8);
 *  - Arm: drivers/perf/arm_pmuv3.c, armv8pmu_get_event_idx(): CPU_CYCLES
 *    (0x11) goes to the cycle counter when free;
 *  - generic events: intel_perfmon_event_map (cycles 0x3c, instructions 0xc0,
 *    ref-cycles 0x0300), amd_zen2_perfmon_event_map (0x76, 0xc0),
 *    armv8_pmuv3_perf_map (0x11, 0x08).
 */
#include "simpmu_hw.h"

#include <errno.h>
#include <string.h>

#define X86_KEY_MASK    0xffa4ffffULL   /* event, umask, edge, any, inv, cmask */
#define X86_PRIV_BITS   ((1ULL << 16) | (1ULL << 17) | (1ULL << 20) | (1ULL << 22))
#define X86_FLAG_BITS   0xffbc0000ULL   /* edge, pc, int, any, inv, cmask */
#define INTEL_SLOTS     0x0400
#define INTEL_METRIC0   0x8000

static const struct simpmu_arch arches[] = {
	{ "skl", "skylake", SIMPMU_INTEL, 4, 8, 3, 0, NULL, NULL, "skl" },
	{ "skx", "skylakex", SIMPMU_INTEL, 4, 8, 3, 0, NULL, NULL, "skl" },
	{ "icl", "icelake", SIMPMU_INTEL, 8, 8, 4, 4, NULL, NULL, "icl" },
	{ "icx", "icelakex", SIMPMU_INTEL, 8, 8, 4, 4, NULL, NULL, "icl" },
	{ "spr", "sapphirerapids", SIMPMU_INTEL, 8, 8, 4, 8, NULL, NULL, "glc" },
	{ "amd64_fam19h_zen4", NULL, SIMPMU_AMD, 6, 6, 0, 0, NULL, NULL, "amd_f17h" },
	{ "arm_n1", NULL, SIMPMU_ARM, 6, 6, 1, 0, NULL, NULL, NULL },
};

const struct simpmu_arch *simpmu_arch_find(const char *pmu)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (strcmp(arches[i].pmu, pmu) == 0)
			return &arches[i];
	return NULL;
}

static int generic_to_raw(const struct simpmu_arch *a, uint64_t hw, uint64_t *raw)
{
	static const uint64_t cycles[] = { 0x3c, 0x76, 0x11 };
	static const uint64_t insns[] = { 0xc0, 0xc0, 0x08 };

	switch (hw) {
	case PERF_COUNT_HW_CPU_CYCLES:
		*raw = cycles[a->vendor];
		return 0;
	case PERF_COUNT_HW_INSTRUCTIONS:
		*raw = insns[a->vendor];
		return 0;
	case PERF_COUNT_HW_REF_CPU_CYCLES:
		if (a->vendor != SIMPMU_INTEL)
			return -ENOENT;
		*raw = 0x0300;
		return 0;
	default:
		return -ENOENT;   /* not simulated */
	}
}

int simpmu_hw_key(const struct simpmu_arch *a, const struct perf_event_attr *attr,
		  struct simpmu_key *key)
{
	uint64_t raw;
	int r;

	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		*key = (struct simpmu_key){ PERF_TYPE_SOFTWARE, attr->config, 0 };
		return 0;
	case PERF_TYPE_HARDWARE:
		r = generic_to_raw(a, attr->config, &raw);
		if (r < 0)
			return r;
		break;
	case PERF_TYPE_RAW:
		raw = attr->config;
		break;
	default:
		return -ENOENT;
	}
	if (a->vendor != SIMPMU_ARM)
		raw &= ~X86_PRIV_BITS;
	*key = (struct simpmu_key){ PERF_TYPE_RAW, raw,
				    attr->type == PERF_TYPE_RAW ? attr->config1 : 0 };
	return 0;
}

bool simpmu_hw_key_eq(struct simpmu_key a, struct simpmu_key b)
{
	return a.type == b.type && a.config == b.config && a.config1 == b.config1;
}

struct simpmu_key simpmu_hw_cycles(const struct simpmu_arch *a)
{
	uint64_t raw = 0;

	(void)generic_to_raw(a, PERF_COUNT_HW_CPU_CYCLES, &raw);
	return (struct simpmu_key){ PERF_TYPE_RAW, raw, 0 };
}

static uint32_t all_gp(unsigned n_gp)
{
	return (uint32_t)((1ULL << n_gp) - 1);
}

/* The general counters perf's JSON lists for the event (all of them when
 * it has no entry): the check, not the kernel's rule. */
static uint32_t intel_gp_mask(const struct simpmu_arch *a, unsigned n_gp, uint64_t config)
{
	uint32_t key = (uint32_t)(config & X86_KEY_MASK);
	size_t i;

	for (i = 0; i < simpmu_n_intel_rules; i++)
		if (simpmu_intel_rules[i].config == key &&
		    strcmp(simpmu_intel_rules[i].json, a->json) == 0)
			return simpmu_intel_rules[i].gp_mask & all_gp(n_gp);
	return all_gp(n_gp);
}

static int intel_need(const struct simpmu_arch *a, unsigned n_gp, uint64_t config,
		      struct simpmu_need *need)
{
	uint64_t code = config & X86_KEY_MASK;
	uint64_t ev = config & 0xffff;

	/* Pseudo encodings have event code 0: umask 0x04 is slots, 0x80.. the
	 * metrics (0x80c7 is FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE). */
	if (a->n_metrics > 0 && (ev & 0xff) == 0 && (ev == INTEL_SLOTS ||
	    (ev >= INTEL_METRIC0 && ev < INTEL_METRIC0 + 0x100 * a->n_metrics))) {
		if (config & X86_FLAG_BITS)
			return -EINVAL;
		if (ev == INTEL_SLOTS)
			*need = (struct simpmu_need){ .kind = SIMPMU_SLOTS,
						      .mask = SIMPMU_FIXED(3) };
		else
			*need = (struct simpmu_need){ .kind = SIMPMU_METRIC,
				.metric = (unsigned)((ev - INTEL_METRIC0) >> 8) };
		return 0;
	}
	need->kind = SIMPMU_COUNTER;
	need->metric = 0;
	if (code == 0x00c0)
		need->mask = SIMPMU_FIXED(0) | all_gp(n_gp);
	else if (code == 0x003c)
		need->mask = SIMPMU_FIXED(1) | all_gp(n_gp);
	else if (code == 0x0300)
		need->mask = SIMPMU_FIXED(2);
	else if (code == 0x0100 && a->n_fixed >= 4)
		need->mask = SIMPMU_FIXED(0);
	else
		need->mask = intel_gp_mask(a, n_gp, config);
	return 0;
}

static int hw_need(const struct simpmu_arch *a, unsigned n_gp, const struct perf_event_attr *attr,
		   struct simpmu_key key, struct simpmu_need *need)
{
	if (key.type == PERF_TYPE_SOFTWARE) {
		*need = (struct simpmu_need){ .kind = SIMPMU_SOFTWARE };
		return 0;
	}
	if (a->table != NULL)
		return simpmu_table_need(a, n_gp, key, need);
	switch (a->vendor) {
	case SIMPMU_INTEL:
		return intel_need(a, n_gp, attr->type == PERF_TYPE_RAW ? attr->config : key.config,
				  need);
	case SIMPMU_ARM:
		*need = (struct simpmu_need){ .kind = SIMPMU_COUNTER, .mask = all_gp(n_gp) };
		if ((key.config & 0xffff) == 0x11)
			need->mask |= SIMPMU_FIXED(0);
		return 0;
	case SIMPMU_AMD:
	default:
		*need = (struct simpmu_need){ .kind = SIMPMU_COUNTER, .mask = all_gp(n_gp) };
		return 0;
	}
}

int simpmu_hw_need(const struct simpmu_arch *a, unsigned n_gp, bool smt_on,
		   const struct perf_event_attr *attr, struct simpmu_need *need)
{
	struct simpmu_key key;
	int r;

	(void)smt_on;   /* the counters n_gp says it all (the kernel's tables) */
	r = simpmu_hw_key(a, attr, &key);
	if (r == 0)
		r = hw_need(a, n_gp, attr, key, need);
	if (r == 0)
		simpmu_kernel_constraint(a, n_gp, key, need);
	return r;
}

void simpmu_hw_watchdog_need(const struct simpmu_arch *a, unsigned n_gp, struct simpmu_need *need)
{
	struct perf_event_attr attr;

	/* hardlockup_detector_event_create: a pinned PERF_COUNT_HW_CPU_CYCLES */
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.pinned = 1;
	if (simpmu_hw_need(a, n_gp, true, &attr, need) < 0)
		*need = (struct simpmu_need){ .kind = SIMPMU_COUNTER, .mask = all_gp(n_gp),
					      .kmask = all_gp(n_gp), .kweight = n_gp };
}
