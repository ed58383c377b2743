/*
 * model_skl.c - Intel Skylake-class cores, 4 slots per cycle: Skylake,
 * Kaby/Coffee/Comet Lake (libpfm4 "skl") and Skylake-SP/Cascade Lake ("skx").
 *
 * Formulas follow Linux perf 6.1's TMA metrics for Skylake (print them with
 * PERF_CPUID=GenuineIntel-6-5E-3 perf list --details metric), formula
 * version 1:
 *   SLOTS = 4 * cycles
 *   frontend_bound  = IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS
 *   bad_speculation = (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS
 *                      + 4 * INT_MISC.RECOVERY_CYCLES) / SLOTS
 *   retiring        = UOPS_RETIRED.RETIRE_SLOTS / SLOTS
 *   backend_bound   = 1 - the three above
 *   fetch_latency   = 4 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE / SLOTS
 *   branch_mispredicts = BR_MISP / (BR_MISP + MACHINE_CLEARS.COUNT) * bad_speculation
 *   memory_bound    = (STALLS_MEM_ANY + BOUND_ON_STORES) / (STALLS_TOTAL +
 *                     1_PORTS_UTIL + retiring * 2_PORTS_UTIL + BOUND_ON_STORES)
 *                     * backend_bound
 * Four general counters per thread with SMT on do not hold an L2 split
 * together with level 1, so each split is measured as a share of its parent
 * in its own group (fetch_latency / frontend_bound ...) and multiplied by
 * the level-1 parent; for one recording of all events this is perf's
 * formula exactly.  memory_bound combines per-cycle rates of two groups.
 *   heavy_ops       = (UOPS_RETIRED.RETIRE_SLOTS + UOPS_RETIRED.MACRO_FUSED
 *                      - INST_RETIRED.ANY) / SLOTS   (light_ops = the rest)
 * heavy_ops is measured as a share of retiring inside td_l2_ret.
 *
 * Multi-stage bounds (papers/multi-stage-cpi-and-flops-stacks.txt): the
 * frontend loss is measured where uops are allocated (frontend_bound, the
 * dispatch stage) and where the scheduler runs dry (RS_EVENTS.EMPTY_CYCLES
 * per cycle, the issue stage); the backend loss at allocation
 * (backend_bound) and at execution (cycles nothing executed although the
 * RS held uops: (CYCLE_ACTIVITY.STALLS_TOTAL - RS_EVENTS.EMPTY_CYCLES) per
 * cycle, two groups' per-cycle rates).  Each pair is reported as a range.
 * With SMT on these events count the whole core (perf switches to *_ANY
 * events); the figures are marked core-scoped.
 */
#include "model_intel.h"

#include <math.h>

#define SKL_TD_GROUPS                                                                     \
	{ "td_l1", skl_td_l1, 6, false }, { "td_l2_fe_bs", skl_td_l2_fe_bs, 6, false },    \
	{ "td_l2_be", skl_td_l2_be, 6, false }, { "td_l2_ret", skl_td_l2_ret, 6, false },  \
	{ "fe_uops", skl_fe_uops, 6, false }, { "fe_stalls", skl_fe_stalls, 6, false },    \
	{ "flops_a", skl_flops_a, 6, false }

static const struct model_event skl_td_l1[] = {
	INTEL_BASE_EVENTS,
	{ "UOPS_ISSUED:ANY", "uops_issued", "UOPS_ISSUED.ANY", false, false },
	{ "UOPS_RETIRED:RETIRE_SLOTS", "retire_slots", "UOPS_RETIRED.RETIRE_SLOTS", false, false },
	{ "IDQ_UOPS_NOT_DELIVERED:CORE", "idq_not_delivered", "IDQ_UOPS_NOT_DELIVERED.CORE", false, false },
	{ "INT_MISC:RECOVERY_CYCLES", "recovery_cycles", "INT_MISC.RECOVERY_CYCLES", false, false },
};

static const struct model_event skl_td_l2_fe_bs[] = {
	INTEL_BASE_EVENTS,
	{ "IDQ_UOPS_NOT_DELIVERED:CORE", "idq_not_delivered", "IDQ_UOPS_NOT_DELIVERED.CORE", false, false },
	{ "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", "idq_0_uops_cycles",
	  "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", false, false },
	{ "BR_MISP_RETIRED:ALL_BRANCHES", "br_misp_retired", "BR_MISP_RETIRED.ALL_BRANCHES", false, false },
	{ "MACHINE_CLEARS:COUNT", "machine_clears_count", "MACHINE_CLEARS.COUNT", false, false },
};

static const struct model_event skl_td_l2_be[] = {
	INTEL_BASE_EVENTS,
	{ "CYCLE_ACTIVITY:STALLS_MEM_ANY", "stalls_mem_any", "CYCLE_ACTIVITY.STALLS_MEM_ANY", false, false },
	{ "EXE_ACTIVITY:BOUND_ON_STORES", "bound_on_stores", "EXE_ACTIVITY.BOUND_ON_STORES", false, false },
	{ "CYCLE_ACTIVITY:STALLS_TOTAL", "stalls_total", "CYCLE_ACTIVITY.STALLS_TOTAL", false, false },
	{ "EXE_ACTIVITY:1_PORTS_UTIL", "ports_util_1", "EXE_ACTIVITY.1_PORTS_UTIL", false, false },
};

/* UOPS_RETIRED.MACRO_FUSED (0xc2, umask 0x4) is raw: libpfm4 4.13 lacks it. */
static const struct model_event skl_td_l2_ret[] = {
	INTEL_BASE_EVENTS,
	{ "EXE_ACTIVITY:2_PORTS_UTIL", "ports_util_2", "EXE_ACTIVITY.2_PORTS_UTIL", false, false },
	{ "UOPS_RETIRED:RETIRE_SLOTS", "retire_slots", "UOPS_RETIRED.RETIRE_SLOTS", false, false },
	{ "r4c2", "macro_fused", "UOPS_RETIRED.MACRO_FUSED", false, false },
	{ "RS_EVENTS:EMPTY_CYCLES", "rs_empty_cycles", "RS_EVENTS.EMPTY_CYCLES", false, false },
};

static const struct model_event skl_fe_uops[] = {
	INTEL_BASE_EVENTS,
	{ "IDQ:DSB_UOPS", "dsb_uops", "IDQ.DSB_UOPS", false, false },
	{ "IDQ:MITE_UOPS", "mite_uops", "IDQ.MITE_UOPS", false, false },
	{ "IDQ:MS_UOPS", "ms_uops", "IDQ.MS_UOPS", false, false },
	{ "IDQ:DSB_UOPS:c=1", "dsb_cycles", "IDQ.DSB_CYCLES", false, false },
};

static const struct model_event skl_fe_stalls[] = {
	INTEL_BASE_EVENTS,
	{ "IDQ:MITE_UOPS:c=1", "mite_cycles", "IDQ.MITE_CYCLES", false, false },
	{ "DSB2MITE_SWITCHES:PENALTY_CYCLES", "dsb2mite_penalty_cycles",
	  "DSB2MITE_SWITCHES.PENALTY_CYCLES", false, false },
	{ "ICACHE_16B:IFDATA_STALL", "icache_stall_cycles", "ICACHE_16B.IFDATA_STALL", false, false },
	{ "ICACHE_64B:IFTAG_STALL", "itlb_stall_cycles", "ICACHE_64B.IFTAG_STALL", false, false },
};

static const struct model_event skl_flops_a[] = {
	INTEL_BASE_EVENTS,
	INTEL_FP_NARROW_EVENTS,
};

static const struct model_group skl_groups[] = {
	SKL_TD_GROUPS,
	{ "flops_b", model_intel_flops_wide, INTEL_FLOPS_WIDE_AVX2, false },
};

static const struct model_group skx_groups[] = {
	SKL_TD_GROUPS,
	{ "flops_b", model_intel_flops_wide, INTEL_FLOPS_WIDE_ALL, false },
};

static void skl_compute(const struct model *m, const struct group_sums *sums,
			const struct model_context *ctx, struct metric_value *out)
{
	struct gview l1 = model_gview_get(m, sums, "td_l1");
	struct gview febs = model_gview_get(m, sums, "td_l2_fe_bs");
	struct gview be = model_gview_get(m, sums, "td_l2_be");
	struct gview ret = model_gview_get(m, sums, "td_l2_ret");
	struct topdown td;
	double slots = 4.0 * l1.cycles, br, mc, mem, st, tot, p1, p2, r2;

	td.core_scoped = ctx != NULL && ctx->smt_on;
	td.l1[2] = model_ratio(model_gv(&l1, "idq_not_delivered"), slots);
	td.l1[1] = model_ratio(model_gv(&l1, "uops_issued") - model_gv(&l1, "retire_slots") +
			       4.0 * model_gv(&l1, "recovery_cycles"), slots);
	td.l1[0] = model_ratio(model_gv(&l1, "retire_slots"), slots);
	td.l1[3] = 1.0 - td.l1[0] - td.l1[1] - td.l1[2];
	td.l1_cov = l1.coverage;

	td.fetch_latency_share = model_ratio(4.0 * model_gv(&febs, "idq_0_uops_cycles"),
					     model_gv(&febs, "idq_not_delivered"));
	br = model_gv(&febs, "br_misp_retired");
	mc = model_gv(&febs, "machine_clears_count");
	td.mispredict_share = model_ratio(br, br + mc);
	td.fe_cov = td.bs_cov = febs.coverage;

	/* Per-cycle rates: the backend split's inputs span two groups. */
	mem = model_ratio(model_gv(&be, "stalls_mem_any"), be.cycles);
	st = model_ratio(model_gv(&be, "bound_on_stores"), be.cycles);
	tot = model_ratio(model_gv(&be, "stalls_total"), be.cycles);
	p1 = model_ratio(model_gv(&be, "ports_util_1"), be.cycles);
	p2 = model_ratio(model_gv(&ret, "ports_util_2"), ret.cycles);
	r2 = model_ratio(model_gv(&ret, "retire_slots"), 4.0 * ret.cycles);
	td.memory_share = model_ratio(mem + st, tot + p1 + r2 * p2 + st);
	td.be_cov = model_cov2(be.coverage, ret.coverage);
	td.heavy_share = model_ratio(model_gv(&ret, "retire_slots") +
				     model_gv(&ret, "macro_fused") - model_gv(&ret, "instructions"),
				     model_gv(&ret, "retire_slots"));
	td.ret_cov = ret.coverage;
	td.fe_issue_stage = model_ratio(model_gv(&ret, "rs_empty_cycles"), ret.cycles);
	td.be_exec_stage = tot - td.fe_issue_stage;
	td.stage_cov = model_cov2(be.coverage, ret.coverage);
	model_intel_compute(m, sums, &td, out);
}

const struct model model_skl = {
	.name = "skl",
	.description = "Intel Skylake client class (Skylake, Kaby/Coffee/Comet Lake): "
		       "Top-Down L1/L2, frontend delivery, FLOPS (AVX2)",
	.formula_version = 1,
	.pmus = (const char *const[]){ "skl", NULL },
	.pipeline_width = 4,
	.vendor = VENDOR_INTEL,
	.gp_counters_smt = 4,
	.gp_counters_nosmt = 8,
	.peak_flop_dp = 16,   /* 2 FMA units x 4 lanes x 2 */
	.peak_flop_sp = 32,
	.groups = skl_groups,
	.n_groups = sizeof(skl_groups) / sizeof(skl_groups[0]),
	.metrics = model_intel_metrics,
	.n_metrics = _IM_MAX,
	.compute = skl_compute,
};

const struct model model_skx = {
	.name = "skx",
	.description = "Intel Skylake-SP / Cascade Lake: Top-Down L1/L2, frontend delivery, "
		       "FLOPS (AVX-512)",
	.formula_version = 1,
	.pmus = (const char *const[]){ "skx", "clx", NULL },
	.pipeline_width = 4,
	.vendor = VENDOR_INTEL,
	.gp_counters_smt = 4,
	.gp_counters_nosmt = 8,
	.peak_flop_dp = 32,   /* 2 AVX-512 FMA units x 8 lanes x 2 */
	.peak_flop_sp = 64,
	.groups = skx_groups,
	.n_groups = sizeof(skx_groups) / sizeof(skx_groups[0]),
	.metrics = model_intel_metrics,
	.n_metrics = _IM_MAX,
	.compute = skl_compute,
};
