/*
 * The sanity checks (lib/model/model_sanity.h) flag the golden Skylake
 * fixture as it was before issue 31 (daemon/demo/demo_data.c at commit
 * 207adb3), from physical facts, not our formulas: dgemm's FP_ARITH
 * counts, 4.05 a cycle, above the 4 Skylake's two FMA units can retire
 * (an FMA counts two: Intel SDM, FP_ARITH_INST_RETIRED); jitserver's
 * level-3 frontend stalls (cycles) summing above fetch_latency, the share
 * of cycles the IDQ delivered nothing (4 x CYCLES_0_UOPS_DELIV / SLOTS).
 * The fixed profiles pass; and the issue-stage frontend takes recovery
 * cycles, not bad speculation's slot share, off the RS-empty cycles.
 */
#include "lib/model/model_intel.h"
#include "lib/model/model_sanity.h"
#include "test.h"

#include <math.h>
#include <string.h>

static void set(const struct model *m, struct group_sums *s, const char *group,
		const char *column, double per_cycle, double cycles)
{
	int g = model_group_index(m, group), e;

	CHECK(g >= 0);
	e = model_event_index(&m->groups[g], column);
	CHECK(e >= 0);
	s[g].present = true;
	s[g].task_clock_ns = 1000000000;
	s[g].v[0] = (uint64_t)cycles;
	s[g].v[1] = (uint64_t)cycles;
	s[g].v[e] = (uint64_t)(per_cycle * cycles);
}

/* The old fixture's jitserver (fe 0.35, bs 0.08) frontend families and
 * dgemm's FP counts (12 FLOP a cycle: 10% scalar, 5% 128-bit, 85% 256-bit). */
static void old_fixture(const struct model *m, struct group_sums *s, double fe, double fpc)
{
	const double c = 3e9;

	set(m, s, "td_l1", "uops_issued", 4 * (0.22 + 0.04), c);
	set(m, s, "td_l1", "retire_slots", 4 * 0.22, c);
	set(m, s, "td_l1", "idq_not_delivered", 4 * fe, c);
	set(m, s, "td_l1", "recovery_cycles", 0.01, c);
	set(m, s, "td_l2_fe_bs", "idq_not_delivered", 4 * fe, c);
	set(m, s, "td_l2_fe_bs", "idq_0_uops_cycles", 0.6 * fe, c);
	set(m, s, "fe_stalls", "icache_stall_cycles", 0.4 * fe, c);
	set(m, s, "fe_stalls", "itlb_stall_cycles", 0.1 * fe, c);
	set(m, s, "fe_stalls", "dsb2mite_penalty_cycles", 0.2 * fe, c);
	set(m, s, "fe_l3_lat", "icache_stall_edges", 0.02 * fe, c);
	set(m, s, "flops_a", "fp_scalar_dp", 0.1 * fpc, c);
	set(m, s, "flops_a", "fp_128_dp", 0.05 * fpc / 2, c);
	set(m, s, "flops_b", "fp_256_dp", 0.85 * fpc / 4, c);
}

static unsigned flag_of(const struct model *m, const unsigned *flags, const char *name)
{
	int k = model_metric_index(m, name);

	CHECK(k >= 0);
	return flags[k];
}

static void check_old_and_new(void)
{
	const struct model *m = &model_skl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value mv[MODEL_MAX_METRICS];
	struct model_context ctx = { .smt_on = false };
	unsigned flags[MODEL_MAX_METRICS];

	memset(s, 0, sizeof(s));
	memset(mv, 0, sizeof(mv));
	old_fixture(m, s, 0.35, 12.0);
	m->compute(m, s, &ctx, mv);
	model_sanity(m, s, mv, flags);
	CHECK(flag_of(m, flags, "fetch_latency") & SANITY_CHILDREN);   /* 27.9% over 21.0% */
	CHECK(flag_of(m, flags, "flops_per_cycle") & SANITY_FP_PORTS); /* 4.05 counts > 4 */
	CHECK(flag_of(m, flags, "frontend_bound") == 0);

	/* the fixed profile's shares (demo_data.c now) pass */
	memset(s, 0, sizeof(s));
	memset(mv, 0, sizeof(mv));
	old_fixture(m, s, 0.35, 0.0);
	set(m, s, "fe_stalls", "icache_stall_cycles", 0.25 * 0.35, 3e9);
	set(m, s, "fe_stalls", "itlb_stall_cycles", 0.06 * 0.35, 3e9);
	set(m, s, "fe_stalls", "dsb2mite_penalty_cycles", 0.1 * 0.35, 3e9);
	set(m, s, "fe_l3_lat", "icache_stall_edges", 0.01 * 0.35, 3e9);
	set(m, s, "flops_a", "fp_scalar_dp", 0.02 * 12, 3e9);
	set(m, s, "flops_a", "fp_128_dp", 0.03 * 12 / 2, 3e9);
	set(m, s, "flops_b", "fp_256_dp", 0.95 * 12 / 4, 3e9);
	m->compute(m, s, &ctx, mv);
	model_sanity(m, s, mv, flags);
	CHECK(flag_of(m, flags, "fetch_latency") == 0);
	CHECK(flag_of(m, flags, "flops_per_cycle") == 0);
}

/* Golden branchy: RS empty 12% of cycles, bad speculation 30% of slots,
 * recovery + resteer 9% of cycles.  The issue-stage frontend is the
 * RS-empty cycles the recovery did not take, 3%: the old code took the
 * slot share off and read 0 (its range 0.0% .. 15.0%). */
static void check_issue_units(void)
{
	const struct model *m = &model_skl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value mv[MODEL_MAX_METRICS];
	struct model_context ctx = { .smt_on = false };
	const double c = 3e9;
	int k;

	memset(s, 0, sizeof(s));
	memset(mv, 0, sizeof(mv));
	set(m, s, "td_l1", "uops_issued", 4 * (0.30 + 0.15), c);
	set(m, s, "td_l1", "retire_slots", 4 * 0.30, c);
	set(m, s, "td_l1", "idq_not_delivered", 4 * 0.15, c);
	set(m, s, "td_l1", "recovery_cycles", 0.0375, c);
	set(m, s, "td_l2_ret", "rs_empty_cycles", 0.12, c);
	set(m, s, "cyc_cpi", "recovery_cycles_thread", 0.06, c);
	set(m, s, "cyc_cpi", "clear_resteer_cycles", 0.03, c);
	m->compute(m, s, &ctx, mv);
	k = model_metric_index(m, "issue_frontend_bound");
	CHECK(k >= 0 && mv[k].valid);
	CHECK(fabs(mv[k].value - 0.03) < 1e-3);
	k = model_metric_index(m, "frontend_bound_low");
	CHECK(k >= 0 && mv[k].valid && fabs(mv[k].value - 0.03) < 1e-3);
}

/* Zen 4 counts no recovery cycles: the commit stage's bad speculation,
 * and the low ends of the frontend and bad-speculation ranges, are
 * unknown (the old code copied the dispatch value: 20.0% .. 20.0%). */
static void check_zen4_unknown(void)
{
	const struct model *m = &model_zen4;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value mv[MODEL_MAX_METRICS];
	struct model_context ctx = { .smt_on = false };
	unsigned g, e;

	memset(s, 0, sizeof(s));
	memset(mv, 0, sizeof(mv));
	for (g = 0; g < m->n_groups; g++) {
		s[g].present = true;
		s[g].task_clock_ns = 1000000000;
		s[g].v[0] = 3000000000ULL;
		for (e = 1; e < m->groups[g].n_events; e++)
			s[g].v[e] = 300000000ULL;
	}
	m->compute(m, s, &ctx, mv);
	CHECK(!mv[model_metric_index(m, "commit_bad_speculation")].valid);
	CHECK(!mv[model_metric_index(m, "bad_speculation_low")].valid);
	CHECK(mv[model_metric_index(m, "bad_speculation_high")].valid);
	CHECK(!mv[model_metric_index(m, "frontend_bound_low")].valid);
	CHECK(mv[model_metric_index(m, "commit_frontend_bound")].valid);
}

int main(void)
{
	check_old_and_new();
	check_issue_units();
	check_zen4_unknown();
	return 0;
}
