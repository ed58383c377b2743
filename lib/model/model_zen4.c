/*
 * model_zen4.c - AMD Zen 4 ("amd64_fam19h_zen4"): 6 dispatch slots per
 * cycle, pipeline-utilization Top-Down with five level-1 classes
 * (smt_contention is AMD's own), level 2, op-cache delivery and FLOPS.
 *
 * Formulas follow Linux perf's tools/perf/pmu-events/arch/x86/amdzen4/
 * pipeline.json (perf 6.2 and later; perf 6.1 has no Zen 4 table), copied
 * with its commit into tests/oracle/tables/amdzen4.json, against which the
 * perf oracle (system test 260) checks every metric perf_names.c claims
 * (formula version 1):
 *   total_dispatch_slots = 6 * ls_not_halted_cyc
 *   frontend_bound  = de_no_dispatch_per_slot.no_ops_from_frontend / slots
 *   bad_speculation = (de_src_op_disp.all - ex_ret_ops) / slots
 *   backend_bound   = de_no_dispatch_per_slot.backend_stalls / slots
 *   smt_contention  = de_no_dispatch_per_slot.smt_contention / slots
 *   retiring        = ex_ret_ops / slots
 *   frontend_bound_latency = 6 * no_ops_from_frontend(cmask 6) / slots
 *   bad_speculation_mispredicts = bad_speculation * ex_ret_brn_misp /
 *                                 (ex_ret_brn_misp + resyncs_or_nc_redirects)
 *   backend_bound_memory = backend_bound * ex_no_retire.load_not_complete /
 *                          ex_no_retire.not_complete
 *   retiring_microcode = retiring * ex_ret_ucode_ops / ex_ret_ops
 * Generic names: latency -> fetch_latency, pipeline restarts ->
 * machine_clears, cpu -> core_bound, fastpath -> light_ops, microcode ->
 * heavy_ops.  Six counters per thread hold level 1 with nothing else; with
 * the NMI watchdog holding one, the planner splits it along its ratio sets
 * (zen4_ratio_sets).  Each level-2
 * split is a ratio inside its own group, applied to the level-1 parent.
 * Multi-stage bounds (papers/multi-stage-cpi-and-flops-stacks.txt): the
 * backend loss at dispatch (backend_bound) and at retirement (cycles the
 * oldest op was not complete, ex_no_retire.not_complete / cycles), reported
 * as a range.
 * RETIRED_SSE_AVX_FLOPS counts up to 64 per cycle: the kernel pairs it
 * with the merge event, so it takes two counters.
 */
#include "model_util.h"

#include <math.h>

enum zen_metric {
	ZM_RETIRING, ZM_BAD_SPECULATION, ZM_FRONTEND_BOUND, ZM_BACKEND_BOUND, ZM_SMT_CONTENTION,
	ZM_FETCH_LATENCY, ZM_FETCH_BANDWIDTH, ZM_BRANCH_MISPREDICTS, ZM_MACHINE_CLEARS,
	ZM_MEMORY_BOUND, ZM_CORE_BOUND, ZM_LIGHT_OPS, ZM_HEAVY_OPS,
	ZM_IPC, ZM_CPI, ZM_OPCACHE, ZM_FLOPS_PER_CYCLE, ZM_GFLOPS, ZM_FLOP_PEAK,
	ZM_BE_LOW, ZM_BE_HIGH,
	_ZM_MAX,
};

#define TD "topdown"

static const struct model_metric zen4_metrics[_ZM_MAX] = {
	[ZM_RETIRING] = { "retiring", NULL, METRIC_FRACTION, "dispatch slots of ops that retired", TD },
	[ZM_BAD_SPECULATION] = { "bad_speculation", NULL, METRIC_FRACTION,
		"dispatched ops that did not retire", TD },
	[ZM_FRONTEND_BOUND] = { "frontend_bound", NULL, METRIC_FRACTION,
		"slots the frontend left empty", TD },
	[ZM_BACKEND_BOUND] = { "backend_bound", NULL, METRIC_FRACTION,
		"slots unused because of backend stalls", TD },
	[ZM_SMT_CONTENTION] = { "smt_contention", NULL, METRIC_FRACTION,
		"slots given to the other SMT thread", TD },
	[ZM_FETCH_LATENCY] = { "fetch_latency", "frontend_bound", METRIC_FRACTION,
		"frontend latency (i-cache, i-TLB misses)", TD },
	[ZM_FETCH_BANDWIDTH] = { "fetch_bandwidth", "frontend_bound", METRIC_FRACTION,
		"frontend bandwidth (decode, op cache)", TD },
	[ZM_BRANCH_MISPREDICTS] = { "branch_mispredicts", "bad_speculation", METRIC_FRACTION,
		"ops flushed by branch mispredicts", TD },
	[ZM_MACHINE_CLEARS] = { "machine_clears", "bad_speculation", METRIC_FRACTION,
		"ops flushed by pipeline restarts (resyncs)", TD },
	[ZM_MEMORY_BOUND] = { "memory_bound", "backend_bound", METRIC_FRACTION,
		"backend stalls on memory", TD },
	[ZM_CORE_BOUND] = { "core_bound", "backend_bound", METRIC_FRACTION,
		"backend stalls not on memory", TD },
	[ZM_LIGHT_OPS] = { "light_ops", "retiring", METRIC_FRACTION, "fastpath ops retiring", TD },
	[ZM_HEAVY_OPS] = { "heavy_ops", "retiring", METRIC_FRACTION, "microcode ops retiring", TD },
	[ZM_IPC] = { "ipc", NULL, METRIC_RATIO, "instructions per cycle", NULL },
	[ZM_CPI] = { "cpi", NULL, METRIC_RATIO, "cycles per instruction", NULL },
	[ZM_OPCACHE] = { "dsb_coverage", NULL, METRIC_FRACTION,
		"share of ops from the op cache (AMD's DSB)", "frontend" },
	[ZM_FLOPS_PER_CYCLE] = { "flops_per_cycle", NULL, METRIC_RATIO,
		"floating-point operations per cycle", NULL },
	[ZM_GFLOPS] = { "gflops", NULL, METRIC_RATE, "GFLOP per second of CPU time", NULL },
	[ZM_FLOP_PEAK] = { "flop_peak_fraction", NULL, METRIC_FRACTION,
		"FLOP per cycle over the core's double-precision peak", NULL },
	[ZM_BE_LOW] = { "backend_bound_low", NULL, METRIC_FRACTION,
		"backend loss, lower of two stages (dispatch, retire)", NULL },
	[ZM_BE_HIGH] = { "backend_bound_high", NULL, METRIC_FRACTION,
		"backend loss, higher of two stages (dispatch, retire)", NULL },
};

#define ZEN_CYCLES { "CYCLES_NOT_IN_HALT", "cycles", "cycles", false, false }
#define ZEN_INSTRUCTIONS { "RETIRED_INSTRUCTIONS", "instructions", "instructions", false, false }
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct model_event zen4_td_l1[] = {
	ZEN_CYCLES,
	{ "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER", "dispatched_ops",
	  "de_src_op_disp.all", false, false },
	{ "RETIRED_OPS", "retired_ops", "ex_ret_ops", false, false },
	{ "DISPATCH_STALLS_1:FE_NO_OPS", "fe_no_ops", "de_no_dispatch_per_slot.no_ops_from_frontend",
	  false, false },
	{ "DISPATCH_STALLS_1:BE_STALLS", "be_stalls", "de_no_dispatch_per_slot.backend_stalls",
	  false, false },
	{ "DISPATCH_STALLS_1:SMT_CONTENTION", "smt_contention_slots",
	  "de_no_dispatch_per_slot.smt_contention", false, false },
};

static const struct model_event zen4_td_l2_fe_bs[] = {
	ZEN_CYCLES, ZEN_INSTRUCTIONS,
	{ "DISPATCH_STALLS_1:FE_NO_OPS", "fe_no_ops", "de_no_dispatch_per_slot.no_ops_from_frontend",
	  false, false },
	{ "DISPATCH_STALLS_1:FE_NO_OPS:c=6", "fe_no_ops_cycles",
	  "cpu/event=0x1a0,umask=0x1,cmask=0x6/", false, false },
	{ "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "br_misp_retired", "ex_ret_brn_misp", false, false },
	{ "RESYNCS", "resyncs", "resyncs_or_nc_redirects", false, false },
};

static const struct model_event zen4_td_l2_be_ret[] = {
	ZEN_CYCLES, ZEN_INSTRUCTIONS,
	{ "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD", "no_retire_load",
	  "ex_no_retire.load_not_complete", false, false },
	{ "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU", "no_retire_not_complete",
	  "ex_no_retire.not_complete", false, false },
	{ "RETIRED_UCODE_OPS", "ucode_ops", "ex_ret_ucode_ops", false, false },
	{ "RETIRED_OPS", "retired_ops", "ex_ret_ops", false, false },
};

static const struct model_event zen4_fe_flops[] = {
	ZEN_CYCLES, ZEN_INSTRUCTIONS,
	{ "OPS_SOURCE_DISPATCHED_FROM_DECODER:OPCACHE", "opcache_ops", "de_src_op_disp.op_cache",
	  false, false },
	{ "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER", "decoder_ops", "de_src_op_disp.decoder",
	  false, false },
	{ "RETIRED_SSE_AVX_FLOPS:ANY", "flops", "fp_ret_sse_avx_ops.all", false, true },
};

static const struct model_group zen4_groups[] = {
	{ "td_l1", zen4_td_l1, N(zen4_td_l1), false },
	{ "td_l2_fe_bs", zen4_td_l2_fe_bs, N(zen4_td_l2_fe_bs), false },
	{ "td_l2_be_ret", zen4_td_l2_be_ret, N(zen4_td_l2_be_ret), false },
	{ "fe_flops", zen4_fe_flops, N(zen4_fe_flops), false },
};

/* Ratio sets: the events a formula compares with one another, not only
 * with cycles.  Cycles and instructions take general counters on AMD, so
 * with the NMI watchdog holding one of the six a part has 3 left. */
static const struct model_ratio_set zen4_ratio_sets[] = {
	/* bad_speculation: de_src_op_disp.all - ex_ret_ops */
	{ "td_l1", "dispatched_ops,retired_ops" },
	/* fetch_latency's share: 6 * no_ops_from_frontend(cmask 6) / no_ops_from_frontend */
	{ "td_l2_fe_bs", "fe_no_ops,fe_no_ops_cycles" },
	/* branch_mispredicts' share: ex_ret_brn_misp / (ex_ret_brn_misp + resyncs) */
	{ "td_l2_fe_bs", "br_misp_retired,resyncs" },
	/* memory_bound's share: ex_no_retire.load_not_complete / .not_complete */
	{ "td_l2_be_ret", "no_retire_load,no_retire_not_complete" },
	/* heavy_ops' share: ex_ret_ucode_ops / ex_ret_ops */
	{ "td_l2_be_ret", "ucode_ops,retired_ops" },
	/* dsb_coverage: op cache ops / (op cache + decoder ops) */
	{ "fe_flops", "opcache_ops,decoder_ops" },
};

static void zen4_compute(const struct model *m, const struct group_sums *sums,
			 const struct model_context *ctx, struct metric_value *out)
{
	struct gview l1 = model_gview_get(m, sums, "td_l1");
	struct gview febs = model_gview_get(m, sums, "td_l2_fe_bs");
	struct gview beret = model_gview_get(m, sums, "td_l2_be_ret");
	struct gview fe = model_gview_get(m, sums, "fe_flops");
	struct flops_out fl;
	double slots = 6.0 * l1.cycles, br, rs;

	(void)ctx;
	model_put(&out[ZM_RETIRING], model_ratio(model_gv(&l1, "retired_ops"), slots), l1.coverage,
		  false);
	model_put(&out[ZM_BAD_SPECULATION],
		  model_ratio(model_gv(&l1, "dispatched_ops") - model_gv(&l1, "retired_ops"),
			      slots), l1.coverage, false);
	model_put(&out[ZM_FRONTEND_BOUND], model_ratio(model_gv(&l1, "fe_no_ops"), slots),
		  l1.coverage, false);
	model_put(&out[ZM_BACKEND_BOUND], model_ratio(model_gv(&l1, "be_stalls"), slots),
		  l1.coverage, false);
	model_put(&out[ZM_SMT_CONTENTION],
		  model_ratio(model_gv(&l1, "smt_contention_slots"), slots), l1.coverage, false);

	model_split_parent(&out[ZM_FETCH_LATENCY], &out[ZM_FETCH_BANDWIDTH],
			   &out[ZM_FRONTEND_BOUND],
			   model_ratio(6.0 * model_gv(&febs, "fe_no_ops_cycles"),
				       model_gv(&febs, "fe_no_ops")),
			   febs.coverage);
	br = model_gv(&febs, "br_misp_retired");
	rs = model_gv(&febs, "resyncs");
	model_split_parent(&out[ZM_BRANCH_MISPREDICTS], &out[ZM_MACHINE_CLEARS],
			   &out[ZM_BAD_SPECULATION], model_ratio(br, br + rs), febs.coverage);
	model_split_parent(&out[ZM_MEMORY_BOUND], &out[ZM_CORE_BOUND], &out[ZM_BACKEND_BOUND],
			   model_ratio(model_gv(&beret, "no_retire_load"),
				       model_gv(&beret, "no_retire_not_complete")),
			   beret.coverage);
	model_put_stage_range(&out[ZM_BE_LOW], &out[ZM_BE_HIGH], &out[ZM_BACKEND_BOUND],
			      model_ratio(model_gv(&beret, "no_retire_not_complete"), beret.cycles),
			      beret.coverage);
	model_split_parent(&out[ZM_HEAVY_OPS], &out[ZM_LIGHT_OPS], &out[ZM_RETIRING],
			   model_ratio(model_gv(&beret, "ucode_ops"),
				       model_gv(&beret, "retired_ops")), beret.coverage);

	/* Instructions are in every group but the level-1 one. */
	model_put_ipc_cpi(m, sums, &out[ZM_IPC], &out[ZM_CPI]);
	model_put(&out[ZM_OPCACHE],
		  model_ratio(model_gv(&fe, "opcache_ops"),
			      model_gv(&fe, "opcache_ops") + model_gv(&fe, "decoder_ops")),
		  fe.coverage, false);
	model_flops_family(m, sums, 1.0, 1.0, &fl);
	out[ZM_FLOPS_PER_CYCLE] = fl.flops_per_cycle;
	out[ZM_GFLOPS] = fl.gflops;
	out[ZM_FLOP_PEAK] = fl.peak_fraction;
}

const struct model model_zen4 = {
	.name = "amd64_fam19h_zen4",
	.description = "AMD Zen 4: pipeline-utilization Top-Down L1 (with SMT contention) and L2, "
		       "op-cache delivery, FLOPS",
	.formula_version = 1,
	.pmus = (const char *const[]){ "amd64_fam19h_zen4", NULL },
	.pipeline_width = 6,
	.vendor = VENDOR_AMD,
	.gp_counters_smt = 6,
	.gp_counters_nosmt = 6,
	.fixed_counters = 0,  /* every event, cycles too, takes a general counter */
	.ratio_sets = zen4_ratio_sets,
	.n_ratio_sets = N(zen4_ratio_sets),
	/* No counter restrictions among our events: any of the six. */
	.event_rules = NULL,
	.n_event_rules = 0,
	.peak_flop_dp = 16,   /* two 256-bit FMA pipes: 4 lanes x 2 x 2 */
	.peak_flop_sp = 32,
	.groups = zen4_groups,
	.n_groups = N(zen4_groups),
	.metrics = zen4_metrics,
	.n_metrics = _ZM_MAX,
	.compute = zen4_compute,
};
