/*
 * The cycle-accounted CPI stack (papers/counter-architecture-cpi-components.txt;
 * model_intel.c, model_intel_cycle_stack; model_zen4.c, zen4_cycle_stack)
 * on constructed counter vectors, for every model that has it: the parts
 * sum to the measured CPI, the memory parts are the differences of the
 * nested stall counters (perf's tma_l1_bound and tma_l3_bound, per cycle,
 * times CPI), a cycle counted twice is no part's loss but a negative
 * row of its own, cyc_cpi_overlap (docs/models.md: no part capped to hide
 * it; base + parts + overlap = CPI), no other part is ever negative, the
 * divider never takes memory's stalls, and a counter not counted leaves
 * its part, the base and the overlap invalid, not 0.
 */
#include "lib/model/model.h"
#include "test.h"
#include "test_model.h"

#include <math.h>
#include <string.h>

#define C 1e9   /* cycles of every family */

/* The valid first-level nodes of the stack, summed. */
static double stack_sum(const struct model *m, const struct metric_value *out)
{
	double sum = 0;
	unsigned i;

	for (i = 0; i < m->n_metrics; i++)
		if (m->metrics[i].stack != NULL && strcmp(m->metrics[i].stack, "cpi_cycles") == 0 &&
		    m->metrics[i].parent == NULL && out[i].valid)
			sum += out[i].value;
	return sum;
}

/* Stall cycles as shares of C (an Intel model; mem_any its column of
 * stalls with a load outstanding). */
struct stalls {
	double rec, resteer, icache, itlb, total, mem, l1d, l2, l3, div;
};

static void intel_run(const struct model *m, const char *mem_any, const struct stalls *st,
		      double cpi, struct group_sums *s, struct metric_value *out)
{
	memset(s, 0, sizeof(*s) * MODEL_MAX_GROUPS);
	memset(out, 0, sizeof(*out) * MODEL_MAX_METRICS);
	set(m, s, "cycles", C);
	set(m, s, "instructions", C / cpi);
	set(m, s, "recovery_cycles_thread", st->rec * C);
	set(m, s, "clear_resteer_cycles", st->resteer * C);
	set(m, s, "icache_stall_cycles", st->icache * C);
	set(m, s, "itlb_stall_cycles", st->itlb * C);
	set(m, s, "stalls_total", st->total * C);
	set(m, s, mem_any, st->mem * C);
	set(m, s, "stalls_l1d_miss", st->l1d * C);
	set(m, s, "stalls_l2_miss", st->l2 * C);
	set(m, s, "stalls_l3_miss", st->l3 * C);
	set(m, s, "divider_active", st->div * C);
}

static void compute(const struct model *m, const struct group_sums *s, struct metric_value *out)
{
	memset(out, 0, sizeof(*out) * MODEL_MAX_METRICS);
	m->compute(m, s, NULL, out);
}

/* A typical vector: every part as its formula says, summing to CPI. */
static void test_intel_parts(const struct model *m, const char *mem_any)
{
	const struct stalls st = { .rec = 0.04, .resteer = 0.03, .icache = 0.05, .itlb = 0.02,
				   .total = 0.75, .mem = 0.45, .l1d = 0.35, .l2 = 0.25,
				   .l3 = 0.15, .div = 0.10 };
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double cpi = 2.0, fe = 0.04 + 0.03 + 0.05 + 0.02;

	intel_run(m, mem_any, &st, cpi, s, out);
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "cpi"), cpi);
	NEAR(get(m, out, "cyc_cpi_recovery"), (0.04 + 0.03) * cpi);
	NEAR(get(m, out, "cyc_cpi_icache"), 0.05 * cpi);
	NEAR(get(m, out, "cyc_cpi_itlb"), 0.02 * cpi);
	NEAR(get(m, out, "cyc_cpi_mem_dram"), 0.15 * cpi);
	/* perf's tma_l3_bound = (STALLS_L2_MISS - STALLS_L3_MISS) / CLKS */
	NEAR(get(m, out, "cyc_cpi_mem_l3"), (0.25 - 0.15) * cpi);
	NEAR(get(m, out, "cyc_cpi_mem_l2"), (0.35 - 0.25) * cpi);
	/* perf's tma_l1_bound = max((STALLS_MEM_ANY - STALLS_L1D_MISS) / CLKS, 0) */
	NEAR(get(m, out, "cyc_cpi_mem_l1"), (0.45 - 0.35) * cpi);
	NEAR(get(m, out, "cyc_cpi_memory"), 0.45 * cpi);
	NEAR(get(m, out, "cyc_cpi_divider"), 0.10 * cpi);
	NEAR(get(m, out, "cyc_cpi_other"), (0.75 - 0.45 - 0.10 - fe) * cpi);
	NEAR(get(m, out, "cyc_cpi_base"), (1.0 - fe - 0.45 - 0.10 - (0.30 - 0.10 - fe)) * cpi);
	CHECK(!valid(m, out, "cyc_cpi_overlap"));   /* nothing booked twice */
	NEAR(stack_sum(m, out), get(m, out, "cpi"));
}

/* Frontend and recovery stall cycles (0.3 + 0.3 + 0.1 = 0.7 of cycles)
 * beyond the execution stalls with no load outstanding (0.9 - 0.8 = 0.1,
 * the divider 0.05 of them): each part keeps its own counter's cycles,
 * other is 0, and the 0.05 - 0.7 = -0.65 booked twice is the overlap row;
 * the base is the cycles no part claims, those with no stall at all
 * (1 - 0.9).  Base + parts + overlap = CPI. */
static void test_intel_overlap(const struct model *m, const char *mem_any)
{
	const struct stalls st = { .rec = 0.2, .resteer = 0.1, .icache = 0.3, .itlb = 0.1,
				   .total = 0.9, .mem = 0.8, .l1d = 0.7, .l2 = 0.6, .l3 = 0.5,
				   .div = 0.05 };
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double cpi = 1.25;   /* C / cpi instructions, a whole number */
	unsigned i;

	intel_run(m, mem_any, &st, cpi, s, out);
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "cyc_cpi_recovery"), 0.3 * cpi);
	NEAR(get(m, out, "cyc_cpi_icache"), 0.3 * cpi);
	NEAR(get(m, out, "cyc_cpi_itlb"), 0.1 * cpi);
	NEAR(get(m, out, "cyc_cpi_mem_dram"), 0.5 * cpi);   /* not cut to what the frontend left */
	NEAR(get(m, out, "cyc_cpi_mem_l3"), 0.1 * cpi);
	NEAR(get(m, out, "cyc_cpi_mem_l2"), 0.1 * cpi);
	NEAR(get(m, out, "cyc_cpi_mem_l1"), 0.1 * cpi);
	NEAR(get(m, out, "cyc_cpi_memory"), 0.8 * cpi);
	NEAR(get(m, out, "cyc_cpi_divider"), 0.05 * cpi);
	NEAR(get(m, out, "cyc_cpi_other"), 0.0);
	NEAR(get(m, out, "cyc_cpi_base"), (1 - 0.9) * cpi);
	NEAR(get(m, out, "cyc_cpi_overlap"), (0.1 - 0.05 - 0.7) * cpi);
	NEAR(stack_sum(m, out), cpi);
	for (i = 0; i < m->n_metrics; i++)
		if (strncmp(m->metrics[i].name, "cyc_cpi_", 8) == 0 &&
		    strcmp(m->metrics[i].name, "cyc_cpi_overlap") != 0)
			CHECK(get(m, out, m->metrics[i].name) >= 0.0);

	/* the same with L3 misses not counted: DRAM, L3, the base and the
	 * overlap are unknown, not 0 */
	missing(m, s, "cyc_cpi", "stalls_l3_miss");
	compute(m, s, out);
	CHECK(!valid(m, out, "cyc_cpi_overlap"));
	CHECK(!valid(m, out, "cyc_cpi_base"));

	/* a busy divider takes only the stalls with no load outstanding
	 * (memory first); parts of a split family whose nested counts cross
	 * (STALLS_L2_MISS above STALLS_L1D_MISS) give a part of 0, not a
	 * negative one, and the 0.05 they cross by is overlap */
	{
		const struct stalls d = { .total = 0.5, .mem = 0.4, .l1d = 0.2, .l2 = 0.25,
					  .l3 = 0.1, .div = 0.6 };

		intel_run(m, mem_any, &d, cpi, s, out);
		m->compute(m, s, NULL, out);
		NEAR(get(m, out, "cyc_cpi_divider"), 0.1 * cpi);
		NEAR(get(m, out, "cyc_cpi_other"), 0.0);
		NEAR(get(m, out, "cyc_cpi_mem_l2"), 0.0);
		NEAR(get(m, out, "cyc_cpi_mem_l3"), 0.15 * cpi);
		NEAR(get(m, out, "cyc_cpi_base"), (1 - 0.5) * cpi);
		NEAR(get(m, out, "cyc_cpi_overlap"), (0.2 - 0.25) * cpi);
		NEAR(stack_sum(m, out), cpi);
	}
}

/* A counter not counted: its part and the base invalid, never 0; the
 * parts that do not need it keep their values. */
static void test_intel_missing(const struct model *m, const char *mem_any,
			       const char *fe_stalls)
{
	const struct stalls st = { .rec = 0.04, .resteer = 0.03, .icache = 0.05, .itlb = 0.02,
				   .total = 0.75, .mem = 0.45, .l1d = 0.35, .l2 = 0.25,
				   .l3 = 0.15, .div = 0.10 };
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];

	intel_run(m, mem_any, &st, 2.0, s, out);
	missing(m, s, "cyc_cpi", "stalls_l3_miss");
	compute(m, s, out);
	CHECK(!valid(m, out, "cyc_cpi_mem_dram"));
	CHECK(!valid(m, out, "cyc_cpi_mem_l3"));
	CHECK(!valid(m, out, "cyc_cpi_memory"));
	CHECK(!valid(m, out, "cyc_cpi_base"));
	NEAR(get(m, out, "cyc_cpi_mem_l2"), 0.10 * 2.0);
	NEAR(get(m, out, "cyc_cpi_other"), (0.75 - 0.45 - 0.10 - 0.14) * 2.0);

	/* the i-side family did not measure the target */
	intel_run(m, mem_any, &st, 2.0, s, out);
	s[model_group_index(m, fe_stalls)].present = false;
	compute(m, s, out);
	CHECK(!valid(m, out, "cyc_cpi_icache"));
	CHECK(!valid(m, out, "cyc_cpi_itlb"));
	CHECK(!valid(m, out, "cyc_cpi_other"));
	CHECK(!valid(m, out, "cyc_cpi_base"));
	NEAR(get(m, out, "cyc_cpi_memory"), 0.45 * 2.0);

	/* the family itself not measured: nothing of the stack */
	intel_run(m, mem_any, &st, 2.0, s, out);
	s[model_group_index(m, "cyc_cpi")].present = false;
	compute(m, s, out);
	CHECK(!valid(m, out, "cyc_cpi_recovery"));
	CHECK(!valid(m, out, "cyc_cpi_base"));
	CHECK(valid(m, out, "cpi"));
}

/* Zen 4: ex_no_retire.* classes, the rest cycles that retired an op. */
static void test_zen4(void)
{
	const struct model *m = &model_zen4;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double cpi = 1.25;

	memset(s, 0, sizeof(s));
	set(m, s, "cycles", C);
	set(m, s, "instructions", C / cpi);
	set(m, s, "no_retire_empty", 0.10 * C);
	set(m, s, "no_retire_not_complete", 0.40 * C);
	set(m, s, "no_retire_load", 0.30 * C);
	set(m, s, "no_retire_thread_not_selected", 0.05 * C);
	set(m, s, "no_retire_other", 0.05 * C);
	compute(m, s, out);
	NEAR(get(m, out, "cyc_cpi_rob_empty"), 0.10 * cpi);
	NEAR(get(m, out, "cyc_cpi_memory"), 0.30 * cpi);
	NEAR(get(m, out, "cyc_cpi_core"), 0.10 * cpi);
	NEAR(get(m, out, "cyc_cpi_smt"), 0.05 * cpi);
	NEAR(get(m, out, "cyc_cpi_other"), 0.05 * cpi);
	NEAR(get(m, out, "cyc_cpi_base"), 0.40 * cpi);
	NEAR(stack_sum(m, out), get(m, out, "cpi"));

	missing(m, s, "commit", "no_retire_load");
	compute(m, s, out);
	CHECK(!valid(m, out, "cyc_cpi_memory"));
	CHECK(!valid(m, out, "cyc_cpi_core"));
	CHECK(!valid(m, out, "cyc_cpi_base"));
	NEAR(get(m, out, "cyc_cpi_rob_empty"), 0.10 * cpi);
}

int main(void)
{
	static const struct {
		const struct model *m;
		const char *mem_any, *fe_stalls;
	} intel[] = {
		{ &model_skl, "stalls_mem_any", "fe_stalls" },
		{ &model_skx, "stalls_mem_any", "fe_stalls" },
		{ &model_icl, "stalls_mem_any", "fe_stalls_flops" },
		{ &model_icx, "stalls_mem_any", "fe_stalls_flops" },
		{ &model_spr, "bound_on_loads", "fe_stalls_flops" },
	};
	size_t i;

	for (i = 0; i < sizeof(intel) / sizeof(intel[0]); i++) {
		test_intel_parts(intel[i].m, intel[i].mem_any);
		test_intel_overlap(intel[i].m, intel[i].mem_any);
		test_intel_missing(intel[i].m, intel[i].mem_any, intel[i].fe_stalls);
	}
	test_zen4();
	return 0;
}
