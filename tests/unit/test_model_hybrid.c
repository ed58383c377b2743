/*
 * test_model_hybrid.c - a hybrid CPU's model: each core type's groups and
 * metrics kept apart (checked against that core type's own model, made
 * from its own table of Linux perf's), the combined figures computed by
 * hand, the plan made with each core type's own counter budget, and the
 * host fixtures of real hybrid CPUs detected as such.
 */
#include "test.h"
#include "daemon/plan/families.h"
#include "daemon/plan/host_cpu_read.h"
#include "daemon/plan/plan_hybrid.h"
#include "lib/model/model_cpu.h"
#include "lib/model/model_hybrid.h"

#include <math.h>
#include <string.h>

/* Counts a core of width slots per cycle could produce over `cycles`:
 * Top-Down slots split fe/bs/be/ret (shares adding to 1), every other
 * event at 5 % of the cycles. */
struct split4 { double fe, bs, be, ret; };

static void fill_part(const struct model *m, struct group_sums *sums, double cycles, double ipc,
		      unsigned width, uint64_t time_ns, struct split4 td)
{
	unsigned g, e;

	for (g = 0; g < m->n_groups; g++) {
		const struct model_group *mg = &m->groups[g];
		double c = cycles / m->n_groups;   /* each group its share of the time */

		memset(&sums[g], 0, sizeof(sums[g]));
		sums[g].present = true;
		sums[g].task_clock_ns = time_ns / m->n_groups;
		for (e = 0; e < mg->n_events; e++) {
			const char *col = mg->events[e].column;
			double v = 0.05 * c;

			if (strcmp(col, "cycles") == 0)
				v = c;
			else if (strcmp(col, "instructions") == 0)
				v = ipc * c;
			else if (strcmp(col, "slots") == 0)
				v = (double)width * c;
			else if (strstr(col, "fe_bound") != NULL)
				v = td.fe * width * c;
			else if (strstr(col, "bad_spec") != NULL)
				v = td.bs * width * c;
			else if (strstr(col, "be_bound") != NULL)
				v = td.be * width * c;
			else if (strstr(col, "retiring") != NULL)
				v = td.ret * width * c;
			sums[g].v[e] = (uint64_t)v;
		}
	}
}

static const struct split4 P_SPLIT = { 0.2, 0.1, 0.3, 0.4 }, E_SPLIT = { 0.3, 0.1, 0.4, 0.2 };

static const struct metric_value *value_of(const struct model *m, const struct metric_value *out,
					   const char *name)
{
	int i = model_metric_index(m, name);

	if (i < 0)
		fprintf(stderr, "no metric %s in %s\n", name, m->name);
	CHECK(i >= 0);
	return &out[i];
}

/* Each core type's metrics are its own model's, on its own groups' counts. */
static void test_parts_routed(void)
{
	const struct model *m = model_find("alderlake");
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES];
	unsigned base[HYBRID_MAX_TYPES + 1], i, k;
	struct group_sums sums[MODEL_MAX_GROUPS];
	static struct metric_value out[MODEL_MAX_METRICS], alone[MODEL_MAX_METRICS];
	struct model_context ctx = { 0 };

	CHECK(m != NULL);
	CHECK_EQ_U(model_hybrid_parts(m, parts, units, base), 2);
	CHECK_STR(units[0], "cpu_core");
	CHECK_STR(units[1], "cpu_atom");
	CHECK(parts[0] == model_find("alderlake_cpu_core"));
	CHECK(parts[1] == model_find("alderlake_cpu_atom"));
	CHECK_EQ_U(m->n_groups, parts[0]->n_groups + parts[1]->n_groups);
	CHECK_STR(m->groups[0].name, "td_l1@cpu_core");
	CHECK_STR(m->groups[base[1]].name, "td_l1@cpu_atom");
	CHECK_STR(model_hybrid_group_unit(m, base[1]), "cpu_atom");
	CHECK(model_hybrid_group_unit(parts[0], 0) == NULL);

	/* Golden Cove is 6 wide, Gracemont 5 (perf's tables: TOPDOWN.SLOTS,
	 * and "5 * CPU_CLK_UNHALTED.CORE" in the atom's formulas) */
	fill_part(parts[0], sums, 3e9, 2.0, 6, 1000000000ULL, P_SPLIT);
	fill_part(parts[1], sums + base[1], 1e9, 0.8, 5, 500000000ULL, E_SPLIT);
	m->compute(m, sums, &ctx, out);
	for (i = 0; i < 2; i++) {
		parts[i]->compute(parts[i], sums + base[i], &ctx, alone);
		for (k = 0; k < parts[i]->n_metrics; k++) {
			char name[128];
			const struct metric_value *v;

			snprintf(name, sizeof(name), "%s@%s", parts[i]->metrics[k].name, units[i]);
			v = value_of(m, out, name);
			CHECK(v->valid == alone[k].valid);
			CHECK(!v->valid || v->value == alone[k].value || (isnan(v->value) &&
									 isnan(alone[k].value)));
		}
	}
	/* the parts computed Top-Down from the counts planted */
	CHECK(fabs(value_of(m, out, "frontend_bound@cpu_core")->value - 0.2) < 0.01);
	CHECK(fabs(value_of(m, out, "retiring@cpu_atom")->value - 0.2) < 0.01);
	/* combined by hand: IPC = (2 x 3e9 + 0.8 x 1e9) / (3e9 + 1e9) = 1.7;
	 * retiring (0.4 x 3e9 + 0.2 x 1e9) / 4e9 = 0.35 (a time weighting,
	 * 1 s and 0.5 s, would give 0.333) */
	CHECK(fabs(value_of(m, out, "ipc")->value - 1.7) < 1e-6);
	CHECK(fabs(value_of(m, out, "retiring")->value - 0.35) < 0.005);
	/* perf's P-core frontend takes INT_MISC.UOP_DROPPING off (0.2 - 0.05/6):
	 * the combined one is still the cycle-weighted mean of the two */
	CHECK(fabs(value_of(m, out, "frontend_bound")->value -
		   (value_of(m, out, "frontend_bound@cpu_core")->value * 3e9 +
		    value_of(m, out, "frontend_bound@cpu_atom")->value * 1e9) / 4e9) < 1e-9);
}

/* A process that ran on the E-cores only: the P-core stack is not
 * measured (not 0), and the combined figures are the E-core's. */
static void test_one_core_type(void)
{
	const struct model *m = model_find("alderlake");
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES];
	unsigned base[HYBRID_MAX_TYPES + 1];
	struct group_sums sums[MODEL_MAX_GROUPS];
	static struct metric_value out[MODEL_MAX_METRICS];
	struct model_context ctx = { 0 };

	model_hybrid_parts(m, parts, units, base);
	memset(sums, 0, sizeof(sums));
	fill_part(parts[1], sums + base[1], 1e9, 0.8, 5, 500000000ULL, E_SPLIT);
	m->compute(m, sums, &ctx, out);
	CHECK(!value_of(m, out, "ipc@cpu_core")->valid);
	CHECK(!value_of(m, out, "frontend_bound@cpu_core")->valid);
	CHECK(fabs(value_of(m, out, "ipc")->value - 0.8) < 1e-6);
	/* perf's atom table has no IPC metric: the combined one needs none */
	CHECK(model_metric_index(m, "ipc@cpu_atom") < 0);
	CHECK(fabs(value_of(m, out, "retiring@cpu_atom")->value - 0.2) < 0.01);
	CHECK(fabs(value_of(m, out, "retiring")->value - 0.2) < 0.01);
}

/* Each core type planned with its own PMU's counters: the E-core keeps
 * CPUID leaf 0xA's 6 general counters, the P-core has 8 (the kernel's
 * intel_pmu_init for hybrid Alder Lake; lib/model/model_table.c); every
 * group fits its own core type's budget. */
static void test_plan_per_core_type(void)
{
	const struct model *m = model_find("alderlake");
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES];
	unsigned base[HYBRID_MAX_TYPES + 1], g, i;
	struct plan_budget b[HYBRID_MAX_TYPES];
	bool off[MODEL_MAX_GROUPS];
	struct plan p;
	char err[512];
	bool seen[HYBRID_MAX_TYPES] = { false };

	model_hybrid_parts(m, parts, units, base);
	CHECK(families_parse(m, "td_l1", off, err, sizeof(err)) == 0);
	CHECK(!off[0] && !off[base[1]] && off[1]);
	CHECK(families_parse(m, "all", off, err, sizeof(err)) == 0);
	for (i = 0; i < 2; i++)
		plan_budget_for(parts[i], false, true, 0, &b[i]);
	CHECK(b[1].gp_total < b[0].gp_total);
	CHECK(plan_make_hybrid(m, off, b, &p, err, sizeof(err)) == 0);
	CHECK(p.model == m);
	for (g = 0; g < p.n_groups; g++) {
		unsigned t = p.groups[g].family >= base[1] ? 1 : 0;

		seen[t] = true;
		CHECK(p.groups[g].gp_needed <= b[t].gp_free);
	}
	CHECK(seen[0] && seen[1]);
	/* the host's CPUID leaf 0xA says 6 (what hybrid Alder Lake reports for
	 * the package): the P-core keeps its 8, as the kernel gives it */
	{
		struct plan_host host = { .gp = 6 };
		struct plan_budget hb[HYBRID_MAX_TYPES];

		snprintf(host.gp_from, sizeof(host.gp_from), "CPUID leaf 0xA");
		CHECK_EQ_U(plan_host_budgets(m, &host, "all", "0", 0, hb), 2);
		CHECK_EQ_U(hb[0].gp_total, 8);
		CHECK_EQ_U(hb[1].gp_total, 6);
		/* a model of one core type still takes a lower CPUID figure */
		CHECK_EQ_U(plan_host_budgets(parts[0], &host, "all", "0", 0, hb), 1);
		CHECK_EQ_U(hb[0].gp_total, 6);
	}
	/* each core type's groups take turns on its own CPUs: its families'
	 * shares of the time add up to 1 there */
	for (i = 0; i < 2; i++) {
		double sum = 0;
		unsigned f;

		for (f = base[i]; f < base[i + 1]; f++)
			sum += plan_family_share(&p, f);
		CHECK(fabs(sum - 1.0) < 1e-9);
	}
}

/* Real hybrid CPUs' facts (tests/data/hosts): the model counts both core
 * types, each with its own table's model. */
static void test_hosts(void)
{
	static const char *const hosts[] = { "alderlake", "raptorlake", "meteorlake",
					     "arrowlake", "lunarlake" };
	size_t i;

	for (i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		char root[128], why[512];
		const struct model *ret, *models[2];
		const char *units[2];
		unsigned n;
		struct host_cpu c;

		snprintf(root, sizeof(root), "tests/data/hosts/%s", hosts[i]);
		if (host_cpu_read(root, &c, why, sizeof(why)) < 0) {
			fprintf(stderr, "no fixture %s: %s\n", root, why);
			CHECK(0);
		}
		CHECK(model_for_cpu(&c, NULL, &ret, models, units, &n, why, sizeof(why)) == 0);
		CHECK_EQ_U(n, 2);
		CHECK_EQ_U(model_hybrid_parts(ret, models, units,
					      (unsigned[3]){ 0 }), 2);
	}
}

int main(void)
{
	test_parts_routed();
	test_one_core_type();
	test_plan_per_core_type();
	test_hosts();
	printf("test_model_hybrid: ok\n");
	return 0;
}
