/*
 * model_neoverse.c - Arm Neoverse cores, as libpfm4 names their PMUs:
 * "arm_n2" (5 slots per cycle), "arm_v1" and "arm_v2" (8), and "arm_n1"
 * (no slot events: the generic model only).
 *
 * Events are the Arm architected PMUv3 common events, opened in perf's raw
 * form ("r3f"): their numbers are fixed by the architecture on every
 * Neoverse core (tools/perf/pmu-events/arch/arm64/common-and-microarch.json),
 * and an x86 build of libpfm4 has no ARM tables to check a name against.
 *
 * Top-Down level 1 follows Linux perf (formula version 1):
 *   SLOTS = #slots * CPU_CYCLES       (#slots = pipeline_width here)
 *   frontend_bound  = STALL_SLOT_FRONTEND / SLOTS            (arm64/sbsa.json)
 *   backend_bound   = STALL_SLOT_BACKEND / SLOTS
 *   retiring        = OP_RETIRED / OP_SPEC * (1 - STALL_SLOT / SLOTS)
 *   bad_speculation = (1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / SLOTS)
 * On Neoverse N2 before r0p3 (5 slots) STALL_SLOT and STALL_SLOT_FRONTEND
 * count one slot too many per cycle, so perf subtracts CPU_CYCLES from both
 * where its strcmp_cpuid_str() says so (arm64/arm/neoverse-n2-v2/
 * metrics.json); so do we (and where the revision is unknown).  Arm's own
 * formulas (Linux perf 7.2.12's neoverse-v1 and neoverse-n2-v2
 * metrics.json, from Arm's telemetry solution; formula version 2 on all
 * three) charge the slots of the 4 cycles after each mispredict
 * (BR_MIS_PRED) to bad speculation, taking them from the frontend (V1: all
 * 4 cycles; N2, V2: 1) and the backend (N2, V2: 3):
 *   frontend_bound  = STALL_SLOT_FRONTEND / SLOTS - f * BR_MIS_PRED / CPU_CYCLES
 *   backend_bound   = STALL_SLOT_BACKEND / SLOTS - b * BR_MIS_PRED / CPU_CYCLES
 *   bad_speculation = (1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / SLOTS)
 *                     + 4 * BR_MIS_PRED / CPU_CYCLES
 * with (f, b) = (4, 0) on V1 and (1, 3) on N2 and V2 (not clamped: a share
 * below the mispredict penalty goes negative, as in perf).  The four sum to
 * 1 when STALL_SLOT = STALL_SLOT_FRONTEND + STALL_SLOT_BACKEND; BR_MIS_PRED
 * is counted in family "stalls".  make test checks them against perf's own
 * expressions (tests/unit/test_model_cpus.c, the oracle).
 *
 * Cycle accounting (neoverse-v1/metrics.json's Cycle_Accounting group; the
 * kernel's Arm JSON defines no Top-Down level 2 for N2, V1 or V2):
 *   frontend_stalled_cycles = STALL_FRONTEND / CPU_CYCLES
 *   backend_stalled_cycles  = STALL_BACKEND / CPU_CYCLES
 * as fractions (perf's carry x100 in the expression).  Architected events
 * 0x23 and 0x24: every Armv8 PMU has them, so N2 and V2 report them too.
 *
 * The CPI stack is the generic regression (model_generic.h) on branch
 * mispredicts retired, L1I refills, L2 refills, instruction and data
 * table walks and last-level read misses.  FLOPS (Arm's recommended
 * count): FP_FIXED_OPS_SPEC + FP_SCALE_OPS_SPEC x (SVE vector length /
 * 128); both are speculative counts, so wrong-path FP work is included.
 * The FLOPS stack's parts come from the stall cycles (arm_flops_stack).
 * Six general counters, no SMT; CPU_CYCLES has its own counter (unless the
 * NMI watchdog holds it: then it takes a general one, the planner's affair).
 */
#include "lib/model/model_generic.h"
#include "lib/model/model_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum arm_metric {
	AM_RETIRING = _GM_MAX, AM_BAD_SPECULATION, AM_FRONTEND_BOUND, AM_BACKEND_BOUND,
	AM_FE_STALLED_CYCLES, AM_BE_STALLED_CYCLES,
	AM_FLOPS_BASE, AM_FLOPS_FRONTEND, AM_FLOPS_MEMORY, AM_FLOPS_BACKEND, AM_FLOPS_NO_FP,
	AM_FLOPS_OTHER,
	_AM_MAX,
};

#define TD "topdown"
#define FL "flops"

static const struct model_metric arm_metrics[_AM_MAX] = {
	[GM_IPC] = { "ipc", NULL, METRIC_RATIO, "instructions per cycle", NULL },
	[GM_CPI] = { "cpi", NULL, METRIC_RATIO, "cycles per instruction", NULL },
	[GM_MPKI_0] = { "branch_mpki", NULL, METRIC_RATIO,
		"mispredicted branches retired per 1000 instructions", NULL },
	[GM_MPKI_0 + 1] = { "l1i_mpki", NULL, METRIC_RATIO,
		"L1 i-cache refills per 1000 instructions", NULL },
	[GM_MPKI_0 + 2] = { "l2_mpki", NULL, METRIC_RATIO,
		"L2 refills per 1000 instructions", NULL },
	[GM_MPKI_0 + 3] = { "itlb_walk_pki", NULL, METRIC_RATIO,
		"instruction table walks per 1000 instructions", NULL },
	[GM_MPKI_0 + 4] = { "dtlb_walk_pki", NULL, METRIC_RATIO,
		"data table walks per 1000 instructions", NULL },
	[GM_MPKI_5] = { "llc_read_mpki", NULL, METRIC_RATIO,
		"last-level cache read misses per 1000 instructions", NULL },
	[GM_CPI_BASE] = { "cpi_base", NULL, METRIC_RATIO,
		"regression CPI stack: base", "cpi", "CPI-BASE" },
	[GM_CPI_0] = { "cpi_branch", NULL, METRIC_RATIO,
		"regression CPI stack: branch mispredicts", "cpi", "CPI-BR" },
	[GM_CPI_0 + 1] = { "cpi_l1i", NULL, METRIC_RATIO,
		"regression CPI stack: L1 i-cache refills", "cpi", "CPI-L1I" },
	[GM_CPI_0 + 2] = { "cpi_l2", NULL, METRIC_RATIO,
		"regression CPI stack: L2 refills", "cpi", "CPI-L2" },
	[GM_CPI_0 + 3] = { "cpi_itlb", NULL, METRIC_RATIO,
		"regression CPI stack: instruction table walks", "cpi", "CPI-ITLB" },
	[GM_CPI_0 + 4] = { "cpi_dtlb", NULL, METRIC_RATIO,
		"regression CPI stack: data table walks", "cpi", "CPI-DTLB" },
	[GM_CPI_5] = { "cpi_llc", NULL, METRIC_RATIO,
		"regression CPI stack: last-level cache read misses", "cpi", "CPI-LLC" },
	[GM_CPI_RESIDUAL] = { "cpi_residual", NULL, METRIC_RATIO,
		"regression CPI stack: measured CPI minus the estimate (may be negative)", "cpi",
		"CPI-RESID" },
	[GM_FLOPS_PER_CYCLE] = { "flops_per_cycle", NULL, METRIC_RATIO,
		"floating-point operations per cycle (speculative counts)", NULL },
	[GM_GFLOPS] = { "gflops", NULL, METRIC_RATE, "GFLOP per second of CPU time", NULL },
	[GM_FLOP_PEAK] = { "flop_peak_fraction", NULL, METRIC_FRACTION,
		"FLOP per cycle over the core's peak; the counter does not tell SP from DP, so "
		"over the single-precision peak, the highest it could reach (a lower bound: a "
		"double-precision kernel at its peak reads 50%)", NULL },
	[AM_RETIRING] = { "retiring", NULL, METRIC_FRACTION,
		"slots of operations that retired", TD, "RET" },
	[AM_BAD_SPECULATION] = { "bad_speculation", NULL, METRIC_FRACTION,
		"slots of operations executed speculatively and discarded", TD, "BADSPEC" },
	[AM_FRONTEND_BOUND] = { "frontend_bound", NULL, METRIC_FRACTION,
		"slots the frontend left empty", TD, "FE" },
	[AM_BACKEND_BOUND] = { "backend_bound", NULL, METRIC_FRACTION,
		"slots the backend could not accept", TD, "BE" },
	[AM_FE_STALLED_CYCLES] = { "frontend_stalled_cycles", NULL, METRIC_FRACTION,
		"cycles the frontend delivered no operation (STALL_FRONTEND)", NULL },
	[AM_BE_STALLED_CYCLES] = { "backend_stalled_cycles", NULL, METRIC_FRACTION,
		"cycles the backend accepted no operation (STALL_BACKEND)", NULL },
	[AM_FLOPS_BASE] = { "flops_base", NULL, METRIC_FRACTION,
		"FLOPS stack: FLOPs per cycle over the single-precision peak (approximations: "
		"FP_*_OPS_SPEC do not split precision, so a lower bound, and count wrong-path "
		"work)", FL,
		"FL-BASE" },
	[AM_FLOPS_FRONTEND] = { "flops_frontend_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: cycles the frontend sent no operation, so no FP instruction "
		"could issue (STALL_FRONTEND; approximation: counted at rename, not issue)", FL,
		"FL-FE" },
	[AM_FLOPS_MEMORY] = { "flops_memory_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: cycles the backend stalled on a demand load missing the last "
		"core cache (STALL_BACKEND_MEM; approximation: FP units may be busy in some)",
		FL, "FL-MEM" },
	[AM_FLOPS_BACKEND] = { "flops_backend_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: the other backend stall cycles - dependences, full queues "
		"(STALL_BACKEND less STALL_BACKEND_MEM; approximation as memory)", FL, "FL-BE" },
	[AM_FLOPS_NO_FP] = { "flops_no_fp_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: no floating-point work - the cycles with no FP instruction to "
		"issue that flops_frontend_loss does not hold (paper Table III lines 9-10; "
		"only where no FLOP was counted, else in the rest)", FL, "FL-NO-FP" },
	[AM_FLOPS_OTHER] = { "flops_other_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: unexplained rest of FP work - vector width, non-FMA work, non-FP "
		"use of the vector units, partial issue (no counter splits them)", FL,
		"FL-OTHER" },
};

static const struct generic_spec arm_spec = {
	{ "br_misp_retired", "l1i_refill", "l2_refill", "itlb_walk", "dtlb_walk", "llc_miss_rd" },
};

/* CPU_CYCLES runs on the dedicated cycle counter (PMCCNTR_EL0). */
#define ARM_BASE                                                                  \
	{ "r11", "cycles", "CPU_CYCLES", true, false },                                    \
	{ "r08", "instructions", "INST_RETIRED", false, false }
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct model_event arm_td[] = {
	ARM_BASE,
	{ "r3f", "stall_slot", "STALL_SLOT", false, false },
	{ "r3e", "stall_slot_frontend", "STALL_SLOT_FRONTEND", false, false },
	{ "r3d", "stall_slot_backend", "STALL_SLOT_BACKEND", false, false },
	{ "r3a", "op_retired", "OP_RETIRED", false, false },
	{ "r3b", "op_spec", "OP_SPEC", false, false },
};

static const struct model_event arm_cpi_a[] = {
	ARM_BASE,
	{ "r22", "br_misp_retired", "BR_MIS_PRED_RETIRED", false, false },
	{ "r01", "l1i_refill", "L1I_CACHE_REFILL", false, false },
	{ "r17", "l2_refill", "L2D_CACHE_REFILL", false, false },
	{ "r35", "itlb_walk", "ITLB_WALK", false, false },
};

static const struct model_event arm_cpi_b_flops[] = {
	ARM_BASE,
	{ "r34", "dtlb_walk", "DTLB_WALK", false, false },
	{ "r37", "llc_miss_rd", "LL_CACHE_MISS_RD", false, false },
	{ "r80c1", "fp_fixed_ops", "FP_FIXED_OPS_SPEC", false, false },
	{ "r80c0", "fp_scale_ops", "FP_SCALE_OPS_SPEC", false, false },
};

/* Cycle accounting; BR_MIS_PRED (speculative mispredicts) on V1 only,
 * whose level 1 takes it.  Compared with cycles only: any family. */
#define ARM_STALLS                                                               \
	ARM_BASE,                                                                        \
	{ "r23", "stall_frontend", "STALL_FRONTEND", false, false },                     \
	{ "r24", "stall_backend", "STALL_BACKEND", false, false },                       \
	{ "r4005", "stall_backend_mem", "STALL_BACKEND_MEM", false, false }

/* BR_MIS_PRED: Arm's level 1 (perf 7.2's neoverse-v1 and neoverse-n2-v2
 * metrics.json) charges 4 cycles of slots per mispredict to bad
 * speculation. */
static const struct model_event arm_stalls[] = {
	ARM_STALLS,
	{ "r10", "br_mis_pred", "BR_MIS_PRED", false, false },
};

/* Neoverse N1 (Armv8.2) has neither the slot events nor the FP operation
 * counts. */
static const struct model_event arm_n1_cpi_b[] = {
	ARM_BASE,
	{ "r34", "dtlb_walk", "DTLB_WALK", false, false },
	{ "r37", "llc_miss_rd", "LL_CACHE_MISS_RD", false, false },
};

/* Ratio sets: retiring and bad_speculation take OP_RETIRED / OP_SPEC; every
 * other formula compares an event with cycles or instructions only.  The
 * CPI families have none. */
static const struct model_ratio_set arm_ratio_sets[] = {
	{ "td", "op_retired,op_spec" },
};

static const struct model_group arm_groups[] = {
	{ "td", arm_td, N(arm_td), false },
	{ "cpi_a", arm_cpi_a, N(arm_cpi_a), false },
	{ "cpi_b_flops", arm_cpi_b_flops, N(arm_cpi_b_flops), false },
	{ "stalls", arm_stalls, N(arm_stalls), false },
};

static const struct model_group arm_n1_groups[] = {
	{ "cpi_a", arm_cpi_a, N(arm_cpi_a), false },
	{ "cpi_b", arm_n1_cpi_b, N(arm_n1_cpi_b), false },
};

/* SVE vector length over 128 bits: how many 128-bit granules one
 * FP_SCALE_OPS_SPEC count stands for. */
static double sve_granules(const struct model *m)
{
	return strcmp(m->name, "arm_v1") == 0 ? 2.0 : 1.0;  /* V1: 256-bit SVE; N2, V2: 128-bit */
}

/*
 * The FLOPS stack (Eyerman et al., ISPASS 2018, docs/references.md, section
 * III-C, Table III) from Arm's FP operation counts and the architected
 * stall cycles (family stalls, each a share of its own cycles), as shares
 * of the peak that sum to 1, each capped at what the ones before left
 * (model_put_stack).  FP_FIXED_OPS_SPEC and FP_SCALE_OPS_SPEC do not tell
 * the precision, so the peak is the single-precision one, the highest
 * they could reach (model_peak_any_precision: a lower bound, never over
 * 100%; a double-precision kernel at its peak reads 50%):
 *   base     = FLOPs per cycle / peak_flop_sp                       (Eq. 1)
 *   frontend = STALL_FRONTEND / C     (lines 9-10: no op to issue)
 *   memory   = STALL_BACKEND_MEM / C  (lines 15-16: waiting on a load)
 *   backend  = (STALL_BACKEND - STALL_BACKEND_MEM) / C   (lines 17-18)
 *   other    = the rest: width (line 7: FP_FIXED_OPS_SPEC mixes scalar and
 *              Neon elements), non-FMA (line 5), non-FP use of the vector
 *              units (lines 11-12) and partly used cycles - no counter
 *              of these families tells them apart
 * Code with no FLOP counted issued no FP instruction in any cycle: lines
 * 9-10 book every lost cycle to the frontend component, so memory and
 * backend are 0 and the rest is no_fp (no floating-point work), exactly.
 * The stall events count whole cycles at rename, not FP units at issue:
 * FP units can be busy in a backend stall cycle, which the cap on each
 * part bounds but does not remove (named in each part's help).
 */
static void arm_flops_stack(const struct model *m, const struct group_sums *sums,
			    double flop, double fpc, double coverage, struct metric_value *out)
{
	enum { BASE, FRONTEND, MEMORY, BACKEND, NO_FP, OTHER, N_PARTS };
	struct metric_value *const part[N_PARTS] = {
		&out[AM_FLOPS_BASE], &out[AM_FLOPS_FRONTEND], &out[AM_FLOPS_MEMORY],
		&out[AM_FLOPS_BACKEND], &out[AM_FLOPS_NO_FP], &out[AM_FLOPS_OTHER],
	};
	struct gview st = model_gview_get(m, sums, "stalls");
	double v[N_PARTS] = { model_ratio(fpc, model_peak_any_precision(m)), NAN, NAN, NAN, NAN,
			      NAN };

	if (isnan(v[BASE]))
		return;
	if (st.ok) {
		double mem, be;

		mem = model_ratio(model_gv(&st, "stall_backend_mem"), st.cycles);
		be = model_ratio(model_gv(&st, "stall_backend"), st.cycles);
		v[FRONTEND] = model_ratio(model_gv(&st, "stall_frontend"), st.cycles);
		v[MEMORY] = mem;
		v[BACKEND] = be - (isnan(mem) ? 0.0 : mem);
		coverage = model_cov2(coverage, st.coverage);
	}
	if (flop == 0.0) {
		v[MEMORY] = isnan(v[MEMORY]) ? NAN : 0.0;
		v[BACKEND] = isnan(v[BACKEND]) ? NAN : 0.0;
		v[NO_FP] = 1.0;
	}
	model_put_stack(part, v, N_PARTS, coverage);
}

static void arm_flops(const struct model *m, const struct group_sums *sums,
		      struct metric_value *out)
{
	struct gview v = model_gview_get(m, sums, "cpi_b_flops");
	double flop, fpc;

	if (!v.ok)
		return;
	flop = model_gv(&v, "fp_fixed_ops") + sve_granules(m) * model_gv(&v, "fp_scale_ops");
	fpc = model_ratio(flop, v.cycles);
	model_put(&out[GM_FLOPS_PER_CYCLE], fpc, v.coverage, false);
	if (v.s->task_clock_ns > 0)
		model_put(&out[GM_GFLOPS], flop / (double)v.s->task_clock_ns, v.coverage, false);
	model_put(&out[GM_FLOP_PEAK], model_ratio(fpc, model_peak_any_precision(m)), v.coverage,
		  false);
	arm_flops_stack(m, sums, flop, fpc, v.coverage, out);
}

static void arm_stall_cycles(const struct model *m, const struct group_sums *sums,
			     struct metric_value *out)
{
	struct gview st = model_gview_get(m, sums, "stalls");

	if (!st.ok)
		return;
	model_put(&out[AM_FE_STALLED_CYCLES], model_ratio(model_gv(&st, "stall_frontend"), st.cycles),
		  st.coverage, false);
	model_put(&out[AM_BE_STALLED_CYCLES], model_ratio(model_gv(&st, "stall_backend"), st.cycles),
		  st.coverage, false);
}

/* Mispredicts per cycle, which Arm's formulas (Linux perf 7.2.12's
 * neoverse-v1 and neoverse-n2-v2 metrics.json) charge to bad speculation at
 * 4 cycles of slots each, taking them from the frontend (V1: all 4; N2, V2:
 * 1) and the backend (N2, V2: 3).  NaN without the count. */
static double mispredicts_per_cycle(const struct model *m, const struct group_sums *sums,
				    double *coverage)
{
	struct gview st = model_gview_get(m, sums, "stalls");

	*coverage = model_cov2(*coverage, st.coverage);
	return st.ok ? model_ratio(model_gv(&st, "br_mis_pred"), st.cycles) : NAN;
}

/* Neoverse N2 before r0p3 counts one stall slot too many per cycle; perf
 * subtracts it where strcmp_cpuid_str() says the core is N2 below r0p3
 * (neoverse-n2-v2/metrics.json).  An unknown revision takes it too, as
 * stackd did before it knew the revision. */
static bool n2_extra_slot(const struct model *m, const struct model_context *ctx)
{
	unsigned long long midr;

	if (m->pipeline_width != 5)
		return false;
	if (ctx == NULL || ctx->cpuid == NULL || sscanf(ctx->cpuid, "%llx", &midr) != 1)
		return true;
	return ((midr >> 20) & 0xf) == 0 && (midr & 0xf) < 3;
}

static void arm_compute(const struct model *m, const struct group_sums *sums,
			const struct model_context *ctx, struct metric_value *out)
{
	struct gview td = model_gview_get(m, sums, "td");
	double slots = m->pipeline_width * td.cycles;
	double extra = n2_extra_slot(m, ctx) ? td.cycles : 0.0;
	bool v1 = strcmp(m->name, "arm_v1") == 0;
	double used, retired_share, misp, cov = td.coverage;

	model_generic_compute(m, sums, ctx, out);
	arm_flops(m, sums, out);
	arm_stall_cycles(m, sums, out);
	if (!td.ok)
		return;
	used = 1.0 - model_ratio(model_gv(&td, "stall_slot") - extra, slots);
	retired_share = model_ratio(model_gv(&td, "op_retired"), model_gv(&td, "op_spec"));
	misp = mispredicts_per_cycle(m, sums, &cov);
	model_put(&out[AM_FRONTEND_BOUND],
		  model_ratio(model_gv(&td, "stall_slot_frontend") - extra, slots) -
		  (v1 ? 4.0 : 1.0) * misp, cov, false);
	/* V1's backend takes no mispredict term (and needs no BR_MIS_PRED) */
	model_put(&out[AM_BACKEND_BOUND],
		  model_ratio(model_gv(&td, "stall_slot_backend"), slots) - (v1 ? 0.0 : 3.0 * misp),
		  v1 ? td.coverage : cov, false);
	model_put(&out[AM_RETIRING], retired_share * used, td.coverage, false);
	model_put(&out[AM_BAD_SPECULATION], (1.0 - retired_share) * used + 4.0 * misp, cov, false);
}

#define ARM_COMMON                                                               \
	.vendor = VENDOR_ARM,                                                            \
	.gp_counters_smt = 6,                                                            \
	.gp_counters_nosmt = 6,                                                          \
	.fixed_counters = 1,   /* the cycle counter, PMCCNTR_EL0 */                      \
	.event_rules = NULL,   /* any common event on any general counter */             \
	.n_event_rules = 0,                                                              \
	.metrics = arm_metrics,                                                          \
	.detail = &arm_spec

const struct model model_arm_n2 = {
	.name = "arm_n2",
	.description = "Arm Neoverse N2: Top-Down L1 from STALL_SLOT_* (5 slots), stall cycles, "
		       "regression CPI stack, FLOPS (SVE 128-bit)",
	.formula_version = 2,  /* 2: perf 7.2's mispredict terms (Arm's) */
	.pmus = (const char *const[]){ "arm_n2", NULL },
	.pipeline_width = 5,
	.slot_stage = "dispatch",  /* rename to the backend (STALL_SLOT) */
	.peak_flop_dp = 8,    /* two 128-bit FMA pipes: 2 lanes x 2 x 2 */
	.peak_flop_sp = 16,
	.peak_vector_bits = 128, /* two 128-bit pipes (Arm N2 software optimization guide) */
	.groups = arm_groups,
	.n_groups = N(arm_groups),
	.ratio_sets = arm_ratio_sets,
	.n_ratio_sets = N(arm_ratio_sets),
	.n_metrics = _AM_MAX,
	.compute = arm_compute,
	ARM_COMMON,
};

const struct model model_arm_v1 = {
	.name = "arm_v1",
	.description = "Arm Neoverse V1: Top-Down L1 from STALL_SLOT_* (8 slots, Arm's mispredict "
		       "correction), stall cycles, regression CPI stack, FLOPS (SVE 256-bit)",
	.formula_version = 2,  /* 2: Arm's V1 level 1 (mispredict slots) */
	.pmus = (const char *const[]){ "arm_v1", NULL },
	.pipeline_width = 8,
	.slot_stage = "dispatch",  /* rename to the backend (STALL_SLOT) */
	.peak_flop_dp = 16,   /* two 256-bit SVE FMA pipes: 4 lanes x 2 x 2 */
	.peak_flop_sp = 32,
	.peak_vector_bits = 256, /* two 256-bit SVE pipes (Arm V1 software optimization guide) */
	.groups = arm_groups,
	.n_groups = N(arm_groups),
	.ratio_sets = arm_ratio_sets,
	.n_ratio_sets = N(arm_ratio_sets),
	.n_metrics = _AM_MAX,
	.compute = arm_compute,
	ARM_COMMON,
};

const struct model model_arm_v2 = {
	.name = "arm_v2",
	.description = "Arm Neoverse V2: Top-Down L1 from STALL_SLOT_* (8 slots), stall cycles, "
		       "regression CPI stack, FLOPS (SVE 128-bit)",
	.formula_version = 2,  /* 2: perf 7.2's mispredict terms (Arm's) */
	.pmus = (const char *const[]){ "arm_v2", NULL },
	.pipeline_width = 8,
	.slot_stage = "dispatch",  /* rename to the backend (STALL_SLOT) */
	.peak_flop_dp = 16,   /* four 128-bit FMA pipes: 2 lanes x 2 x 4 */
	.peak_flop_sp = 32,
	.peak_vector_bits = 128, /* four 128-bit pipes (Arm V2 software optimization guide) */
	.groups = arm_groups,
	.n_groups = N(arm_groups),
	.ratio_sets = arm_ratio_sets,
	.n_ratio_sets = N(arm_ratio_sets),
	.n_metrics = _AM_MAX,
	.compute = arm_compute,
	ARM_COMMON,
};

const struct model model_arm_n1 = {
	.name = "arm_n1",
	.description = "Arm Neoverse N1 (generic model): regression CPI stack from miss events",
	.formula_version = 1,
	.pmus = (const char *const[]){ "arm_n1", NULL },
	.pipeline_width = 4,
	.peak_flop_dp = 0,    /* no FP operation counts: no FLOPS family */
	.peak_flop_sp = 0,
	.groups = arm_n1_groups,
	.n_groups = N(arm_n1_groups),
	.ratio_sets = NULL,   /* per-instruction and per-cycle rates only */
	.n_ratio_sets = 0,
	.n_metrics = _GM_MAX,
	.compute = model_generic_compute,
	ARM_COMMON,
};
