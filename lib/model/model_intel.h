/*
 * model_intel.h - the stack tree and metrics every Intel core model shares
 * (Skylake, Ice Lake, Sapphire Rapids), and the families whose formulas do
 * not depend on the generation.  Each model file supplies its groups and its
 * Top-Down formulas (they differ: events on Skylake, perf metrics later).
 */
#ifndef STACKD_MODEL_INTEL_H
#define STACKD_MODEL_INTEL_H

#include "lib/model/model_util.h"

enum intel_metric {
	IM_RETIRING, IM_BAD_SPECULATION, IM_FRONTEND_BOUND, IM_BACKEND_BOUND,
	IM_FETCH_LATENCY, IM_FETCH_BANDWIDTH, IM_BRANCH_MISPREDICTS, IM_MACHINE_CLEARS,
	IM_MEMORY_BOUND, IM_CORE_BOUND, IM_LIGHT_OPS, IM_HEAVY_OPS,
	IM_IPC, IM_CPI,
	IM_DSB_COVERAGE, IM_MITE_SHARE, IM_MS_SHARE, IM_LSD_SHARE,
	IM_DSB_P_ONLY, IM_DSB_P_OVERALL, IM_MITE_P_ONLY, IM_MITE_P_OVERALL,
	IM_DSB_SWITCH, IM_ICACHE_STALL, IM_ITLB_STALL,
	IM_FLOPS_PER_CYCLE, IM_GFLOPS, IM_FLOP_PEAK, IM_SCALAR, IM_V128, IM_V256, IM_V512, IM_DP,
	IM_FLOPS_BASE, IM_FLOPS_WIDTH,
	IM_FE_LOW, IM_FE_HIGH, IM_BE_LOW, IM_BE_HIGH,
	/* Top-Down level 3 under the frontend (perf's tma_* nodes, fractions of
	 * cycles); appended so the indices above stay put. */
	IM_ICACHE_MISSES, IM_ITLB_MISSES, IM_BRANCH_RESTEERS, IM_MS_SWITCHES, IM_DSB_SWITCHES,
	IM_LCP, IM_MITE, IM_DSB, IM_LSD,
	IM_HP_SHARE, IM_AMX_SHARE,
	/* FLOPS stack parts measured at the issue stage; the issue-stage CPI
	 * stack (multi-stage stacks, model_intel.c) */
	IM_FLOPS_FRONTEND, IM_FLOPS_STALL, IM_FLOPS_NO_FP, IM_FLOPS_OTHER,
	IM_ISSUE_RETIRING, IM_ISSUE_BAD_SPECULATION, IM_ISSUE_FRONTEND, IM_ISSUE_BACKEND,
	IM_ISSUE_MEMORY, IM_ISSUE_CORE,
	/* The cycle-accounted CPI stack (model_intel_cycle_stack) */
	IM_CYC_BASE, IM_CYC_ICACHE, IM_CYC_ITLB, IM_CYC_RECOVERY, IM_CYC_MEMORY,
	IM_CYC_MEM_L1, IM_CYC_MEM_L2, IM_CYC_MEM_L3, IM_CYC_MEM_DRAM, IM_CYC_DIVIDER,
	IM_CYC_OTHER,
	/* Counted twice: the cycle stack's and the FLOPS stack's overlap
	 * (negative, present only where there is some) */
	IM_CYC_OVERLAP, IM_FLOPS_OVERLAP,
	/* The frontend thesis completed (model_frontend_delivery): P_overall
	 * of every path, and the cycles by the path delivering (eq. 3.2) */
	IM_FE_P_OVERALL,
	IM_FEC_DSB, IM_FEC_MITE, IM_FEC_MS, IM_FEC_LSD, IM_FEC_SWITCH, IM_FEC_NONE, IM_FEC_OVERLAP,
	_IM_MAX,
};

extern const struct model_metric model_intel_metrics[_IM_MAX];

#define INTEL_FE_L3 (IM_LSD - IM_ICACHE_MISSES + 1)
#define INTEL_FE_L3_AT(im) ((im) - IM_ICACHE_MISSES)  /* index in topdown.fe_l3 */

/* Top-Down level 1 and 2 as fractions of slots, from the model's formulas. */
struct topdown {
	double l1[4];       /* retiring, bad_speculation, frontend_bound, backend_bound */
	double l1_cov;
	/* Children as a share of their parent (0..1), measured in-group; NaN
	 * when the model cannot split that parent. */
	double fetch_latency_share, mispredict_share, memory_share, heavy_share;
	double fe_cov, bs_cov, be_cov, ret_cov;
	/* The issue stage, shares of cycles (NaN when the model does not
	 * measure them): the scheduler (RS) held no uop (RS_EVENTS.EMPTY_CYCLES,
	 * RS.EMPTY); nothing executed while a load was outstanding
	 * (CYCLE_ACTIVITY.STALLS_MEM_ANY). */
	double rs_empty, stalls_mem, stage_cov;
	/* Cycles the allocator recovered from a mispredict or machine clear,
	 * then waited for the resteered fetch (INT_MISC.RECOVERY_CYCLES +
	 * CLEAR_RESTEER_CYCLES of family cyc_cpi, per cycle: a share of whole
	 * cycles, as rs_empty is; NaN when not counted), its coverage
	 * (model_intel_recovery). */
	double recovery, recovery_cov;
	/* Level 3 under fetch_latency and fetch_bandwidth, IM_ICACHE_MISSES
	 * .. IM_LSD in order: perf's formulas, fractions of cycles (CLKS or
	 * CORE_CLKS), NaN where the model has no such node. */
	double fe_l3[INTEL_FE_L3], fe_l3_cov[INTEL_FE_L3];
	/* perf's CORE_CLKS / CLKS (the thread's share of the core's clocks;
	 * 1 when they are the same, NaN when unknown), its coverage: FLOPs
	 * per cycle are per core clock, as perf's FLOPc. */
	double core_per_cycle, core_cov;
};

/* td's core_per_cycle for Ice Lake and later: CORE_CLKS is
 * CPU_CLK_UNHALTED.DISTRIBUTED (column core_clks of fe_l3_bw). */
void model_intel_core_per_cycle(const struct model *m, const struct group_sums *sums,
				bool smt_on, struct topdown *td);

/* td's recovery and recovery_cov from family cyc_cpi (every Intel model
 * counts the two events there, per thread). */
void model_intel_recovery(const struct model *m, const struct group_sums *sums,
			  struct topdown *td);

/* Fill every Intel metric: Top-Down from td, the rest from the groups. */
/* The level-3 nodes every Intel model computes alike from the frontend
 * stall family (columns icache_stall_cycles, itlb_stall_cycles,
 * dsb2mite_penalty_cycles of `stalls`): perf's tma_icache_misses (the
 * plain form; Skylake adds an edge count), tma_itlb_misses and
 * tma_dsb_switches, each that event / CLKS.  The others are set NaN. */
void model_intel_fe_l3_common(const struct model *m, const struct group_sums *sums,
			      const char *stalls, struct topdown *td);

/* (any - ok) / core_clks / 2 in family view bw: perf's tma_mite, tma_dsb
 * and tma_lsd from Ice Lake on (CORE_CLKS = CPU_CLK_UNHALTED.DISTRIBUTED,
 * column core_clks). */
double model_intel_fe_source_limited(const struct gview *bw, const char *any, const char *ok);

void model_intel_compute(const struct model *m, const struct group_sums *sums,
			 const struct topdown *td, struct metric_value *out);

/* The cycle-accounted CPI stack from family cyc_cpi (model_intel.c says
 * how); mem_any is the column of execution stalls with any load
 * outstanding (stalls_mem_any; Sapphire Rapids' bound_on_loads), fe_stalls
 * the family that counts the i-cache and i-TLB stall cycles.  Needs
 * out[IM_CPI], so call it after model_intel_compute. */
void model_intel_cycle_stack(const struct model *m, const struct group_sums *sums,
			     const char *mem_any, const char *fe_stalls,
			     struct metric_value *out);

/* Events every Intel group carries: cycles and instructions on fixed
 * counters (raw 0x3c and 0xc0 are the kernel's fixed-counter aliases). */
#define INTEL_BASE_EVENTS                                                         \
	{ "CPU_CLK_UNHALTED:THREAD_P", "cycles", "cycles", true, false },                 \
	{ "INST_RETIRED:ANY_P", "instructions", "instructions", true, false }

/* FP_ARITH_INST_RETIRED scalar and 128-bit, the same events on every
 * generation since Skylake. */
#define INTEL_FP_NARROW_EVENTS                                                      \
	{ "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE", "fp_scalar_dp",                     \
	  "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE", false, false },                     \
	{ "FP_ARITH_INST_RETIRED:SCALAR_SINGLE", "fp_scalar_sp",                     \
	  "FP_ARITH_INST_RETIRED.SCALAR_SINGLE", false, false },                     \
	{ "FP_ARITH_INST_RETIRED:128B_PACKED_DOUBLE", "fp_128_dp",                   \
	  "FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE", false, false },                \
	{ "FP_ARITH_INST_RETIRED:128B_PACKED_SINGLE", "fp_128_sp",                   \
	  "FP_ARITH_INST_RETIRED.128B_PACKED_SINGLE", false, false }

/* Base events, then 256-bit and 512-bit FP_ARITH (a model without AVX-512
 * uses the first INTEL_FLOPS_WIDE_AVX2 entries). */
#define INTEL_FLOPS_WIDE_AVX2 4
#define INTEL_FLOPS_WIDE_ALL 6
extern const struct model_event model_intel_flops_wide[INTEL_FLOPS_WIDE_ALL];

/* Base events, then the stall cycles of the cycle-accounted CPI stack
 * (Skylake-class and Ice Lake; Sapphire Rapids names its own). */
#define INTEL_CYC_CPI_EVENTS 10
extern const struct model_event model_intel_cyc_cpi[INTEL_CYC_CPI_EVENTS];

/* Base events and uops by source with the LSD (Ice Lake and later). */
#define INTEL_FE_UOPS_LSD 10
extern const struct model_event model_intel_fe_uops_lsd[INTEL_FE_UOPS_LSD];

#endif
