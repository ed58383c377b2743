/*
 * Each model's formulas on constructed counter vectors give the values of
 * Linux perf's metric expressions for that model (written out below from
 * `perf list --details metric` with PERF_CPUID set, and amdzen4/
 * pipeline.json); level-1 nodes sum to 1 and level-2 children to their
 * parent; the regression CPI stack recovers known weights with noise and
 * never returns a negative one.
 */
#include "lib/model/model.h"
#include "lib/model/model_generic.h"
#include "lib/model/cpi_fit_quality.h"
#include "lib/nnls.h"
#include "test.h"
#include "test_model.h"

#include <math.h>
#include <string.h>


/* A stack's first level sums to 1 and children to their parent. */
static void check_stack(const struct model *m, const struct metric_value *out, const char *stack)
{
	double l1 = 0;
	unsigned i, j;

	for (i = 0; i < m->n_metrics; i++) {
		const struct model_metric *mm = &m->metrics[i];

		if (mm->stack == NULL || strcmp(mm->stack, stack) != 0)
			continue;
		if (mm->parent == NULL) {
			double kids = 0;
			bool any = false;

			l1 += out[i].value;
			for (j = 0; j < m->n_metrics; j++)
				if (m->metrics[j].parent != NULL &&
				    strcmp(m->metrics[j].parent, mm->name) == 0 && out[j].valid) {
					kids += out[j].value;
					any = true;
				}
			if (any)
				NEAR(kids, out[i].value);
		}
	}
	NEAR(l1, 1.0);
}

/* Top-Down, and each other stack (multi-stage, FLOPS) the model filled. */
static void check_tree(const struct model *m, const struct metric_value *out)
{
	static const char *const others[] = { "issue", "commit", "flops" };
	unsigned i, k;

	check_stack(m, out, "topdown");
	for (k = 0; k < sizeof(others) / sizeof(others[0]); k++)
		for (i = 0; i < m->n_metrics; i++)
			if (m->metrics[i].stack != NULL &&
			    strcmp(m->metrics[i].stack, others[k]) == 0 && out[i].valid) {
				check_stack(m, out, others[k]);
				break;
			}
}

/* The issue-stage stack (model_intel.c) and the bounds it gives with the
 * allocation stage (Top-Down level 1), from the planted counts: the
 * issue-stage frontend is the RS-empty cycles less the cycles the
 * allocator spent recovering and waiting for the resteered fetch
 * (INT_MISC.RECOVERY_CYCLES + CLEAR_RESTEER_CYCLES), both shares of whole
 * cycles (a whole cycle with nothing issued loses every slot), never
 * negative and not capped at level 1's frontend; each bound is the smaller
 * or the larger of the two stages' figures (docs/models.md, Multi-stage
 * stacks). */
static void check_issue(const struct model *m, const struct metric_value *out, double ret,
			double bs, double fe, double be, double rs_empty, double recovery)
{
	double fe_i = fmax(0, rs_empty - recovery), be_i = 1 - ret - bs - fe_i;

	NEAR(get(m, out, "issue_retiring"), ret);
	NEAR(get(m, out, "issue_bad_speculation"), bs);
	NEAR(get(m, out, "issue_frontend_bound"), fe_i);
	NEAR(get(m, out, "issue_backend_bound"), be_i);
	NEAR(get(m, out, "frontend_bound_low"), fmin(fe, fe_i));
	NEAR(get(m, out, "frontend_bound_high"), fmax(fe, fe_i));
	NEAR(get(m, out, "backend_bound_low"), fmin(be, be_i));
	NEAR(get(m, out, "backend_bound_high"), fmax(be, be_i));
}

static void test_skl(void)
{
	const struct model *m = &model_skl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	struct model_context ctx = { false, NULL, 0, NULL };
	double c = 1e9, slots = 4 * c, uops_issued = 2.2e9, retire = 2.0e9, idq = 0.8e9;
	double rec = 0.02e9, idq0 = 0.1e9, br = 9e6, mc = 1e6;
	double mem = 0.3e9, st = 0.05e9, tot = 0.5e9, p1 = 0.1e9, p2 = 0.2e9;
	double mf = 0.1e9, rs_empty = 0.15e9, resteer = 0.03e9, heavy;
	double fe, bs, ret, be, memb;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", c);
	set(m, s, "instructions", 1.5e9);
	set(m, s, "uops_issued", uops_issued);
	set(m, s, "retire_slots", retire);
	set(m, s, "idq_not_delivered", idq);
	set(m, s, "recovery_cycles", rec);
	set(m, s, "idq_0_uops_cycles", idq0);
	set(m, s, "br_misp_retired", br);
	set(m, s, "machine_clears_count", mc);
	set(m, s, "stalls_mem_any", mem);
	set(m, s, "bound_on_stores", st);
	set(m, s, "stalls_total", tot);
	set(m, s, "ports_util_1", p1);
	set(m, s, "ports_util_2", p2);
	set(m, s, "macro_fused", mf);
	set(m, s, "rs_empty_cycles", rs_empty);
	/* family cyc_cpi: INT_MISC.RECOVERY_CYCLES again (the event of
	 * td_l1's recovery_cycles) and CLEAR_RESTEER_CYCLES */
	set(m, s, "recovery_cycles_thread", rec);
	set(m, s, "clear_resteer_cycles", resteer);
	set(m, s, "dsb_uops", 1.2e9);
	set(m, s, "mite_uops", 0.6e9);
	set(m, s, "ms_uops", 0.2e9);
	set(m, s, "dsb_cycles", 0.4e9);
	set(m, s, "mite_cycles", 0.3e9);
	set(m, s, "fp_256_dp", 1e8);
	set(m, s, "fp_scalar_dp", 1e8);
	m->compute(m, s, &ctx, out);
	/* perf 6.1, GenuineIntel-6-5E-3, SMT off */
	fe = idq / slots;
	bs = (uops_issued - retire + 4 * rec) / slots;
	ret = retire / slots;
	be = 1 - fe - (uops_issued + 4 * rec) / slots;
	NEAR(get(m, out, "frontend_bound"), fe);
	NEAR(get(m, out, "bad_speculation"), bs);
	NEAR(get(m, out, "retiring"), ret);
	NEAR(get(m, out, "backend_bound"), be);
	NEAR(get(m, out, "fetch_latency"), 4 * idq0 / slots);
	NEAR(get(m, out, "fetch_bandwidth"), fe - 4 * idq0 / slots);
	NEAR(get(m, out, "branch_mispredicts"), br / (br + mc) * bs);
	NEAR(get(m, out, "machine_clears"), bs - br / (br + mc) * bs);
	memb = (mem + st) / (tot + (p1 + ret * p2) + st) * be;
	NEAR(get(m, out, "memory_bound"), memb);
	NEAR(get(m, out, "core_bound"), be - memb);
	NEAR(get(m, out, "ipc"), 1.5);
	NEAR(get(m, out, "dsb_coverage"), 1.2 / (1.2 + 0.6 + 0.2));  /* DSB_Coverage */
	NEAR(get(m, out, "dsb_p_only"), 1.2 / 0.4);                 /* thesis (3.8) */
	NEAR(get(m, out, "dsb_p_overall"), 1.2);                    /* thesis (3.7) */
	NEAR(get(m, out, "mite_p_only"), 0.6 / 0.3);
	/* FLOPc: 1 * scalar + 4 * 256-bit double, per cycle */
	NEAR(get(m, out, "flops_per_cycle"), (1e8 + 4 * 1e8) / c);
	NEAR(get(m, out, "gflops"), (1e8 + 4 * 1e8) / 1e9);
	NEAR(get(m, out, "flops_base") + get(m, out, "flops_width_loss") +
	     get(m, out, "flops_frontend_loss") + get(m, out, "flops_other_loss"), 1.0);
	/* tma_heavy_operations; light is the rest of retiring */
	heavy = (retire + mf - 1.5e9) / slots;
	NEAR(get(m, out, "heavy_ops"), heavy);
	NEAR(get(m, out, "light_ops"), ret - heavy);
	/* issue stage: 0.15 - (0.02 + 0.03) = 0.10 of cycles, above level
	 * 1's 0.2 - 0.07 (what the old bad-speculation subtraction gave) */
	check_issue(m, out, ret, bs, fe, be, rs_empty / c, (rec + resteer) / c);
	NEAR(get(m, out, "issue_frontend_bound"), 0.10);
	NEAR(get(m, out, "frontend_bound_low"), 0.10);
	NEAR(get(m, out, "frontend_bound_high"), 0.20);
	NEAR(get(m, out, "backend_bound_low"), 0.23);
	NEAR(get(m, out, "backend_bound_high"), 1 - 0.5 - 0.07 - 0.10);
	check_tree(m, out);
	CHECK(!out[model_metric_index(m, "retiring")].core_scoped);
	/* SMT on without the SMT-on events counted: invalid, not SMT-off figures */
	ctx.smt_on = true;
	memset(out, 0, sizeof(out));
	m->compute(m, s, &ctx, out);
	CHECK(!out[model_metric_index(m, "retiring")].valid);
	CHECK(!out[model_metric_index(m, "backend_bound")].valid);
}

/* Skylake with SMT on: perf 6.1's #SMT_on branches, per thread
 * (PERF_CPUID=GenuineIntel-6-5E-3 and GenuineIntel-6-55-4):
 *   CORE_CLKS = CPU_CLK_UNHALTED.THREAD / 2 * (1 + CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE /
 *               CPU_CLK_UNHALTED.REF_XCLK);  SLOTS = 4 * CORE_CLKS
 *   tma_bad_speculation = (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS +
 *                          4 * (INT_MISC.RECOVERY_CYCLES_ANY / 2)) / SLOTS
 *   tma_backend_bound = 1 - tma_frontend_bound -
 *                       (UOPS_ISSUED.ANY + 4 * (INT_MISC.RECOVERY_CYCLES_ANY / 2)) / SLOTS
 *   the others as with SMT off, over this SLOTS. */
static void test_skl_smt(const struct model *m)
{
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	struct model_context ctx = { true, NULL, 0, NULL };
	double c = 1e9, ota = 0.3e9, xclk = 0.5e9, ui = 2.2e9, retire = 2.0e9, idq = 0.8e9;
	double rec_any = 0.04e9, idq0 = 0.1e9, br = 9e6, mc = 1e6, mf = 0.1e9, ins = 1.5e9;
	double mem = 0.3e9, st = 0.05e9, tot = 0.5e9, p1 = 0.1e9, p2 = 0.2e9, rs_empty = 0.15e9;
	double core_clks = c / 2 * (1 + ota / xclk), slots = 4 * core_clks;
	double fe, bs, ret, be;
	unsigned i;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", c);
	set(m, s, "instructions", ins);
	set(m, s, "uops_issued", ui);
	set(m, s, "retire_slots", retire);
	set(m, s, "idq_not_delivered", idq);
	set(m, s, "recovery_cycles_any", rec_any);
	set(m, s, "one_thread_active", ota);
	set(m, s, "ref_xclk", xclk);
	set(m, s, "idq_0_uops_cycles", idq0);
	set(m, s, "br_misp_retired", br);
	set(m, s, "machine_clears_count", mc);
	set(m, s, "stalls_mem_any", mem);
	set(m, s, "bound_on_stores", st);
	set(m, s, "stalls_total", tot);
	set(m, s, "ports_util_1", p1);
	set(m, s, "ports_util_2", p2);
	set(m, s, "macro_fused", mf);
	set(m, s, "rs_empty_cycles", rs_empty);
	/* the SMT-off event was not counted (the planner left it out) */
	missing(m, s, "td_l1", "recovery_cycles");
	m->compute(m, s, &ctx, out);
	fe = idq / slots;
	bs = (ui - retire + 4 * (rec_any / 2)) / slots;
	ret = retire / slots;
	be = 1 - fe - (ui + 4 * (rec_any / 2)) / slots;
	NEAR(get(m, out, "frontend_bound"), fe);
	NEAR(get(m, out, "bad_speculation"), bs);
	NEAR(get(m, out, "retiring"), ret);
	NEAR(get(m, out, "backend_bound"), be);
	NEAR(get(m, out, "fetch_latency"), 4 * idq0 / slots);
	NEAR(get(m, out, "branch_mispredicts"), br / (br + mc) * bs);
	NEAR(get(m, out, "memory_bound"), (mem + st) / (tot + (p1 + ret * p2) + st) * be);
	NEAR(get(m, out, "heavy_ops"), (retire + mf - ins) / slots);
	check_tree(m, out);
	/* per thread: nothing is core-scoped */
	for (i = 0; i < m->n_metrics; i++)
		CHECK(!out[i].core_scoped);
}

/* A family split in two parts, combined as readers do (model.h): each
 * event scaled to the family's total cycles by the cycles of the part that
 * counted it.  Part A counted uops_issued, retire_slots and
 * recovery_cycles_any over 0.2e9 cycles, part B idq_not_delivered and the
 * CORE_CLKS pair over 0.8e9, at different rates: level 1 is perf's formula
 * with each ratio set's events from its own part. */
static void test_skl_parts(void)
{
	const struct model *m = &model_skl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	struct model_context ctx = { true, NULL, 0, NULL };
	double ca = 0.2e9, cb = 0.8e9, c = ca + cb;   /* scale factors 5 and 1.25: exact */
	double ui_a = 0.36e9, rs_a = 0.32e9, rec_a = 0.004e9;   /* counts of part A */
	double idq_b = 0.6e9, ota_b = 0.16e9, xclk_b = 0.32e9;  /* counts of part B */
	double slots_per_cycle_b = 4 * 0.5 * (1 + ota_b / xclk_b);   /* SLOTS / cycles */
	int g = model_group_index(m, "td_l1");

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", c);
	set(m, s, "instructions", 1e9);
	s[g].v[col(m, "td_l1", "uops_issued")] = (uint64_t)(ui_a * c / ca);
	s[g].v[col(m, "td_l1", "retire_slots")] = (uint64_t)(rs_a * c / ca);
	s[g].v[col(m, "td_l1", "recovery_cycles_any")] = (uint64_t)(rec_a * c / ca);
	s[g].v[col(m, "td_l1", "idq_not_delivered")] = (uint64_t)(idq_b * c / cb);
	s[g].v[col(m, "td_l1", "one_thread_active")] = (uint64_t)(ota_b * c / cb);
	s[g].v[col(m, "td_l1", "ref_xclk")] = (uint64_t)(xclk_b * c / cb);
	missing(m, s, "td_l1", "recovery_cycles");
	m->compute(m, s, &ctx, out);
	NEAR(get(m, out, "frontend_bound"), idq_b / cb / slots_per_cycle_b);
	NEAR(get(m, out, "retiring"), rs_a / ca / slots_per_cycle_b);
	NEAR(get(m, out, "bad_speculation"),
	     (ui_a - rs_a + 4 * (rec_a / 2)) / ca / slots_per_cycle_b);
	NEAR(get(m, out, "backend_bound"),
	     1 - idq_b / cb / slots_per_cycle_b - (ui_a + 4 * (rec_a / 2)) / ca / slots_per_cycle_b);
}

static void test_icl(void)
{
	const struct model *m = &model_icl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double slots = 5e9, r = 2e9, bsp = 0.5e9, f = 1.5e9, b = 1e9, sum4 = r + bsp + f + b;
	double drop = 0.05e9, clears = 0.01e9, idq0 = 0.2e9, br = 8e6, mc = 2e6;
	double fe, be, ret, bs, lat, memb;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", 1e9);
	set(m, s, "instructions", 2e9);
	set(m, s, "slots", slots);
	set(m, s, "td_retiring", r);
	set(m, s, "td_bad_spec", bsp);
	set(m, s, "td_fe_bound", f);
	set(m, s, "td_be_bound", b);
	set(m, s, "uop_dropping", drop);
	set(m, s, "clears_count", clears);
	set(m, s, "idq_0_uops_cycles", idq0);
	set(m, s, "br_misp_retired", br);
	set(m, s, "machine_clears_count", mc);
	set(m, s, "stalls_mem_any", 0.3e9);
	set(m, s, "bound_on_stores", 0.02e9);
	set(m, s, "stalls_total", 0.4e9);
	set(m, s, "ports_util_1", 0.1e9);
	set(m, s, "ports_util_2", 0.1e9);
	set(m, s, "rs_empty_cycles", 0.4e9);
	set(m, s, "recovery_cycles_thread", 0.03e9);
	set(m, s, "clear_resteer_cycles", 0.02e9);
	m->compute(m, s, NULL, out);
	/* perf 6.1, GenuineIntel-6-7E-5 */
	fe = f / sum4 - drop / slots;
	be = b / sum4 + 5 * clears / slots;
	ret = r / sum4;
	bs = fmax(1 - (fe + be + ret), 0);
	lat = (5 * idq0 - drop) / slots;
	NEAR(get(m, out, "frontend_bound"), fe);
	NEAR(get(m, out, "backend_bound"), be);
	NEAR(get(m, out, "retiring"), ret);
	NEAR(get(m, out, "bad_speculation"), bs);
	NEAR(get(m, out, "fetch_latency"), lat);
	NEAR(get(m, out, "fetch_bandwidth"), fmax(0, fe - lat));
	NEAR(get(m, out, "branch_mispredicts"), br / (br + mc) * bs);
	memb = (0.3e9 + 0.02e9) / (0.4e9 + (0.1e9 + ret * 0.1e9) + 0.02e9) * be;
	NEAR(get(m, out, "memory_bound"), memb);
	NEAR(get(m, out, "core_bound"), fmax(0, be - memb));
	/* the issue stage's frontend, 0.4 - 0.05 = 0.35, above level 1's
	 * 0.29: not capped there, the range spans both stages */
	check_issue(m, out, ret, bs, fe, be, 0.4, 0.03 + 0.02);
	NEAR(get(m, out, "frontend_bound_low"), 0.29);
	NEAR(get(m, out, "frontend_bound_high"), 0.35);
	NEAR(get(m, out, "backend_bound_low"), 1 - 0.4 - 0.1 - 0.35);
	NEAR(get(m, out, "backend_bound_high"), 0.21);
	check_tree(m, out);
}

static void test_spr(void)
{
	const struct model *m = &model_spr;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double slots = 6e9, r = 2.4e9, bsp = 0.6e9, f = 1.8e9, b = 1.2e9, sum4 = r + bsp + f + b;
	double drop = 0.06e9, heavy = 0.4e9, brm = 0.5e9, lat = 1.0e9, memb = 0.7e9;
	double fe, be, ret, bs;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", 1e9);
	set(m, s, "instructions", 3e9);
	set(m, s, "slots", slots);
	set(m, s, "td_retiring", r);
	set(m, s, "td_bad_spec", bsp);
	set(m, s, "td_fe_bound", f);
	set(m, s, "td_be_bound", b);
	set(m, s, "td_heavy_ops", heavy);
	set(m, s, "td_br_mispredict", brm);
	set(m, s, "td_fetch_lat", lat);
	set(m, s, "td_mem_bound", memb);
	set(m, s, "uop_dropping", drop);
	set(m, s, "rs_empty_cycles", 0.1e9);
	set(m, s, "stalls_total", 0.3e9);
	set(m, s, "recovery_cycles_thread", 0.07e9);
	set(m, s, "clear_resteer_cycles", 0.05e9);
	m->compute(m, s, NULL, out);
	/* perf 6.1, GenuineIntel-6-8F-4 */
	fe = f / sum4 - drop / slots;
	be = b / sum4;
	ret = r / sum4;
	bs = fmax(1 - (fe + be + ret), 0);
	NEAR(get(m, out, "frontend_bound"), fe);
	NEAR(get(m, out, "bad_speculation"), bs);
	NEAR(get(m, out, "fetch_latency"), lat / sum4 - drop / slots);
	NEAR(get(m, out, "fetch_bandwidth"), fmax(0, fe - (lat / sum4 - drop / slots)));
	NEAR(get(m, out, "branch_mispredicts"), brm / sum4);
	NEAR(get(m, out, "machine_clears"), fmax(0, bs - brm / sum4));
	NEAR(get(m, out, "memory_bound"), memb / sum4);
	NEAR(get(m, out, "core_bound"), fmax(0, be - memb / sum4));
	NEAR(get(m, out, "heavy_ops"), heavy / sum4);
	NEAR(get(m, out, "light_ops"), fmax(0, ret - heavy / sum4));
	/* more recovery cycles (0.12) than RS-empty ones (0.1): no issue-
	 * stage frontend loss, never a negative one */
	check_issue(m, out, ret, bs, fe, be, 0.1, 0.07 + 0.05);
	NEAR(get(m, out, "issue_frontend_bound"), 0.0);
	check_tree(m, out);
	/* recovery not counted: the issue stage's frontend is unknown (and
	 * its backend, the rest), and each range has level 1's bound alone */
	missing(m, s, "cyc_cpi", "clear_resteer_cycles");
	memset(out, 0, sizeof(out));
	m->compute(m, s, NULL, out);
	CHECK(!valid(m, out, "issue_frontend_bound"));
	CHECK(!valid(m, out, "issue_backend_bound"));
	CHECK(!valid(m, out, "frontend_bound_low"));
	NEAR(get(m, out, "frontend_bound_high"), fe);
	NEAR(get(m, out, "backend_bound_low"), be);
	CHECK(!valid(m, out, "backend_bound_high"));
}

/* FLOPS as perf counts them on Sapphire Rapids: FP16 and AMX BF16 count
 * (perf 6.1's FLOPc weights), per core clock (CPU_CLK_UNHALTED.DISTRIBUTED
 * with SMT on), and the peak share per precision: a kernel at the single-
 * precision peak is 100%, one at half the FP16 peak and half the double
 * peak is 100% too. */
static void test_flops_precisions(void)
{
	const struct model *m = &model_spr;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	struct model_context smt = { true, NULL, 0, NULL };
	double c = 1e9, flop;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", c);
	set(m, s, "instructions", 2e9);
	set(m, s, "fp_512_sp", c * 64 / 16);          /* 64 SP FLOP per cycle: the peak */
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "flops_per_cycle"), 64.0);
	NEAR(get(m, out, "flop_peak_fraction"), 1.0);  /* not 64 / 32 (the DP peak) */

	memset(s, 0, sizeof(s));
	set(m, s, "cycles", c);
	set(m, s, "instructions", 2e9);
	set(m, s, "fp_512_hp", c * 64 / 32);          /* half the FP16 peak of 128 */
	set(m, s, "fp_256_dp", c * 16 / 4);           /* half the DP peak of 32 */
	set(m, s, "fp_complex_hp", 1e6);
	set(m, s, "amx_bf16", 1e6);
	set(m, s, "core_clks", c / 2);                /* SMT on, both threads busy */
	m->compute(m, s, NULL, out);
	flop = 64 * c + 16 * c + 2 * 1e6 + 4 * 1e6;
	/* SMT off: CORE_CLKS is still DISTRIBUTED, as perf's FLOPc has it */
	NEAR(get(m, out, "flops_per_cycle"), flop / (c / 2));
	m->compute(m, s, &smt, out);
	NEAR(get(m, out, "flops_per_cycle"), flop / (c / 2));
	NEAR(get(m, out, "gflops"), flop / 1e9);      /* per CPU second, not per core clock */
	NEAR(get(m, out, "flop_peak_fraction"),
	     (64 * c + 2e6) / (c / 2) / 128 + 16 * c / (c / 2) / 32 + 4e6 / (c / 2) / 1024);
	NEAR(get(m, out, "flops_hp_share"), (64 * c + 2e6) / flop);
	NEAR(get(m, out, "flops_amx_share"), 4e6 / flop);
	/* the family with CORE_CLKS absent and SMT on: no per-cycle figure */
	missing(m, s, "fe_l3_bw", "core_clks");
	m->compute(m, s, &smt, out);
	CHECK(!valid(m, out, "flops_per_cycle"));
	CHECK(valid(m, out, "gflops"));
}

static void test_zen4(void)
{
	const struct model *m = &model_zen4;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double c = 1e9, slots = 6 * c, ret = 2.4e9, disp = 2.7e9, fe = 1.2e9, be = 1.5e9;
	double smt = slots - ret - (disp - ret) - fe - be;  /* consistent counts */
	double fe6 = 0.1e9, br = 6e6, rs = 2e6, load = 0.3e9, nc = 0.5e9, ucode = 0.2e9;
	double bs = (disp - ret) / slots;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", c);
	set(m, s, "instructions", 2e9);
	set(m, s, "dispatched_ops", disp);
	set(m, s, "retired_ops", ret);
	set(m, s, "fe_no_ops", fe);
	set(m, s, "be_stalls", be);
	set(m, s, "smt_contention_slots", smt);
	set(m, s, "fe_no_ops_cycles", fe6);
	set(m, s, "br_misp_retired", br);
	set(m, s, "resyncs", rs);
	set(m, s, "no_retire_load", load);
	set(m, s, "no_retire_not_complete", nc);
	set(m, s, "ucode_ops", ucode);
	set(m, s, "flops", 4e9);
	set(m, s, "opcache_ops", 2e9);
	set(m, s, "decoder_ops", 0.5e9);
	m->compute(m, s, NULL, out);
	/* amdzen4/pipeline.json */
	NEAR(get(m, out, "frontend_bound"), fe / slots);
	NEAR(get(m, out, "bad_speculation"), bs);
	NEAR(get(m, out, "backend_bound"), be / slots);
	NEAR(get(m, out, "smt_contention"), smt / slots);
	NEAR(get(m, out, "retiring"), ret / slots);
	NEAR(get(m, out, "fetch_latency"), 6 * fe6 / slots);
	NEAR(get(m, out, "fetch_bandwidth"), (fe - 6 * fe6) / slots);
	NEAR(get(m, out, "branch_mispredicts"), bs * br / (br + rs));
	NEAR(get(m, out, "machine_clears"), bs * rs / (br + rs));
	NEAR(get(m, out, "memory_bound"), be / slots * load / nc);
	NEAR(get(m, out, "core_bound"), be / slots * (1 - load / nc));
	NEAR(get(m, out, "heavy_ops"), ret / slots * ucode / ret);
	NEAR(get(m, out, "light_ops"), ret / slots * (1 - ucode / ret));
	NEAR(get(m, out, "dsb_coverage"), 2.0 / 2.5);
	NEAR(get(m, out, "flops_per_cycle"), 4.0);
	/* backend at dispatch (0.25 of slots) vs the commit stage's oldest op
	 * not complete (0.5) */
	NEAR(get(m, out, "backend_bound_low"), be / slots);
	NEAR(get(m, out, "backend_bound_high"), nc / c);
	check_tree(m, out);
}

/* Neoverse: arm64/sbsa.json, arm64/arm/neoverse-n2-v2/metrics.json's
 * correction on the 5-slot N2 (STALL_SLOT* less CPU_CYCLES), and on V1
 * arm64/arm/neoverse-v1/metrics.json's: 4 cycles' slots per BR_MIS_PRED
 * moved from frontend to bad speculation (misp_cycles: 4 on V1, else 0). */
static void test_neoverse(const struct model *m, double width, double granules,
			  double misp_cycles)
{
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	double c = 1e9, slots = width * c, extra = width == 5 ? c : 0, brm = 6e6;
	double ssf = 0.2 * slots + extra, ssb = 0.3 * slots, ss = ssf + ssb - extra;
	double op_ret = 1.8e9, op_spec = 2.0e9, used;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	/* N2's STALL_SLOT and STALL_SLOT_FRONTEND both carry the extra slot */
	set(m, s, "cycles", c);
	set(m, s, "instructions", 2.5e9);
	set(m, s, "stall_slot", ss + extra);
	set(m, s, "stall_slot_frontend", ssf);
	set(m, s, "stall_slot_backend", ssb);
	set(m, s, "op_retired", op_ret);
	set(m, s, "op_spec", op_spec);
	set(m, s, "br_misp_retired", 5e6);
	set(m, s, "fp_fixed_ops", 1e9);
	set(m, s, "fp_scale_ops", 0.5e9);
	set(m, s, "stall_frontend", 0.15e9);
	set(m, s, "stall_backend", 0.35e9);
	if (misp_cycles > 0)
		set(m, s, "br_mis_pred", brm);
	m->compute(m, s, NULL, out);
	used = 1 - ss / slots;
	NEAR(get(m, out, "frontend_bound"), (ssf - extra) / slots - misp_cycles * brm / c);
	NEAR(get(m, out, "backend_bound"), ssb / slots);
	NEAR(get(m, out, "retiring"), op_ret / op_spec * used);
	NEAR(get(m, out, "bad_speculation"), (1 - op_ret / op_spec) * used + misp_cycles * brm / c);
	NEAR(get(m, out, "frontend_stalled_cycles"), 0.15);
	NEAR(get(m, out, "backend_stalled_cycles"), 0.35);
	NEAR(get(m, out, "ipc"), 2.5);
	NEAR(get(m, out, "branch_mpki"), 2.0);
	NEAR(get(m, out, "flops_per_cycle"), (1e9 + granules * 0.5e9) / c);
	NEAR(get(m, out, "gflops"), 1.0 + granules * 0.5);
	check_tree(m, out);
}

/* Neoverse V1 without a BR_MIS_PRED count: frontend_bound and
 * bad_speculation cannot be formed (Arm's V1 formulas need it); backend_bound
 * and retiring still are. */
static void test_neoverse_v1_without_mispredicts(void)
{
	const struct model *m = &model_arm_v1;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", 1e9);
	set(m, s, "instructions", 2e9);
	set(m, s, "stall_slot", 4e9);
	set(m, s, "stall_slot_frontend", 1.6e9);
	set(m, s, "stall_slot_backend", 2.4e9);
	set(m, s, "op_retired", 1.8e9);
	set(m, s, "op_spec", 2e9);
	missing(m, s, "stalls", "br_mis_pred");
	m->compute(m, s, NULL, out);
	CHECK(!valid(m, out, "frontend_bound"));
	CHECK(!valid(m, out, "bad_speculation"));
	NEAR(get(m, out, "backend_bound"), 0.3);
	NEAR(get(m, out, "retiring"), 0.45);
}

/* A family that counted the target but not every event (a part that did
 * not run for it, an event not counted in this SMT state): what needs the
 * missing event is invalid, what does not is still computed. */
static void test_missing(void)
{
	const struct model *m = &model_skl;
	struct group_sums s[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	struct model_context smt = { true, NULL, 0, NULL };
	static const char *const sources[] = { "dsb_uops", "mite_uops", "ms_uops", "lsd_uops" };
	unsigned k;

	/* Skylake, SMT on, RECOVERY_CYCLES_ANY not counted */
	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", 1e9);
	set(m, s, "instructions", 1.5e9);
	set(m, s, "uops_issued", 2.2e9);
	set(m, s, "retire_slots", 2e9);
	set(m, s, "idq_not_delivered", 0.8e9);
	set(m, s, "one_thread_active", 0.3e9);
	set(m, s, "ref_xclk", 0.5e9);
	set(m, s, "recovery_cycles_any", 0.04e9);
	set(m, s, "fp_scalar_dp", 1e8);
	set(m, s, "fp_256_dp", 1e8);
	missing(m, s, "td_l1", "recovery_cycles");
	missing(m, s, "td_l1", "recovery_cycles_any");
	missing(m, s, "flops_b", "fp_256_dp");
	m->compute(m, s, &smt, out);
	NEAR(get(m, out, "frontend_bound"), 0.8e9 / (4 * 0.5e9 * 1.6));
	NEAR(get(m, out, "retiring"), 2e9 / (4 * 0.5e9 * 1.6));
	CHECK(!valid(m, out, "bad_speculation"));
	CHECK(!valid(m, out, "backend_bound"));
	CHECK(!valid(m, out, "memory_bound"));
	/* FLOPS never summed without a width */
	CHECK(!valid(m, out, "flops_per_cycle"));
	CHECK(!valid(m, out, "gflops"));
	CHECK(!valid(m, out, "flops_scalar_share"));
	CHECK(!valid(m, out, "flops_base"));

	/* Ice Lake: the frontend correction not counted is no correction of 0 */
	m = &model_icl;
	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", 1e9);
	set(m, s, "instructions", 2e9);
	set(m, s, "slots", 5e9);
	set(m, s, "td_retiring", 2e9);
	set(m, s, "td_bad_spec", 0.5e9);
	set(m, s, "td_fe_bound", 1.5e9);
	set(m, s, "td_be_bound", 1e9);
	set(m, s, "clears_count", 0.01e9);
	set(m, s, "uop_dropping", 0.05e9);
	for (k = 0; k < 4; k++)
		set(m, s, sources[k], 1e8 * (k + 1));
	missing(m, s, "td_l2", "uop_dropping");
	missing(m, s, "fe_uops", "lsd_uops");
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "retiring"), 2.0 / 5.0);
	CHECK(!valid(m, out, "frontend_bound"));
	CHECK(!valid(m, out, "bad_speculation"));
	/* uops by source: the shares need all four sources, DSB per cycle does not */
	CHECK(!valid(m, out, "dsb_coverage"));
	CHECK(!valid(m, out, "lsd_share"));
	NEAR(get(m, out, "dsb_p_overall"), 0.1);

	/* Zen 4: ex_ret_ops not counted */
	m = &model_zen4;
	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(out));
	set(m, s, "cycles", 1e9);
	set(m, s, "dispatched_ops", 2.7e9);
	set(m, s, "fe_no_ops", 1.2e9);
	set(m, s, "be_stalls", 1.5e9);
	missing(m, s, "td_l1", "retired_ops");
	m->compute(m, s, NULL, out);
	NEAR(get(m, out, "frontend_bound"), 0.2);
	CHECK(!valid(m, out, "retiring"));
	CHECK(!valid(m, out, "bad_speculation"));
}

/* Synthetic intervals: CPI = base + sum w_k * x_k with 1% noise. */
/* The fit's quality on rows with +-1% noise: R2 near 1 and the held-out
 * error about the noise (0.57% measured); a collinear pair named when
 * there is one. */
static void check_fit_quality(const struct model *m, const struct group_sums *const *ptr,
			      size_t n, bool collinear)
{
	static double a[200 * CPI_WEIGHTS], b[200];
	struct cpi_fit_quality q;
	int rows = model_generic_cpi_rows(m, ptr, n, a, b);

	CHECK_EQ_U(rows, n);
	CHECK(cpi_fit_quality(a, b, (size_t)rows, &q) == 0);
	CHECK_EQ_U(q.train_rows + q.held_rows, n);
	CHECK_EQ_U(q.held_rows, n / 4);
	if (!collinear) {
		CHECK(q.r2 > 0.99 && q.r2 <= 1.0);
		CHECK(q.held_error > 0 && q.held_error < 0.01);   /* +-1% noise: mean 0.5% */
		CHECK_EQ_U(q.n_collinear, 0);
		return;
	}
	/* (the CPIs were made from the old d-TLB counts: only the pair matters) */
	CHECK_EQ_U(q.n_collinear, 1);
	CHECK_STR(model_generic_regressor(m, q.collinear[0][0]), "itlb_miss");
	CHECK_STR(model_generic_regressor(m, q.collinear[0][1]), "dtlb_miss");
}

static void test_regression(void)
{
	static const double truth[CPI_WEIGHTS] = { 0.35, 18.0, 9.0, 0.0, 40.0, 25.0, 120.0 };
	static const char *const cols[CPI_REGRESSORS] = {
		"br_misp_retired", "ic_refill_l2", "ic_refill_mem", "itlb_miss", "dtlb_miss",
		"dc_refill_mem",
	};
	const struct model *m = &model_zen3;
	struct group_sums rows[200][MODEL_MAX_GROUPS];
	const struct group_sums *ptr[200];
	double w[CPI_WEIGHTS], a[200 * 3], b[200], x[3];
	unsigned seed = 12345, i, k;

	memset(rows, 0, sizeof(rows));
	for (i = 0; i < 200; i++) {
		double ins = 1e9, cpi = truth[0];

		for (k = 0; k < CPI_REGRESSORS; k++) {
			double per = (double)(rand_r(&seed) % 1000) / 1e5;  /* 0..0.01 per instr */

			set(m, rows[i], cols[k], per * ins);
			cpi += truth[k + 1] * per;
		}
		cpi *= 1.0 + ((double)(rand_r(&seed) % 2001) - 1000.0) / 1e5;  /* +-1% */
		set(m, rows[i], "instructions", ins);
		set(m, rows[i], "cycles", cpi * ins);
		ptr[i] = rows[i];
	}
	CHECK(model_generic_cpi_fit(m, ptr, 200, w) == 0);
	for (k = 0; k < CPI_WEIGHTS; k++) {
		CHECK(w[k] >= 0);
		if (fabs(w[k] - truth[k]) > 0.05 * truth[k] + 0.5)
			fprintf(stderr, "weight %u: %.3f, truth %.3f\n", k, w[k], truth[k]);
		CHECK(fabs(w[k] - truth[k]) <= 0.05 * truth[k] + 0.5);
	}
	CHECK(model_generic_cpi_fit(m, ptr, 5, w) < 0);  /* too few intervals */
	check_fit_quality(m, ptr, 200, false);
	/* d-TLB misses always twice the i-TLB's: one regressor, said so */
	for (i = 0; i < 200; i++) {
		int it = model_group_index(m, "cpi_b"), e = col(m, "cpi_b", "itlb_miss");

		set(m, rows[i], "dtlb_miss", 2.0 * (double)rows[i][it].v[e]);
	}
	check_fit_quality(m, ptr, 200, true);

	/* Unconstrained least squares would go negative here: y falls with
	 * the second regressor.  NNLS clamps it to 0 and fits the rest. */
	for (i = 0; i < 200; i++) {
		double u = (double)(i % 10), v = (double)(i % 7);

		a[i * 3] = 1;
		a[i * 3 + 1] = u;
		a[i * 3 + 2] = v;
		b[i] = 2 + 3 * u - 0.5 * v;
	}
	CHECK(nnls(a, b, 200, 3, x) == 0);
	CHECK(x[0] >= 0 && x[1] >= 0 && x[2] == 0);
	CHECK(fabs(x[1] - 3) < 0.1);
}

int main(void)
{
	test_skl();
	test_skl_smt(&model_skl);
	test_skl_smt(&model_skx);
	test_skl_parts();
	test_missing();
	test_icl();
	test_spr();
	test_flops_precisions();
	test_zen4();
	test_neoverse(&model_arm_n2, 5, 1, 0);
	test_neoverse(&model_arm_v1, 8, 2, 4);
	test_neoverse(&model_arm_v2, 8, 1, 0);
	test_neoverse_v1_without_mispredicts();
	test_regression();
	return 0;
}
