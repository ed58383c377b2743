/*
 * model_icl.c - Intel Ice Lake / Tiger Lake client ("icl") and Ice Lake-SP
 * ("icx"): 5 slots per cycle, Top-Down level 1 from perf metrics (`slots`
 * leading the `topdown-*` pseudo events, from sysfs; they use no general
 * counter), level 2 from general events.
 *
 * Formulas follow Linux perf 6.1's TMA metrics for Ice Lake (PERF_CPUID=
 * GenuineIntel-6-7E-5 perf list --details metric), formula version 1, with
 * sum4 = the four topdown-* counts:
 *   frontend_bound  = topdown-fe-bound / sum4 - INT_MISC.UOP_DROPPING / SLOTS
 *   backend_bound   = topdown-be-bound / sum4 + 5 * INT_MISC.CLEARS_COUNT / SLOTS
 *   retiring        = topdown-retiring / sum4
 *   bad_speculation = max(1 - the three above, 0)
 *   fetch_latency   = (5 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE
 *                      - INT_MISC.UOP_DROPPING) / SLOTS
 *   branch_mispredicts = BR_MISP / (BR_MISP + MACHINE_CLEARS.COUNT) * bad_speculation
 *   memory_bound    = as on Skylake, times backend_bound
 * Level 1 and every split come from one group each (perf metrics ride
 * along for free).  Ice Lake has no topdown-heavy-ops; perf 6.1's
 * heavy_operations is tma_microcode_sequencer + retiring * (DEC0 - DEC0
 * cycles) / MITE_UOPS with tma_microcode_sequencer = retiring *
 * IDQ.MS_UOPS / UOPS_ISSUED.ANY, so its share of retiring,
 *   heavy_ops / retiring = IDQ.MS_UOPS / UOPS_ISSUED.ANY
 *                        + (UOPS_DECODED.DEC0 - UOPS_DECODED.DEC0:c1) / IDQ.MITE_UOPS,
 * is measured in family td_l2_ret (light_ops = retiring - heavy_ops).
 * The issue-stage stack (model_intel.c) takes RS_EVENTS.EMPTY_CYCLES and
 * CYCLE_ACTIVITY.STALLS_MEM_ANY per cycle from the memory group.
 * Ice Lake counts per thread: nothing is core-scoped.
 *
 * Top-Down level 3 under the frontend, perf 6.1's tma_* nodes for Ice Lake
 * client and server (PERF_CPUID=GenuineIntel-6-7E-5 and GenuineIntel-6-6A-6,
 * the same formulas), fractions of cycles as perf defines them, not of
 * slots; CLKS = cycles, CORE_CLKS = CPU_CLK_UNHALTED.DISTRIBUTED:
 *   icache_misses   = ICACHE_16B.IFDATA_STALL / CLKS
 *   itlb_misses     = ICACHE_64B.IFTAG_STALL / CLKS
 *   branch_resteers = INT_MISC.CLEAR_RESTEER_CYCLES / CLKS + 10 * BACLEARS.ANY / CLKS
 *   ms_switches     = 3 * IDQ.MS_SWITCHES / CLKS
 *   dsb_switches    = DSB2MITE_SWITCHES.PENALTY_CYCLES / CLKS
 *   lcp             = ILD_STALL.LCP / CLKS
 *   mite = (IDQ.MITE_CYCLES_ANY - IDQ.MITE_CYCLES_OK) / CORE_CLKS / 2
 *   dsb  = (IDQ.DSB_CYCLES_ANY - IDQ.DSB_CYCLES_OK) / CORE_CLKS / 2
 *   lsd  = (LSD.CYCLES_ACTIVE - LSD.CYCLES_OK) / CORE_CLKS / 2
 * (perf has no tma_ms here).  icache_misses, itlb_misses and dsb_switches
 * come from fe_stalls_flops, which counts those events already; the rest
 * from the new families fe_l3_lat and fe_l3_bw (no stored family changed
 * meaning: the formula version stays 1).  mite, dsb and lsd divide two
 * per-cycle rates (the difference, and CORE_CLKS per cycle), so a split
 * family still gives perf's value; each difference shares a part.
 */
#include "lib/model/model_intel.h"

#include <math.h>

#define ICL_PERF_METRICS                                                              \
	{ "cpu/slots/", "slots", "slots", true, false },                                         \
	{ "cpu/topdown-retiring/", "td_retiring", "topdown-retiring", true, false },             \
	{ "cpu/topdown-bad-spec/", "td_bad_spec", "topdown-bad-spec", true, false },             \
	{ "cpu/topdown-fe-bound/", "td_fe_bound", "topdown-fe-bound", true, false },             \
	{ "cpu/topdown-be-bound/", "td_be_bound", "topdown-be-bound", true, false }

static const struct model_event icl_td_l2[] = {
	ICL_PERF_METRICS,
	INTEL_BASE_EVENTS,
	{ "INT_MISC:UOP_DROPPING", "uop_dropping", "INT_MISC.UOP_DROPPING", false, false },
	{ "INT_MISC:RECOVERY_CYCLES:c=1:e=1", "clears_count", "INT_MISC.CLEARS_COUNT", false, false },
	{ "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", "idq_0_uops_cycles",
	  "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", false, false },
	{ "BR_MISP_RETIRED:ALL_BRANCHES", "br_misp_retired", "BR_MISP_RETIRED.ALL_BRANCHES", false, false },
	{ "MACHINE_CLEARS:COUNT", "machine_clears_count", "MACHINE_CLEARS.COUNT", false, false },
};

/* heavy_ops' share of retiring (the formula above): each ratio in-group.
 * UOPS_DECODED.DEC0 is event 0x56 umask 0x01 (libpfm4 4.13). */
static const struct model_event icl_td_l2_ret[] = {
	INTEL_BASE_EVENTS,
	{ "UOPS_ISSUED:ANY", "uops_issued", "UOPS_ISSUED.ANY", false, false },
	{ "IDQ:MS_UOPS", "ms_uops", "IDQ.MS_UOPS", false, false },
	{ "IDQ:MITE_UOPS", "mite_uops", "IDQ.MITE_UOPS", false, false },
	{ "UOPS_DECODED:DEC0", "dec0_uops", "UOPS_DECODED.DEC0", false, false },
	{ "UOPS_DECODED:DEC0:c=1", "dec0_cycles", "cpu/event=0x56,umask=0x1,cmask=1/", false, false },
};

static const struct model_event icl_td_mem[] = {
	ICL_PERF_METRICS,
	INTEL_BASE_EVENTS,
	{ "INT_MISC:RECOVERY_CYCLES:c=1:e=1", "clears_count", "INT_MISC.CLEARS_COUNT", false, false },
	{ "CYCLE_ACTIVITY:STALLS_MEM_ANY", "stalls_mem_any", "CYCLE_ACTIVITY.STALLS_MEM_ANY", false, false },
	{ "EXE_ACTIVITY:BOUND_ON_STORES", "bound_on_stores", "EXE_ACTIVITY.BOUND_ON_STORES", false, false },
	{ "CYCLE_ACTIVITY:STALLS_TOTAL", "stalls_total", "CYCLE_ACTIVITY.STALLS_TOTAL", false, false },
	{ "EXE_ACTIVITY:1_PORTS_UTIL", "ports_util_1", "EXE_ACTIVITY.1_PORTS_UTIL", false, false },
	{ "EXE_ACTIVITY:2_PORTS_UTIL", "ports_util_2", "EXE_ACTIVITY.2_PORTS_UTIL", false, false },
	{ "RS_EVENTS:EMPTY_CYCLES", "rs_empty_cycles", "RS_EVENTS.EMPTY_CYCLES", false, false },
};

static const struct model_event icl_fe_stalls_flops[] = {
	INTEL_BASE_EVENTS,
	{ "DSB2MITE_SWITCHES:PENALTY_CYCLES", "dsb2mite_penalty_cycles",
	  "DSB2MITE_SWITCHES.PENALTY_CYCLES", false, false },
	{ "ICACHE_16B:IFDATA_STALL", "icache_stall_cycles", "ICACHE_16B.IFDATA_STALL", false, false },
	{ "ICACHE_64B:IFTAG_STALL", "itlb_stall_cycles", "ICACHE_64B.IFTAG_STALL", false, false },
	INTEL_FP_NARROW_EVENTS,
};

/* Level 3 under fetch_latency (the events fe_stalls_flops lacks). */
static const struct model_event icl_fe_l3_lat[] = {
	INTEL_BASE_EVENTS,
	{ "INT_MISC:CLEAR_RESTEER_CYCLES", "clear_resteer_cycles", "INT_MISC.CLEAR_RESTEER_CYCLES",
	  false, false },
	{ "BACLEARS:ANY", "baclears", "BACLEARS.ANY", false, false },
	{ "IDQ:MS_SWITCHES", "idq_ms_switches", "IDQ.MS_SWITCHES", false, false },
	{ "ILD_STALL:LCP", "lcp_cycles", "ILD_STALL.LCP", false, false },
};

/* Level 3 under fetch_bandwidth: cycles each source delivered any uop and
 * its optimal number (5), and CORE_CLKS. */
static const struct model_event icl_fe_l3_bw[] = {
	INTEL_BASE_EVENTS,
	{ "IDQ:MITE_CYCLES_ANY", "mite_any_cycles", "IDQ.MITE_CYCLES_ANY", false, false },
	{ "IDQ:MITE_CYCLES_OK", "mite_ok_cycles", "IDQ.MITE_CYCLES_OK", false, false },
	{ "IDQ:DSB_CYCLES_ANY", "dsb_any_cycles", "IDQ.DSB_CYCLES_ANY", false, false },
	{ "IDQ:DSB_CYCLES_OK", "dsb_ok_cycles", "IDQ.DSB_CYCLES_OK", false, false },
	{ "LSD:CYCLES_ACTIVE", "lsd_active_cycles", "LSD.CYCLES_ACTIVE", false, false },
	{ "LSD:CYCLES_OK", "lsd_ok_cycles", "LSD.CYCLES_OK", false, false },
	{ "CPU_CLK_UNHALTED:DISTRIBUTED", "core_clks", "CPU_CLK_UNHALTED.DISTRIBUTED",
	  false, false },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Ratio sets (each at most 3 general counters, see model_skl.c). */
static const struct model_ratio_set icl_ratio_sets[] = {
	/* fetch_latency: 5 * CYCLES_0_UOPS_DELIV.CORE - INT_MISC.UOP_DROPPING */
	{ "td_l2", "idq_0_uops_cycles,uop_dropping" },
	/* branch_mispredicts' share: BR_MISP / (BR_MISP + MACHINE_CLEARS.COUNT) */
	{ "td_l2", "br_misp_retired,machine_clears_count" },
	/* memory_bound's share (mostly STALLS_MEM_ANY over STALLS_TOTAL); the
	 * issue-stage stack's RS_EVENTS.EMPTY_CYCLES beside them */
	{ "td_mem", "stalls_mem_any,stalls_total,rs_empty_cycles" },
	/* dsb_coverage, mite_share, ms_share over the sum of the sources (the
	 * LSD's, the fourth, may come from another part: a set holds 3) */
	{ "fe_uops", "dsb_uops,mite_uops,ms_uops" },
	/* tma_mite, tma_dsb, tma_lsd: cycles with any uop minus optimal ones */
	{ "fe_l3_bw", "mite_any_cycles,mite_ok_cycles" },
	{ "fe_l3_bw", "dsb_any_cycles,dsb_ok_cycles" },
	{ "fe_l3_bw", "lsd_active_cycles,lsd_ok_cycles" },
	/* heavy_ops: IDQ.MS_UOPS / UOPS_ISSUED.ANY and (DEC0 - DEC0 cycles) /
	 * IDQ.MITE_UOPS */
	{ "td_l2_ret", "uops_issued,ms_uops" },
	{ "td_l2_ret", "dec0_uops,dec0_cycles,mite_uops" },
	/* the cycle-accounted stack: nested memory stalls, and T - M */
	{ "cyc_cpi", "stalls_l1d_miss,stalls_l2_miss,stalls_l3_miss" },
	{ "cyc_cpi", "stalls_total,stalls_mem_any" },
};

/* General counter restrictions, from Intel's perfmon ICL/events/
 * icelake_core.json and ICX/events/icelakex_core.json ("Counter"; no
 * CounterHTOff: Ice Lake has 8 per thread either way), the same in Linux's
 * tools/perf/pmu-events/arch/x86/{icelake,icelakex}/{frontend,pipeline}.json.
 * Other events may use any counter. */
static const struct model_event_rule icl_event_rules[] = {
	{ "dsb_uops", EVENT_ALWAYS, 0xf, 0xf },                 /* IDQ.DSB_UOPS */
	{ "mite_uops", EVENT_ALWAYS, 0xf, 0xf },                /* IDQ.MITE_UOPS */
	{ "ms_uops", EVENT_ALWAYS, 0xf, 0xf },                  /* IDQ.MS_UOPS */
	{ "lsd_uops", EVENT_ALWAYS, 0xf, 0xf },                 /* LSD.UOPS */
	{ "dsb_cycles", EVENT_ALWAYS, 0xf, 0xf },               /* IDQ.DSB_CYCLES_ANY */
	{ "mite_cycles", EVENT_ALWAYS, 0xf, 0xf },              /* IDQ.MITE_CYCLES_ANY */
	/* IDQ.MS_CYCLES_ANY (icelake; icelakex lists only IDQ.MS_UOPS, the
	 * same event without the cmask: 0-3 too) and LSD.CYCLES_ACTIVE */
	{ "ms_cycles", EVENT_ALWAYS, 0xf, 0xf },
	{ "lsd_cycles", EVENT_ALWAYS, 0xf, 0xf },
	{ "dsb2mite_penalty_cycles", EVENT_ALWAYS, 0xf, 0xf },  /* DSB2MITE_SWITCHES.PENALTY_CYCLES */
	{ "icache_stall_cycles", EVENT_ALWAYS, 0xf, 0xf },      /* ICACHE_16B.IFDATA_STALL */
	{ "itlb_stall_cycles", EVENT_ALWAYS, 0xf, 0xf },        /* ICACHE_64B.IFTAG_STALL */
	{ "idq_ms_switches", EVENT_ALWAYS, 0xf, 0xf },          /* IDQ.MS_SWITCHES */
	{ "mite_any_cycles", EVENT_ALWAYS, 0xf, 0xf },          /* IDQ.MITE_CYCLES_ANY */
	{ "mite_ok_cycles", EVENT_ALWAYS, 0xf, 0xf },           /* IDQ.MITE_CYCLES_OK */
	{ "dsb_any_cycles", EVENT_ALWAYS, 0xf, 0xf },           /* IDQ.DSB_CYCLES_ANY */
	{ "dsb_ok_cycles", EVENT_ALWAYS, 0xf, 0xf },            /* IDQ.DSB_CYCLES_OK */
	{ "lsd_active_cycles", EVENT_ALWAYS, 0xf, 0xf },        /* LSD.CYCLES_ACTIVE */
	{ "lsd_ok_cycles", EVENT_ALWAYS, 0xf, 0xf },            /* LSD.CYCLES_OK */
	/* UOPS_DECODED.DEC0: counters 0-3 taken as for Sapphire Rapids'
	 * UOPS_DECODED.DEC0_UOPS (Linux's sapphirerapids/pipeline.json); the
	 * Ice Lake entry was not at hand, and a narrower mask can only make
	 * the planner split more, never place an event where it cannot count */
	{ "dec0_uops", EVENT_ALWAYS, 0xf, 0xf },
	{ "dec0_cycles", EVENT_ALWAYS, 0xf, 0xf },
	/* CYCLE_ACTIVITY.STALLS_L1D_MISS, _L2_MISS, _L3_MISS: Counter 0,1,2,3
	 * (STALLS_TOTAL, STALLS_MEM_ANY, ARITH.DIVIDER_ACTIVE, INT_MISC.*: any) */
	{ "stalls_l1d_miss", EVENT_ALWAYS, 0xf, 0xf },
	{ "stalls_l2_miss", EVENT_ALWAYS, 0xf, 0xf },
	{ "stalls_l3_miss", EVENT_ALWAYS, 0xf, 0xf },
};

static const struct model_group icl_groups[] = {
	{ "td_l2", icl_td_l2, N(icl_td_l2), true },
	{ "td_mem", icl_td_mem, N(icl_td_mem), true },
	{ "fe_uops", model_intel_fe_uops_lsd, INTEL_FE_UOPS_LSD, false },
	{ "fe_stalls_flops", icl_fe_stalls_flops, N(icl_fe_stalls_flops), false },
	{ "flops_b", model_intel_flops_wide, INTEL_FLOPS_WIDE_ALL, false },
	{ "fe_l3_lat", icl_fe_l3_lat, N(icl_fe_l3_lat), false },
	{ "fe_l3_bw", icl_fe_l3_bw, N(icl_fe_l3_bw), false },
	{ "td_l2_ret", icl_td_l2_ret, N(icl_td_l2_ret), false },
	{ "cyc_cpi", model_intel_cyc_cpi, INTEL_CYC_CPI_EVENTS, false },
};

/* perf's level-3 frontend nodes (the formulas at the top). */
static void icl_fe_l3(const struct model *m, const struct group_sums *sums, struct topdown *td)
{
	struct gview lat = model_gview_get(m, sums, "fe_l3_lat");
	struct gview bw = model_gview_get(m, sums, "fe_l3_bw");

	model_intel_fe_l3_common(m, sums, "fe_stalls_flops", td);
	td->fe_l3[INTEL_FE_L3_AT(IM_BRANCH_RESTEERS)] =
		model_ratio(model_gv(&lat, "clear_resteer_cycles"), lat.cycles) +
		model_ratio(10.0 * model_gv(&lat, "baclears"), lat.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_MS_SWITCHES)] =
		model_ratio(3.0 * model_gv(&lat, "idq_ms_switches"), lat.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_LCP)] = model_ratio(model_gv(&lat, "lcp_cycles"), lat.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_MITE)] =
		model_intel_fe_source_limited(&bw, "mite_any_cycles", "mite_ok_cycles");
	td->fe_l3[INTEL_FE_L3_AT(IM_DSB)] =
		model_intel_fe_source_limited(&bw, "dsb_any_cycles", "dsb_ok_cycles");
	td->fe_l3[INTEL_FE_L3_AT(IM_LSD)] =
		model_intel_fe_source_limited(&bw, "lsd_active_cycles", "lsd_ok_cycles");
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_BRANCH_RESTEERS)] = lat.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_MS_SWITCHES)] = lat.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_LCP)] = lat.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_MITE)] = bw.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_DSB)] = bw.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_LSD)] = bw.coverage;
}

/* Level 1 of one group from its perf metrics and corrections. */
static void icl_level1(const struct gview *v, double out[4])
{
	double slots = model_gv(v, "slots");
	double sum4 = model_gv(v, "td_retiring") + model_gv(v, "td_bad_spec") +
		      model_gv(v, "td_fe_bound") + model_gv(v, "td_be_bound");
	/* The memory family carries no frontend correction (0); a family
	 * that has it but did not count it leaves frontend_bound invalid. */
	double drop = model_gv_or(v, "uop_dropping", 0.0);

	out[0] = model_ratio(model_gv(v, "td_retiring"), sum4);
	out[2] = model_ratio(model_gv(v, "td_fe_bound"), sum4) - model_ratio(drop, slots);
	out[3] = model_ratio(model_gv(v, "td_be_bound"), sum4) +
		 model_ratio(5.0 * model_gv(v, "clears_count"), slots);
	out[1] = 1.0 - (out[2] + out[3] + out[0]);
	if (out[1] < 0.0)
		out[1] = 0.0;
}

static void icl_compute(const struct model *m, const struct group_sums *sums,
			const struct model_context *ctx, struct metric_value *out)
{
	struct gview l2 = model_gview_get(m, sums, "td_l2");
	struct gview mem = model_gview_get(m, sums, "td_mem");
	struct gview ret;
	struct topdown td;
	double slots = model_gv(&l2, "slots"), mem_l1[4], br, mc, fl;

	icl_level1(&l2, td.l1);
	td.l1_cov = l2.coverage;
	fl = model_ratio(5.0 * model_gv(&l2, "idq_0_uops_cycles") - model_gv(&l2, "uop_dropping"),
			 slots);
	td.fetch_latency_share = model_ratio(fl, td.l1[2]);
	br = model_gv(&l2, "br_misp_retired");
	mc = model_gv(&l2, "machine_clears_count");
	td.mispredict_share = model_ratio(br, br + mc);
	td.fe_cov = td.bs_cov = l2.coverage;
	/* The memory split is a ratio inside the memory group, whose own
	 * perf metrics give the retiring it needs. */
	icl_level1(&mem, mem_l1);
	td.memory_share =
		model_ratio(model_gv(&mem, "stalls_mem_any") + model_gv(&mem, "bound_on_stores"),
			    model_gv(&mem, "stalls_total") + model_gv(&mem, "ports_util_1") +
			    mem_l1[0] * model_gv(&mem, "ports_util_2") +
			    model_gv(&mem, "bound_on_stores"));
	td.be_cov = mem.coverage;
	ret = model_gview_get(m, sums, "td_l2_ret");
	td.heavy_share = model_ratio(model_gv(&ret, "ms_uops"), model_gv(&ret, "uops_issued")) +
			 model_ratio(model_gv(&ret, "dec0_uops") - model_gv(&ret, "dec0_cycles"),
				     model_gv(&ret, "mite_uops"));
	td.ret_cov = ret.coverage;
	td.rs_empty = model_ratio(model_gv(&mem, "rs_empty_cycles"), mem.cycles);
	td.stalls_mem = model_ratio(model_gv(&mem, "stalls_mem_any"), mem.cycles);
	td.stage_cov = mem.coverage;
	icl_fe_l3(m, sums, &td);
	model_intel_core_per_cycle(m, sums, ctx != NULL && ctx->smt_on, &td);
	model_intel_recovery(m, sums, &td);
	model_intel_compute(m, sums, &td, out);
	model_intel_cycle_stack(m, sums, "stalls_mem_any", "fe_stalls_flops", out);
}

const struct model model_icl = {
	.name = "icl",
	.description = "Intel Ice Lake / Tiger Lake client: Top-Down L1 (perf metrics) and L2, "
		       "frontend delivery with LSD, FLOPS (AVX-512), cycle-accounted CPI stack",
	.formula_version = 1,
	.pmus = (const char *const[]){ "icl", NULL },
	.pipeline_width = 5,
	.slot_stage = "issue",
	.stage_stacks = (const char *const[]){ "issue", NULL },
	.vendor = VENDOR_INTEL,
	.gp_counters_smt = 8,
	.gp_counters_nosmt = 8,
	.fixed_counters = 4,  /* instructions, cycles, ref-cycles, slots */
	.ratio_sets = icl_ratio_sets,
	.n_ratio_sets = N(icl_ratio_sets),
	.event_rules = icl_event_rules,
	.n_event_rules = N(icl_event_rules),
	.peak_flop_dp = 16,   /* one 512-bit FMA: 8 lanes x 2 */
	.peak_flop_sp = 32,
	/* Ice Lake client has no port-5 FMA: two 256-bit FMAs (ports 0, 1) or
	 * one 512-bit FMA (both ports fused) per cycle reach the same 16 DP FLOP
	 * (Intel 64 and IA-32 Architectures Optimization Reference Manual,
	 * Sunny Cove client): 256-bit code loses no width. */
	.peak_vector_bits = 256,
	.groups = icl_groups,
	.n_groups = N(icl_groups),
	.metrics = model_intel_metrics,
	.n_metrics = _IM_MAX,
	.compute = icl_compute,
};

const struct model model_icx = {
	.name = "icx",
	.description = "Intel Ice Lake-SP: Top-Down L1 (perf metrics) and L2, frontend delivery, "
		       "FLOPS (AVX-512, two FMA units), cycle-accounted CPI stack",
	.formula_version = 1,
	.pmus = (const char *const[]){ "icx", NULL },
	.pipeline_width = 5,
	.slot_stage = "issue",
	.stage_stacks = (const char *const[]){ "issue", NULL },
	.vendor = VENDOR_INTEL,
	.gp_counters_smt = 8,
	.gp_counters_nosmt = 8,
	.fixed_counters = 4,  /* instructions, cycles, ref-cycles, slots */
	.ratio_sets = icl_ratio_sets,
	.n_ratio_sets = N(icl_ratio_sets),
	.event_rules = icl_event_rules,
	.n_event_rules = N(icl_event_rules),
	.peak_flop_dp = 32,
	.peak_flop_sp = 64,
	.peak_vector_bits = 512, /* two 512-bit FMA units (ports 0+1 fused, 5) */
	.groups = icl_groups,
	.n_groups = N(icl_groups),
	.metrics = model_intel_metrics,
	.n_metrics = _IM_MAX,
	.compute = icl_compute,
};
