/*
 * model_spr.c - Intel Sapphire Rapids class ("spr"): 6 slots per cycle,
 * Top-Down levels 1 and 2 from perf metrics (`slots` leading eight
 * `topdown-*` pseudo events, from sysfs).
 *
 * Formulas follow Linux perf 6.1's TMA metrics for Sapphire Rapids
 * (PERF_CPUID=GenuineIntel-6-8F-4 perf list --details metric), formula
 * version 1, with sum4 = retiring + bad-spec + fe-bound + be-bound counts:
 *   frontend_bound = topdown-fe-bound / sum4 - INT_MISC.UOP_DROPPING / SLOTS
 *   backend_bound  = topdown-be-bound / sum4;  retiring = topdown-retiring / sum4
 *   bad_speculation = max(1 - the three above, 0)
 *   fetch_latency  = topdown-fetch-lat / sum4 - INT_MISC.UOP_DROPPING / SLOTS
 *   branch_mispredicts = topdown-br-mispredict / sum4
 *   memory_bound   = topdown-mem-bound / sum4;  heavy_ops = topdown-heavy-ops / sum4
 *   siblings = max(0, parent - child)
 * The issue-stage stack (model_intel.c) takes RS.EMPTY / cycles from the
 * same group; there is no STALLS_MEM_ANY in it, so its backend is not
 * split.  CYCLE_ACTIVITY.STALLS_TOTAL stays in the family (its stored
 * events unchanged) but no formula reads it since the issue-stage stack
 * replaced the old execution-stage range.  The FLOPS stack's stall part
 * comes from family flops_disp (FP_ARITH_DISPATCHED ports 0, 1, 5).
 *
 * Top-Down level 3 under the frontend, perf 6.1's tma_* nodes for Sapphire
 * Rapids (PERF_CPUID=GenuineIntel-6-8F-8), fractions of cycles as perf
 * defines them, not of slots; CLKS = cycles, CORE_CLKS =
 * CPU_CLK_UNHALTED.DISTRIBUTED:
 *   icache_misses = ICACHE_DATA.STALLS / CLKS
 *   itlb_misses   = ICACHE_TAG.STALLS / CLKS
 *   ms_switches   = 3 * IDQ.MS_SWITCHES / CLKS
 *   dsb_switches  = DSB2MITE_SWITCHES.PENALTY_CYCLES / CLKS
 *   lcp           = DECODE.LCP / CLKS
 *   mite = (IDQ.MITE_CYCLES_ANY - IDQ.MITE_CYCLES_OK) / CORE_CLKS / 2
 *   dsb  = (IDQ.DSB_CYCLES_ANY - IDQ.DSB_CYCLES_OK) / CORE_CLKS / 2
 * perf 6.1 has no tma_lsd and no tma_ms for this model: not offered.
 * branch_resteers (INT_MISC.CLEAR_RESTEER_CYCLES / CLKS +
 * INT_MISC.UNKNOWN_BRANCH_CYCLES / CLKS) is not offered either: its second
 * event needs the frontend MSR (perf's JSON: event 0xad, umask 0x40,
 * MSR 0x3F7 = 0x7), which our encodings cannot set and libpfm4 4.13
 * encodes otherwise (umask 0x7, no MSR).  icache_misses, itlb_misses and
 * dsb_switches come from fe_stalls_flops; the rest from the new families
 * fe_l3_lat and fe_l3_bw (no stored family changed meaning: the formula
 * version stays 1).
 */
#include "lib/model/model_intel.h"

#include <math.h>

static const struct model_event spr_td[] = {
	{ "cpu/slots/", "slots", "slots", true, false },
	{ "cpu/topdown-retiring/", "td_retiring", "topdown-retiring", true, false },
	{ "cpu/topdown-bad-spec/", "td_bad_spec", "topdown-bad-spec", true, false },
	{ "cpu/topdown-fe-bound/", "td_fe_bound", "topdown-fe-bound", true, false },
	{ "cpu/topdown-be-bound/", "td_be_bound", "topdown-be-bound", true, false },
	{ "cpu/topdown-heavy-ops/", "td_heavy_ops", "topdown-heavy-ops", true, false },
	{ "cpu/topdown-br-mispredict/", "td_br_mispredict", "topdown-br-mispredict", true, false },
	{ "cpu/topdown-fetch-lat/", "td_fetch_lat", "topdown-fetch-lat", true, false },
	{ "cpu/topdown-mem-bound/", "td_mem_bound", "topdown-mem-bound", true, false },
	INTEL_BASE_EVENTS,
	{ "INT_MISC:UOP_DROPPING", "uop_dropping", "INT_MISC.UOP_DROPPING", false, false },
	{ "RS:EMPTY", "rs_empty_cycles", "RS.EMPTY", false, false },
	{ "CYCLE_ACTIVITY:STALLS_TOTAL", "stalls_total", "CYCLE_ACTIVITY.STALLS_TOTAL", false, false },
};

static const struct model_event spr_fe_stalls_flops[] = {
	INTEL_BASE_EVENTS,
	{ "DSB2MITE_SWITCHES:PENALTY_CYCLES", "dsb2mite_penalty_cycles",
	  "DSB2MITE_SWITCHES.PENALTY_CYCLES", false, false },
	{ "ICACHE_DATA:STALLS", "icache_stall_cycles", "ICACHE_DATA.STALLS", false, false },
	{ "ICACHE_TAG:STALLS", "itlb_stall_cycles", "ICACHE_TAG.STALLS", false, false },
	INTEL_FP_NARROW_EVENTS,
};

/* Level 3 under fetch_latency (the events fe_stalls_flops lacks). */
static const struct model_event spr_fe_l3_lat[] = {
	INTEL_BASE_EVENTS,
	{ "IDQ:MS_SWITCHES", "idq_ms_switches", "IDQ.MS_SWITCHES", false, false },
	{ "DECODE:LCP", "lcp_cycles", "DECODE.LCP", false, false },
};

/* Level 3 under fetch_bandwidth: cycles each source delivered any uop and
 * its optimal number (6), and CORE_CLKS. */
static const struct model_event spr_fe_l3_bw[] = {
	INTEL_BASE_EVENTS,
	{ "IDQ:MITE_CYCLES_ANY", "mite_any_cycles", "IDQ.MITE_CYCLES_ANY", false, false },
	{ "IDQ:MITE_CYCLES_OK", "mite_ok_cycles", "IDQ.MITE_CYCLES_OK", false, false },
	{ "IDQ:DSB_CYCLES_ANY", "dsb_any_cycles", "IDQ.DSB_CYCLES_ANY", false, false },
	{ "IDQ:DSB_CYCLES_OK", "dsb_ok_cycles", "IDQ.DSB_CYCLES_OK", false, false },
	{ "CPU_CLK_UNHALTED:DISTRIBUTED", "core_clks", "CPU_CLK_UNHALTED.DISTRIBUTED",
	  false, false },
};

/* Half-precision FP (AVX512-FP16: FP_ARITH_INST_RETIRED2, event 0xcf) and
 * AMX BF16 (AMX_OPS_RETIRED.BF16, event 0xce umask 0x2), which perf 6.1's
 * SPR FLOPc and GFLOPs count beside FP_ARITH_INST_RETIRED: weights 1
 * (scalar), 2 (complex scalar), 8/16/32 (128/256/512-bit) and 4 (an AMX
 * count).  Intel's perfmon JSON for SPR: FP_ARITH_INST_RETIRED2.* on
 * counters 0-7; AMX_OPS_RETIRED names no restriction. */
static const struct model_event spr_flops_hp[] = {
	INTEL_BASE_EVENTS,
	{ "FP_ARITH_INST_RETIRED2:SCALAR_HALF", "fp_scalar_hp",
	  "FP_ARITH_INST_RETIRED2.SCALAR_HALF", false, false },
	{ "FP_ARITH_INST_RETIRED2:COMPLEX_SCALAR_HALF", "fp_complex_hp",
	  "FP_ARITH_INST_RETIRED2.COMPLEX_SCALAR_HALF", false, false },
	{ "FP_ARITH_INST_RETIRED2:128B_PACKED_HALF", "fp_128_hp",
	  "FP_ARITH_INST_RETIRED2.128B_PACKED_HALF", false, false },
	{ "FP_ARITH_INST_RETIRED2:256B_PACKED_HALF", "fp_256_hp",
	  "FP_ARITH_INST_RETIRED2.256B_PACKED_HALF", false, false },
	{ "FP_ARITH_INST_RETIRED2:512B_PACKED_HALF", "fp_512_hp",
	  "FP_ARITH_INST_RETIRED2.512B_PACKED_HALF", false, false },
	{ "AMX_OPS_RETIRED:BF16", "amx_bf16", "AMX_OPS_RETIRED.BF16", false, false },
};

/* FP uops dispatched to ports 0, 1 and 5 (floating-point.json: 0xb3,
 * umasks 0x1, 0x2, 0x4; counters 0-7): the FLOPS stack's issue stage,
 * FP units idle (model_util.c, fp_units_idle). */
static const struct model_event spr_flops_disp[] = {
	INTEL_BASE_EVENTS,
	{ "FP_ARITH_DISPATCHED:PORT_0", "fp_disp_p0", "FP_ARITH_DISPATCHED.PORT_0", false, false },
	{ "FP_ARITH_DISPATCHED:PORT_1", "fp_disp_p1", "FP_ARITH_DISPATCHED.PORT_1", false, false },
	{ "FP_ARITH_DISPATCHED:PORT_5", "fp_disp_p5", "FP_ARITH_DISPATCHED.PORT_5", false, false },
};

/* The cycle-accounted CPI stack (model_intel.c, model_intel_cycle_stack):
 * stall cycles by cause, the events perf's TMA for this model reads
 * (sapphirerapids_core.json): the nested memory stalls from
 * MEMORY_ACTIVITY (event 0x47), stalls with a load outstanding from
 * EXE_ACTIVITY.BOUND_ON_LOADS (this model has no STALLS_MEM_ANY; Intel
 * describes both alike), the divider from ARITH.DIVIDER_ACTIVE (perf
 * 6.1's name; Intel's JSON now calls the same code ARITH.DIV_ACTIVE), the
 * i-side stalls from fe_stalls_flops, which counts them. */
static const struct model_event spr_cyc_cpi[] = {
	INTEL_BASE_EVENTS,
	{ "CYCLE_ACTIVITY:STALLS_TOTAL", "stalls_total", "CYCLE_ACTIVITY.STALLS_TOTAL", false, false },
	{ "EXE_ACTIVITY:BOUND_ON_LOADS", "bound_on_loads", "EXE_ACTIVITY.BOUND_ON_LOADS",
	  false, false },
	{ "MEMORY_ACTIVITY:STALLS_L1D_MISS", "stalls_l1d_miss", "MEMORY_ACTIVITY.STALLS_L1D_MISS",
	  false, false },
	{ "MEMORY_ACTIVITY:STALLS_L2_MISS", "stalls_l2_miss", "MEMORY_ACTIVITY.STALLS_L2_MISS",
	  false, false },
	{ "MEMORY_ACTIVITY:STALLS_L3_MISS", "stalls_l3_miss", "MEMORY_ACTIVITY.STALLS_L3_MISS",
	  false, false },
	{ "ARITH:DIVIDER_ACTIVE", "divider_active", "ARITH.DIVIDER_ACTIVE", false, false },
	{ "INT_MISC:RECOVERY_CYCLES", "recovery_cycles_thread", "INT_MISC.RECOVERY_CYCLES",
	  false, false },
	{ "INT_MISC:CLEAR_RESTEER_CYCLES", "clear_resteer_cycles", "INT_MISC.CLEAR_RESTEER_CYCLES",
	  false, false },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Ratio sets (each at most 3 general counters, see model_skl.c). */
static const struct model_ratio_set spr_ratio_sets[] = {
	/* dsb_coverage, mite_share, ms_share over the sum of the sources (the
	 * LSD's, the fourth, may come from another part: a set holds 3) */
	{ "fe_uops", "dsb_uops,mite_uops,ms_uops" },
	/* tma_mite, tma_dsb: cycles with any uop minus optimal ones */
	{ "fe_l3_bw", "mite_any_cycles,mite_ok_cycles" },
	{ "fe_l3_bw", "dsb_any_cycles,dsb_ok_cycles" },
	/* the cycle-accounted stack: nested memory stalls, and T - M */
	{ "cyc_cpi", "stalls_l1d_miss,stalls_l2_miss,stalls_l3_miss" },
	{ "cyc_cpi", "stalls_total,bound_on_loads" },
};

/* General counter restrictions, from Intel's perfmon SPR/events/
 * sapphirerapids_core.json ("Counter"; 8 per thread either way), the same
 * in Linux's tools/perf/pmu-events/arch/x86/sapphirerapids/frontend.json.
 * Other events (LSD.UOPS included, unlike Ice Lake) may use any counter. */
static const struct model_event_rule spr_event_rules[] = {
	{ "dsb_uops", EVENT_ALWAYS, 0xf, 0xf },                 /* IDQ.DSB_UOPS */
	{ "mite_uops", EVENT_ALWAYS, 0xf, 0xf },                /* IDQ.MITE_UOPS */
	{ "ms_uops", EVENT_ALWAYS, 0xf, 0xf },                  /* IDQ.MS_UOPS */
	{ "dsb_cycles", EVENT_ALWAYS, 0xf, 0xf },               /* IDQ.DSB_CYCLES_ANY */
	{ "mite_cycles", EVENT_ALWAYS, 0xf, 0xf },              /* IDQ.MITE_CYCLES_ANY */
	{ "ms_cycles", EVENT_ALWAYS, 0xf, 0xf },                /* IDQ.MS_CYCLES_ANY */
	{ "dsb2mite_penalty_cycles", EVENT_ALWAYS, 0xf, 0xf },  /* DSB2MITE_SWITCHES.PENALTY_CYCLES */
	{ "icache_stall_cycles", EVENT_ALWAYS, 0xf, 0xf },      /* ICACHE_DATA.STALLS */
	{ "itlb_stall_cycles", EVENT_ALWAYS, 0xf, 0xf },        /* ICACHE_TAG.STALLS */
	{ "idq_ms_switches", EVENT_ALWAYS, 0xf, 0xf },          /* IDQ.MS_SWITCHES */
	{ "mite_any_cycles", EVENT_ALWAYS, 0xf, 0xf },          /* IDQ.MITE_CYCLES_ANY */
	{ "mite_ok_cycles", EVENT_ALWAYS, 0xf, 0xf },           /* IDQ.MITE_CYCLES_OK */
	{ "dsb_any_cycles", EVENT_ALWAYS, 0xf, 0xf },           /* IDQ.DSB_CYCLES_ANY */
	{ "dsb_ok_cycles", EVENT_ALWAYS, 0xf, 0xf },            /* IDQ.DSB_CYCLES_OK */
	{ "stalls_l1d_miss", EVENT_ALWAYS, 0xf, 0xf },  /* MEMORY_ACTIVITY.STALLS_L1D_MISS */
	{ "stalls_l2_miss", EVENT_ALWAYS, 0xf, 0xf },   /* MEMORY_ACTIVITY.STALLS_L2_MISS */
	{ "stalls_l3_miss", EVENT_ALWAYS, 0xf, 0xf },   /* MEMORY_ACTIVITY.STALLS_L3_MISS */
};

static const struct model_group spr_groups[] = {
	{ "td", spr_td, N(spr_td), true },
	{ "fe_uops", model_intel_fe_uops_lsd, INTEL_FE_UOPS_LSD, false },
	{ "fe_stalls_flops", spr_fe_stalls_flops, N(spr_fe_stalls_flops), false },
	{ "flops_b", model_intel_flops_wide, INTEL_FLOPS_WIDE_ALL, false },
	{ "fe_l3_lat", spr_fe_l3_lat, N(spr_fe_l3_lat), false },
	{ "fe_l3_bw", spr_fe_l3_bw, N(spr_fe_l3_bw), false },
	{ "flops_hp", spr_flops_hp, N(spr_flops_hp), false },
	{ "flops_disp", spr_flops_disp, N(spr_flops_disp), false },
	{ "cyc_cpi", spr_cyc_cpi, N(spr_cyc_cpi), false },
};

/* perf's level-3 frontend nodes (the formulas at the top). */
static void spr_fe_l3(const struct model *m, const struct group_sums *sums, struct topdown *td)
{
	struct gview lat = model_gview_get(m, sums, "fe_l3_lat");
	struct gview bw = model_gview_get(m, sums, "fe_l3_bw");

	model_intel_fe_l3_common(m, sums, "fe_stalls_flops", td);
	td->fe_l3[INTEL_FE_L3_AT(IM_MS_SWITCHES)] =
		model_ratio(3.0 * model_gv(&lat, "idq_ms_switches"), lat.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_LCP)] = model_ratio(model_gv(&lat, "lcp_cycles"), lat.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_MITE)] =
		model_intel_fe_source_limited(&bw, "mite_any_cycles", "mite_ok_cycles");
	td->fe_l3[INTEL_FE_L3_AT(IM_DSB)] =
		model_intel_fe_source_limited(&bw, "dsb_any_cycles", "dsb_ok_cycles");
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_MS_SWITCHES)] = lat.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_LCP)] = lat.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_MITE)] = bw.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_DSB)] = bw.coverage;
}

static void spr_compute(const struct model *m, const struct group_sums *sums,
			const struct model_context *ctx, struct metric_value *out)
{
	struct gview v = model_gview_get(m, sums, "td");
	struct topdown td;
	double slots = model_gv(&v, "slots");
	double drop = model_ratio(model_gv(&v, "uop_dropping"), slots);
	double sum4 = model_gv(&v, "td_retiring") + model_gv(&v, "td_bad_spec") +
		      model_gv(&v, "td_fe_bound") + model_gv(&v, "td_be_bound");

	td.l1[0] = model_ratio(model_gv(&v, "td_retiring"), sum4);
	td.l1[2] = model_ratio(model_gv(&v, "td_fe_bound"), sum4) - drop;
	td.l1[3] = model_ratio(model_gv(&v, "td_be_bound"), sum4);
	td.l1[1] = 1.0 - (td.l1[0] + td.l1[2] + td.l1[3]);
	if (td.l1[1] < 0.0)
		td.l1[1] = 0.0;
	td.l1_cov = v.coverage;
	td.fetch_latency_share =
		model_ratio(model_ratio(model_gv(&v, "td_fetch_lat"), sum4) - drop, td.l1[2]);
	td.mispredict_share =
		model_ratio(model_ratio(model_gv(&v, "td_br_mispredict"), sum4), td.l1[1]);
	td.memory_share = model_ratio(model_ratio(model_gv(&v, "td_mem_bound"), sum4), td.l1[3]);
	td.heavy_share = model_ratio(model_ratio(model_gv(&v, "td_heavy_ops"), sum4), td.l1[0]);
	td.fe_cov = td.bs_cov = td.be_cov = td.ret_cov = v.coverage;
	td.rs_empty = model_ratio(model_gv(&v, "rs_empty_cycles"), v.cycles);
	td.stalls_mem = NAN;   /* no STALLS_MEM_ANY in this family */
	td.stage_cov = v.coverage;
	spr_fe_l3(m, sums, &td);
	model_intel_core_per_cycle(m, sums, ctx != NULL && ctx->smt_on, &td);
	model_intel_recovery(m, sums, &td);
	model_intel_compute(m, sums, &td, out);
	model_intel_cycle_stack(m, sums, "bound_on_loads", "fe_stalls_flops", out);
}

const struct model model_spr = {
	.name = "spr",
	.description = "Intel Sapphire Rapids class: Top-Down L1 and L2 from perf metrics, "
		       "frontend delivery with LSD, Top-Down L3 frontend, FLOPS (AVX-512, FP16, AMX BF16), "
		       "cycle-accounted CPI stack",
	.formula_version = 1,
	.pmus = (const char *const[]){ "spr", "emr", NULL },
	.pipeline_width = 6,
	.slot_stage = "issue",
	.stage_stacks = (const char *const[]){ "issue", NULL },
	.vendor = VENDOR_INTEL,
	.gp_counters_smt = 8,
	.gp_counters_nosmt = 8,
	.fixed_counters = 4,  /* instructions, cycles, ref-cycles, slots */
	.ratio_sets = spr_ratio_sets,
	.n_ratio_sets = N(spr_ratio_sets),
	.event_rules = spr_event_rules,
	.n_event_rules = N(spr_event_rules),
	.peak_flop_dp = 32,
	.peak_flop_sp = 64,
	.peak_vector_bits = 512, /* two 512-bit FMA units (ports 0+1 fused, 5) */
	.peak_flop_hp = 128,   /* AVX512-FP16: 2 FMA units x 32 lanes x 2 */
	.peak_flop_amx = 1024, /* AMX BF16: 1,024 FLOP per cycle per core (Intel) */
	.groups = spr_groups,
	.n_groups = N(spr_groups),
	.metrics = model_intel_metrics,
	.n_metrics = _IM_MAX,
	.compute = spr_compute,
};
