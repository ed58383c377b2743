/*
 * model_intel.c - what the Intel core models share: the stack tree (names
 * as the generic Top-Down nodes, DESIGN.md section 4), IPC/CPI, frontend
 * delivery and FLOPS.  Formula sources are named in each model file.
 */
#include "model_intel.h"

#include <math.h>
#include <string.h>

#define TD "topdown"
#define FE "frontend"
#define FL "flops"

const struct model_metric intel_metrics[_IM_MAX] = {
	[IM_RETIRING] = { "retiring", NULL, METRIC_FRACTION, "slots retiring useful uops", TD },
	[IM_BAD_SPECULATION] = { "bad_speculation", NULL, METRIC_FRACTION,
		"slots wasted on uops that never retire (mispredicts, clears)", TD },
	[IM_FRONTEND_BOUND] = { "frontend_bound", NULL, METRIC_FRACTION,
		"slots the frontend left empty", TD },
	[IM_BACKEND_BOUND] = { "backend_bound", NULL, METRIC_FRACTION,
		"slots the backend could not accept", TD },
	[IM_FETCH_LATENCY] = { "fetch_latency", "frontend_bound", METRIC_FRACTION,
		"frontend delivered nothing (i-cache, i-TLB, resteers)", TD },
	[IM_FETCH_BANDWIDTH] = { "fetch_bandwidth", "frontend_bound", METRIC_FRACTION,
		"frontend delivered too few uops (decoders, DSB)", TD },
	[IM_BRANCH_MISPREDICTS] = { "branch_mispredicts", "bad_speculation", METRIC_FRACTION,
		"slots lost to branch mispredictions", TD },
	[IM_MACHINE_CLEARS] = { "machine_clears", "bad_speculation", METRIC_FRACTION,
		"slots lost to machine clears", TD },
	[IM_MEMORY_BOUND] = { "memory_bound", "backend_bound", METRIC_FRACTION,
		"backend stalls on the memory subsystem", TD },
	[IM_CORE_BOUND] = { "core_bound", "backend_bound", METRIC_FRACTION,
		"backend stalls on execution resources", TD },
	[IM_LIGHT_OPS] = { "light_ops", "retiring", METRIC_FRACTION,
		"retiring single-uop instructions", TD },
	[IM_HEAVY_OPS] = { "heavy_ops", "retiring", METRIC_FRACTION,
		"retiring multi-uop or microcoded instructions", TD },
	[IM_IPC] = { "ipc", NULL, METRIC_RATIO, "instructions per cycle", NULL },
	[IM_CPI] = { "cpi", NULL, METRIC_RATIO, "cycles per instruction", NULL },
	[IM_DSB_COVERAGE] = { "dsb_coverage", NULL, METRIC_FRACTION,
		"share of uops delivered by the DSB (uop cache)", FE },
	[IM_MITE_SHARE] = { "mite_share", NULL, METRIC_FRACTION,
		"share of uops delivered by the legacy decoders (MITE)", FE },
	[IM_MS_SHARE] = { "ms_share", NULL, METRIC_FRACTION,
		"share of uops delivered by the microcode sequencer", FE },
	[IM_LSD_SHARE] = { "lsd_share", NULL, METRIC_FRACTION,
		"share of uops delivered by the loop stream detector", FE },
	[IM_DSB_P_ONLY] = { "dsb_p_only", NULL, METRIC_RATIO,
		"DSB uops per cycle the DSB was delivering (thesis P_only)", NULL },
	[IM_DSB_P_OVERALL] = { "dsb_p_overall", NULL, METRIC_RATIO,
		"DSB uops per cycle of all cycles (thesis P_overall)", NULL },
	[IM_MITE_P_ONLY] = { "mite_p_only", NULL, METRIC_RATIO,
		"MITE uops per cycle the MITE was delivering (thesis P_only)", NULL },
	[IM_MITE_P_OVERALL] = { "mite_p_overall", NULL, METRIC_RATIO,
		"MITE uops per cycle of all cycles (thesis P_overall)", NULL },
	[IM_DSB_SWITCH] = { "dsb_switch_fraction", NULL, METRIC_FRACTION,
		"cycles lost switching from the DSB to MITE", NULL },
	[IM_ICACHE_STALL] = { "icache_stall_fraction", NULL, METRIC_FRACTION,
		"cycles fetch waited on an i-cache miss", NULL },
	[IM_ITLB_STALL] = { "itlb_stall_fraction", NULL, METRIC_FRACTION,
		"cycles fetch waited on an i-TLB miss", NULL },
	[IM_FLOPS_PER_CYCLE] = { "flops_per_cycle", NULL, METRIC_RATIO,
		"floating-point operations per cycle (FMA counts two)", NULL },
	[IM_GFLOPS] = { "gflops", NULL, METRIC_RATE, "GFLOP per second of CPU time", NULL },
	[IM_FLOP_PEAK] = { "flop_peak_fraction", NULL, METRIC_FRACTION,
		"FLOP per cycle over the core's peak for the dominant precision", NULL },
	[IM_SCALAR] = { "flops_scalar_share", NULL, METRIC_FRACTION, "FLOPs from scalar", NULL },
	[IM_V128] = { "flops_128b_share", NULL, METRIC_FRACTION, "FLOPs from 128-bit", NULL },
	[IM_V256] = { "flops_256b_share", NULL, METRIC_FRACTION, "FLOPs from 256-bit", NULL },
	[IM_V512] = { "flops_512b_share", NULL, METRIC_FRACTION, "FLOPs from 512-bit", NULL },
	[IM_DP] = { "flops_dp_share", NULL, METRIC_FRACTION, "FLOPs in double precision", NULL },
	[IM_FLOPS_BASE] = { "flops_base", NULL, METRIC_FRACTION,
		"FLOPS stack: achieved share of peak", FL },
	[IM_FLOPS_WIDTH] = { "flops_width_loss", NULL, METRIC_FRACTION,
		"FLOPS stack (approximation): lanes left empty by narrow FP instructions", FL },
	[IM_FLOPS_OTHER] = { "flops_other_loss", NULL, METRIC_FRACTION,
		"FLOPS stack (approximation): non-FP work, stalls, non-FMA", FL },
};

static void ipc_cpi(const struct model *m, const struct group_sums *sums, struct metric_value *out)
{
	double cyc = 0, ins = 0, t = 0, full = 0;
	uint64_t total = model_total_task_clock(m, sums);
	unsigned g;

	/* Cycles and instructions are in every group: their sums cover all of
	 * the target's time. */
	for (g = 0; g < m->n_groups; g++) {
		struct gview v = gview_get(m, sums, m->groups[g].name);
		double i = gv(&v, "instructions");

		if (!v.ok || isnan(i))
			continue;
		cyc += v.cycles;
		ins += i;
		t += (double)v.s->task_clock_ns;
	}
	full = total > 0 ? t / (double)total : 1.0;
	put(&out[IM_IPC], ratio(ins, cyc), full, false);
	put(&out[IM_CPI], ratio(cyc, ins), full, false);
}

static void split(struct metric_value *out, int a, int b, double parent, double share,
		  double cov, bool core)
{
	if (isnan(parent) || isnan(share))
		return;
	share = clamp01(share);
	put(&out[a], parent * share, cov, core);
	put(&out[b], parent * (1.0 - share), cov, core);
}

void intel_compute(const struct model *m, const struct group_sums *sums, const struct topdown *td,
		   struct metric_value *out)
{
	struct frontend_out fe;
	struct flops_out fl;
	unsigned i;

	for (i = 0; i < 4; i++)
		put(&out[IM_RETIRING + i], td->l1[i], td->l1_cov, td->core_scoped);
	split(out, IM_FETCH_LATENCY, IM_FETCH_BANDWIDTH, td->l1[2], td->fetch_latency_share,
	      cov2(td->l1_cov, td->fe_cov), td->core_scoped);
	split(out, IM_BRANCH_MISPREDICTS, IM_MACHINE_CLEARS, td->l1[1], td->mispredict_share,
	      cov2(td->l1_cov, td->bs_cov), td->core_scoped);
	split(out, IM_MEMORY_BOUND, IM_CORE_BOUND, td->l1[3], td->memory_share,
	      cov2(td->l1_cov, td->be_cov), td->core_scoped);
	split(out, IM_HEAVY_OPS, IM_LIGHT_OPS, td->l1[0], td->heavy_share,
	      cov2(td->l1_cov, td->ret_cov), td->core_scoped);
	ipc_cpi(m, sums, out);

	frontend_delivery(m, sums, &fe);
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

	flops_family(m, sums, &fl);
	out[IM_FLOPS_PER_CYCLE] = fl.flops_per_cycle;
	out[IM_GFLOPS] = fl.gflops;
	out[IM_FLOP_PEAK] = fl.peak_fraction;
	out[IM_SCALAR] = fl.scalar_share;
	out[IM_V128] = fl.v128_share;
	out[IM_V256] = fl.v256_share;
	out[IM_V512] = fl.v512_share;
	out[IM_DP] = fl.dp_share;
	out[IM_FLOPS_BASE] = fl.stack_base;
	out[IM_FLOPS_WIDTH] = fl.stack_width_loss;
	out[IM_FLOPS_OTHER] = fl.stack_other;
}
