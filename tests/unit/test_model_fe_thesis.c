/*
 * The frontend thesis (Forte, "Exploring processor frontend capabilities
 * via micro-benchmarking", Universidade de Lisboa, 2021), completed on
 * constructed counts, each expectation the thesis's equation written out
 * by hand:
 *   P_only    = path uops / cycles that path delivered    (eq. 3.4, 3.8),
 *               both counts of one family, and not offered where the path
 *               delivered in under 1% of cycles (section 3.2.1: with the
 *               path all but idle, "an unreliable value ... residual")
 *   P_overall = uops of every path / cycles                (eq. 3.5)
 *   Cycles    = DSB + MITE + MS (+ LSD) cycles + FE stalls (eq. 3.2), the
 *               DSB-to-MITE switch penalty cycles a part of the stalls
 * and one i-cache stall figure on Skylake: perf's tma_icache_misses,
 * (ICACHE_16B.IFDATA_STALL + 2 * its cmask=1,edge count) / CLKS (perf
 * 7.2.12 skylake/skl-metrics.json), the same in icache_stall_fraction and
 * in the cycle-accounted stack's cyc_cpi_icache.
 */
#include "lib/model/model.h"
#include "test.h"
#include "test_model.h"

#include <math.h>
#include <string.h>

static const double C = 2e9;

static void compute(const struct model *m, const struct group_sums *s,
		    struct metric_value *out)
{
	struct model_context ctx = { .smt_on = false };

	memset(out, 0, sizeof(*out) * MODEL_MAX_METRICS);
	m->compute(m, s, &ctx, out);
}

static void base(const struct model *m, struct group_sums *s)
{
	memset(s, 0, sizeof(*s) * MODEL_MAX_GROUPS);
	set(m, s, "cycles", C);
	set(m, s, "instructions", 1.6e9);
}

/* A count of one group only (set() gives every group holding the column
 * the same count). */
static void set_in(const struct model *m, struct group_sums *s, const char *group,
		   const char *column, double v)
{
	int g = model_group_index(m, group);

	CHECK(g >= 0);
	s[g].v[col(m, group, column)] = (uint64_t)v;
}

/* Skylake: MITE's P_only from fe_uops alone, although fe_stalls (another
 * family, counted at another time) holds a MITE cycle count too. */
static void test_skl_p_only_one_family(void)
{
	const struct model *m = &model_skl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];

	base(m, s);
	set(m, s, "mite_uops", 6e8);
	set(m, s, "mite_cycles", 2.4e8);
	set(m, s, "dsb_uops", 9e8);
	set(m, s, "dsb_cycles", 3e8);
	set(m, s, "ms_uops", 1e8);
	/* fe_stalls ran at another time: half the cycles, its own count */
	set_in(m, s, "fe_stalls", "cycles", C / 2);
	set_in(m, s, "fe_stalls", "mite_cycles", 4e7);
	compute(m, s, out);
	NEAR(get(m, out, "mite_p_only"), 6e8 / 2.4e8);
	NEAR(get(m, out, "dsb_p_only"), 9e8 / 3e8);
}

/* P_only where its path delivered in under 1% of cycles: not offered; at
 * 1% and above, the plain ratio. */
static void test_p_only_guard(const struct model *m)
{
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];

	base(m, s);
	set(m, s, "dsb_uops", 2e9);
	set(m, s, "dsb_cycles", 6e8);
	set(m, s, "ms_uops", 1e7);
	set(m, s, "mite_uops", 9e7);        /* residue: 10 uops a cycle */
	set(m, s, "mite_cycles", 9e6);      /* 0.45% of the cycles */
	compute(m, s, out);
	CHECK(!valid(m, out, "mite_p_only"));
	NEAR(get(m, out, "dsb_p_only"), 2e9 / 6e8);
	set(m, s, "mite_uops", 5e7);
	set(m, s, "mite_cycles", 0.01 * C);
	compute(m, s, out);
	NEAR(get(m, out, "mite_p_only"), 5e7 / (0.01 * C));
}

/* P_overall of every path (eq. 3.5) and the cycle decomposition (eq.
 * 3.2) summing to the cycles, the LSD a part where the model has one. */
static void test_decomposition(const struct model *m, bool lsd)
{
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double dsb = 0.30, mite = 0.20, ms = 0.05, sw = 0.03, ld = lsd ? 0.10 : 0.0;

	base(m, s);
	set(m, s, "dsb_uops", 1.5e9);
	set(m, s, "mite_uops", 6e8);
	set(m, s, "ms_uops", 3e8);
	set(m, s, "lsd_uops", 4e8);
	set(m, s, "dsb_cycles", dsb * C);
	set(m, s, "mite_cycles", mite * C);
	set(m, s, "ms_cycles", ms * C);
	set(m, s, "lsd_cycles", ld * C);
	set(m, s, "dsb2mite_penalty_cycles", sw * C);
	compute(m, s, out);
	NEAR(get(m, out, "fe_p_overall"), (1.5e9 + 6e8 + 3e8 + (lsd ? 4e8 : 0.0)) / C);
	NEAR(get(m, out, "fe_cycles_dsb"), dsb);
	NEAR(get(m, out, "fe_cycles_mite"), mite);
	NEAR(get(m, out, "fe_cycles_ms"), ms);
	NEAR(get(m, out, "fe_cycles_dsb_switch"), sw);
	NEAR(get(m, out, "fe_cycles_none"), 1.0 - dsb - mite - ms - sw - ld);
	CHECK(valid(m, out, "fe_cycles_lsd") == lsd);
	if (lsd)
		NEAR(get(m, out, "fe_cycles_lsd"), ld);
	CHECK(!valid(m, out, "fe_cycles_overlap"));

	/* paths counted beyond the cycles: the rest 0, the excess its own row */
	set(m, s, "dsb_cycles", 0.6 * C);
	set(m, s, "mite_cycles", 0.5 * C);
	compute(m, s, out);
	NEAR(get(m, out, "fe_cycles_none"), 0.0);
	NEAR(get(m, out, "fe_cycles_overlap"), 1.0 - (0.6 + 0.5 + ms + sw + ld));

	/* MS cycles not counted: no rest (never taken as 0) */
	missing(m, s, "fe_uops", "ms_cycles");
	compute(m, s, out);
	CHECK(!valid(m, out, "fe_cycles_ms"));
	CHECK(!valid(m, out, "fe_cycles_none"));
	CHECK(valid(m, out, "fe_cycles_dsb"));
}

/* One i-cache stall figure on Skylake: perf's expression everywhere. */
static void test_skl_one_icache_figure(void)
{
	const struct model *m = &model_skl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double ifdata = 1.1e8, edges = 7e6, perf = (ifdata + 2.0 * edges) / C;
	double cpi = C / 1.6e9;

	base(m, s);
	set(m, s, "icache_stall_cycles", ifdata);
	set(m, s, "icache_stall_edges", edges);
	set(m, s, "itlb_stall_cycles", 3e7);
	set(m, s, "stalls_total", 0.5 * C);
	set(m, s, "stalls_mem_any", 0.2 * C);
	compute(m, s, out);
	NEAR(get(m, out, "icache_misses"), perf);
	NEAR(get(m, out, "icache_stall_fraction"), perf);
	NEAR(get(m, out, "cyc_cpi_icache"), perf * cpi);
}

int main(void)
{
	test_skl_p_only_one_family();
	test_p_only_guard(&model_skl);
	test_p_only_guard(&model_icl);
	test_p_only_guard(&model_spr);
	test_decomposition(&model_skl, false);
	test_decomposition(&model_skx, false);
	test_decomposition(&model_icl, true);
	test_decomposition(&model_spr, true);
	test_skl_one_icache_figure();
	printf("test_model_fe_thesis: ok\n");
	return 0;
}
