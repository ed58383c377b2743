/*
 * Top-Down level 3 under the frontend: on constructed counts each Intel
 * model's icache_misses, itlb_misses, branch_resteers, ms_switches,
 * dsb_switches, lcp, mite, dsb and lsd equal Linux perf 6.1's tma_*
 * expressions, written out here from `perf list --details metric` with
 * PERF_CPUID=GenuineIntel-6-5E-3 (skl; 6-55-4, skx, is the same),
 * 6-7E-5 (icl; 6-6A-6, icx, the same) and 6-8F-8 (spr), with SMT off and
 * on where perf's CORE_CLKS has an SMT branch (Skylake); nodes perf does
 * not define for a model (Skylake's and Sapphire Rapids' tma_lsd) and
 * those whose events the model cannot count stay invalid; a family that
 * did not measure the target, or did not count an event its node needs,
 * leaves that node invalid and the others alone; every node hangs under
 * fetch_latency or fetch_bandwidth in the "topdown" stack.
 */
#include "lib/model/model.h"
#include "test.h"
#include "test_model.h"

#include <math.h>
#include <string.h>

/* (NEAR, set, get, missing: test_model.h) */
static const struct metric_value *metric(const struct model *m, const struct metric_value *out,
					 const char *name)
{
	int i = model_metric_index(m, name);

	CHECK(i >= 0);
	return &out[i];
}

static void compute(const struct model *m, const struct group_sums *s, bool smt_on,
		    struct metric_value *out)
{
	struct model_context ctx = { .smt_on = smt_on };

	memset(out, 0, sizeof(*out) * MODEL_MAX_METRICS);
	m->compute(m, s, &ctx, out);
}

/* Each level-3 node sits under its level-2 parent in the Top-Down tree. */
static void check_parents(const struct model *m)
{
	static const struct { const char *name, *parent; } nodes[] = {
		{ "icache_misses", "fetch_latency" }, { "itlb_misses", "fetch_latency" },
		{ "branch_resteers", "fetch_latency" }, { "ms_switches", "fetch_latency" },
		{ "dsb_switches", "fetch_latency" }, { "lcp", "fetch_latency" },
		{ "mite", "fetch_bandwidth" }, { "dsb", "fetch_bandwidth" },
		{ "lsd", "fetch_bandwidth" },
	};
	size_t i;

	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		int k = model_metric_index(m, nodes[i].name);

		CHECK(k >= 0);
		CHECK(m->metrics[k].parent != NULL);
		CHECK(strcmp(m->metrics[k].parent, nodes[i].parent) == 0);
		CHECK(strcmp(m->metrics[k].stack, "topdown") == 0);
		CHECK(m->metrics[k].unit == METRIC_FRACTION);
	}
}

/* Skylake counts (any numbers: the formulas are checked, not the CPU). */
static const double C = 2e9, IFDATA = 1.1e8, IFDATA_EDGES = 7e6, IFTAG = 3.3e7,
	RESTEER = 5.5e7, BACLEARS = 4e6, MS_SW = 9e6, DSB2MITE = 2.7e7, LCP = 3e6,
	MITE_ANY = 4.1e8, MITE_FULL = 1.3e8, DSB_ANY = 9e8, DSB_FULL = 5.2e8,
	OTA = 3e8, XCLK = 1e9;

static void skl_counts(const struct model *m, struct group_sums *s)
{
	memset(s, 0, sizeof(*s) * MODEL_MAX_GROUPS);
	set(m, s, "cycles", C);
	set(m, s, "instructions", 1.5e9);
	set(m, s, "icache_stall_cycles", IFDATA);
	set(m, s, "icache_stall_edges", IFDATA_EDGES);
	set(m, s, "itlb_stall_cycles", IFTAG);
	set(m, s, "clear_resteer_cycles", RESTEER);
	set(m, s, "baclears", BACLEARS);
	set(m, s, "idq_ms_switches", MS_SW);
	set(m, s, "dsb2mite_penalty_cycles", DSB2MITE);
	set(m, s, "lcp_cycles", LCP);
	set(m, s, "mite_any_cycles", MITE_ANY);
	set(m, s, "mite_4_cycles", MITE_FULL);
	set(m, s, "dsb_any_cycles", DSB_ANY);
	set(m, s, "dsb_4_cycles", DSB_FULL);
	set(m, s, "one_thread_active", OTA);
	set(m, s, "ref_xclk", XCLK);
}

static void test_skl(const struct model *m, bool smt_on)
{
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	/* perf: CORE_CLKS = (THREAD / 2) * (1 + ONE_THREAD_ACTIVE / REF_XCLK)
	 * when counting per thread with SMT on, else CLKS */
	double core_clks = smt_on ? C / 2 * (1 + OTA / XCLK) : C;

	check_parents(m);
	skl_counts(m, s);
	compute(m, s, smt_on, out);
	NEAR(get(m, out, "icache_misses"), (IFDATA + 2 * IFDATA_EDGES) / C);
	NEAR(get(m, out, "itlb_misses"), IFTAG / C);
	NEAR(get(m, out, "branch_resteers"), RESTEER / C + 9 * BACLEARS / C);
	NEAR(get(m, out, "ms_switches"), 2 * MS_SW / C);
	NEAR(get(m, out, "dsb_switches"), DSB2MITE / C);
	NEAR(get(m, out, "lcp"), LCP / C);
	NEAR(get(m, out, "mite"), (MITE_ANY - MITE_FULL) / core_clks / 2);
	NEAR(get(m, out, "dsb"), (DSB_ANY - DSB_FULL) / core_clks / 2);
	CHECK(!metric(m, out, "lsd")->valid);  /* perf 6.1 has no tma_lsd for Skylake */

	/* SMT on without CORE_CLKS' events: mite and dsb cannot be had */
	if (smt_on) {
		missing(m, s, "fe_l3_bw", "ref_xclk");
		compute(m, s, smt_on, out);
		CHECK(!metric(m, out, "mite")->valid);
		CHECK(!metric(m, out, "dsb")->valid);
		NEAR(get(m, out, "lcp"), LCP / C);
	}
	/* no fe_l3_lat: its nodes go, and icache_misses (half of it is
	 * there); fe_stalls' own nodes stay */
	skl_counts(m, s);
	s[model_group_index(m, "fe_l3_lat")].present = false;
	compute(m, s, smt_on, out);
	CHECK(!metric(m, out, "icache_misses")->valid);
	CHECK(!metric(m, out, "branch_resteers")->valid);
	CHECK(!metric(m, out, "lcp")->valid);
	NEAR(get(m, out, "itlb_misses"), IFTAG / C);
	NEAR(get(m, out, "dsb_switches"), DSB2MITE / C);
	NEAR(get(m, out, "mite"), (MITE_ANY - MITE_FULL) / core_clks / 2);
}

/* Ice Lake and Sapphire Rapids: CORE_CLKS = CPU_CLK_UNHALTED.DISTRIBUTED. */
static const double DIST = 1.8e9, MITE_OK = 1.1e8, DSB_OK = 4.4e8, LSD_ACT = 2.5e8,
	LSD_OK = 2e8;

static void icl_counts(const struct model *m, struct group_sums *s)
{
	memset(s, 0, sizeof(*s) * MODEL_MAX_GROUPS);
	set(m, s, "cycles", C);
	set(m, s, "instructions", 1.5e9);
	set(m, s, "icache_stall_cycles", IFDATA);
	set(m, s, "itlb_stall_cycles", IFTAG);
	set(m, s, "clear_resteer_cycles", RESTEER);
	set(m, s, "baclears", BACLEARS);
	set(m, s, "idq_ms_switches", MS_SW);
	set(m, s, "dsb2mite_penalty_cycles", DSB2MITE);
	set(m, s, "lcp_cycles", LCP);
	set(m, s, "mite_any_cycles", MITE_ANY);
	set(m, s, "mite_ok_cycles", MITE_OK);
	set(m, s, "dsb_any_cycles", DSB_ANY);
	set(m, s, "dsb_ok_cycles", DSB_OK);
	set(m, s, "lsd_active_cycles", LSD_ACT);
	set(m, s, "lsd_ok_cycles", LSD_OK);
	set(m, s, "core_clks", DIST);
}

static void test_icl(const struct model *m)
{
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	int smt;

	check_parents(m);
	/* perf's Ice Lake formulas have no SMT branch: the same either way */
	for (smt = 0; smt < 2; smt++) {
		icl_counts(m, s);
		compute(m, s, smt, out);
		NEAR(get(m, out, "icache_misses"), IFDATA / C);
		NEAR(get(m, out, "itlb_misses"), IFTAG / C);
		NEAR(get(m, out, "branch_resteers"), RESTEER / C + 10 * BACLEARS / C);
		NEAR(get(m, out, "ms_switches"), 3 * MS_SW / C);
		NEAR(get(m, out, "dsb_switches"), DSB2MITE / C);
		NEAR(get(m, out, "lcp"), LCP / C);
		NEAR(get(m, out, "mite"), (MITE_ANY - MITE_OK) / DIST / 2);
		NEAR(get(m, out, "dsb"), (DSB_ANY - DSB_OK) / DIST / 2);
		NEAR(get(m, out, "lsd"), (LSD_ACT - LSD_OK) / DIST / 2);
	}
	/* CORE_CLKS not counted: the bandwidth nodes go, latency stays */
	missing(m, s, "fe_l3_bw", "core_clks");
	compute(m, s, false, out);
	CHECK(!metric(m, out, "mite")->valid);
	CHECK(!metric(m, out, "lsd")->valid);
	NEAR(get(m, out, "ms_switches"), 3 * MS_SW / C);
}

static void test_spr(void)
{
	const struct model *m = &model_spr;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];

	check_parents(m);
	icl_counts(m, s);  /* columns spr lacks are skipped */
	compute(m, s, false, out);
	NEAR(get(m, out, "icache_misses"), IFDATA / C);   /* ICACHE_DATA.STALLS */
	NEAR(get(m, out, "itlb_misses"), IFTAG / C);      /* ICACHE_TAG.STALLS */
	NEAR(get(m, out, "ms_switches"), 3 * MS_SW / C);
	NEAR(get(m, out, "dsb_switches"), DSB2MITE / C);
	NEAR(get(m, out, "lcp"), LCP / C);                /* DECODE.LCP */
	NEAR(get(m, out, "mite"), (MITE_ANY - MITE_OK) / DIST / 2);
	NEAR(get(m, out, "dsb"), (DSB_ANY - DSB_OK) / DIST / 2);
	/* no tma_lsd in perf 6.1 for SPR; UNKNOWN_BRANCH_CYCLES not encodable */
	CHECK(!metric(m, out, "lsd")->valid);
	CHECK(!metric(m, out, "branch_resteers")->valid);
}

int main(void)
{
	test_skl(&model_skl, false);
	test_skl(&model_skl, true);
	test_skl(&model_skx, false);
	test_skl(&model_skx, true);
	test_icl(&model_icl);
	test_icl(&model_icx);
	test_spr();
	return 0;
}
