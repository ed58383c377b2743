/*
 * model_generic.c - AMD Zen 2 and Zen 3 (and the shape for any PMU without
 * Top-Down events): a CPI stack from miss events by non-negative linear
 * regression over interval records (Choudhary and Singh, docs/references.md:
 * CPI = base + sum of weight x misses per instruction, weights >= 0 because
 * a negative penalty is not physical), miss rates per kilo-instruction, and
 * FLOPS from RETIRED_SSE_AVX_FLOPS (paired with the merge event by the
 * kernel: two counters).  Formula version 1.
 *
 * The stack needs weights fitted over many intervals (model_generic_cpi_fit);
 * one summed window alone gives the rates, not the stack.  Six counters per
 * thread, one possibly held by the NMI watchdog: groups of at most five.
 */
#include "lib/model/model_generic.h"
#include "lib/model/model_util.h"
#include "lib/nnls.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct generic_spec zen_spec = {
	{ "br_misp_retired", "ic_refill_l2", "ic_refill_mem", "itlb_miss", "dtlb_miss",
	  "dc_refill_mem" },
};

static const char *regressor(const struct model *m, unsigned k)
{
	return ((const struct generic_spec *)m->detail)->regressors[k];
}

static const struct model_metric generic_metrics[_GM_MAX] = {
	[GM_IPC] = { "ipc", NULL, METRIC_RATIO, "instructions per cycle", NULL },
	[GM_CPI] = { "cpi", NULL, METRIC_RATIO, "cycles per instruction", NULL },
	[GM_MPKI_0] = { "branch_mpki", NULL, METRIC_RATIO, "branch mispredicts per 1000 instructions", NULL },
	[GM_MPKI_0 + 1] = { "l1i_l2_mpki", NULL, METRIC_RATIO, "i-cache refills from L2 per 1000 instructions", NULL },
	[GM_MPKI_0 + 2] = { "l1i_mem_mpki", NULL, METRIC_RATIO, "i-cache refills from beyond L2 per 1000 instructions", NULL },
	[GM_MPKI_0 + 3] = { "itlb_mpki", NULL, METRIC_RATIO, "i-TLB misses of both levels per 1000 instructions", NULL },
	[GM_MPKI_0 + 4] = { "dtlb_mpki", NULL, METRIC_RATIO, "d-TLB misses of both levels per 1000 instructions", NULL },
	[GM_MPKI_5] = { "l1d_mem_mpki", NULL, METRIC_RATIO, "d-cache fills from DRAM per 1000 instructions", NULL },
	[GM_CPI_BASE] = { "cpi_base", NULL, METRIC_RATIO, "regression CPI stack: base", "cpi", "CPI-BASE" },
	[GM_CPI_0] = { "cpi_branch", NULL, METRIC_RATIO, "regression CPI stack: branch mispredicts", "cpi", "CPI-BR" },
	[GM_CPI_0 + 1] = { "cpi_l1i_l2", NULL, METRIC_RATIO, "regression CPI stack: i-cache misses served by L2", "cpi", "CPI-I-L2" },
	[GM_CPI_0 + 2] = { "cpi_l1i_mem", NULL, METRIC_RATIO, "regression CPI stack: i-cache misses beyond L2", "cpi", "CPI-I-MEM" },
	[GM_CPI_0 + 3] = { "cpi_itlb", NULL, METRIC_RATIO, "regression CPI stack: i-TLB misses", "cpi", "CPI-ITLB" },
	[GM_CPI_0 + 4] = { "cpi_dtlb", NULL, METRIC_RATIO, "regression CPI stack: d-TLB misses", "cpi", "CPI-DTLB" },
	[GM_CPI_5] = { "cpi_l1d_mem", NULL, METRIC_RATIO, "regression CPI stack: d-cache fills from DRAM", "cpi", "CPI-D-MEM" },
	[GM_CPI_RESIDUAL] = { "cpi_residual", NULL, METRIC_RATIO, "regression CPI stack: measured CPI minus the estimate (may be negative)", "cpi", "CPI-RESID" },
	[GM_FLOPS_PER_CYCLE] = { "flops_per_cycle", NULL, METRIC_RATIO, "floating-point operations per cycle", NULL },
	[GM_GFLOPS] = { "gflops", NULL, METRIC_RATE, "GFLOP per second of CPU time", NULL },
	[GM_FLOP_PEAK] = { "flop_peak_fraction", NULL, METRIC_FRACTION, "FLOP per cycle over the core's peak; the counter does not tell SP from DP, so "
		"over the single-precision peak, the highest it could reach (a lower bound: a "
		"double-precision kernel at its peak reads 50%)", NULL },
};

#define ZEN_BASE                                                                  \
	{ "CYCLES_NOT_IN_HALT", "cycles", "cycles", false, false },                          \
	{ "RETIRED_INSTRUCTIONS", "instructions", "instructions", false, false }
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* How perf names each event (perf_name): perf 7.2.12's amdzen2/ and
 * amdzen3/ JSON where one of its names has our encoding (ic_cache_fill_l2
 * 0x82, ic_cache_fill_sys 0x83: ic_fw32_miss is 0x81, fetch windows, and
 * ic_fetch_stall.ic_stall_any 0x87, stall cycles; bp_l1_tlb_miss_l2_tlb_miss
 * on Zen 2, umask 0xff over the three bits the CPU defines); else perf's
 * raw form of our umask (Zen 3 adds coalesced_4k, 0x08, to the i-TLB
 * total; perf has no name for the d-TLB L2 misses 0xd0, nor for local and
 * remote DRAM fills together, 0x48).  tests/unit/test_model_perf_names.c
 * checks each against perf's encoding. */
static const struct model_event zen_cpi_a[] = {
	ZEN_BASE,
	{ "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "br_misp_retired", "ex_ret_brn_misp", false, false },
	{ "INSTRUCTION_CACHE_REFILLS_FROM_L2", "ic_refill_l2", "ic_cache_fill_l2", false, false },
	{ "INSTRUCTION_CACHE_REFILLS_FROM_SYSTEM", "ic_refill_mem", "ic_cache_fill_sys",
	  false, false },
};

static const struct model_event zen3_cpi_b[] = {
	ZEN_BASE,
	{ "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K", "itlb_miss", "cpu/event=0x85,umask=0x7/",
	  false, false },
	{ "L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_1G_L2_MISS",
	  "dtlb_miss", "cpu/event=0x45,umask=0xd0/", false, false },
	{ "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:MEM_IO_RMT", "dc_refill_mem",
	  "cpu/event=0x43,umask=0x48/", false, false },
};

static const struct model_event zen2_cpi_b[] = {
	ZEN_BASE,
	{ "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K", "itlb_miss", "bp_l1_tlb_miss_l2_tlb_miss",
	  false, false },
	{ "L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_1G_L2_MISS",
	  "dtlb_miss", "cpu/event=0x45,umask=0xd0/", false, false },
	{ "DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_DRAM:LS_MABRESP_RMT_DRAM", "dc_refill_mem",
	  "cpu/event=0x43,umask=0x48/", false, false },
};

static const struct model_event zen_flops[] = {
	ZEN_BASE,
	{ "RETIRED_SSE_AVX_FLOPS:ANY", "flops", "fp_ret_sse_avx_ops.all", false, true },
};

static const struct model_group zen3_groups[] = {
	{ "cpi_a", zen_cpi_a, N(zen_cpi_a), false },
	{ "cpi_b", zen3_cpi_b, N(zen3_cpi_b), false },
	{ "flops", zen_flops, N(zen_flops), false },
};

static const struct model_group zen2_groups[] = {
	{ "cpi_a", zen_cpi_a, N(zen_cpi_a), false },
	{ "cpi_b", zen2_cpi_b, N(zen2_cpi_b), false },
	{ "flops", zen_flops, N(zen_flops), false },
};

/* Events per instruction of one regressor, from whichever group has it. */
static bool per_instruction(const struct model *m, const struct group_sums *sums,
			    const char *column, double *rate, double *coverage)
{
	unsigned g;

	for (g = 0; g < m->n_groups; g++) {
		struct gview v = model_gview_get(m, sums, m->groups[g].name);
		double c = model_gv(&v, column), i = model_gv(&v, "instructions");

		if (!isnan(c) && i > 0) {
			*rate = c / i;
			*coverage = v.coverage;
			return true;
		}
	}
	return false;
}

static bool cycles_per_instruction(const struct model *m, const struct group_sums *sums,
				   double *cpi, double *coverage)
{
	double cyc, ins;

	if (!model_base_counts(m, sums, &cyc, &ins, coverage))
		return false;
	*cpi = cyc / ins;
	return true;
}

/* The stack of one target from the host's weights: base, each miss
 * rate times its penalty, and the residual, measured CPI minus equation
 * (2) of Choudhary and Singh's report, CPI = W0 + sum Wi * Mi,
 * so the components add up to the measured CPI.  The residual (may be
 * negative) is what the host's penalties do not explain for this target;
 * it needs every kept regressor's rate, or it would hold a missing one. */
static void put_cpi_stack(const double *w, double cpi, double cov, const double *rate,
			  const double *rcov, const bool *have, struct metric_value *out)
{
	double estimate = w[0], c = cov;
	bool whole = !isnan(cpi);
	unsigned k;

	model_put(&out[GM_CPI_BASE], w[0], cov, false);
	for (k = 0; k < CPI_REGRESSORS; k++) {
		if (isnan(w[k + 1]))
			continue;   /* dropped by the fit (cpi_fit.h): its cost is elsewhere */
		if (!have[k]) {
			whole = false;
			continue;
		}
		c = model_cov2(c, rcov[k]);
		estimate += w[k + 1] * rate[k];
		model_put(&out[GM_CPI_0 + k], w[k + 1] * rate[k], rcov[k], false);
	}
	if (whole)
		model_put(&out[GM_CPI_RESIDUAL], cpi - estimate, c, false);
}

void model_generic_compute(const struct model *m, const struct group_sums *sums,
			   const struct model_context *ctx, struct metric_value *out)
{
	double cpi = NAN, cov = 0, rate[CPI_REGRESSORS], rcov[CPI_REGRESSORS];
	bool have[CPI_REGRESSORS];
	struct flops_out fl;
	unsigned k;

	if (cycles_per_instruction(m, sums, &cpi, &cov)) {
		model_put(&out[GM_CPI], cpi, cov, false);
		model_put(&out[GM_IPC], 1.0 / cpi, cov, false);
	}
	for (k = 0; k < CPI_REGRESSORS; k++) {
		have[k] = per_instruction(m, sums, regressor(m, k), &rate[k], &rcov[k]);
		if (have[k])
			model_put(&out[GM_MPKI_0 + k], 1000.0 * rate[k], rcov[k], false);
	}
	if (ctx != NULL && ctx->cpi_weights != NULL)
		put_cpi_stack(ctx->cpi_weights, cpi, cov, rate, rcov, have, out);
	model_flops_family(m, sums, 1.0, 1.0, NULL, &fl);
	out[GM_FLOPS_PER_CYCLE] = fl.flops_per_cycle;
	out[GM_GFLOPS] = fl.gflops;
	out[GM_FLOP_PEAK] = fl.peak_fraction;
}

int model_generic_cpi_row(const struct model *m, const struct group_sums *sums,
			  double row[CPI_WEIGHTS], double *cpi, double *cycles,
			  double *instructions)
{
	double cov, x;
	unsigned k;

	if (!model_base_counts(m, sums, cycles, instructions, &cov) || !(*cycles > 0))
		return -ENODATA;
	row[0] = 1.0;
	for (k = 0; k < CPI_REGRESSORS; k++) {
		if (!per_instruction(m, sums, regressor(m, k), &x, &cov))
			return 1 + (int)k;
		row[k + 1] = x;
	}
	*cpi = *cycles / *instructions;
	return 0;
}

int model_generic_cpi_rows(const struct model *m, const struct group_sums *const *intervals,
			   size_t n, double *a, double *b)
{
	size_t rows = 0, i;
	double cyc, ins;

	for (i = 0; i < n; i++)
		if (model_generic_cpi_row(m, intervals[i], &a[rows * CPI_WEIGHTS], &b[rows], &cyc,
					  &ins) == 0)
			rows++;
	return (int)rows;
}

const char *model_generic_regressor(const struct model *m, unsigned k)
{
	return regressor(m, k);
}

int model_generic_cpi_fit(const struct model *m, const struct group_sums *const *intervals,
			  size_t n, double weights[CPI_WEIGHTS])
{
	double *a = calloc(n ? n : 1, CPI_WEIGHTS * sizeof(*a));
	double *b = calloc(n ? n : 1, sizeof(*b));
	int rows, r;

	if (a == NULL || b == NULL) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	rows = model_generic_cpi_rows(m, intervals, n, a, b);
	r = rows > CPI_WEIGHTS ? nnls(a, b, (size_t)rows, CPI_WEIGHTS, weights) : -EINVAL;
	free(a);
	free(b);
	return r;
}

/* Every formula is an event per instruction or per cycle: no ratio sets;
 * no counter restrictions; cycles and instructions take general counters
 * (no fixed ones on AMD).  Cycles is in every part of a split family, and
 * readers combine parts as per-cycle rates, so per-instruction formulas
 * hold even when instructions sits in another part. */
#define ZEN_GENERIC_PLAN                                                          \
	.fixed_counters = 0,                                                             \
	.ratio_sets = NULL,                                                              \
	.n_ratio_sets = 0,                                                               \
	.event_rules = NULL,                                                             \
	.n_event_rules = 0

const struct model model_zen3 = {
	.name = "amd64_fam19h_zen3",
	.description = "AMD Zen 3 (generic model): regression CPI stack from miss events, FLOPS",
	.formula_version = 1,
	.pmus = (const char *const[]){ "amd64_fam19h_zen3", NULL },
	.pipeline_width = 6,
	.vendor = VENDOR_AMD,
	.gp_counters_smt = 6,
	.gp_counters_nosmt = 6,
	ZEN_GENERIC_PLAN,
	.peak_flop_dp = 16,
	.peak_flop_sp = 32,
	.peak_vector_bits = 256,  /* Zen 3: two 256-bit FMA pipes */
	.groups = zen3_groups,
	.n_groups = N(zen3_groups),
	.metrics = generic_metrics,
	.n_metrics = _GM_MAX,
	.compute = model_generic_compute,
	.detail = &zen_spec,
};

const struct model model_zen2 = {
	.name = "amd64_fam17h_zen2",
	.description = "AMD Zen 2 (generic model): regression CPI stack from miss events, FLOPS",
	.formula_version = 1,
	.pmus = (const char *const[]){ "amd64_fam17h_zen2", NULL },
	.pipeline_width = 5,
	.vendor = VENDOR_AMD,
	.gp_counters_smt = 6,
	.gp_counters_nosmt = 6,
	ZEN_GENERIC_PLAN,
	.peak_flop_dp = 16,
	.peak_flop_sp = 32,
	.peak_vector_bits = 256,  /* Zen 2: two 256-bit FMA pipes */
	.groups = zen2_groups,
	.n_groups = N(zen2_groups),
	.metrics = generic_metrics,
	.n_metrics = _GM_MAX,
	.compute = model_generic_compute,
	.detail = &zen_spec,
};

bool model_is_generic(const struct model *m)
{
	return m->detail != NULL;
}
