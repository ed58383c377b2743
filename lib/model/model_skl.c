/*
 * model_skl.c - Intel Skylake-class cores, 4 slots per cycle: Skylake,
 * Kaby/Coffee/Comet Lake (libpfm4 "skl") and Skylake-SP/Cascade Lake ("skx").
 *
 * Formulas follow Linux perf 6.1's TMA metrics for Skylake (print them with
 * PERF_CPUID=GenuineIntel-6-5E-3 perf list --details metric; Skylake-SP,
 * GenuineIntel-6-55-4, has the same ones), formula version 2 (version 1
 * had no SMT-on branch):
 *   CORE_CLKS = cycles                                     SMT off
 *             = cycles / 2 * (1 + CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE /
 *                                 CPU_CLK_UNHALTED.REF_XCLK)  SMT on
 *   SLOTS = 4 * CORE_CLKS
 *   RECOVERY = INT_MISC.RECOVERY_CYCLES                   SMT off
 *            = INT_MISC.RECOVERY_CYCLES_ANY / 2            SMT on
 *   frontend_bound  = IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS
 *   bad_speculation = (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS
 *                      + 4 * RECOVERY) / SLOTS
 *   retiring        = UOPS_RETIRED.RETIRE_SLOTS / SLOTS
 *   backend_bound   = 1 - frontend_bound - (UOPS_ISSUED.ANY + 4 * RECOVERY) / SLOTS
 *   fetch_latency   = 4 * IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE / SLOTS
 *   branch_mispredicts = BR_MISP / (BR_MISP + MACHINE_CLEARS.COUNT) * bad_speculation
 *   memory_bound    = (STALLS_MEM_ANY + BOUND_ON_STORES) / (STALLS_TOTAL +
 *                     1_PORTS_UTIL + retiring * 2_PORTS_UTIL + BOUND_ON_STORES)
 *                     * backend_bound
 *   heavy_ops       = (UOPS_RETIRED.RETIRE_SLOTS + UOPS_RETIRED.MACRO_FUSED
 *                      - INST_RETIRED.ANY) / SLOTS   (light_ops = the rest)
 * perf's CORE_CLKS is the SMT-on expression whenever it counts per thread
 * (#core_wide < 1); with SMT off ONE_THREAD_ACTIVE equals REF_XCLK (the
 * thread is always alone), so it is cycles, which is what we use there.
 * With SMT on the thread gets half the core's slots while both threads run
 * and all of them while it runs alone; the one core-wide event,
 * RECOVERY_CYCLES_ANY, is halved to this thread's share as perf does, so
 * every figure here is the thread's own (none is core-scoped).
 *
 * The L2 splits do not fit one group with level 1, so each is measured as a
 * share of its parent in its own family (fetch_latency / frontend_bound
 * = 4 * CYCLES_0_UOPS_DELIV / NOT_DELIVERED: SLOTS cancels) and multiplied
 * by the level-1 parent; for one recording of all events this is perf's
 * formula exactly.  memory_bound combines per-cycle rates of two families.
 * heavy_ops is measured as a share of retiring inside td_l2_ret.
 *
 * Multi-stage stacks (Eyerman et al., ISPASS 2018): level 1
 * is the dispatch stage's stack; the issue stage's (model_intel.c) takes
 * RS_EVENTS.EMPTY_CYCLES (td_l2_ret), CYCLE_ACTIVITY.STALLS_MEM_ANY
 * (td_l2_be) and the recovery and resteer cycles (cyc_cpi) per cycle,
 * rates of three families.  These events count per
 * thread.
 *
 * SMT-only events are appended to their families (stored columns keep
 * their places); the planner counts each only in the SMT state its rule
 * names, and readers mark the others missing.
 *
 * Top-Down level 3 under the frontend, perf 6.1's tma_* nodes for Skylake
 * and Skylake-SP (PERF_CPUID=GenuineIntel-6-5E-3 and GenuineIntel-6-55-4,
 * the same formulas), fractions of cycles as perf defines them, not of
 * slots (CLKS = cycles, CORE_CLKS as above):
 *   icache_misses   = (ICACHE_16B.IFDATA_STALL
 *                      + 2 * cpu@ICACHE_16B.IFDATA_STALL,cmask=1,edge@) / CLKS
 *   itlb_misses     = ICACHE_64B.IFTAG_STALL / CLKS
 *   branch_resteers = INT_MISC.CLEAR_RESTEER_CYCLES / CLKS + 9 * BACLEARS.ANY / CLKS
 *   ms_switches     = 2 * IDQ.MS_SWITCHES / CLKS
 *   dsb_switches    = DSB2MITE_SWITCHES.PENALTY_CYCLES / CLKS
 *   lcp             = ILD_STALL.LCP / CLKS
 *   mite = (IDQ.ALL_MITE_CYCLES_ANY_UOPS - IDQ.ALL_MITE_CYCLES_4_UOPS) / CORE_CLKS / 2
 *   dsb  = (IDQ.ALL_DSB_CYCLES_ANY_UOPS - IDQ.ALL_DSB_CYCLES_4_UOPS) / CORE_CLKS / 2
 * perf 6.1 has no tma_lsd for Skylake (its LSD is off on most parts) and no
 * tma_ms: neither is offered.  itlb_misses, dsb_switches and the first term
 * of icache_misses come from fe_stalls, which counts those events already;
 * the rest from the families fe_l3_lat and fe_l3_bw (new families: no
 * stored family changed meaning, so the formula version stays 2).  Each figure
 * is a sum of per-cycle rates, so a family split over parts reads them
 * from the parts that counted them; the two terms of mite and of dsb
 * share a part (ratio sets).
 */
#include "lib/model/model_intel.h"

#include <math.h>

/* SMT on: this thread's share of the core's clocks (CORE_CLKS). */
#define SKL_CORE_CLKS_EVENTS                                                              \
	{ "CPU_CLK_UNHALTED:ONE_THREAD_ACTIVE", "one_thread_active",                        \
	  "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", false, false },                              \
	{ "CPU_CLK_UNHALTED:REF_XCLK", "ref_xclk", "CPU_CLK_UNHALTED.REF_XCLK", false, false }

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Expanded after the event arrays below. */
#define SKL_TD_GROUPS                                                                     \
	{ "td_l1", skl_td_l1, N(skl_td_l1), false },                                         \
	{ "td_l2_fe_bs", skl_td_l2_fe_bs, N(skl_td_l2_fe_bs), false },                       \
	{ "td_l2_be", skl_td_l2_be, N(skl_td_l2_be), false },                                \
	{ "td_l2_ret", skl_td_l2_ret, N(skl_td_l2_ret), false },                             \
	{ "fe_uops", skl_fe_uops, N(skl_fe_uops), false },                                   \
	{ "fe_stalls", skl_fe_stalls, N(skl_fe_stalls), false },                             \
	{ "flops_a", skl_flops_a, N(skl_flops_a), false }

/* After flops_b: the families before keep their places. */
#define SKL_FE_L3_GROUPS                                                                  \
	{ "fe_l3_lat", skl_fe_l3_lat, N(skl_fe_l3_lat), false },                             \
	{ "fe_l3_bw", skl_fe_l3_bw, N(skl_fe_l3_bw), false }

static const struct model_event skl_td_l1[] = {
	INTEL_BASE_EVENTS,
	{ "UOPS_ISSUED:ANY", "uops_issued", "UOPS_ISSUED.ANY", false, false },
	{ "UOPS_RETIRED:RETIRE_SLOTS", "retire_slots", "UOPS_RETIRED.RETIRE_SLOTS", false, false },
	{ "IDQ_UOPS_NOT_DELIVERED:CORE", "idq_not_delivered", "IDQ_UOPS_NOT_DELIVERED.CORE", false, false },
	{ "INT_MISC:RECOVERY_CYCLES", "recovery_cycles", "INT_MISC.RECOVERY_CYCLES", false, false },
	{ "INT_MISC:RECOVERY_CYCLES_ANY", "recovery_cycles_any", "INT_MISC.RECOVERY_CYCLES_ANY",
	  false, false },
	SKL_CORE_CLKS_EVENTS,
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
	SKL_CORE_CLKS_EVENTS,   /* SMT on: memory_bound's retiring is per SLOTS */
};

/* Uops by path, and the cycles each path delivered (the thesis's P_only
 * and its cycle decomposition, model_util.c): MITE's cycles here too,
 * appended, so that P_only divides counts of one family (fe_stalls' copy
 * is another family's time); IDQ.MS_CYCLES is IDQ.MS_UOPS with cmask 1
 * (skylake/frontend.json: 0x79, umask 0x30, cmask 1). */
static const struct model_event skl_fe_uops[] = {
	INTEL_BASE_EVENTS,
	{ "IDQ:DSB_UOPS", "dsb_uops", "IDQ.DSB_UOPS", false, false },
	{ "IDQ:MITE_UOPS", "mite_uops", "IDQ.MITE_UOPS", false, false },
	{ "IDQ:MS_UOPS", "ms_uops", "IDQ.MS_UOPS", false, false },
	{ "IDQ:DSB_UOPS:c=1", "dsb_cycles", "IDQ.DSB_CYCLES", false, false },
	{ "IDQ:MITE_UOPS:c=1", "mite_cycles", "IDQ.MITE_CYCLES", false, false },
	{ "IDQ:MS_UOPS:c=1", "ms_cycles", "IDQ.MS_CYCLES", false, false },
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

/* Level 3 under fetch_latency.  ICACHE_16B.IFDATA_STALL counted from
 * stall to stall (cmask=1, edge): the number of i-cache miss stalls. */
static const struct model_event skl_fe_l3_lat[] = {
	INTEL_BASE_EVENTS,
	{ "ICACHE_16B:IFDATA_STALL:c=1:e=1", "icache_stall_edges",
	  "cpu/event=0x80,umask=0x4,cmask=1,edge/", false, false },
	{ "INT_MISC:CLEAR_RESTEER_CYCLES", "clear_resteer_cycles", "INT_MISC.CLEAR_RESTEER_CYCLES",
	  false, false },
	{ "BACLEARS:ANY", "baclears", "BACLEARS.ANY", false, false },
	{ "IDQ:MS_SWITCHES", "idq_ms_switches", "IDQ.MS_SWITCHES", false, false },
	{ "ILD_STALL:LCP", "lcp_cycles", "ILD_STALL.LCP", false, false },
};

/* Level 3 under fetch_bandwidth: cycles MITE / the DSB delivered any and
 * 4 uops, and with SMT on CORE_CLKS' two events. */
static const struct model_event skl_fe_l3_bw[] = {
	INTEL_BASE_EVENTS,
	{ "IDQ:ALL_MITE_CYCLES_ANY_UOPS", "mite_any_cycles", "IDQ.ALL_MITE_CYCLES_ANY_UOPS",
	  false, false },
	{ "IDQ:ALL_MITE_CYCLES_4_UOPS", "mite_4_cycles", "IDQ.ALL_MITE_CYCLES_4_UOPS", false, false },
	{ "IDQ:ALL_DSB_CYCLES_ANY_UOPS", "dsb_any_cycles", "IDQ.ALL_DSB_CYCLES_ANY_UOPS",
	  false, false },
	{ "IDQ:ALL_DSB_CYCLES_4_UOPS", "dsb_4_cycles", "IDQ.ALL_DSB_CYCLES_4_UOPS", false, false },
	SKL_CORE_CLKS_EVENTS,
};

static const struct model_group skl_groups[] = {
	SKL_TD_GROUPS,
	{ "flops_b", model_intel_flops_wide, INTEL_FLOPS_WIDE_AVX2, false },
	SKL_FE_L3_GROUPS,
	{ "cyc_cpi", model_intel_cyc_cpi, INTEL_CYC_CPI_EVENTS, false },
};

static const struct model_group skx_groups[] = {
	SKL_TD_GROUPS,
	{ "flops_b", model_intel_flops_wide, INTEL_FLOPS_WIDE_ALL, false },
	SKL_FE_L3_GROUPS,
	{ "cyc_cpi", model_intel_cyc_cpi, INTEL_CYC_CPI_EVENTS, false },
};

/*
 * The planner's facts.  Ratio sets: the events each formula compares with
 * one another, not only with cycles (each at most 3 general counters: the
 * free ones of a part with SMT on and the NMI watchdog holding the fixed
 * cycles counter).
 */
static const struct model_ratio_set skl_ratio_sets[] = {
	/* bad_speculation: UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS */
	{ "td_l1", "uops_issued,retire_slots" },
	/* SMT on: CORE_CLKS takes ONE_THREAD_ACTIVE / REF_XCLK */
	{ "td_l1", "one_thread_active,ref_xclk" },
	/* fetch_latency's share: 4 * CYCLES_0_UOPS_DELIV.CORE / NOT_DELIVERED.CORE */
	{ "td_l2_fe_bs", "idq_not_delivered,idq_0_uops_cycles" },
	/* branch_mispredicts' share: BR_MISP / (BR_MISP + MACHINE_CLEARS.COUNT) */
	{ "td_l2_fe_bs", "br_misp_retired,machine_clears_count" },
	/* memory_bound's share, mostly STALLS_MEM_ANY over STALLS_TOTAL */
	{ "td_l2_be", "stalls_mem_any,stalls_total" },
	/* heavy_ops' share: (RETIRE_SLOTS + MACRO_FUSED - instructions) / RETIRE_SLOTS */
	{ "td_l2_ret", "retire_slots,macro_fused" },
	/* SMT on: memory_bound's retiring per SLOTS (CORE_CLKS) */
	{ "td_l2_ret", "one_thread_active,ref_xclk" },
	/* dsb_coverage, mite_share, ms_share: each over DSB + MITE + MS (the
	 * paths' cycles, P_only's divisors, fill the family's other part) */
	{ "fe_uops", "dsb_uops,mite_uops,ms_uops" },
	/* tma_mite and tma_dsb: cycles with any uop minus cycles with 4 */
	{ "fe_l3_bw", "mite_any_cycles,mite_4_cycles" },
	{ "fe_l3_bw", "dsb_any_cycles,dsb_4_cycles" },
	/* SMT on: their CORE_CLKS */
	{ "fe_l3_bw", "one_thread_active,ref_xclk" },
	/* the cycle-accounted stack's nested memory stalls: L1D - L2 - L3 misses */
	{ "cyc_cpi", "stalls_l1d_miss,stalls_l2_miss,stalls_l3_miss" },
	/* ...and its stalls with no load outstanding: STALLS_TOTAL - STALLS_MEM_ANY */
	{ "cyc_cpi", "stalls_total,stalls_mem_any" },
};

/* When each SMT-dependent event is counted (perf's #SMT_on branches), and
 * the one general counter restriction among our events, from Intel's
 * perfmon SKL/events/skylake_core.json and SKX/events/skylakex_core.json
 * v59 ("Counter" with SMT on, "CounterHTOff" with SMT off), the source of
 * Linux's tools/perf/pmu-events/arch/x86/{skylake,skylakex}/pipeline.json
 * (same "Counter"; Linux has since dropped CounterHTOff).  Every other
 * event may use any general counter. */
static const struct model_event_rule skl_event_rules[] = {
	{ "recovery_cycles", EVENT_SMT_OFF, 0, 0 },
	{ "recovery_cycles_any", EVENT_SMT_ON, 0, 0 },
	{ "one_thread_active", EVENT_SMT_ON, 0, 0 },
	{ "ref_xclk", EVENT_SMT_ON, 0, 0 },
	/* CYCLE_ACTIVITY.STALLS_MEM_ANY: Counter 0,1,2,3; CounterHTOff 0,1,2,3 */
	{ "stalls_mem_any", EVENT_ALWAYS, 0xf, 0xf },
};

/* perf's CORE_CLKS of one family: with SMT on, the thread's share of the
 * core's clocks (half while both threads run, all while it runs alone). */
static double skl_core_clks(const struct gview *v, bool smt_on)
{
	if (!smt_on)
		return v->cycles;
	return v->cycles / 2.0 *
	       (1.0 + model_ratio(model_gv(v, "one_thread_active"), model_gv(v, "ref_xclk")));
}

static void skl_level1(const struct gview *l1, bool smt_on, struct topdown *td)
{
	double slots = 4.0 * skl_core_clks(l1, smt_on);
	double rec = smt_on ? model_gv(l1, "recovery_cycles_any") / 2.0
			    : model_gv(l1, "recovery_cycles");
	double issued = model_gv(l1, "uops_issued");

	td->l1[2] = model_ratio(model_gv(l1, "idq_not_delivered"), slots);
	td->l1[1] = model_ratio(issued - model_gv(l1, "retire_slots") + 4.0 * rec, slots);
	td->l1[0] = model_ratio(model_gv(l1, "retire_slots"), slots);
	td->l1[3] = 1.0 - td->l1[2] - model_ratio(issued + 4.0 * rec, slots);
	td->l1_cov = l1->coverage;
}

/* perf's level-3 frontend nodes (the formulas at the top). */
static void skl_fe_l3(const struct model *m, const struct group_sums *sums, bool smt_on,
		      struct topdown *td)
{
	struct gview st = model_gview_get(m, sums, "fe_stalls");
	struct gview lat = model_gview_get(m, sums, "fe_l3_lat");
	struct gview bw = model_gview_get(m, sums, "fe_l3_bw");
	double core = skl_core_clks(&bw, smt_on);

	model_intel_fe_l3_common(m, sums, "fe_stalls", td);
	td->fe_l3[INTEL_FE_L3_AT(IM_ICACHE_MISSES)] +=
		model_ratio(2.0 * model_gv(&lat, "icache_stall_edges"), lat.cycles);
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_ICACHE_MISSES)] = model_cov2(st.coverage, lat.coverage);
	td->fe_l3[INTEL_FE_L3_AT(IM_BRANCH_RESTEERS)] =
		model_ratio(model_gv(&lat, "clear_resteer_cycles"), lat.cycles) +
		model_ratio(9.0 * model_gv(&lat, "baclears"), lat.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_MS_SWITCHES)] =
		model_ratio(2.0 * model_gv(&lat, "idq_ms_switches"), lat.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_LCP)] = model_ratio(model_gv(&lat, "lcp_cycles"), lat.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_MITE)] =
		model_ratio(model_gv(&bw, "mite_any_cycles") - model_gv(&bw, "mite_4_cycles"),
			    core) / 2.0;
	td->fe_l3[INTEL_FE_L3_AT(IM_DSB)] =
		model_ratio(model_gv(&bw, "dsb_any_cycles") - model_gv(&bw, "dsb_4_cycles"),
			    core) / 2.0;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_BRANCH_RESTEERS)] = lat.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_MS_SWITCHES)] = lat.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_LCP)] = lat.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_MITE)] = bw.coverage;
	td->fe_l3_cov[INTEL_FE_L3_AT(IM_DSB)] = bw.coverage;
}

static void skl_compute(const struct model *m, const struct group_sums *sums,
			const struct model_context *ctx, struct metric_value *out)
{
	struct gview l1 = model_gview_get(m, sums, "td_l1");
	struct gview febs = model_gview_get(m, sums, "td_l2_fe_bs");
	struct gview be = model_gview_get(m, sums, "td_l2_be");
	struct gview ret = model_gview_get(m, sums, "td_l2_ret");
	bool smt_on = ctx != NULL && ctx->smt_on;
	struct topdown td;
	double br, mc, mem, st, tot, p1, p2, r2;

	skl_level1(&l1, smt_on, &td);
	/* FLOPc's CORE_CLKS, from level 1's own clocks */
	td.core_per_cycle = smt_on ? model_ratio(skl_core_clks(&l1, smt_on), l1.cycles) : 1.0;
	td.core_cov = l1.coverage;
	td.fetch_latency_share = model_ratio(4.0 * model_gv(&febs, "idq_0_uops_cycles"),
					     model_gv(&febs, "idq_not_delivered"));
	br = model_gv(&febs, "br_misp_retired");
	mc = model_gv(&febs, "machine_clears_count");
	td.mispredict_share = model_ratio(br, br + mc);
	td.fe_cov = td.bs_cov = febs.coverage;

	/* Per-cycle rates: the backend split's inputs span two families. */
	mem = model_ratio(model_gv(&be, "stalls_mem_any"), be.cycles);
	st = model_ratio(model_gv(&be, "bound_on_stores"), be.cycles);
	tot = model_ratio(model_gv(&be, "stalls_total"), be.cycles);
	p1 = model_ratio(model_gv(&be, "ports_util_1"), be.cycles);
	p2 = model_ratio(model_gv(&ret, "ports_util_2"), ret.cycles);
	/* retiring (per SLOTS) of td_l2_ret's own time */
	r2 = model_ratio(model_gv(&ret, "retire_slots"), 4.0 * skl_core_clks(&ret, smt_on));
	td.memory_share = model_ratio(mem + st, tot + p1 + r2 * p2 + st);
	td.be_cov = model_cov2(be.coverage, ret.coverage);
	td.heavy_share = model_ratio(model_gv(&ret, "retire_slots") +
				     model_gv(&ret, "macro_fused") - model_gv(&ret, "instructions"),
				     model_gv(&ret, "retire_slots"));
	td.ret_cov = ret.coverage;
	td.rs_empty = model_ratio(model_gv(&ret, "rs_empty_cycles"), ret.cycles);
	td.stalls_mem = mem;
	td.stage_cov = model_cov2(be.coverage, ret.coverage);
	skl_fe_l3(m, sums, smt_on, &td);
	model_intel_recovery(m, sums, &td);
	model_intel_compute(m, sums, &td, out);
	model_intel_cycle_stack(m, sums, "stalls_mem_any", "fe_stalls", out);
}

const struct model model_skl = {
	.name = "skl",
	.description = "Intel Skylake client class (Skylake, Kaby/Coffee/Comet Lake): "
		       "Top-Down L1/L2, frontend delivery, FLOPS (AVX2), cycle-accounted CPI stack",
	.formula_version = 2,
	.pmus = (const char *const[]){ "skl", NULL },
	.pipeline_width = 4,
	.slot_stage = "issue",
	.stage_stacks = (const char *const[]){ "issue", NULL },
	.vendor = VENDOR_INTEL,
	.gp_counters_smt = 4,
	.gp_counters_nosmt = 8,
	.fixed_counters = 3,  /* instructions, cycles, ref-cycles */
	.ratio_sets = skl_ratio_sets,
	.n_ratio_sets = N(skl_ratio_sets),
	.event_rules = skl_event_rules,
	.n_event_rules = N(skl_event_rules),
	.peak_flop_dp = 16,   /* 2 FMA units x 4 lanes x 2 */
	.peak_flop_sp = 32,
	.peak_vector_bits = 256, /* two 256-bit FMA units (ports 0, 1) */
	.groups = skl_groups,
	.n_groups = N(skl_groups),
	.metrics = model_intel_metrics,
	.n_metrics = _IM_MAX,
	.compute = skl_compute,
};

/* Skylake-SP: the same families and facts (skylakex_core.json gives the
 * same masks), and the 512-bit FP counts in flops_b, which no formula
 * compares but over cycles. */
const struct model model_skx = {
	.name = "skx",
	.description = "Intel Skylake-SP / Cascade Lake: Top-Down L1/L2, frontend delivery, "
		       "FLOPS (AVX-512), cycle-accounted CPI stack",
	.formula_version = 2,
	.pmus = (const char *const[]){ "skx", "clx", NULL },
	.pipeline_width = 4,
	.slot_stage = "issue",
	.stage_stacks = (const char *const[]){ "issue", NULL },
	.vendor = VENDOR_INTEL,
	.gp_counters_smt = 4,
	.gp_counters_nosmt = 8,
	.fixed_counters = 3,
	.ratio_sets = skl_ratio_sets,
	.n_ratio_sets = N(skl_ratio_sets),
	.event_rules = skl_event_rules,
	.n_event_rules = N(skl_event_rules),
	.peak_flop_dp = 32,   /* 2 AVX-512 FMA units x 8 lanes x 2 */
	.peak_flop_sp = 64,
	.peak_vector_bits = 512, /* two 512-bit FMA units (ports 0+1 fused, 5) */
	.groups = skx_groups,
	.n_groups = N(skx_groups),
	.metrics = model_intel_metrics,
	.n_metrics = _IM_MAX,
	.compute = skl_compute,
};
