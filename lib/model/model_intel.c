/*
 * model_intel.c - what the Intel core models share: the stack tree (names
 * as the generic Top-Down nodes of Yasin's method), IPC/CPI, frontend
 * delivery and FLOPS.  Formula sources are named in each model file.
 */
#include "lib/model/model_intel.h"

#include <math.h>
#include <string.h>

#define TD "topdown"
#define FE "frontend"
#define FL "flops"
#define IS "issue"
#define CY "cpi_cycles"
#define FC "fe_cycles"

const struct model_metric model_intel_metrics[_IM_MAX] = {
	[IM_RETIRING] = { "retiring", NULL, METRIC_FRACTION,
		"slots retiring useful uops", TD, "RET" },
	[IM_BAD_SPECULATION] = { "bad_speculation", NULL, METRIC_FRACTION,
		"slots wasted on uops that never retire (mispredicts, clears)", TD, "BADSPEC" },
	[IM_FRONTEND_BOUND] = { "frontend_bound", NULL, METRIC_FRACTION,
		"slots the frontend left empty", TD, "FE" },
	[IM_BACKEND_BOUND] = { "backend_bound", NULL, METRIC_FRACTION,
		"slots the backend could not accept", TD, "BE" },
	[IM_FETCH_LATENCY] = { "fetch_latency", "frontend_bound", METRIC_FRACTION,
		"frontend delivered nothing (i-cache, i-TLB, resteers)", TD, "FE-LAT" },
	[IM_FETCH_BANDWIDTH] = { "fetch_bandwidth", "frontend_bound", METRIC_FRACTION,
		"frontend delivered too few uops (decoders, DSB)", TD, "FE-BW" },
	[IM_BRANCH_MISPREDICTS] = { "branch_mispredicts", "bad_speculation", METRIC_FRACTION,
		"slots lost to branch mispredictions", TD, "BR-MISP" },
	[IM_MACHINE_CLEARS] = { "machine_clears", "bad_speculation", METRIC_FRACTION,
		"slots lost to machine clears", TD, "CLEARS" },
	[IM_MEMORY_BOUND] = { "memory_bound", "backend_bound", METRIC_FRACTION,
		"backend stalls on the memory subsystem", TD, "MEM" },
	[IM_CORE_BOUND] = { "core_bound", "backend_bound", METRIC_FRACTION,
		"backend stalls on execution resources", TD, "CORE" },
	[IM_LIGHT_OPS] = { "light_ops", "retiring", METRIC_FRACTION,
		"retiring single-uop instructions", TD, "LIGHT" },
	[IM_HEAVY_OPS] = { "heavy_ops", "retiring", METRIC_FRACTION,
		"retiring multi-uop or microcoded instructions", TD, "HEAVY" },
	[IM_IPC] = { "ipc", NULL, METRIC_RATIO, "instructions per cycle", NULL },
	[IM_CPI] = { "cpi", NULL, METRIC_RATIO, "cycles per instruction", NULL },
	[IM_DSB_COVERAGE] = { "dsb_coverage", NULL, METRIC_FRACTION,
		"share of uops delivered by the DSB (uop cache)", FE, "DSB" },
	[IM_MITE_SHARE] = { "mite_share", NULL, METRIC_FRACTION,
		"share of uops delivered by the legacy decoders (MITE)", FE, "MITE" },
	[IM_MS_SHARE] = { "ms_share", NULL, METRIC_FRACTION,
		"share of uops delivered by the microcode sequencer", FE, "MS" },
	[IM_LSD_SHARE] = { "lsd_share", NULL, METRIC_FRACTION,
		"share of uops delivered by the loop stream detector", FE, "LSD" },
	[IM_DSB_P_ONLY] = { "dsb_p_only", NULL, METRIC_RATIO,
		"DSB uops per cycle the DSB was delivering (thesis P_only; not offered when it "
		"delivered in under 1% of cycles: residual counts)", NULL },
	[IM_DSB_P_OVERALL] = { "dsb_p_overall", NULL, METRIC_RATIO,
		"DSB uops per cycle of all cycles (thesis P_overall)", NULL },
	[IM_MITE_P_ONLY] = { "mite_p_only", NULL, METRIC_RATIO,
		"MITE uops per cycle the MITE was delivering (thesis P_only; not offered when it "
		"delivered in under 1% of cycles: residual counts)", NULL },
	[IM_MITE_P_OVERALL] = { "mite_p_overall", NULL, METRIC_RATIO,
		"MITE uops per cycle of all cycles (thesis P_overall)", NULL },
	[IM_DSB_SWITCH] = { "dsb_switch_fraction", NULL, METRIC_FRACTION,
		"cycles lost switching from the DSB to MITE", NULL },
	[IM_ICACHE_STALL] = { "icache_stall_fraction", NULL, METRIC_FRACTION,
		"cycles fetch waited on an i-cache miss (where level 3 is measured, its "
		"icache_misses: one figure)", NULL },
	[IM_ITLB_STALL] = { "itlb_stall_fraction", NULL, METRIC_FRACTION,
		"cycles fetch waited on an i-TLB miss", NULL },
	[IM_FLOPS_PER_CYCLE] = { "flops_per_cycle", NULL, METRIC_RATIO,
		"floating-point operations per core clock (FMA counts two; perf FLOPc)", NULL },
	[IM_GFLOPS] = { "gflops", NULL, METRIC_RATE, "GFLOP per second of CPU time", NULL },
	[IM_FLOP_PEAK] = { "flop_peak_fraction", NULL, METRIC_FRACTION,
		"share of the core's peak FLOP rate: each precision's FLOPs per core clock "
		"over its own peak, summed", NULL },
	[IM_SCALAR] = { "flops_scalar_share", NULL, METRIC_FRACTION, "FLOPs from scalar", NULL },
	[IM_V128] = { "flops_128b_share", NULL, METRIC_FRACTION, "FLOPs from 128-bit", NULL },
	[IM_V256] = { "flops_256b_share", NULL, METRIC_FRACTION, "FLOPs from 256-bit", NULL },
	[IM_V512] = { "flops_512b_share", NULL, METRIC_FRACTION, "FLOPs from 512-bit", NULL },
	[IM_DP] = { "flops_dp_share", NULL, METRIC_FRACTION, "FLOPs in double precision", NULL },
	[IM_FLOPS_BASE] = { "flops_base", NULL, METRIC_FRACTION,
		"FLOPS stack: achieved share of the peak, each precision over its own", FL, "FL-BASE" },
	[IM_FLOPS_WIDTH] = { "flops_width_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: lanes FP instructions narrower than the width that reaches the "
		"peak left empty (approximation: exact for FMA code; non-FMA code counts half "
		"its lanes, the rest is unexplained)", FL, "FL-WIDTH" },
	[IM_FE_LOW] = { "frontend_bound_low", NULL, METRIC_FRACTION,
		"frontend loss, lower bound: the smaller of the allocation (Top-Down issue) "
		"stage's frontend_bound and the execution-issue stage's issue_frontend_bound",
		NULL },
	[IM_FE_HIGH] = { "frontend_bound_high", NULL, METRIC_FRACTION,
		"frontend loss, upper bound: the larger of the two stages' figures", NULL },
	[IM_BE_LOW] = { "backend_bound_low", NULL, METRIC_FRACTION,
		"backend loss, lower bound: the smaller of the allocation (Top-Down issue) "
		"stage's backend_bound and the execution-issue stage's issue_backend_bound", NULL },
	[IM_BE_HIGH] = { "backend_bound_high", NULL, METRIC_FRACTION,
		"backend loss, upper bound: the larger of the two stages' figures", NULL },
	/* Level 3: perf defines these as fractions of cycles, not of slots */
	[IM_ICACHE_MISSES] = { "icache_misses", "fetch_latency", METRIC_FRACTION,
		"cycles stalled on i-cache misses (perf tma_icache_misses; share of cycles)", TD, "ICACHE" },
	[IM_ITLB_MISSES] = { "itlb_misses", "fetch_latency", METRIC_FRACTION,
		"cycles stalled on i-TLB misses (perf tma_itlb_misses; share of cycles)", TD, "ITLB" },
	[IM_BRANCH_RESTEERS] = { "branch_resteers", "fetch_latency", METRIC_FRACTION,
		"cycles stalled on branch resteers (perf tma_branch_resteers; share of cycles)",
		TD, "RESTEERS" },
	[IM_MS_SWITCHES] = { "ms_switches", "fetch_latency", METRIC_FRACTION,
		"cycles lost switching to the microcode sequencer (perf tma_ms_switches; "
		"share of cycles)", TD, "MS-SW" },
	[IM_DSB_SWITCHES] = { "dsb_switches", "fetch_latency", METRIC_FRACTION,
		"cycles lost switching from the DSB to MITE (perf tma_dsb_switches; "
		"share of cycles)", TD, "DSB-SW" },
	[IM_LCP] = { "lcp", "fetch_latency", METRIC_FRACTION,
		"cycles stalled on length-changing prefixes (perf tma_lcp; share of cycles)", TD, "LCP" },
	[IM_MITE] = { "mite", "fetch_bandwidth", METRIC_FRACTION,
		"core cycles the legacy decoders (MITE) limited delivery (perf tma_mite; "
		"share of core cycles)", TD, "BW-MITE" },
	[IM_DSB] = { "dsb", "fetch_bandwidth", METRIC_FRACTION,
		"core cycles the DSB (uop cache) limited delivery (perf tma_dsb; "
		"share of core cycles)", TD, "BW-DSB" },
	[IM_LSD] = { "lsd", "fetch_bandwidth", METRIC_FRACTION,
		"core cycles the loop stream detector limited delivery (perf tma_lsd; "
		"share of core cycles)", TD, "BW-LSD" },
	[IM_HP_SHARE] = { "flops_hp_share", NULL, METRIC_FRACTION,
		"FLOPs in half precision (AVX512-FP16)", NULL },
	[IM_AMX_SHARE] = { "flops_amx_share", NULL, METRIC_FRACTION,
		"FLOPs from AMX (BF16 tile operations)", NULL },
	[IM_FLOPS_FRONTEND] = { "flops_frontend_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: cycles the scheduler (RS) held no uop, so no FP instruction could "
		"issue (approximation: whole empty cycles only, per thread cycle while the base "
		"is per core clock)", FL, "FL-FE" },
	[IM_FLOPS_STALL] = { "flops_stall_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: FP units without an FP uop while the scheduler held uops - non-FP "
		"use, memory, dependences (approximation: FP_ARITH_DISPATCHED ports 0, 1, 5 "
		"against 2 FMA units, wrong-path uops included, per thread cycle)", FL, "FL-STALL" },
	[IM_FLOPS_NO_FP] = { "flops_no_fp_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: no floating-point work - the cycles with no FP instruction to "
		"issue that flops_frontend_loss does not hold (paper Table III lines 9-10; "
		"only where no FLOP was counted, else in the rest)", FL, "FL-NO-FP" },
	[IM_FLOPS_OTHER] = { "flops_other_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: unexplained rest of FP work - non-FMA work (FP_ARITH counts an FMA twice and "
		"does not tell FMAs apart), non-FP use of the FP units, memory, dependences, "
		"partial issue", FL, "FL-OTHER" },
	[IM_ISSUE_RETIRING] = { "issue_retiring", NULL, METRIC_FRACTION,
		"issue-stage stack: slots of uops that retire (the same at every stage)", IS, "IS-RET" },
	[IM_ISSUE_BAD_SPECULATION] = { "issue_bad_speculation", NULL, METRIC_FRACTION,
		"issue-stage stack: wrong-path slots (issued - retired, as at dispatch), which "
		"take the scheduler-empty cycles mispredicts explain", IS, "IS-BADSPEC" },
	[IM_ISSUE_FRONTEND] = { "issue_frontend_bound", NULL, METRIC_FRACTION,
		"issue-stage stack: cycles the scheduler (RS) was empty, less the cycles the "
		"allocator recovered from a mispredict or clear and waited for the resteered fetch "
		"(INT_MISC.RECOVERY_CYCLES + CLEAR_RESTEER_CYCLES; approximation: taken to be "
		"RS-empty cycles), both shares of whole cycles", IS, "IS-FE" },
	[IM_ISSUE_BACKEND] = { "issue_backend_bound", NULL, METRIC_FRACTION,
		"issue-stage stack: slots not issued while the scheduler held uops", IS, "IS-BE" },
	[IM_ISSUE_MEMORY] = { "issue_memory_bound", "issue_backend_bound", METRIC_FRACTION,
		"issue-stage stack: cycles nothing executed while a load was outstanding "
		"(CYCLE_ACTIVITY.STALLS_MEM_ANY)", IS, "IS-MEM" },
	[IM_ISSUE_CORE] = { "issue_core_bound", "issue_backend_bound", METRIC_FRACTION,
		"issue-stage stack: the rest of the issue-stage backend loss (latencies, "
		"dependences, ports, partial issue)", IS, "IS-CORE" },
	[IM_CYC_BASE] = { "cyc_cpi_base", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: the cycles no component below claims (the paper's base). "
		"A cycle two counters both count (a fetch stall while a load is outstanding) is "
		"booked to each: the stack cannot see which cycles coincide, so that overlap is its "
		"own row, cyc_cpi_overlap, not taken off the base or any component", CY, "CY-BASE" },
	[IM_CYC_ICACHE] = { "cyc_cpi_icache", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: fetch stalled on L1 i-cache misses, the miss delay the "
		"paper books as the i-cache penalty (wrong-path misses included)", CY, "CY-ICACHE" },
	[IM_CYC_ITLB] = { "cyc_cpi_itlb", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: fetch stalled on i-TLB misses (cache tag stalls)", CY, "CY-ITLB" },
	[IM_CYC_RECOVERY] = { "cyc_cpi_recovery", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: mispredicts and machine clears - the allocator "
		"recovering, then waiting for the resteered fetch (lower bound: the paper's penalty "
		"also has the branch's resolution time, not counted; it falls in base or stalls)",
		CY, "CY-RECOVER" },
	[IM_CYC_MEMORY] = { "cyc_cpi_memory", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: execution stalled while a demand load was outstanding; "
		"overlapping misses count once, by the deepest level outstanding (counted from the "
		"stall, not from a full ROB as the paper's counter)", CY, "CY-MEM" },
	[IM_CYC_MEM_L1] = { "cyc_cpi_mem_l1", "cyc_cpi_memory", METRIC_RATIO,
		"cycle-accounted CPI stack: stalled with loads outstanding, none missing the L1D "
		"(perf's tma_l1_bound, in CPI)", CY, "CY-L1" },
	[IM_CYC_MEM_L2] = { "cyc_cpi_mem_l2", "cyc_cpi_memory", METRIC_RATIO,
		"cycle-accounted CPI stack: stalled on L1D misses the L2 served", CY, "CY-L2" },
	[IM_CYC_MEM_L3] = { "cyc_cpi_mem_l3", "cyc_cpi_memory", METRIC_RATIO,
		"cycle-accounted CPI stack: stalled on L2 misses the L3 served (perf's "
		"tma_l3_bound, in CPI)", CY, "CY-L3" },
	[IM_CYC_MEM_DRAM] = { "cyc_cpi_mem_dram", "cyc_cpi_memory", METRIC_RATIO,
		"cycle-accounted CPI stack: stalled on L3 misses (DRAM)", CY, "CY-DRAM" },
	[IM_CYC_DIVIDER] = { "cyc_cpi_divider", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: divider busy, up to the stalls with no load outstanding "
		"(memory first; approximation: a busy divider need not stall execution)", CY, "CY-DIV" },
	[IM_CYC_OTHER] = { "cyc_cpi_other", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: the other execution stalls - with no load outstanding, "
		"less the divider's and the frontend's and recovery's (taken to have stalled "
		"execution: a lower estimate); where those exceed the stalls, 0 and the excess in "
		"cyc_cpi_overlap", CY, "CY-OTHER" },
	[IM_CYC_OVERLAP] = { "cyc_cpi_overlap", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: cycles two components both booked (negative; present "
		"only then) - frontend and recovery stall cycles beyond the execution stalls with "
		"no load outstanding (fetch stalls while a load was outstanding are in memory too), "
		"and any excess of the components over the measured cycles", CY, "CY-OVERLAP" },
	[IM_FLOPS_OVERLAP] = { "flops_overlap", NULL, METRIC_FRACTION,
		"FLOPS stack: the parts above sum over the peak by this much (negative; present "
		"only then) - the frontend's whole empty cycles beside FLOPs per core clock, or "
		"FP counts no core can issue; no part is cut to hide it", FL, "FL-OVERLAP" },
	/* The frontend thesis [Forte 2021]: eq. 3.5 and eq. 3.2 */
	[IM_FE_P_OVERALL] = { "fe_p_overall", NULL, METRIC_RATIO,
		"uops the frontend delivered per cycle, every path (DSB, MITE, MS, LSD; "
		"thesis P_overall)", NULL },
	[IM_FEC_DSB] = { "fe_cycles_dsb", NULL, METRIC_FRACTION,
		"frontend cycles: the DSB (uop cache) delivering uops", FC, "FC-DSB" },
	[IM_FEC_MITE] = { "fe_cycles_mite", NULL, METRIC_FRACTION,
		"frontend cycles: the legacy decoders (MITE) delivering uops", FC, "FC-MITE" },
	[IM_FEC_MS] = { "fe_cycles_ms", NULL, METRIC_FRACTION,
		"frontend cycles: the microcode sequencer (MS) delivering uops", FC, "FC-MS" },
	[IM_FEC_LSD] = { "fe_cycles_lsd", NULL, METRIC_FRACTION,
		"frontend cycles: the loop stream detector delivering uops", FC, "FC-LSD" },
	[IM_FEC_SWITCH] = { "fe_cycles_dsb_switch", NULL, METRIC_FRACTION,
		"frontend cycles: the DSB-to-MITE switch penalty, no uop delivered (the cost "
		"of leaving the DSB; DSB2MITE_SWITCHES.PENALTY_CYCLES)", FC, "FC-SWITCH" },
	[IM_FEC_NONE] = { "fe_cycles_none", NULL, METRIC_FRACTION,
		"frontend cycles: no path delivering - fetch stalls (i-cache, i-TLB, resteers) "
		"and an instruction queue full behind a stalled backend (the thesis's FE "
		"stalls, which assume no backend stall)", FC, "FC-NONE" },
	[IM_FEC_OVERLAP] = { "fe_cycles_overlap", NULL, METRIC_FRACTION,
		"frontend cycles: the parts above exceed the cycles by this much (negative; "
		"present only then) - two paths counted in one cycle, or parts measured at "
		"different times", FC, "FC-OVERLAP" },
};

/* The cycle-accounted CPI stack's family on Skylake-class and Ice Lake
 * (model_intel_cycle_stack): stall cycles by cause.  RECOVERY_CYCLES
 * counts this thread's recovery (skylake_core.json, icelake_core.json),
 * so it is counted in both SMT states, under its own column: td_l1's
 * recovery_cycles is counted with SMT off only.  The i-side stall cycles
 * come from fe_stalls / fe_stalls_flops, which count them already.
 * ARITH.DIVIDER_ACTIVE is umask 0x01 on Skylake, 0x09 on Ice Lake: libpfm4
 * encodes the name per PMU.  Eight general events: whole with SMT off (no
 * watchdog), split with SMT on along the ratio sets (the nested memory
 * stalls share a part, and so do the stalls with and without a load). */
const struct model_event model_intel_cyc_cpi[INTEL_CYC_CPI_EVENTS] = {
	INTEL_BASE_EVENTS,
	{ "CYCLE_ACTIVITY:STALLS_TOTAL", "stalls_total", "CYCLE_ACTIVITY.STALLS_TOTAL", false, false },
	{ "CYCLE_ACTIVITY:STALLS_MEM_ANY", "stalls_mem_any", "CYCLE_ACTIVITY.STALLS_MEM_ANY",
	  false, false },
	{ "CYCLE_ACTIVITY:STALLS_L1D_MISS", "stalls_l1d_miss", "CYCLE_ACTIVITY.STALLS_L1D_MISS",
	  false, false },
	{ "CYCLE_ACTIVITY:STALLS_L2_MISS", "stalls_l2_miss", "CYCLE_ACTIVITY.STALLS_L2_MISS",
	  false, false },
	{ "CYCLE_ACTIVITY:STALLS_L3_MISS", "stalls_l3_miss", "CYCLE_ACTIVITY.STALLS_L3_MISS",
	  false, false },
	{ "ARITH:DIVIDER_ACTIVE", "divider_active", "ARITH.DIVIDER_ACTIVE", false, false },
	{ "INT_MISC:RECOVERY_CYCLES", "recovery_cycles_thread", "INT_MISC.RECOVERY_CYCLES",
	  false, false },
	{ "INT_MISC:CLEAR_RESTEER_CYCLES", "clear_resteer_cycles", "INT_MISC.CLEAR_RESTEER_CYCLES",
	  false, false },
};

const struct model_event model_intel_flops_wide[INTEL_FLOPS_WIDE_ALL] = {
	INTEL_BASE_EVENTS,
	{ "FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE", "fp_256_dp",
	  "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE", false, false },
	{ "FP_ARITH_INST_RETIRED:256B_PACKED_SINGLE", "fp_256_sp",
	  "FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE", false, false },
	{ "FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE", "fp_512_dp",
	  "FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE", false, false },
	{ "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE", "fp_512_sp",
	  "FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE", false, false },
};

const struct model_event model_intel_fe_uops_lsd[INTEL_FE_UOPS_LSD] = {
	INTEL_BASE_EVENTS,
	{ "IDQ:DSB_UOPS", "dsb_uops", "IDQ.DSB_UOPS", false, false },
	{ "IDQ:MITE_UOPS", "mite_uops", "IDQ.MITE_UOPS", false, false },
	{ "IDQ:MS_UOPS", "ms_uops", "IDQ.MS_UOPS", false, false },
	{ "LSD:UOPS", "lsd_uops", "LSD.UOPS", false, false },
	{ "IDQ:DSB_UOPS:c=1", "dsb_cycles", "IDQ.DSB_CYCLES_ANY", false, false },
	{ "IDQ:MITE_UOPS:c=1", "mite_cycles", "IDQ.MITE_CYCLES_ANY", false, false },
	/* appended: the thesis's cycle decomposition (icelake/ and
	 * sapphirerapids/frontend.json IDQ.MS_CYCLES_ANY, IDQ.MS_UOPS with
	 * cmask 1; pipeline.json LSD.CYCLES_ACTIVE, LSD.UOPS with cmask 1) */
	{ "IDQ:MS_UOPS:c=1", "ms_cycles", "IDQ.MS_CYCLES_ANY", false, false },
	{ "LSD:UOPS:c=1", "lsd_cycles", "LSD.CYCLES_ACTIVE", false, false },
};

void model_intel_fe_l3_common(const struct model *m, const struct group_sums *sums,
			      const char *stalls, struct topdown *td)
{
	struct gview v = model_gview_get(m, sums, stalls);
	unsigned i;

	for (i = 0; i < INTEL_FE_L3; i++) {
		td->fe_l3[i] = NAN;
		td->fe_l3_cov[i] = v.coverage;
	}
	td->fe_l3[INTEL_FE_L3_AT(IM_ICACHE_MISSES)] =
		model_ratio(model_gv(&v, "icache_stall_cycles"), v.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_ITLB_MISSES)] =
		model_ratio(model_gv(&v, "itlb_stall_cycles"), v.cycles);
	td->fe_l3[INTEL_FE_L3_AT(IM_DSB_SWITCHES)] =
		model_ratio(model_gv(&v, "dsb2mite_penalty_cycles"), v.cycles);
}

/* perf's CORE_CLKS (CPU_CLK_UNHALTED.DISTRIBUTED) per cycle from the
 * family that counts it; without it, 1 with SMT off (a thread alone has
 * the core's clocks) and unknown with SMT on. */
void model_intel_core_per_cycle(const struct model *m, const struct group_sums *sums,
				bool smt_on, struct topdown *td)
{
	struct gview v = model_gview_get(m, sums, "fe_l3_bw");
	double r = model_ratio(model_gv(&v, "core_clks"), v.cycles);

	/* (none counted while cycles were: not a figure to divide by) */
	td->core_per_cycle = r > 0 ? r : smt_on ? NAN : 1.0;
	td->core_cov = r > 0 ? v.coverage : 1.0;
}

double model_intel_fe_source_limited(const struct gview *bw, const char *any, const char *ok)
{
	return model_ratio(model_gv(bw, any) - model_gv(bw, ok), model_gv(bw, "core_clks")) / 2.0;
}

void model_intel_recovery(const struct model *m, const struct group_sums *sums,
			  struct topdown *td)
{
	struct gview v = model_gview_get(m, sums, "cyc_cpi");

	td->recovery = model_ratio(model_gv(&v, "recovery_cycles_thread") +
				   model_gv(&v, "clear_resteer_cycles"), v.cycles);
	td->recovery_cov = v.coverage;
}

/*
 * The issue-stage CPI stack (paper section III-A, Table II issue column:
 * the paper's issue is from the scheduler to the execution ports, which
 * Intel calls dispatch; Intel's issue, whose slots Top-Down counts, is
 * the paper's dispatch), in Top-Down's unit, slots (W = pipeline_width,
 * the narrowest stage: section III-A's last paragraph):
 *   issue_retiring        = retiring (correct-path work is the same at
 *                           every stage)
 *   issue_bad_speculation = bad_speculation (wrong-path work, issued -
 *                           retired: section III-B's simple approach)
 *   issue_frontend_bound  = max(0, RS empty cycles / cycles
 *                               - (RECOVERY_CYCLES + CLEAR_RESTEER_CYCLES) / cycles)
 *   issue_backend_bound   = the rest (Table II lines 9-16: slots not
 *                           issued while the RS held uops)
 *   issue_memory_bound    = CYCLE_ACTIVITY.STALLS_MEM_ANY / cycles (line 11:
 *                           the producer waits on memory), issue_core_bound
 *                           the rest of the backend
 * An RS-empty cycle after a mispredict is the branch predictor's (Table II
 * issue lines 7-8), not the frontend's: those are the cycles the allocator
 * recovers and then waits for the resteered fetch, which INT_MISC counts
 * in whole cycles, the unit of RS-empty cycles (a whole cycle with nothing
 * to issue loses all W slots, so a share of such cycles is one of slots).
 * Taking them all to be RS-empty is the approximation (the RS may still
 * hold older uops then: the frontend figure is a lower estimate).  Not
 * capped at the allocation stage's frontend_bound: the stage bounds span
 * both (model_put_stage_bounds).  Rates of three families on Skylake
 * (level 1, RS empty, cyc_cpi); two on Ice Lake and Sapphire Rapids.  No
 * recovery count (cyc_cpi off): the frontend part is unknown, and so is
 * the backend, the rest.
 */
static void intel_issue_stack(const struct topdown *td, struct metric_value *out)
{
	struct metric_value *const part[] = { &out[IM_ISSUE_RETIRING],
					      &out[IM_ISSUE_BAD_SPECULATION],
					      &out[IM_ISSUE_FRONTEND], &out[IM_ISSUE_BACKEND] };
	const struct metric_value *ret = &out[IM_RETIRING], *bs = &out[IM_BAD_SPECULATION];
	double v[4], empty, cov;

	if (!ret->valid || !bs->valid || isnan(td->rs_empty) || isnan(td->recovery))
		return;
	empty = td->rs_empty - td->recovery;
	v[0] = ret->value;
	v[1] = bs->value;
	v[2] = empty < 0.0 ? 0.0 : empty;
	v[3] = NAN;
	cov = model_cov2(model_cov2(td->l1_cov, td->stage_cov), td->recovery_cov);
	model_put_stack(part, v, 4, cov);
	if (out[IM_ISSUE_BACKEND].valid && out[IM_ISSUE_BACKEND].value > 0.0)
		model_split_parent(&out[IM_ISSUE_MEMORY], &out[IM_ISSUE_CORE],
				   &out[IM_ISSUE_BACKEND],
				   td->stalls_mem / out[IM_ISSUE_BACKEND].value, cov);
}

void model_intel_compute(const struct model *m, const struct group_sums *sums,
			 const struct topdown *td, struct metric_value *out)
{
	struct frontend_out fe;
	struct flops_issue iss;
	struct flops_out fl;
	unsigned i;

	/* Every Intel model's Top-Down is the thread's own (model_skl.c says
	 * how Skylake gets there with SMT on): nothing is core-scoped. */
	for (i = 0; i < 4; i++)
		model_put(&out[IM_RETIRING + i], td->l1[i], td->l1_cov, false);
	model_split_parent(&out[IM_FETCH_LATENCY], &out[IM_FETCH_BANDWIDTH],
			   &out[IM_FRONTEND_BOUND], td->fetch_latency_share, td->fe_cov);
	model_split_parent(&out[IM_BRANCH_MISPREDICTS], &out[IM_MACHINE_CLEARS],
			   &out[IM_BAD_SPECULATION], td->mispredict_share, td->bs_cov);
	model_split_parent(&out[IM_MEMORY_BOUND], &out[IM_CORE_BOUND], &out[IM_BACKEND_BOUND],
			   td->memory_share, td->be_cov);
	model_split_parent(&out[IM_HEAVY_OPS], &out[IM_LIGHT_OPS], &out[IM_RETIRING],
			   td->heavy_share, td->ret_cov);
	model_put_ipc_cpi(m, sums, &out[IM_IPC], &out[IM_CPI]);
	intel_issue_stack(td, out);
	model_put_stage_bounds(&out[IM_FE_LOW], &out[IM_FE_HIGH], &out[IM_FRONTEND_BOUND],
			       &out[IM_ISSUE_FRONTEND], true);
	model_put_stage_bounds(&out[IM_BE_LOW], &out[IM_BE_HIGH], &out[IM_BACKEND_BOUND],
			       &out[IM_ISSUE_BACKEND], false);

	for (i = 0; i < INTEL_FE_L3; i++)
		model_put(&out[IM_ICACHE_MISSES + i], td->fe_l3[i], td->fe_l3_cov[i], false);

	model_frontend_delivery(m, sums, &fe);
	out[IM_DSB_COVERAGE] = fe.dsb_coverage;
	out[IM_MITE_SHARE] = fe.mite_share;
	out[IM_MS_SHARE] = fe.ms_share;
	out[IM_LSD_SHARE] = fe.lsd_share;
	out[IM_DSB_P_ONLY] = fe.dsb_p_only;
	out[IM_DSB_P_OVERALL] = fe.dsb_p_overall;
	out[IM_MITE_P_ONLY] = fe.mite_p_only;
	out[IM_MITE_P_OVERALL] = fe.mite_p_overall;
	out[IM_DSB_SWITCH] = fe.dsb_switch_fraction;
	out[IM_ICACHE_STALL] = fe.icache_stall_fraction;
	out[IM_ITLB_STALL] = fe.itlb_stall_fraction;
	/* One i-cache stall figure: perf's tma_icache_misses where it is
	 * measured (Skylake adds 2 cycles per miss the stall count misses) */
	if (out[IM_ICACHE_MISSES].valid)
		out[IM_ICACHE_STALL] = out[IM_ICACHE_MISSES];
	out[IM_FE_P_OVERALL] = fe.p_overall;
	for (i = 0; i < FE_CYC_N; i++)
		out[IM_FEC_DSB + i] = fe.cyc[i];

	iss.frontend = td->rs_empty;
	iss.frontend_cov = td->stage_cov;
	model_flops_family(m, sums, td->core_per_cycle, td->core_cov, &iss, &fl);
	out[IM_FLOPS_PER_CYCLE] = fl.flops_per_cycle;
	out[IM_GFLOPS] = fl.gflops;
	out[IM_FLOP_PEAK] = fl.peak_fraction;
	out[IM_SCALAR] = fl.scalar_share;
	out[IM_V128] = fl.v128_share;
	out[IM_V256] = fl.v256_share;
	out[IM_V512] = fl.v512_share;
	out[IM_DP] = fl.dp_share;
	out[IM_HP_SHARE] = fl.hp_share;
	out[IM_AMX_SHARE] = fl.amx_share;
	out[IM_FLOPS_BASE] = fl.stack_base;
	out[IM_FLOPS_WIDTH] = fl.stack_width_loss;
	out[IM_FLOPS_OTHER] = fl.stack_other;
	out[IM_FLOPS_FRONTEND] = fl.stack_frontend;
	out[IM_FLOPS_STALL] = fl.stack_stall;
	out[IM_FLOPS_NO_FP] = fl.stack_no_fp;
	out[IM_FLOPS_OVERLAP] = fl.stack_overlap;
}

/*
 * The cycle-accounted CPI stack (Eyerman et al., ASPLOS 2006; docs/references.md),
 * beside Top-Down: each component is stall cycles a counter charges to one
 * miss event, per instruction, and the base is the rest (section 4: "assign
 * every cycle to one of the global CPI component cycle counters ...; the
 * steady-state (baseline) cycle count then equals the total cycle count
 * minus the total sum").  Shares of the family's cycles C (family cyc_cpi),
 * times the measured CPI, so the parts sum to it exactly (model_put_cpi_cycles);
 * the i-side stalls are rates of the frontend stall family (fe_stalls),
 * which counts them already:
 *   recovery = (INT_MISC.RECOVERY_CYCLES + INT_MISC.CLEAR_RESTEER_CYCLES) / C
 *   icache   = icache_stall_fraction: ICACHE_16B.IFDATA_STALL / C (SPR:
 *              ICACHE_DATA.STALLS), on Skylake perf's tma_icache_misses
 *              (+ 2 cycles per miss) where level 3 is measured: one figure
 *   itlb     = ICACHE_64B.IFTAG_STALL / C    (SPR: ICACHE_TAG.STALLS)
 *   dram     = S3 / C,  l3 = (S2 - S3) / C,  l2 = (S1 - S2) / C,  l1 = (M - S1) / C
 *     S1, S2, S3 = CYCLE_ACTIVITY.STALLS_L1D_MISS, _L2_MISS, _L3_MISS (SPR:
 *     MEMORY_ACTIVITY.*), M = CYCLE_ACTIVITY.STALLS_MEM_ANY (SPR:
 *     EXE_ACTIVITY.BOUND_ON_LOADS), nested S3 <= S2 <= S1 <= M: perf's
 *     tma_l1_bound and tma_l3_bound are l1 and l3 (per cycle), and its
 *     tma_l2_bound + tma_dram_bound is l2 + dram (perf moves the fill-buffer-
 *     full share of S1 - S2 to DRAM; SPR's tma_l2_bound is l2 as is)
 *   divider  = min(ARITH.DIVIDER_ACTIVE, T - M) / C,  T = CYCLE_ACTIVITY.STALLS_TOTAL
 *   other    = (T - M) / C - divider - recovery - icache - itlb
 *   base     = 1 - the rest
 * What the counters resolve: i-cache and i-TLB stall cycles are the miss
 * delay, which section 3.1.1 shows is the penalty; a stall with several
 * misses outstanding counts once, at the deepest level (section 3.2.2:
 * overlapping long misses cost one penalty), from the cycle execution
 * stops rather than from a full ROB (section 4.2; the paper finds the
 * difference small, Figure 9).  What they cannot: the mispredict penalty
 * lacks the branch's resolution time (section 3.1.2), so recovery is a
 * lower bound; wrong-path i-cache misses are counted (section 3.3.1 drops
 * them); a busy divider need not stall, so it is capped at the stalls
 * with no load outstanding (memory first: the paper books a cycle to the
 * event blocking the ROB head, section 4.3); and a cycle both a frontend
 * and a backend counter count (section 3.3.2, Table 1: mostly under 1%
 * of cycles) stays in both, since no counter counts the intersection.
 * Stalls the frontend or recovery left in T - M are taken off other (as
 * if every such cycle stalled execution: other is a lower estimate).  Where
 * they exceed those stalls (a fetch stall while a load was outstanding is
 * in memory as well), other is 0 and the excess is overlap, a negative
 * component of its own; so is any excess of the components over all the
 * cycles.  No component is capped to hide it, and the base is the cycles
 * no component claims: base + components + overlap = CPI exactly.  A
 * component whose counter was not counted is invalid, and so are the
 * base, the overlap and (where it depends on it) other.
 */

/* Shares of cycles f[0..n-2] (f[n-1]: the base, computed here) times the
 * CPI, with the overlap as above. */
static void intel_put_cycles(struct metric_value *const part[], double *f, unsigned n,
			     const struct metric_value *cpi, double cov, struct metric_value *overlap)
{
	double sum = 0.0, over = 0.0;
	bool whole = true;
	unsigned i;

	if (!cpi->valid)
		return;
	cov = model_cov2(cov, cpi->coverage);
	for (i = 0; i + 1 < n; i++) {
		if (isnan(f[i])) {
			whole = false;
			continue;
		}
		if (f[i] < 0.0) {
			over += f[i];   /* booked twice (other), or split parts crossing */
			f[i] = 0.0;
		}
		model_put(part[i], f[i] * cpi->value, cov, false);
		sum += f[i];
	}
	if (!whole)
		return;
	f[n - 1] = 1.0 - sum - over;
	if (f[n - 1] < 0.0) {
		over += f[n - 1];
		f[n - 1] = 0.0;
	}
	model_put(part[n - 1], f[n - 1] * cpi->value, cov, false);
	if (over < 0.0)
		model_put(overlap, over * cpi->value, cov, false);
}
void model_intel_cycle_stack(const struct model *m, const struct group_sums *sums,
			     const char *mem_any, const char *fe_stalls,
			     struct metric_value *out)
{
	enum { REC, IC, IT, DRAM, L3, L2, L1, DIV, OTHER, BASE, N_CYC };
	struct metric_value *const part[N_CYC] = {
		&out[IM_CYC_RECOVERY], &out[IM_CYC_ICACHE], &out[IM_CYC_ITLB],
		&out[IM_CYC_MEM_DRAM], &out[IM_CYC_MEM_L3], &out[IM_CYC_MEM_L2],
		&out[IM_CYC_MEM_L1], &out[IM_CYC_DIVIDER], &out[IM_CYC_OTHER], &out[IM_CYC_BASE],
	};
	struct gview v = model_gview_get(m, sums, "cyc_cpi");
	struct gview fe = model_gview_get(m, sums, fe_stalls);
	double f[N_CYC], c = v.cycles, mem, s1, s2, s3, idle, div, cov;
	unsigned i;

	if (!v.ok)
		return;
	f[REC] = (model_gv(&v, "recovery_cycles_thread") + model_gv(&v, "clear_resteer_cycles")) / c;
	/* the i-side family off or not measured: those parts invalid */
	f[IC] = fe.ok && out[IM_ICACHE_STALL].valid ? out[IM_ICACHE_STALL].value : NAN;
	f[IT] = fe.ok ? model_gv(&fe, "itlb_stall_cycles") / fe.cycles : NAN;
	mem = model_gv(&v, mem_any) / c;
	s1 = model_gv(&v, "stalls_l1d_miss") / c;
	s2 = model_gv(&v, "stalls_l2_miss") / c;
	s3 = model_gv(&v, "stalls_l3_miss") / c;
	f[DRAM] = s3;
	f[L3] = s2 - s3;
	f[L2] = s1 - s2;
	f[L1] = mem - s1;
	/* stalls with no load outstanding; parts of a split family may cross */
	idle = model_gv(&v, "stalls_total") / c - mem;
	idle = idle < 0.0 ? 0.0 : idle;
	div = model_gv(&v, "divider_active") / c;
	f[DIV] = isnan(div) || isnan(idle) ? NAN : div < idle ? div : idle;
	f[OTHER] = idle - f[DIV] - f[REC] - f[IC] - f[IT];
	f[BASE] = NAN;
	cov = fe.ok ? model_cov2(v.coverage, fe.coverage) : v.coverage;
	if (out[IM_ICACHE_STALL].valid)
		cov = model_cov2(cov, out[IM_ICACHE_STALL].coverage);
	intel_put_cycles(part, f, N_CYC, &out[IM_CPI], cov, &out[IM_CYC_OVERLAP]);
	for (i = IM_CYC_MEM_L1; i <= IM_CYC_MEM_DRAM; i++)
		if (!out[i].valid)
			return;
	model_put(&out[IM_CYC_MEMORY],
		  out[IM_CYC_MEM_L1].value + out[IM_CYC_MEM_L2].value + out[IM_CYC_MEM_L3].value +
		  out[IM_CYC_MEM_DRAM].value, out[IM_CYC_MEM_L1].coverage, false);
}
