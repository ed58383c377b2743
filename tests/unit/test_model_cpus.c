/*
 * test_model_cpus.c - issue 29's CPUs, each proven: the model stackd picks,
 * its plan, and its Top-Down level 1 against perf's own expressions.
 *
 * For every CPU of the issue (one host fixture each, tests/data/hosts/, whose
 * facts and sources its README.md gives):
 *  1. the host's files give the model written below (plan_cpu_models(), what
 *     `stackd --plan --host DIR` plans; hybrids one per core type); a CPU
 *     with a table never gets "software" or a generic model, but for the
 *     exceptions stated in the list;
 *  2. perf's PERF_CPUID spelling of the CPU (`--plan --cpuid ID`) gives the
 *     same;
 *  3. each model plans with SMT on and off and the NMI watchdog on and off,
 *     and collects the family holding level 1's events;
 *  4. where perf's table has level 1, the model's frontend_bound,
 *     backend_bound, retiring and bad_speculation (and AMD's smt_contention)
 *     sum to 1 on a physically possible count vector and equal perf's
 *     metrics evaluated directly (perf_set_eval) on the same counts.
 *
 * The expectations come from Linux 7.2.12 (tools/perf/pmu-events/arch/):
 * the table each id maps to is mapfile.csv's row; the model is that table's
 * (lib/model/model_table.h, named after its directory and core type) or,
 * for the tables we wrote a model of, ours (skylake skl, skylakex skx,
 * icelake icl, icelakex icx, sapphirerapids spr, amdzen2/3/4, arm/neoverse-n1,
 * n2-v2 (N2 and V2 apart), v1); a table's level 1 is its metrics of group
 * TopdownL1 (Intel, Arm) or PipelineL1 (AMD).  The count vectors are built
 * from those metrics' own events, so that each CPU's level 1 is a split of
 * its slots: perf's metrics summing to 1 on them checks the vector, and
 * ours agreeing with perf's checks ours.
 *
 * Every failure is listed (not only the first), then the test fails.
 */
#include "daemon/plan/plan.h"
#include "daemon/plan_cli.h"
#include "lib/model/model_hand_tables.h"
#include "lib/perfdb/perf_set.h"
#include "test_model.h"

#include <errno.h>

#define HOSTS "tests/data/hosts/"

static int failures;
static const char *now;   /* the case being checked, for the messages */

#define EXPECT(e) do { if (!(e)) { fprintf(stderr, "%s:%d: %s: EXPECT(%s) failed\n", \
	__FILE__, __LINE__, now, #e); failures++; } } while (0)

/* --- the count vectors -------------------------------------------------- */

/* An event's count: per_cycle x cycles + per_slot x slots (slots = width x
 * cycles), over one second of 10^7 cycles.  Names as perf's expressions
 * write them; a name the kernel maps to the same count (perf_event_same:
 * cycles = CPU_CLK_UNHALTED.THREAD = ls_not_halted_cyc = CPU_CYCLES) also
 * matches. */
struct rate {
	const char *event;
	double per_cycle, per_slot;
};

#define CYCLES 1e7
#define SLOTS_ANY 4

/* Intel with perf metrics (Ice Lake on, the hybrids' cpu_core): the four
 * topdown-* split TOPDOWN.SLOTS; UOP_DROPPING takes from frontend_bound,
 * CLEARS_COUNT adds to backend_bound (icl-metrics.json). */
static const struct rate v_intel_pm[] = {
	{ "cycles", 1, 0 }, { "instructions", 1.5, 0 }, { "TOPDOWN.SLOTS", 0, 1 },
	{ "topdown-retiring", 0, 0.35 }, { "topdown-bad-spec", 0, 0.10 },
	{ "topdown-fe-bound", 0, 0.20 }, { "topdown-be-bound", 0, 0.35 },
	{ "INT_MISC.UOP_DROPPING", 0, 0.02 }, { "INT_MISC.CLEARS_COUNT", 0.001, 0 },
	{ NULL, 0, 0 },
};

/* Intel before Ice Lake, SMT off (skl-metrics.json): slots are 4 x
 * CPU_CLK_UNHALTED.THREAD; issued = retired + the wasted 0.10, 0.02 more
 * lost to recovery (4 x RECOVERY_CYCLES); alone on its core, the thread's
 * ONE_THREAD_ACTIVE is every REF_XCLK tick and THREAD_ANY its own. */
static const struct rate v_intel_pre_icl[] = {
	{ "cycles", 1, 0 }, { "instructions", 1.5, 0 }, { "CPU_CLK_UNHALTED.THREAD_ANY", 1, 0 },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", 0, 0.20 }, { "UOPS_ISSUED.ANY", 0, 0.45 },
	{ "UOPS_RETIRED.RETIRE_SLOTS", 0, 0.35 }, { "INT_MISC.RECOVERY_CYCLES", 0.02, 0 },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", 0.02, 0 },
	{ "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", 0.25, 0 }, { "CPU_CLK_UNHALTED.REF_XCLK", 0.25, 0 },
	{ NULL, 0, 0 },
};

/* Intel E-cores (srf-metrics.json, the hybrids' cpu_atom): the TOPDOWN_*
 * events split width x CPU_CLK_UNHALTED.CORE; the fixed-counter ".ALL" and
 * the general ".ALL_P" count the same. */
static const struct rate v_intel_atom[] = {
	{ "cycles", 1, 0 }, { "instructions", 1.2, 0 },
	{ "TOPDOWN_FE_BOUND.ALL", 0, 0.20 }, { "TOPDOWN_FE_BOUND.ALL_P", 0, 0.20 },
	{ "TOPDOWN_BAD_SPECULATION.ALL", 0, 0.10 }, { "TOPDOWN_BAD_SPECULATION.ALL_P", 0, 0.10 },
	{ "TOPDOWN_BE_BOUND.ALL", 0, 0.35 }, { "TOPDOWN_BE_BOUND.ALL_P", 0, 0.35 },
	{ "TOPDOWN_RETIRING.ALL", 0, 0.35 }, { "TOPDOWN_RETIRING.ALL_P", 0, 0.35 },
	{ NULL, 0, 0 },
};

/* AMD Zen 4/5 with SMT on (pipeline.json): each dispatch slot dispatches an
 * op or stalls for the frontend, the backend or the sibling thread;
 * dispatched ops that do not retire are bad speculation. */
static const struct rate v_amd[] = {
	{ "cycles", 1, 0 }, { "instructions", 1.2, 0 },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", 0, 0.20 },
	{ "de_no_dispatch_per_slot.backend_stalls", 0, 0.30 },
	{ "de_no_dispatch_per_slot.smt_contention", 0, 0.05 },
	{ "de_src_op_disp.all", 0, 0.45 }, { "ex_ret_ops", 0, 0.40 },
	{ NULL, 0, 0 },
};

/* Arm (sbsa.json and the Neoverse metrics.json): STALL_SLOT is the
 * frontend's and the backend's stalled slots; the others issue OP_SPEC,
 * of which OP_RETIRED retire. */
static const struct rate v_arm[] = {
	{ "cycles", 1, 0 }, { "instructions", 1.2, 0 },
	{ "STALL_SLOT", 0, 0.60 }, { "STALL_SLOT_FRONTEND", 0, 0.30 },
	{ "STALL_SLOT_BACKEND", 0, 0.30 }, { "OP_SPEC", 0, 0.40 }, { "OP_RETIRED", 0, 0.35 },
	{ "BR_MIS_PRED", 0.005, 0 }, { "STALL_FRONTEND_FLUSH", 0.01, 0 },
	{ NULL, 0, 0 },
};

static int rate_count(const struct rate *vec, unsigned width, const char *name, double *out)
{
	for (; vec->event != NULL; vec++)
		if (perf_event_same(name, vec->event)) {
			*out = round(CYCLES * (vec->per_cycle + vec->per_slot * width));
			return 0;
		}
	return -ENOENT;
}

/* --- the CPUs ------------------------------------------------------------ */

/* Our names for perf's level 1: perf's Intel "tma_" ones, AMD's and Arm's
 * (sbsa.json) same names, or AmpereOne's (ampereone/metrics.json). */
enum l1_names { N_TMA, N_SAME, N_AMPERE };

struct core_type {
	const char *model;     /* NULL: no second core type */
	/* the family holding level 1's events: "td_l1" in a table's model, our
	 * models' own (the group their frontend_bound reads); NULL: none */
	const char *family;
	const struct rate *vec;
	/* slots per cycle: perf's constant where its level 1 writes one (Intel
	 * before Ice Lake 4, Atom cores 5/6/8, AMD 6/8, Neoverse V1 8, V3 10, N3
	 * 5); the core's issue width where nothing in level 1 reads it (Intel
	 * perf metrics: cycles only); N2 5 and V2 8, their caps/slots as
	 * tests/oracle/tables/arm_neoverse_{n2,v2}.json copy it; 0 where no
	 * source here states it (AmpereOne): SLOTS_ANY, as its level 1 sums to
	 * 1 for any #slots.  Arm's #slots is given to both sides, to the model
	 * as a host's caps/slots (model_context.slots). */
	unsigned width;
};

struct cpu_case {
	const char *host;
	const char *cpuid;       /* perf's PERF_CPUID; NULL: not asked */
	const char *cpuid_model; /* the --cpuid answer where not the host's */
	const char *table;       /* mapfile.csv's directory; NULL: none */
	enum l1_names names;
	struct core_type ct[2];
	/* A CPU with a table whose model has no level 1, or is generic:
	 * why (NULL: none expected). */
	const char *exception;
};

#define PM v_intel_pm
#define ATOM v_intel_atom

static const struct cpu_case cases[] = {
	{ "skylake-sp", "GenuineIntel-6-55-4", NULL, "skylakex", N_TMA,
	  { { "skx", "td_l1", v_intel_pre_icl, 4 } }, NULL },
	{ "cascadelake", "GenuineIntel-6-55-7", NULL, "cascadelakex", N_TMA,
	  { { "cascadelakex", "td_l1", v_intel_pre_icl, 4 } }, NULL },
	{ "icelake-sp", "GenuineIntel-6-6A-6", NULL, "icelakex", N_TMA,
	  { { "icx", "td_l2", PM, 5 } }, NULL },
	{ "sapphirerapids", "GenuineIntel-6-8F-8", NULL, "sapphirerapids", N_TMA,
	  { { "spr", "td", PM, 6 } }, NULL },
	{ "emeraldrapids", "GenuineIntel-6-CF-2", NULL, "emeraldrapids", N_TMA,
	  { { "emeraldrapids", "td_l1", PM, 6 } }, NULL },
	{ "graniterapids", "GenuineIntel-6-AD-1", NULL, "graniterapids", N_TMA,
	  { { "graniterapids", "td_l1", PM, 6 } }, NULL },
	{ "sierraforest", "GenuineIntel-6-AF-3", NULL, "sierraforest", N_TMA,
	  { { "sierraforest", "td_l1", ATOM, 6 } }, NULL },
	{ "clearwaterforest", "GenuineIntel-6-DD-0", NULL, "clearwaterforest", N_TMA,
	  { { "clearwaterforest", NULL, NULL, 0 } },
	  "perf 7.2.12's clearwaterforest table has no Top-Down metric (cwf-metrics.json: "
	  "Power, smi and ungrouped ones only), so no family: the generic model's groups "
	  "under the table's name, with those of its metrics they allow" },
	{ "alderlake", "GenuineIntel-6-97-2", NULL, "alderlake", N_TMA,
	  { { "alderlake_cpu_core", "td_l1", PM, 6 }, { "alderlake_cpu_atom", "td_l1", ATOM, 5 } },
	  NULL },
	{ "raptorlake", "GenuineIntel-6-B7-1", NULL, "alderlake", N_TMA,
	  { { "alderlake_cpu_core", "td_l1", PM, 6 }, { "alderlake_cpu_atom", "td_l1", ATOM, 5 } },
	  NULL },
	{ "meteorlake", "GenuineIntel-6-AA-4", NULL, "meteorlake", N_TMA,
	  { { "meteorlake_cpu_core", "td_l1", PM, 6 }, { "meteorlake_cpu_atom", "td_l1", ATOM, 6 } },
	  NULL },
	{ "arrowlake", "GenuineIntel-6-C6-2", NULL, "arrowlake", N_TMA,
	  { { "arrowlake_cpu_core", "td_l1", PM, 8 }, { "arrowlake_cpu_atom", "td_l1", ATOM, 8 } },
	  NULL },
	{ "lunarlake", "GenuineIntel-6-BD-1", NULL, "lunarlake", N_TMA,
	  { { "lunarlake_cpu_core", "td_l1", PM, 8 }, { "lunarlake_cpu_atom", "td_l1", ATOM, 8 } },
	  NULL },
	{ "skylake", "GenuineIntel-6-5E-3", NULL, "skylake", N_TMA,
	  { { "skl", "td_l1", v_intel_pre_icl, 4 } }, NULL },
	{ "icelake", "GenuineIntel-6-7E-5", NULL, "icelake", N_TMA,
	  { { "icl", "td_l2", PM, 5 } }, NULL },
	{ "zen2", "AuthenticAMD-23-31-0", NULL, "amdzen2", N_SAME,
	  { { "amd64_fam17h_zen2", NULL, NULL, 0 } },
	  "perf's amdzen2 has no PipelineL1 (no pipeline.json)" },
	{ "zen3", "AuthenticAMD-25-1-1", NULL, "amdzen3", N_SAME,
	  { { "amd64_fam19h_zen3", NULL, NULL, 0 } },
	  "perf's amdzen3 has no PipelineL1 (no pipeline.json)" },
	{ "zen3-client", "AuthenticAMD-25-21-0", NULL, "amdzen3", N_SAME,
	  { { "amd64_fam19h_zen3", NULL, NULL, 0 } },
	  "perf's amdzen3 has no PipelineL1 (no pipeline.json)" },
	{ "zen4", "AuthenticAMD-25-11-1", NULL, "amdzen4", N_SAME,
	  { { "amd64_fam19h_zen4", "td_l1", v_amd, 6 } }, NULL },
	{ "zen5", "AuthenticAMD-26-2-1", NULL, "amdzen5", N_SAME,
	  { { "amdzen5", "td_l1", v_amd, 8 } }, NULL },
	{ "zen5-dense", "AuthenticAMD-26-11-0", NULL, "amdzen5", N_SAME,
	  { { "amdzen5", "td_l1", v_amd, 8 } }, NULL },
	{ "neoverse-n1", "0x00000000413fd0c1", NULL, "arm/neoverse-n1", N_SAME,
	  { { "arm_n1", NULL, NULL, 0 } },
	  "perf's neoverse-n1 metrics.json has no TopdownL1 (N1 has no STALL_SLOT events)" },
	{ "neoverse-n2", "0x00000000410fd490", NULL, "arm/neoverse-n2-v2", N_SAME,
	  { { "arm_n2", "td", v_arm, 5 } }, NULL },
	{ "neoverse-v1", "0x00000000411fd401", NULL, "arm/neoverse-v1", N_SAME,
	  { { "arm_v1", "td", v_arm, 8 } }, NULL },
	{ "neoverse-v2", "0x00000000410fd4f0", NULL, "arm/neoverse-n2-v2", N_SAME,
	  { { "arm_v2", "td", v_arm, 8 } }, NULL },
	{ "neoverse-v2-dt", "0x00000000410fd4f0", NULL, "arm/neoverse-n2-v2", N_SAME,
	  { { "arm_v2", "td", v_arm, 8 } }, NULL },
	{ "neoverse-v3", "0x00000000410fd830", NULL, "arm/neoverse-v3", N_SAME,
	  { { "neoverse-v3", "td_l1", v_arm, 10 } }, NULL },
	{ "neoverse-n3", "0x00000000410fd8e0", NULL, "arm/neoverse-n3", N_SAME,
	  { { "neoverse-n3", "td_l1", v_arm, 5 } }, NULL },
	{ "ampereone", "0x00000000c00fac30", NULL, "ampere/ampereone", N_AMPERE,
	  { { "ampereone", "td_l1", v_arm, 0 } }, NULL },
	/* No table: the generic model, with Intel's architectural Top-Down
	 * where sysfs shows perf metrics (the fixture's cpu/events/slots); a
	 * --cpuid shows no sysfs, hence no perf metrics. */
	{ "unknown-intel", "GenuineIntel-19-1-0", "generic", NULL, N_TMA,
	  { { "generic_td", "td_l1", NULL, 0 } }, NULL },
	{ "bartlettlake", "GenuineIntel-6-D7-0", NULL, NULL, N_TMA,
	  { { "generic", NULL, NULL, 0 } }, NULL },
	/* A Sapphire Rapids guest with no PMU: the software model (its id
	 * alone would name the sapphirerapids table, checked above). */
	{ "vm-nopmu", NULL, NULL, NULL, N_TMA, { { "software", NULL, NULL, 0 } }, NULL },
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static unsigned n_types(const struct cpu_case *c)
{
	return c->ct[1].model != NULL ? 2 : 1;
}

/* --- 1 and 2: the model named ------------------------------------------- */

static bool generic_or_software(const char *name)
{
	return strcmp(name, "software") == 0 || strncmp(name, "generic", 7) == 0;
}

/* The models for the host (cpuid NULL) or the id, as `stackd --plan`
 * chooses them, against the case's list. */
static void check_choice(const struct cpu_case *c, const char *cpuid,
			 const struct model *got[2])
{
	char root[256], why[512];
	const char *units[2];
	unsigned n = 0, i;
	int r;

	snprintf(root, sizeof(root), HOSTS "%s", c->host);
	got[0] = got[1] = NULL;
	r = plan_cpu_models(cpuid, cpuid != NULL ? NULL : root, got, units, &n, why, sizeof(why));
	EXPECT(r == 0);
	if (r < 0) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	EXPECT(n == n_types(c));
	for (i = 0; i < n && i < n_types(c); i++) {
		const char *want = cpuid != NULL && c->cpuid_model ? c->cpuid_model : c->ct[i].model;

		EXPECT(got[i] != NULL && strcmp(got[i]->name, want) == 0);
		if (got[i] == NULL || strcmp(got[i]->name, want) != 0)
			fprintf(stderr, "  %s: got %s, want %s (%s)\n", cpuid ? cpuid : root,
				got[i] ? got[i]->name : "none", want, why);
		/* a CPU with a table: its model, bar a stated exception */
		if (c->table != NULL && c->exception == NULL && got[i] != NULL)
			EXPECT(!generic_or_software(got[i]->name));
	}
	if (n == 2) {
		EXPECT(units[0] != NULL && strcmp(units[0], "cpu_core") == 0);
		EXPECT(units[1] != NULL && strcmp(units[1], "cpu_atom") == 0);
	}
}

/* --- 3: the plan -------------------------------------------------------- */

/* m plans with SMT on and off, the NMI watchdog on and off, and collects
 * family (NULL: nothing to look for). */
static void check_plans(const struct model *m, const char *family)
{
	bool off[MODEL_MAX_GROUPS] = { false };
	int f = family != NULL ? model_group_index(m, family) : -1;
	unsigned smt, wd;

	if (family != NULL)
		EXPECT(f >= 0);
	for (smt = 0; smt < 2; smt++)
		for (wd = 0; wd < 2; wd++) {
			struct plan_budget b;
			struct plan *p = calloc(1, sizeof(*p));
			char err[1024] = "";
			int r;

			CHECK(p != NULL);
			plan_budget_for(m, smt, wd, 0, &b);
			r = plan_make(m, off, &b, p, err, sizeof(err));
			EXPECT(r == 0);
			if (r != 0)
				fprintf(stderr, "  %s, SMT %u, watchdog %u: %d %s\n", m->name, smt, wd,
					r, err);
			if (r == 0 && f >= 0) {
				EXPECT(p->families[f].collected);
				if (!p->families[f].collected)
					fprintf(stderr, "  %s, SMT %u, watchdog %u: %s left out: %s\n",
						m->name, smt, wd, family, p->families[f].why);
			}
			free(p);
		}
}

/* --- 4: level 1, ours and perf's ---------------------------------------- */

static bool in_groups(const char *groups, const char *g)
{
	size_t len = strlen(g);
	const char *p = groups;

	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, ";");

		if (n == len && strncmp(p, g, len) == 0)
			return true;
		p += n + (p[n] == ';');
	}
	return false;
}

static bool level1(const struct perfdb_metric *pm)
{
	return pm->groups != NULL &&
	       (in_groups(pm->groups, "TopdownL1") || in_groups(pm->groups, "PipelineL1"));
}

struct vec_ctx {
	const struct rate *vec;
	unsigned width;
};

static int vec_event(void *ctx, const char *name, double *out)
{
	const struct vec_ctx *v = ctx;

	return rate_count(v->vec, v->width, name, out);
}

/* perf's metric named name of set s on the vector, as the share perf prints
 * ("100%" and "1percent of slots" scaled to 0..1); NAN when it does not
 * evaluate. */
static double perf_value(const struct perf_set *s, const char *name, const struct perf_values *pv)
{
	int i = perf_set_index(s, name);
	const char *unit;
	bool fraction;
	double v;

	if (i < 0 || perf_set_eval(s, (unsigned)i, pv, &v) < 0)
		return NAN;
	return perf_scale(perf_set_metric(s, (unsigned)i), v, &fraction, &unit);
}

static const char *perf_name(enum l1_names kind, const char *ours, char *buf, size_t len)
{
	if (kind == N_TMA)
		snprintf(buf, len, "tma_%s", ours);
	else if (kind == N_AMPERE && strcmp(ours, "retiring") == 0)
		snprintf(buf, len, "retired_fraction");
	else if (kind == N_AMPERE && strcmp(ours, "bad_speculation") == 0)
		snprintf(buf, len, "slots_lost_misspeculation_fraction");
	else
		snprintf(buf, len, "%s", ours);
	return buf;
}

/* Every group of m counted the vector for one second. */
static void fill_sums(const struct model *m, const struct rate *vec, unsigned width,
		      struct group_sums *s)
{
	unsigned g, e;

	for (g = 0; g < m->n_groups; g++) {
		s[g].present = true;
		s[g].task_clock_ns = 1000000000;
		for (e = 0; e < m->groups[g].n_events; e++) {
			double x;

			if (rate_count(vec, width, model_event_perf_name(&m->groups[g].events[e]),
				       &x) == 0)
				s[g].v[e] = (uint64_t)x;
			else
				s[g].missing |= 1u << e;
		}
	}
}

/* perf's level 1 of set s on the vector sums to 1: the vector is a
 * split of the CPU's slots as perf's own formulas read it. */
static void check_perf_sum(const struct perf_set *s, const struct perf_values *pv)
{
	unsigned i, n = 0;
	double sum = 0;

	for (i = 0; i < perf_set_count(s); i++) {
		const struct perfdb_metric *pm = perf_set_metric(s, i);
		double v;

		if (!level1(pm))
			continue;
		v = perf_value(s, pm->name, pv);
		n++;
		EXPECT(!isnan(v));
		if (isnan(v))
			fprintf(stderr, "  perf's %s does not evaluate\n", pm->name);
		sum += v;
	}
	EXPECT(n >= 4);
	EXPECT(fabs(sum - 1.0) <= 1e-9);
	if (fabs(sum - 1.0) > 1e-9)
		fprintf(stderr, "  perf's level 1 sums to %.12f\n", sum);
}

static void check_level1(const struct cpu_case *c, const struct core_type *ct,
			 const struct model *m, const char *unit)
{
	static const char *const ours[] = { "frontend_bound", "backend_bound", "retiring",
					    "bad_speculation", "smt_contention" };
	const struct perf_set *s = perf_set_get(perfdb_table_named(c->table), unit);
	struct group_sums sums[MODEL_MAX_GROUPS];
	struct metric_value out[MODEL_MAX_METRICS];
	struct model_context ctx;
	struct vec_ctx vc = { ct->vec, ct->width ? ct->width : SLOTS_ANY };
	struct perf_values pv;
	double sum = 0;
	unsigned k;

	CHECK(s != NULL);
	memset(&pv, 0, sizeof(pv));
	pv.event = vec_event;
	pv.ctx = &vc;
	pv.smt_on = ct->vec == v_amd;  /* smt_contention counts only with SMT */
	pv.core_wide = !pv.smt_on;
	pv.slots = vc.width;
	pv.cpuid = c->cpuid;
	check_perf_sum(s, &pv);

	memset(sums, 0, sizeof(sums));
	memset(out, 0, sizeof(out));
	memset(&ctx, 0, sizeof(ctx));
	ctx.smt_on = pv.smt_on;
	/* #slots as an Arm host's PMU gives it (caps/slots) */
	ctx.slots = m->vendor == VENDOR_ARM ? vc.width : 0;
	fill_sums(m, vc.vec, vc.width, sums);
	m->compute(m, sums, &ctx, out);
	for (k = 0; k < sizeof(ours) / sizeof(ours[0]); k++) {
		int i = model_metric_index(m, ours[k]);
		char name[64];
		double want = perf_value(s, perf_name(c->names, ours[k], name, sizeof(name)), &pv);

		if (k == 4 && i < 0)
			continue;  /* perf's AMD level 1 alone has it */
		EXPECT(i >= 0 && out[i].valid);
		if (i < 0 || !out[i].valid) {
			fprintf(stderr, "  %s: %s %s\n", m->name, ours[k],
				i < 0 ? "is not a metric" : "does not compute");
			continue;
		}
		sum += out[i].value;
		EXPECT(fabs(out[i].value - want) <= 1e-9);
		if (fabs(out[i].value - want) > 1e-9 || isnan(want))
			fprintf(stderr, "  %s: %s = %.12f, perf's %s = %.12f\n", m->name, ours[k],
				out[i].value, name, want);
	}
	EXPECT(fabs(sum - 1.0) <= 1e-9);
	if (fabs(sum - 1.0) > 1e-9)
		fprintf(stderr, "  %s: level 1 sums to %.12f\n", m->name, sum);
}

/* --- the run ------------------------------------------------------------ */

static void check_case(const struct cpu_case *c)
{
	const struct model *host[2];
	unsigned i;

	now = c->host;
	check_choice(c, NULL, host);
	if (c->cpuid != NULL) {
		const struct model *byid[2];

		check_choice(c, c->cpuid, byid);
		if (c->cpuid_model == NULL)
			for (i = 0; i < n_types(c); i++)
				EXPECT(byid[i] == host[i]);
	}
	for (i = 0; i < n_types(c); i++) {
		const struct core_type *ct = &c->ct[i];

		if (host[i] == NULL || strcmp(host[i]->name, ct->model) != 0)
			continue;  /* reported above */
		check_plans(host[i], ct->family);
		if (ct->vec != NULL && c->table != NULL)
			check_level1(c, ct, host[i], n_types(c) == 2 ? (i ? "cpu_atom" : "cpu_core")
								       : NULL);
	}
}

int main(void)
{
	size_t i;

	for (i = 0; i < N_CASES; i++)
		check_case(&cases[i]);
	/* every case with a table and no stated exception has a level 1 to
	 * check: the list itself leaves no CPU of the issue unchecked */
	for (i = 0; i < N_CASES; i++) {
		now = cases[i].host;
		if (cases[i].table != NULL && cases[i].exception == NULL)
			EXPECT(cases[i].ct[0].family != NULL && cases[i].ct[0].vec != NULL);
	}
	if (failures > 0) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("test_model_cpus: %zu hosts OK\n", N_CASES);
	return 0;
}
