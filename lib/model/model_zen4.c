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
 * Multi-stage CPI stacks (Eyerman et al., ISPASS 2018, docs/references.md,
 * section III-A, Table II): level 1 above is the dispatch stage's stack;
 * family `commit` gives the commit stage's, in the same unit (slots, W = 6,
 * the dispatch width: the narrowest stage, section III-A; Zen 4 retires
 * up to 8), with C = cycles:
 *   commit_retiring        = ex_ret_ops / 6C (the same at every stage)
 *   commit_bad_speculation = unknown (no counter: see below)
 *   commit_frontend_bound  = ex_no_retire.empty / C (Table II commit lines
 *                            4-8: ROB empty, the mispredict refills in it)
 *   commit_backend_bound   = ex_no_retire.not_complete / C (lines 9-16: the
 *                            oldest op not done), split into
 *     commit_memory_bound  = ex_no_retire.load_not_complete / C (line 11)
 *     commit_core_bound    = the rest (ALU latency, dependences)
 *   commit_smt_contention  = ex_no_retire.thread_not_selected / C
 *   commit_other_stalls    = ex_no_retire.other / C (retire breaks, traps)
 *   commit_partial         = the rest: slots lost in cycles that retired
 *                            some ops, which the counters do not classify
 * Each part is capped at what the ones before left (model_put_stack).  A
 * ROB-empty cycle after a mispredict is the branch predictor's (Table II
 * commit lines 7-8), but Zen 4 counts no recovery or resteer cycles (its
 * PPR and perf's amdzen4 JSON have no such event), so the ROB-empty
 * cycles cannot be split: the commit stage's bad speculation is unknown
 * and its frontend holds the refills too.  (Taking bad_speculation, a
 * share of dispatch slots, off them mixed units: wrong-path ops are not
 * empty cycles.)  Bounds per component, each from one stage
 * (model_put_stage_bounds): frontend and bad speculation shrink from
 * dispatch to commit (low = commit, unknown here: the frontend's share of
 * the ROB-empty cycles is not known; high = dispatch), backend and memory
 * grow (low = dispatch, high = commit).
 *
 * FLOPS stack (paper section III-C, Table III) from fp_ret_sse_avx_ops:
 * flops_base = FLOPs per cycle over the single-precision peak (the counter
 * does not split precision: taken against the highest peak it could reach,
 * a lower bound, so a real run never reads over 1); flops_non_fma_loss = the FLOPs not
 * from FMAs (.all - .mac_flops, Table III line 5: each leaves one FLOP of
 * an FMA's two), over the same peak; flops_no_fp_loss, code that did no FP
 * work (no FLOP counted: every cycle had no FP instruction to issue, lines
 * 9-10); flops_other_loss the unexplained rest (width: the counter has
 * none; frontend, memory, dependences).
 * RETIRED_SSE_AVX_FLOPS counts up to 64 per cycle: the kernel pairs it
 * with the merge event, so it takes two counters.
 */
#include "lib/model/model_util.h"

#include <math.h>

enum zen_metric {
	ZM_RETIRING, ZM_BAD_SPECULATION, ZM_FRONTEND_BOUND, ZM_BACKEND_BOUND, ZM_SMT_CONTENTION,
	ZM_FETCH_LATENCY, ZM_FETCH_BANDWIDTH, ZM_BRANCH_MISPREDICTS, ZM_MACHINE_CLEARS,
	ZM_MEMORY_BOUND, ZM_CORE_BOUND, ZM_LIGHT_OPS, ZM_HEAVY_OPS,
	ZM_IPC, ZM_CPI, ZM_OPCACHE, ZM_FLOPS_PER_CYCLE, ZM_GFLOPS, ZM_FLOP_PEAK,
	ZM_BE_LOW, ZM_BE_HIGH,
	ZM_FE_LOW, ZM_FE_HIGH, ZM_BS_LOW, ZM_BS_HIGH, ZM_MEM_LOW, ZM_MEM_HIGH,
	ZM_COMMIT_RETIRING, ZM_COMMIT_BAD_SPECULATION, ZM_COMMIT_FRONTEND, ZM_COMMIT_BACKEND,
	ZM_COMMIT_SMT, ZM_COMMIT_OTHER, ZM_COMMIT_PARTIAL, ZM_COMMIT_MEMORY, ZM_COMMIT_CORE,
	ZM_FLOPS_BASE, ZM_FLOPS_NON_FMA, ZM_FLOPS_NO_FP, ZM_FLOPS_OTHER,
	ZM_CYC_BASE, ZM_CYC_ROB_EMPTY, ZM_CYC_MEMORY, ZM_CYC_CORE, ZM_CYC_SMT, ZM_CYC_OTHER,
	ZM_FLOPS_OVERLAP,
	_ZM_MAX,
};

#define TD "topdown"
#define CM "commit"
#define FL "flops"
#define CY "cpi_cycles"

static const struct model_metric zen4_metrics[_ZM_MAX] = {
	[ZM_RETIRING] = { "retiring", NULL, METRIC_FRACTION,
		"dispatch slots of ops that retired", TD, "RET" },
	[ZM_BAD_SPECULATION] = { "bad_speculation", NULL, METRIC_FRACTION,
		"dispatched ops that did not retire", TD, "BADSPEC" },
	[ZM_FRONTEND_BOUND] = { "frontend_bound", NULL, METRIC_FRACTION,
		"slots the frontend left empty", TD, "FE" },
	[ZM_BACKEND_BOUND] = { "backend_bound", NULL, METRIC_FRACTION,
		"slots unused because of backend stalls", TD, "BE" },
	[ZM_SMT_CONTENTION] = { "smt_contention", NULL, METRIC_FRACTION,
		"slots given to the other SMT thread", TD, "SMT" },
	[ZM_FETCH_LATENCY] = { "fetch_latency", "frontend_bound", METRIC_FRACTION,
		"frontend latency (i-cache, i-TLB misses)", TD, "FE-LAT" },
	[ZM_FETCH_BANDWIDTH] = { "fetch_bandwidth", "frontend_bound", METRIC_FRACTION,
		"frontend bandwidth (decode, op cache)", TD, "FE-BW" },
	[ZM_BRANCH_MISPREDICTS] = { "branch_mispredicts", "bad_speculation", METRIC_FRACTION,
		"ops flushed by branch mispredicts", TD, "BR-MISP" },
	[ZM_MACHINE_CLEARS] = { "machine_clears", "bad_speculation", METRIC_FRACTION,
		"ops flushed by pipeline restarts (resyncs)", TD, "CLEARS" },
	[ZM_MEMORY_BOUND] = { "memory_bound", "backend_bound", METRIC_FRACTION,
		"backend stalls on memory", TD, "MEM" },
	[ZM_CORE_BOUND] = { "core_bound", "backend_bound", METRIC_FRACTION,
		"backend stalls not on memory", TD, "CORE" },
	[ZM_LIGHT_OPS] = { "light_ops", "retiring", METRIC_FRACTION,
		"fastpath ops retiring", TD, "LIGHT" },
	[ZM_HEAVY_OPS] = { "heavy_ops", "retiring", METRIC_FRACTION,
		"microcode ops retiring", TD, "HEAVY" },
	[ZM_IPC] = { "ipc", NULL, METRIC_RATIO, "instructions per cycle", NULL },
	[ZM_CPI] = { "cpi", NULL, METRIC_RATIO, "cycles per instruction", NULL },
	[ZM_OPCACHE] = { "dsb_coverage", NULL, METRIC_FRACTION,
		"share of ops from the op cache (AMD's DSB)", "frontend", "DSB" },
	[ZM_FLOPS_PER_CYCLE] = { "flops_per_cycle", NULL, METRIC_RATIO,
		"floating-point operations per cycle", NULL },
	[ZM_GFLOPS] = { "gflops", NULL, METRIC_RATE, "GFLOP per second of CPU time", NULL },
	[ZM_FLOP_PEAK] = { "flop_peak_fraction", NULL, METRIC_FRACTION,
		"FLOP per cycle over the core's peak; the counter does not tell SP from DP, so "
		"over the single-precision peak, the highest it could reach (a lower bound: a "
		"double-precision kernel at its peak reads 50%)", NULL },
	[ZM_BE_LOW] = { "backend_bound_low", NULL, METRIC_FRACTION,
		"backend loss, lower bound: the smaller of the dispatch stage's backend_bound "
		"and the commit stage's commit_backend_bound", NULL },
	[ZM_BE_HIGH] = { "backend_bound_high", NULL, METRIC_FRACTION,
		"backend loss, upper bound: the larger of the dispatch stage's backend_bound "
		"and the commit stage's commit_backend_bound", NULL },
	[ZM_FE_LOW] = { "frontend_bound_low", NULL, METRIC_FRACTION,
		"frontend loss, lower bound: the commit stage's - unknown on Zen 4 (no "
		"counter splits the ROB-empty cycles into frontend and mispredict refills)",
		NULL },
	[ZM_FE_HIGH] = { "frontend_bound_high", NULL, METRIC_FRACTION,
		"frontend loss, upper bound: the dispatch stage (frontend_bound)", NULL },
	[ZM_BS_LOW] = { "bad_speculation_low", NULL, METRIC_FRACTION,
		"mispredict loss, lower bound: the commit stage's - unknown on Zen 4 (no "
		"recovery-cycle counter)", NULL },
	[ZM_BS_HIGH] = { "bad_speculation_high", NULL, METRIC_FRACTION,
		"mispredict loss, upper bound: the dispatch stage (bad_speculation)", NULL },
	[ZM_MEM_LOW] = { "memory_bound_low", NULL, METRIC_FRACTION,
		"memory loss, lower bound: the smaller of the dispatch stage's memory_bound and "
		"the commit stage's commit_memory_bound", NULL },
	[ZM_MEM_HIGH] = { "memory_bound_high", NULL, METRIC_FRACTION,
		"memory loss, upper bound: the larger of the dispatch stage's memory_bound and "
		"the commit stage's commit_memory_bound", NULL },
	[ZM_COMMIT_RETIRING] = { "commit_retiring", NULL, METRIC_FRACTION,
		"commit-stage stack: slots of ops that retired (the same at every stage)", CM, "CM-RET" },
	[ZM_COMMIT_BAD_SPECULATION] = { "commit_bad_speculation", NULL, METRIC_FRACTION,
		"commit-stage stack: ROB-empty cycles after a mispredict - unknown on Zen 4: no "
		"counter counts recovery cycles, so they stay in commit_frontend_bound",
		CM, "CM-BADSPEC" },
	[ZM_COMMIT_FRONTEND] = { "commit_frontend_bound", NULL, METRIC_FRACTION,
		"commit-stage stack: the ROB-empty cycles (ex_no_retire.empty), mispredict "
		"refills included (no counter splits them: an upper bound on the frontend's)",
		CM, "CM-FE" },
	[ZM_COMMIT_BACKEND] = { "commit_backend_bound", NULL, METRIC_FRACTION,
		"commit-stage stack: cycles the oldest op was not complete "
		"(ex_no_retire.not_complete)", CM, "CM-BE" },
	[ZM_COMMIT_SMT] = { "commit_smt_contention", NULL, METRIC_FRACTION,
		"commit-stage stack: cycles retire served the other thread "
		"(ex_no_retire.thread_not_selected)", CM, "CM-SMT" },
	[ZM_COMMIT_OTHER] = { "commit_other_stalls", NULL, METRIC_FRACTION,
		"commit-stage stack: cycles retire breaks, traps or faults held ops "
		"(ex_no_retire.other)", CM, "CM-OTHER" },
	[ZM_COMMIT_PARTIAL] = { "commit_partial", NULL, METRIC_FRACTION,
		"commit-stage stack: unexplained rest, slots lost in cycles that retired fewer "
		"than 6 ops but some (the counters classify zero-retire cycles only)", CM, "CM-PARTIAL" },
	[ZM_COMMIT_MEMORY] = { "commit_memory_bound", "commit_backend_bound", METRIC_FRACTION,
		"commit-stage stack: the oldest op waited for load data "
		"(ex_no_retire.load_not_complete)", CM, "CM-MEM" },
	[ZM_COMMIT_CORE] = { "commit_core_bound", "commit_backend_bound", METRIC_FRACTION,
		"commit-stage stack: the oldest op waited on execution (latency, dependences)",
		CM, "CM-CORE" },
	[ZM_FLOPS_BASE] = { "flops_base", NULL, METRIC_FRACTION,
		"FLOPS stack: FLOPs per cycle over the single-precision peak (approximation: "
		"the counter does not split precision, so a lower bound)", FL, "FL-BASE" },
	[ZM_FLOPS_NON_FMA] = { "flops_non_fma_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: FLOPs not from FMAs, each one of an FMA's two lost "
		"(fp_ret_sse_avx_ops.all - .mac_flops)", FL, "FL-NONFMA" },
	[ZM_FLOPS_NO_FP] = { "flops_no_fp_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: no floating-point work - no FP instruction to issue in any cycle "
		"(paper Table III lines 9-10, all instructions non-FP; only where no FLOP was "
		"counted, else in the rest)", FL, "FL-NO-FP" },
	[ZM_FLOPS_OTHER] = { "flops_other_loss", NULL, METRIC_FRACTION,
		"FLOPS stack: unexplained rest - vector width (not counted), frontend, memory, "
		"dependences", FL, "FL-OTHER" },
	[ZM_FLOPS_OVERLAP] = { "flops_overlap", NULL, METRIC_FRACTION,
		"FLOPS stack: the parts above sum over the peak by this much (negative; present "
		"only then): FLOPs per cycle no core can issue, or a loss counted twice - no "
		"part is cut to hide it", FL, "FL-OVERLAP" },
	[ZM_CYC_BASE] = { "cyc_cpi_base", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: cycles that retired an op (the rest: the counters "
		"classify cycles that retired none)", CY, "CY-BASE" },
	[ZM_CYC_ROB_EMPTY] = { "cyc_cpi_rob_empty", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: the ROB empty (ex_no_retire.empty) - i-cache, i-TLB "
		"misses and mispredict refills together, which no counter splits; only the empty-"
		"ROB tail of their penalties (IBM POWER5's rule: undercounts both)", CY, "CY-ROB" },
	[ZM_CYC_MEMORY] = { "cyc_cpi_memory", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: the oldest op waited for load data "
		"(ex_no_retire.load_not_complete); overlapping misses count once; not split by "
		"cache level (no per-level stall-cycle counter)", CY, "CY-MEM" },
	[ZM_CYC_CORE] = { "cyc_cpi_core", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: the oldest op waited on execution, not a load - "
		"long-latency units, the divider among them (ex_no_retire.not_complete less "
		"load_not_complete)", CY, "CY-CORE" },
	[ZM_CYC_SMT] = { "cyc_cpi_smt", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: retire served the other thread "
		"(ex_no_retire.thread_not_selected)", CY, "CY-SMT" },
	[ZM_CYC_OTHER] = { "cyc_cpi_other", NULL, METRIC_RATIO,
		"cycle-accounted CPI stack: retire held by retire breaks, traps, faults "
		"(ex_no_retire.other)", CY, "CY-OTHER" },
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

/* The commit stage (ex_no_retire.*, pipeline.json; seven events: the
 * planner splits the family, every figure is a rate over cycles). */
static const struct model_event zen4_commit[] = {
	ZEN_CYCLES,
	{ "RETIRED_OPS", "retired_ops", "ex_ret_ops", false, false },
	{ "CYCLES_NO_RETIRE:EMPTY", "no_retire_empty", "ex_no_retire.empty", false, false },
	{ "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU", "no_retire_not_complete",
	  "ex_no_retire.not_complete", false, false },
	{ "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD", "no_retire_load",
	  "ex_no_retire.load_not_complete", false, false },
	{ "CYCLES_NO_RETIRE:OTHER", "no_retire_other", "ex_no_retire.other", false, false },
	{ "CYCLES_NO_RETIRE:THREAD_NOT_SELECTED", "no_retire_thread_not_selected",
	  "ex_no_retire.thread_not_selected", false, false },
};

/* FLOPs from FMAs beside all FLOPs (floating-point.json), both paired:
 * four counters, more than a ratio set may hold, so with the NMI watchdog
 * the two may be counted in different parts, each over its own cycles. */
static const struct model_event zen4_flops_fma[] = {
	ZEN_CYCLES,
	{ "RETIRED_SSE_AVX_FLOPS:ANY", "flops", "fp_ret_sse_avx_ops.all", false, true },
	{ "RETIRED_SSE_AVX_FLOPS:MAC_FLOPS", "mac_flops", "fp_ret_sse_avx_ops.mac_flops",
	  false, true },
};

static const struct model_group zen4_groups[] = {
	{ "td_l1", zen4_td_l1, N(zen4_td_l1), false },
	{ "td_l2_fe_bs", zen4_td_l2_fe_bs, N(zen4_td_l2_fe_bs), false },
	{ "td_l2_be_ret", zen4_td_l2_be_ret, N(zen4_td_l2_be_ret), false },
	{ "fe_flops", zen4_fe_flops, N(zen4_fe_flops), false },
	{ "commit", zen4_commit, N(zen4_commit), false },
	{ "flops_fma", zen4_flops_fma, N(zen4_flops_fma), false },
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
	/* commit_memory_bound's share of the backend: load / not complete */
	{ "commit", "no_retire_load,no_retire_not_complete" },
};

/* The commit-stage stack and the per-component bounds (the comment at
 * the top); needs level 1 (out) filled. */
static void zen4_commit_stack(const struct model *m, const struct group_sums *sums,
			      struct metric_value *out)
{
	struct gview c = model_gview_get(m, sums, "commit");
	struct metric_value *const part[] = {
		&out[ZM_COMMIT_RETIRING], &out[ZM_COMMIT_BAD_SPECULATION],
		&out[ZM_COMMIT_FRONTEND], &out[ZM_COMMIT_BACKEND], &out[ZM_COMMIT_SMT],
		&out[ZM_COMMIT_OTHER], &out[ZM_COMMIT_PARTIAL],
	};
	const struct metric_value unknown = { .valid = false };
	double v[7], nc;

	if (!c.ok)
		return;
	nc = model_gv(&c, "no_retire_not_complete");
	v[0] = model_ratio(model_gv(&c, "retired_ops"), 6.0 * c.cycles);
	v[1] = NAN;   /* no recovery-cycle counter: unknown */
	v[2] = model_ratio(model_gv(&c, "no_retire_empty"), c.cycles);
	v[3] = model_ratio(nc, c.cycles);
	v[4] = model_ratio(model_gv(&c, "no_retire_thread_not_selected"), c.cycles);
	v[5] = model_ratio(model_gv(&c, "no_retire_other"), c.cycles);
	v[6] = NAN;
	if (isnan(v[0]) || isnan(v[2]) || isnan(v[3]))
		return;
	model_put_stack(part, v, 7, c.coverage);
	model_split_parent(&out[ZM_COMMIT_MEMORY], &out[ZM_COMMIT_CORE], &out[ZM_COMMIT_BACKEND],
			   model_ratio(model_gv(&c, "no_retire_load"), nc), c.coverage);
	model_put_stage_bounds(&out[ZM_FE_LOW], &out[ZM_FE_HIGH], &out[ZM_FRONTEND_BOUND],
			       &unknown, true);
	model_put_stage_bounds(&out[ZM_BS_LOW], &out[ZM_BS_HIGH], &out[ZM_BAD_SPECULATION],
			       &unknown, true);
	model_put_stage_bounds(&out[ZM_BE_LOW], &out[ZM_BE_HIGH], &out[ZM_BACKEND_BOUND],
			       &out[ZM_COMMIT_BACKEND], false);
	model_put_stage_bounds(&out[ZM_MEM_LOW], &out[ZM_MEM_HIGH], &out[ZM_MEMORY_BOUND],
			       &out[ZM_COMMIT_MEMORY], false);
}

/*
 * The cycle-accounted CPI stack (Eyerman et al., ASPLOS 2006; docs/references.md)
 * from family commit, beside Top-Down: Zen 4's ex_no_retire.* classify the
 * cycles that retire nothing as IBM POWER5's completion-stall counters do
 * (section 2), so with C = cycles, parts times the measured CPI:
 *   rob_empty = ex_no_retire.empty / C
 *   memory    = ex_no_retire.load_not_complete / C
 *   core      = (ex_no_retire.not_complete - load_not_complete) / C
 *   smt       = ex_no_retire.thread_not_selected / C
 *   other     = ex_no_retire.other / C
 *   base      = the rest (cycles that retired at least one op)
 * The classes are exclusive (the reason the oldest op did not retire), so
 * no cycle is counted twice; model_put_cpi_cycles caps them in that order
 * all the same (rates from parts of a split family).  What this rule
 * cannot resolve, by the paper's analysis: ROB-empty cycles are only the
 * tail of an i-cache miss or mispredict penalty (sections 3.1.1, 3.1.2:
 * the drain and the branch's resolution time fall in base or the stalls),
 * and i-side and branch causes are not told apart; memory is counted from
 * the head of the ROB, close to the paper's full-ROB rule (section 3.2.2).
 */
static void zen4_cycle_stack(const struct model *m, const struct group_sums *sums,
			     struct metric_value *out)
{
	enum { EMPTY, MEM, CORE, SMT, OTHER, BASE, N_CYC };
	struct metric_value *const part[N_CYC] = {
		&out[ZM_CYC_ROB_EMPTY], &out[ZM_CYC_MEMORY], &out[ZM_CYC_CORE], &out[ZM_CYC_SMT],
		&out[ZM_CYC_OTHER], &out[ZM_CYC_BASE],
	};
	struct gview c = model_gview_get(m, sums, "commit");
	double f[N_CYC];

	if (!c.ok)
		return;
	f[EMPTY] = model_gv(&c, "no_retire_empty") / c.cycles;
	f[MEM] = model_gv(&c, "no_retire_load") / c.cycles;
	f[CORE] = model_gv(&c, "no_retire_not_complete") / c.cycles - f[MEM];
	f[SMT] = model_gv(&c, "no_retire_thread_not_selected") / c.cycles;
	f[OTHER] = model_gv(&c, "no_retire_other") / c.cycles;
	f[BASE] = NAN;
	model_put_cpi_cycles(part, f, N_CYC, &out[ZM_CPI], c.coverage);
}

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
	model_split_parent(&out[ZM_HEAVY_OPS], &out[ZM_LIGHT_OPS], &out[ZM_RETIRING],
			   model_ratio(model_gv(&beret, "ucode_ops"),
				       model_gv(&beret, "retired_ops")), beret.coverage);

	/* Instructions are in every group but the level-1 one. */
	model_put_ipc_cpi(m, sums, &out[ZM_IPC], &out[ZM_CPI]);
	model_put(&out[ZM_OPCACHE],
		  model_ratio(model_gv(&fe, "opcache_ops"),
			      model_gv(&fe, "opcache_ops") + model_gv(&fe, "decoder_ops")),
		  fe.coverage, false);
	model_flops_family(m, sums, 1.0, 1.0, NULL, &fl);
	out[ZM_FLOPS_PER_CYCLE] = fl.flops_per_cycle;
	out[ZM_GFLOPS] = fl.gflops;
	out[ZM_FLOP_PEAK] = fl.peak_fraction;
	out[ZM_FLOPS_BASE] = fl.stack_base;
	out[ZM_FLOPS_NON_FMA] = fl.stack_non_fma;
	out[ZM_FLOPS_NO_FP] = fl.stack_no_fp;
	out[ZM_FLOPS_OTHER] = fl.stack_other;
	out[ZM_FLOPS_OVERLAP] = fl.stack_overlap;
	zen4_commit_stack(m, sums, out);
	zen4_cycle_stack(m, sums, out);
}

const struct model model_zen4 = {
	.name = "amd64_fam19h_zen4",
	.description = "AMD Zen 4: pipeline-utilization Top-Down L1 (with SMT contention) and L2, "
		       "op-cache delivery, FLOPS, cycle-accounted CPI stack",
	.formula_version = 1,
	.pmus = (const char *const[]){ "amd64_fam19h_zen4", NULL },
	.pipeline_width = 6,
	.slot_stage = "dispatch",
	.stage_stacks = (const char *const[]){ "commit", NULL },
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
	/* AVX-512 runs on the two 256-bit FMA pipes in two halves (AMD's
	 * Zen 4 software optimization guide, 57647): 256-bit code reaches the
	 * peak, 512-bit code no more. */
	.peak_vector_bits = 256,
	.groups = zen4_groups,
	.n_groups = N(zen4_groups),
	.metrics = zen4_metrics,
	.n_metrics = _ZM_MAX,
	.compute = zen4_compute,
};
