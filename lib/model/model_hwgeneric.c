/*
 * model_hwgeneric.c - the generic hardware models: what stackd counts on a
 * CPU whose PMU counts but which Linux perf, at the version stackd's tables
 * come from (lib/perfdb/perfdb.h, perfdb_source), has no table for.  Only
 * what the kernel defines for every PMU, so nothing here names a CPU:
 *
 *   generic         families core (cycles, instructions, branches,
 *                   branch-misses) and cache (cycles, instructions,
 *                   cache-references, cache-misses): PERF_TYPE_HARDWARE
 *                   events, which each PMU driver maps to its own event
 *                   (include/uapi/linux/perf_event.h; arch/x86/events/intel/
 *                   core.c intel_perfmon_event_map, arch/x86/events/amd/
 *                   core.c amd_*perfmon_event_map, drivers/perf/arm_pmuv3.c
 *                   armv8_pmuv3_perf_map).
 *   generic_td      generic plus td_l1: Intel's architectural Top-Down
 *                   level 1 from perf metrics, `slots` leading the four
 *                   `topdown-*` pseudo events, which the kernel publishes in
 *                   sysfs wherever the CPU enumerates PERF_METRICS
 *                   (arch/x86/events/intel/core.c: slots is "event=0x00,
 *                   umask=0x4", topdown-retiring .. -be-bound umask 0x80..0x83).
 *   generic_stalls  generic plus stalls_fe and stalls_be: the generic
 *                   stalled-cycles-frontend and -backend events.
 *
 * Formulas (formula version 1), each a ratio inside one family:
 *   ipc = instructions / cycles, cpi = cycles / instructions   (every family)
 *   branch_miss_ratio = branch-misses / branches  (perf's branch_miss_rate,
 *                       tools/perf/pmu-events/arch/common/common/metrics.json)
 *   branch_mpki = 1000 * branch-misses / instructions
 *   cache_miss_ratio = cache-misses / cache-references,
 *   cache_mpki = 1000 * cache-misses / instructions
 *   sum4 = topdown-retiring + topdown-bad-spec + topdown-fe-bound + topdown-be-bound
 *   retiring = topdown-retiring / sum4, frontend_bound = topdown-fe-bound / sum4,
 *   backend_bound = topdown-be-bound / sum4, bad_speculation = topdown-bad-spec / sum4
 *   frontend_stalled_cycles = stalled-cycles-frontend / cycles  (perf's
 *   backend_stalled_cycles  = stalled-cycles-backend / cycles    *_cycles_idle)
 * Top-Down is the architectural part of perf's tma_* formulas (x86/
 * icelakex, sapphirerapids, graniterapids *-metrics.json): perf's tables
 * then subtract INT_MISC.UOP_DROPPING / slots from frontend_bound (and add
 * 5 * INT_MISC.CLEARS_COUNT / slots to backend_bound on Ice Lake), and take
 * bad_speculation as the rest, max(1 - the other three, 0).  Those events
 * are model-specific, so a model that knows no CPU cannot count them; its
 * bad_speculation, the rest of the uncorrected three, is topdown-bad-spec /
 * sum4 exactly.
 *
 * What "cache" means is the driver's choice: Intel maps cache-references
 * and -misses to the last-level cache (0x4f2e, 0x412e), AMD since Zen to L2
 * (0xff60, 0x0964), Arm to L1D (L1D_CACHE, L1D_CACHE_REFILL).  Each stall
 * event is a family of its own because a driver may map one and not the
 * other (AMD Zen 2 and later: frontend only), and a group with an unmapped
 * event does not open (-ENOENT, arch/x86/events/core.c x86_setup_perfctr).
 *
 * Counters: cycles and instructions are planned on general counters, as
 * every other event: the model does not know whether the PMU has fixed
 * ones.  Four general counters per thread in both SMT states: the legacy
 * counters every AMD64 CPU has (AMD64_NUM_COUNTERS, arch/x86/include/asm/
 * perf_event.h) and what Intel's big cores since Nehalem report per
 * thread (CPUID leaf 0xA; the early Atoms have two, and
 * plan_apply_host_counters lowers the figure where a CPU reports fewer).  Arm's PMU says its own number (PMCR_EL0.N, read by
 * drivers/perf/arm_pmuv3.c), which the Neoverse cores stackd models put at
 * six; four is a guess below that, not an architectural floor.
 */
#include "lib/model/model_util.h"

#include <math.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* libpfm4 4.13's names of the PERF_TYPE_HARDWARE events (its perf PMU);
 * perf_name as perf spells them (arch/common/common/legacy-hardware.json). */
#define HW_BASE                                                                        \
	{ "perf::CYCLES", "cycles", "cycles", false, false },                             \
	{ "perf::INSTRUCTIONS", "instructions", "instructions", false, false }

static const struct model_event core_events[] = {
	HW_BASE,
	{ "perf::BRANCHES", "branches", "branches", false, false },
	{ "perf::BRANCH-MISSES", "branch_misses", "branch-misses", false, false },
};

static const struct model_event cache_events[] = {
	HW_BASE,
	{ "perf::CACHE-REFERENCES", "cache_references", "cache-references", false, false },
	{ "perf::CACHE-MISSES", "cache_misses", "cache-misses", false, false },
};

/* Perf metrics: slots must lead; the topdown-* are read from the
 * PERF_METRICS register that comes with it and take no counter. */
static const struct model_event td_events[] = {
	{ "cpu/slots/", "slots", "slots", true, false },
	{ "cpu/topdown-retiring/", "td_retiring", "topdown-retiring", true, false },
	{ "cpu/topdown-bad-spec/", "td_bad_spec", "topdown-bad-spec", true, false },
	{ "cpu/topdown-fe-bound/", "td_fe_bound", "topdown-fe-bound", true, false },
	{ "cpu/topdown-be-bound/", "td_be_bound", "topdown-be-bound", true, false },
	HW_BASE,
};

static const struct model_event stalls_fe_events[] = {
	HW_BASE,
	{ "perf::STALLED-CYCLES-FRONTEND", "stalled_cycles_frontend", "stalled-cycles-frontend",
	  false, false },
};

static const struct model_event stalls_be_events[] = {
	HW_BASE,
	{ "perf::STALLED-CYCLES-BACKEND", "stalled_cycles_backend", "stalled-cycles-backend",
	  false, false },
};

#define HW_GROUPS                                                                      \
	{ "core", core_events, N(core_events), false },                                   \
	{ "cache", cache_events, N(cache_events), false }

static const struct model_group generic_groups[] = {
	HW_GROUPS,
};

static const struct model_group td_groups[] = {
	HW_GROUPS,
	{ "td_l1", td_events, N(td_events), true },
};

static const struct model_group stalls_groups[] = {
	HW_GROUPS,
	{ "stalls_fe", stalls_fe_events, N(stalls_fe_events), false },
	{ "stalls_be", stalls_be_events, N(stalls_be_events), false },
};

/* The miss ratios stay exact when a family is split (watchdog on: three
 * general counters free); the per-instruction rates may then compare two
 * parts (model.h).  Top-Down takes no general counter but cycles and
 * instructions, and the stall families compare with cycles only. */
static const struct model_ratio_set hw_ratio_sets[] = {
	{ "core", "branches,branch_misses" },
	{ "cache", "cache_references,cache_misses" },
};

enum hw_metric {
	HG_IPC,
	HG_CPI,
	HG_BRANCH_MISS_RATIO,
	HG_BRANCH_MPKI,
	HG_CACHE_MISS_RATIO,
	HG_CACHE_MPKI,
	_HG_BASE_MAX,
};

enum hw_td_metric {
	HG_RETIRING = _HG_BASE_MAX,
	HG_BAD_SPECULATION,
	HG_FRONTEND_BOUND,
	HG_BACKEND_BOUND,
	_HG_TD_MAX,
};

enum hw_stall_metric {
	HG_FE_STALLED_CYCLES = _HG_BASE_MAX,
	HG_BE_STALLED_CYCLES,
	_HG_STALLS_MAX,
};

#define TD "topdown"

#define HW_BASE_METRICS                                                                \
	[HG_IPC] = { "ipc", NULL, METRIC_RATIO, "instructions per cycle", NULL, NULL },   \
	[HG_CPI] = { "cpi", NULL, METRIC_RATIO, "cycles per instruction", NULL, NULL },   \
	[HG_BRANCH_MISS_RATIO] = { "branch_miss_ratio", NULL, METRIC_FRACTION,            \
		"mispredicted branches per branch (branch-misses / branches; perf's "          \
		"branch_miss_rate)", NULL, NULL },                                              \
	[HG_BRANCH_MPKI] = { "branch_mpki", NULL, METRIC_RATIO,                           \
		"mispredicted branches per 1000 instructions", NULL, NULL },                    \
	[HG_CACHE_MISS_RATIO] = { "cache_miss_ratio", NULL, METRIC_FRACTION,              \
		"cache misses per cache reference (the PMU driver picks the cache: the last "   \
		"level on Intel, L2 on AMD since Zen, L1D on Arm)", NULL, NULL },               \
	[HG_CACHE_MPKI] = { "cache_mpki", NULL, METRIC_RATIO,                             \
		"cache misses per 1000 instructions (the cache as cache_miss_ratio's)",         \
		NULL, NULL }

/* generic uses the first _HG_BASE_MAX entries. */
static const struct model_metric td_metrics[_HG_TD_MAX] = {
	HW_BASE_METRICS,
	[HG_RETIRING] = { "retiring", NULL, METRIC_FRACTION,
		"slots retiring uops (perf metrics, architectural level 1, without the "
		"model-specific corrections)", TD, "RET" },
	[HG_BAD_SPECULATION] = { "bad_speculation", NULL, METRIC_FRACTION,
		"slots wasted on uops that never retire (perf metrics, architectural level 1, "
		"without the model-specific corrections)", TD, "BADSPEC" },
	[HG_FRONTEND_BOUND] = { "frontend_bound", NULL, METRIC_FRACTION,
		"slots the frontend left empty (perf metrics, architectural level 1, without "
		"the model-specific corrections: perf's tables take INT_MISC.UOP_DROPPING "
		"off)", TD, "FE" },
	[HG_BACKEND_BOUND] = { "backend_bound", NULL, METRIC_FRACTION,
		"slots the backend could not accept (perf metrics, architectural level 1, "
		"without the model-specific corrections)", TD, "BE" },
};

static const struct model_metric stalls_metrics[_HG_STALLS_MAX] = {
	HW_BASE_METRICS,
	[HG_FE_STALLED_CYCLES] = { "frontend_stalled_cycles", NULL, METRIC_FRACTION,
		"cycles the frontend delivered nothing (stalled-cycles-frontend / cycles, "
		"perf's frontend_cycles_idle; the PMU driver picks the event)", NULL, NULL },
	[HG_BE_STALLED_CYCLES] = { "backend_stalled_cycles", NULL, METRIC_FRACTION,
		"cycles the backend accepted nothing (stalled-cycles-backend / cycles, "
		"perf's backend_cycles_idle; the PMU driver picks the event)", NULL, NULL },
};

/* n / d of one family, and 1000 x n / instructions. */
static void hw_pair(const struct model *m, const struct group_sums *sums, const char *group,
		    const char *n, const char *d, struct metric_value *ratio,
		    struct metric_value *pki)
{
	struct gview v = model_gview_get(m, sums, group);
	double count;

	if (!v.ok)
		return;
	count = model_gv(&v, n);
	model_put(ratio, model_ratio(count, model_gv(&v, d)), v.coverage, false);
	model_put(pki, 1000.0 * model_ratio(count, model_gv(&v, "instructions")), v.coverage,
		  false);
}

static void hw_base(const struct model *m, const struct group_sums *sums,
		    struct metric_value *out)
{
	model_put_ipc_cpi(m, sums, &out[HG_IPC], &out[HG_CPI]);
	hw_pair(m, sums, "core", "branch_misses", "branches", &out[HG_BRANCH_MISS_RATIO],
		&out[HG_BRANCH_MPKI]);
	hw_pair(m, sums, "cache", "cache_misses", "cache_references", &out[HG_CACHE_MISS_RATIO],
		&out[HG_CACHE_MPKI]);
}

static void generic_compute(const struct model *m, const struct group_sums *sums,
			    const struct model_context *ctx, struct metric_value *out)
{
	(void)ctx;
	hw_base(m, sums, out);
}

static void td_compute(const struct model *m, const struct group_sums *sums,
		       const struct model_context *ctx, struct metric_value *out)
{
	struct gview v = model_gview_get(m, sums, "td_l1");
	double ret, bad, fe, be, sum4;

	(void)ctx;
	hw_base(m, sums, out);
	if (!v.ok)
		return;
	ret = model_gv(&v, "td_retiring");
	bad = model_gv(&v, "td_bad_spec");
	fe = model_gv(&v, "td_fe_bound");
	be = model_gv(&v, "td_be_bound");
	sum4 = ret + bad + fe + be;   /* NaN when one was not counted */
	model_put(&out[HG_RETIRING], model_ratio(ret, sum4), v.coverage, false);
	model_put(&out[HG_BAD_SPECULATION], model_ratio(bad, sum4), v.coverage, false);
	model_put(&out[HG_FRONTEND_BOUND], model_ratio(fe, sum4), v.coverage, false);
	model_put(&out[HG_BACKEND_BOUND], model_ratio(be, sum4), v.coverage, false);
}

/* One stall event of its own family, as a share of that family's cycles. */
static void hw_stall(const struct model *m, const struct group_sums *sums, const char *group,
		     const char *column, struct metric_value *out)
{
	struct gview v = model_gview_get(m, sums, group);

	if (v.ok)
		model_put(out, model_ratio(model_gv(&v, column), v.cycles), v.coverage, false);
}

static void stalls_compute(const struct model *m, const struct group_sums *sums,
			   const struct model_context *ctx, struct metric_value *out)
{
	(void)ctx;
	hw_base(m, sums, out);
	hw_stall(m, sums, "stalls_fe", "stalled_cycles_frontend", &out[HG_FE_STALLED_CYCLES]);
	hw_stall(m, sums, "stalls_be", "stalled_cycles_backend", &out[HG_BE_STALLED_CYCLES]);
}

#define HW_COMMON                                                                      \
	.formula_version = 1,                                                            \
	.pmus = (const char *const[]){ "perf", NULL },  /* libpfm4's perf PMU */         \
	.pipeline_width = 0,   /* slots per cycle unknown: no slot stage to title */      \
	.vendor = VENDOR_GENERIC,                                                        \
	.gp_counters_smt = 4,                                                            \
	.gp_counters_nosmt = 4,                                                          \
	.ratio_sets = hw_ratio_sets,                                                     \
	.n_ratio_sets = N(hw_ratio_sets),                                                \
	.event_rules = NULL,   /* any event on any general counter */                    \
	.n_event_rules = 0

const struct model model_hw_generic = {
	.name = "generic",
	.description = "generic hardware model (no table for this CPU in the Linux perf stackd's "
		       "tables come from): IPC, branch and cache miss rates from perf's generic "
		       "hardware events",
	.fixed_counters = 0,   /* unknown: the watchdog is taken to hold a general one */
	.groups = generic_groups,
	.n_groups = N(generic_groups),
	.metrics = td_metrics,
	.n_metrics = _HG_BASE_MAX,
	.compute = generic_compute,
	HW_COMMON,
};

const struct model model_hw_generic_td = {
	.name = "generic_td",
	.description = "generic hardware model (no table for this CPU in the Linux perf stackd's "
		       "tables come from): IPC, branch and cache miss rates, and Intel's "
		       "architectural Top-Down level 1 from perf metrics, without the "
		       "model-specific corrections",
	/* Perf metrics come with Intel's fixed counters (instructions, cycles,
	 * ref-cycles, slots), so the watchdog holds the fixed cycles one. */
	.fixed_counters = 4,
	.groups = td_groups,
	.n_groups = N(td_groups),
	.metrics = td_metrics,
	.n_metrics = _HG_TD_MAX,
	.compute = td_compute,
	HW_COMMON,
};

const struct model model_hw_generic_stalls = {
	.name = "generic_stalls",
	.description = "generic hardware model (no table for this CPU in the Linux perf stackd's "
		       "tables come from): IPC, branch and cache miss rates, and the frontend "
		       "and backend stalled cycles",
	.fixed_counters = 0,   /* unknown: the watchdog is taken to hold a general one */
	.groups = stalls_groups,
	.n_groups = N(stalls_groups),
	.metrics = stalls_metrics,
	.n_metrics = _HG_STALLS_MAX,
	.compute = stalls_compute,
	HW_COMMON,
};
