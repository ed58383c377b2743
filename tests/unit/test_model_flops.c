/*
 * The FLOPS stack's parts beyond the base (papers/multi-stage-cpi-and-
 * flops-stacks.txt, section III-C, Table III) on constructed counter
 * vectors: code that did no floating-point work reads as "no FP work",
 * not as unexplained loss, on Intel, Zen 4 and Arm; Arm's stack takes
 * its frontend, memory and backend parts from the stall cycles; every
 * stack shown sums to 1.
 */
#include "lib/model/model.h"
#include "test.h"
#include "test_model.h"

#include <math.h>
#include <string.h>

/* The valid parts of the FLOPS stack, summed. */
static double flops_sum(const struct model *m, const struct metric_value *out)
{
	double sum = 0;
	unsigned i;

	for (i = 0; i < m->n_metrics; i++)
		if (m->metrics[i].stack != NULL && strcmp(m->metrics[i].stack, "flops") == 0 &&
		    m->metrics[i].parent == NULL && out[i].valid)
			sum += out[i].value;
	return sum;
}

/* 1e9 cycles and instructions, every FP column the model has counted 0. */
static void no_fp_counts(const struct model *m, struct group_sums *s)
{
	unsigned g, e;

	memset(s, 0, sizeof(*s) * MODEL_MAX_GROUPS);
	set(m, s, "cycles", 1e9);
	set(m, s, "instructions", 1e9);
	/* present, counted, zero */
	for (g = 0; g < m->n_groups; g++)
		for (e = 0; e < m->groups[g].n_events; e++)
			if (strstr(m->groups[g].events[e].column, "fp_") != NULL ||
			    strstr(m->groups[g].events[e].column, "flops") != NULL) {
				s[g].present = true;
				s[g].task_clock_ns = 1000000000;
			}
}

/* Skylake: the RS empty 30% of cycles is the frontend part, the other
 * 70% no FP work; nothing unexplained. */
static void test_no_fp_intel(void)
{
	const struct model *m = &model_skl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];

	no_fp_counts(m, s);
	set(m, s, "rs_empty_cycles", 0.3e9);
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "flops_base"), 0.0);
	NEAR(get(m, out, "flops_frontend_loss"), 0.3);
	NEAR(get(m, out, "flops_no_fp_loss"), 0.7);
	NEAR(get(m, out, "flops_other_loss"), 0.0);
	NEAR(flops_sum(m, out), 1.0);

	/* Sapphire Rapids: FP ports all idle, yet no FP work is not a stall */
	m = &model_spr;
	no_fp_counts(m, s);
	set(m, s, "rs_empty_cycles", 0.1e9);
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "flops_stall_loss"), 0.0);
	NEAR(get(m, out, "flops_no_fp_loss"), 0.9);
	NEAR(flops_sum(m, out), 1.0);
}

/* Zen 4 (no frontend part): all of it no FP work, no FMA loss. */
static void test_no_fp_zen4(void)
{
	const struct model *m = &model_zen4;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];

	no_fp_counts(m, s);
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "flops_base"), 0.0);
	NEAR(get(m, out, "flops_non_fma_loss"), 0.0);
	NEAR(get(m, out, "flops_no_fp_loss"), 1.0);
	NEAR(get(m, out, "flops_other_loss"), 0.0);
	NEAR(flops_sum(m, out), 1.0);

	/* with FP work the no-FP part is not measured: it stays in the rest.
	 * 8 FLOP a cycle, all from FMAs, over the SP peak of 32 (the counter
	 * does not tell SP from DP: docs/models.md) */
	set(m, s, "flops", 8e9);
	set(m, s, "mac_flops", 8e9);
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	CHECK(!valid(m, out, "flops_no_fp_loss"));
	NEAR(get(m, out, "flops_base"), 8.0 / 32);
	NEAR(get(m, out, "flops_other_loss"), 1 - 8.0 / 32);
	NEAR(flops_sum(m, out), 1.0);
}

/* Arm Neoverse V1 (peak 16 DP or 32 SP FLOP a cycle, 256-bit SVE: a
 * scalable count is two 128-bit granules): FP_*_OPS_SPEC do not tell SP
 * from DP, so 4 FLOPs a cycle are taken against the SP peak, an eighth
 * (docs/models.md: a lower bound, never over 100%); frontend 20%, memory
 * 15%, the other backend stalls 25% of cycles; the rest, 27.5%,
 * unexplained. */
static void test_arm_parts(void)
{
	const struct model *m = &model_arm_v1;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];

	memset(s, 0, sizeof(s));
	set(m, s, "cycles", 1e9);
	set(m, s, "instructions", 1e9);
	set(m, s, "fp_fixed_ops", 2e9);
	set(m, s, "fp_scale_ops", 1e9);
	set(m, s, "stall_frontend", 0.2e9);
	set(m, s, "stall_backend", 0.4e9);
	set(m, s, "stall_backend_mem", 0.15e9);
	set(m, s, "br_mis_pred", 0);
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "flops_base"), 4.0 / 32);
	NEAR(get(m, out, "flop_peak_fraction"), 4.0 / 32);
	NEAR(get(m, out, "flops_frontend_loss"), 0.2);
	NEAR(get(m, out, "flops_memory_loss"), 0.15);
	NEAR(get(m, out, "flops_backend_loss"), 0.25);
	NEAR(get(m, out, "flops_other_loss"), 1 - 4.0 / 32 - 0.2 - 0.15 - 0.25);
	CHECK(!valid(m, out, "flops_no_fp_loss"));
	NEAR(flops_sum(m, out), 1.0);

	/* stalls that overshoot what the base left are capped: still 1 */
	set(m, s, "stall_backend", 0.9e9);
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "flops_backend_loss"), 1.0 - 4.0 / 32 - 0.2 - 0.15);
	NEAR(get(m, out, "flops_other_loss"), 0.0);
	NEAR(flops_sum(m, out), 1.0);

	/* no FP work: the frontend stalls, then no FP work; no memory or
	 * backend part (lines 9-10 take every cycle without an FP op) */
	set(m, s, "fp_fixed_ops", 0);
	set(m, s, "fp_scale_ops", 0);
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "flops_base"), 0.0);
	NEAR(get(m, out, "flops_frontend_loss"), 0.2);
	NEAR(get(m, out, "flops_memory_loss"), 0.0);
	NEAR(get(m, out, "flops_backend_loss"), 0.0);
	NEAR(get(m, out, "flops_no_fp_loss"), 0.8);
	NEAR(get(m, out, "flops_other_loss"), 0.0);
	NEAR(flops_sum(m, out), 1.0);
}

/* Arm Neoverse N2 without the stall family: base and the unexplained
 * rest only, the parts it would give invalid (not 0). */
static void test_arm_without_stalls(void)
{
	const struct model *m = &model_arm_n2;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	int g = model_group_index(m, "stalls");

	memset(s, 0, sizeof(s));
	set(m, s, "cycles", 1e9);
	set(m, s, "instructions", 1e9);
	set(m, s, "fp_fixed_ops", 2e9);   /* an eighth of N2's SP peak of 16 */
	CHECK(g >= 0);
	s[g].present = false;
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "flops_base"), 2.0 / 16);
	CHECK(!valid(m, out, "flops_frontend_loss"));
	CHECK(!valid(m, out, "flops_memory_loss"));
	NEAR(get(m, out, "flops_other_loss"), 1 - 2.0 / 16);
	NEAR(flops_sum(m, out), 1.0);
}

int main(void)
{
	test_no_fp_intel();
	test_no_fp_zen4();
	test_arm_parts();
	test_arm_without_stalls();
	return 0;
}
