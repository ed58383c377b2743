/*
 * test_model_hwgeneric.c - the generic hardware models (model_hwgeneric.c)
 * against facts from outside stackd:
 *  - the formulas on hand-computed counts, as Linux perf 7.2 writes them
 *    (tools/perf/pmu-events/arch/common/common/metrics.json: branch_miss_rate
 *    = branch-misses / branches, frontend_cycles_idle = stalled-cycles-frontend
 *    / cpu-cycles; x86/sapphirerapids/spr-metrics.json: tma_retiring =
 *    topdown-retiring / (the four topdown-* summed), tma_bad_speculation =
 *    max(1 - the other three, 0));
 *  - every perf:: event encodes through libpfm4 (the collector's
 *    event_encode) to PERF_TYPE_HARDWARE with the config perf 7.2 gives its
 *    perf_name (arch/common/common/legacy-hardware.json, LegacyConfigCode;
 *    the same numbers as include/uapi/linux/perf_event.h);
 *  - the perf-metrics pseudo events resolve, against a fake sysfs tree
 *    holding the kernel's own strings (arch/x86/events/intel/core.c: slots
 *    "event=0x00,umask=0x4", topdown-retiring .. -be-bound umask 0x80..0x83;
 *    format event "config:0-7", umask "config:8-15"), to the kernel's
 *    INTEL_TD_SLOTS 0x0400 and INTEL_TD_METRIC_* 0x8000..0x8300
 *    (arch/x86/include/asm/perf_event.h);
 *  - the planner fits every family of each model with SMT on and off, the
 *    NMI watchdog on and off, and four general counters.
 */
#include "daemon/collect/event_encode.h"
#include "daemon/collect/sysfs_event.h"
#include "daemon/plan/plan.h"
#include "test_model.h"

#include <stdlib.h>
#include <sys/stat.h>

static const struct model *const models[] = {
	&model_hw_generic, &model_hw_generic_td, &model_hw_generic_stalls,
};

#define N_MODELS (sizeof(models) / sizeof(models[0]))

/* count of one column of one family, the family measured for ns */
static void put(const struct model *m, struct group_sums *s, const char *group,
		const char *column, uint64_t count, uint64_t ns)
{
	int g = model_group_index(m, group);

	CHECK(g >= 0);
	s[g].present = true;
	s[g].task_clock_ns = ns;
	s[g].v[col(m, group, column)] = count;
}

/* core measured 1 s, cache 3 s: what every model has */
static void put_base(const struct model *m, struct group_sums *s)
{
	put(m, s, "core", "cycles", 2000000, 1000000000);
	put(m, s, "core", "instructions", 3000000, 1000000000);
	put(m, s, "core", "branches", 600000, 1000000000);
	put(m, s, "core", "branch_misses", 12000, 1000000000);
	put(m, s, "cache", "cycles", 1000000, 3000000000);
	put(m, s, "cache", "instructions", 1000000, 3000000000);
	put(m, s, "cache", "cache_references", 50000, 3000000000);
	put(m, s, "cache", "cache_misses", 5000, 3000000000);
}

static void compute(const struct model *m, const struct group_sums *s, struct metric_value *out)
{
	struct model_context ctx = { false, NULL, 0, NULL };

	memset(out, 0, sizeof(*out) * MODEL_MAX_METRICS);
	m->compute(m, s, &ctx, out);
}

static void check_generic(void)
{
	const struct model *m = &model_hw_generic;
	struct group_sums s[MODEL_MAX_GROUPS] = { 0 };
	struct metric_value out[MODEL_MAX_METRICS];

	put_base(m, s);
	compute(m, s, out);
	/* (3e6 + 1e6) instructions over (2e6 + 1e6) cycles, both families */
	NEAR(get(m, out, "ipc"), 4.0 / 3.0);
	NEAR(get(m, out, "cpi"), 0.75);
	NEAR(get(m, out, "branch_miss_ratio"), 0.02);     /* 12000 / 600000 */
	NEAR(get(m, out, "branch_mpki"), 4.0);            /* 1000 x 12000 / 3e6 */
	NEAR(get(m, out, "cache_miss_ratio"), 0.1);       /* 5000 / 50000 */
	NEAR(get(m, out, "cache_mpki"), 5.0);             /* 1000 x 5000 / 1e6 */
	/* core measured 1 s of the 4 s the families measured, cache 3 s */
	NEAR(out[model_metric_index(m, "branch_mpki")].coverage, 0.25);
	NEAR(out[model_metric_index(m, "cache_miss_ratio")].coverage, 0.75);
	NEAR(out[model_metric_index(m, "ipc")].coverage, 1.0);

	/* branches not counted: its ratio is unknown, not 0 or infinite */
	missing(m, s, "core", "branches");
	compute(m, s, out);
	CHECK(!valid(m, out, "branch_miss_ratio"));
	NEAR(get(m, out, "branch_mpki"), 4.0);
	/* the cache family did not run: IPC from core alone, 3e6 / 2e6 */
	s[model_group_index(m, "cache")].present = false;
	compute(m, s, out);
	CHECK(!valid(m, out, "cache_miss_ratio") && !valid(m, out, "cache_mpki"));
	NEAR(get(m, out, "ipc"), 1.5);
}

static void check_td(void)
{
	const struct model *m = &model_hw_generic_td;
	struct group_sums s[MODEL_MAX_GROUPS] = { 0 };
	struct metric_value out[MODEL_MAX_METRICS];
	double ret, bad, fe, be;

	put_base(m, s);
	/* the four sum to 5e6, slots to 5.1e6 (perf metrics are 255ths of
	 * slots, so the two differ): perf divides by the four's sum */
	put(m, s, "td_l1", "slots", 5100000, 1000000000);
	put(m, s, "td_l1", "td_retiring", 2000000, 1000000000);
	put(m, s, "td_l1", "td_bad_spec", 500000, 1000000000);
	put(m, s, "td_l1", "td_fe_bound", 1000000, 1000000000);
	put(m, s, "td_l1", "td_be_bound", 1500000, 1000000000);
	put(m, s, "td_l1", "cycles", 1000000, 1000000000);
	put(m, s, "td_l1", "instructions", 2000000, 1000000000);
	compute(m, s, out);
	ret = get(m, out, "retiring");
	bad = get(m, out, "bad_speculation");
	fe = get(m, out, "frontend_bound");
	be = get(m, out, "backend_bound");
	NEAR(ret, 0.4);   /* 2e6 / 5e6 */
	NEAR(fe, 0.2);    /* 1e6 / 5e6 */
	NEAR(be, 0.3);    /* 1.5e6 / 5e6 */
	NEAR(bad, 0.1);   /* 0.5e6 / 5e6 */
	NEAR(bad, fmax(1.0 - (fe + be + ret), 0.0));   /* perf's tma_bad_speculation */
	/* (3e6 + 1e6 + 2e6) / (2e6 + 1e6 + 1e6) */
	NEAR(get(m, out, "ipc"), 1.5);
	NEAR(out[model_metric_index(m, "retiring")].coverage, 0.2);   /* 1 s of 5 */
	NEAR(get(m, out, "branch_mpki"), 4.0);

	missing(m, s, "td_l1", "td_fe_bound");
	compute(m, s, out);
	CHECK(!valid(m, out, "retiring") && !valid(m, out, "frontend_bound"));
	CHECK(!valid(m, out, "bad_speculation") && !valid(m, out, "backend_bound"));
}

static void check_stalls(void)
{
	const struct model *m = &model_hw_generic_stalls;
	struct group_sums s[MODEL_MAX_GROUPS] = { 0 };
	struct metric_value out[MODEL_MAX_METRICS];

	put_base(m, s);
	put(m, s, "stalls_fe", "cycles", 4000000, 1000000000);
	put(m, s, "stalls_fe", "instructions", 2000000, 1000000000);
	put(m, s, "stalls_fe", "stalled_cycles_frontend", 1000000, 1000000000);
	put(m, s, "stalls_be", "cycles", 1000000, 1000000000);
	put(m, s, "stalls_be", "instructions", 2000000, 1000000000);
	put(m, s, "stalls_be", "stalled_cycles_backend", 400000, 1000000000);
	compute(m, s, out);
	NEAR(get(m, out, "frontend_stalled_cycles"), 0.25);   /* 1e6 / 4e6 */
	NEAR(get(m, out, "backend_stalled_cycles"), 0.4);     /* 4e5 / 1e6 */
	/* (3 + 1 + 2 + 2)e6 / (2 + 1 + 4 + 1)e6 */
	NEAR(get(m, out, "ipc"), 1.0);
	NEAR(out[model_metric_index(m, "frontend_stalled_cycles")].coverage, 1.0 / 6.0);

	/* a PMU that maps no backend event (AMD Zen 2 and later): that
	 * family is off, and the frontend share still comes */
	s[model_group_index(m, "stalls_be")].present = false;
	compute(m, s, out);
	CHECK(!valid(m, out, "backend_stalled_cycles"));
	NEAR(get(m, out, "frontend_stalled_cycles"), 0.25);
}

/* perf 7.2's LegacyConfigCode of each generic event the models name */
static const struct {
	const char *perf_name;
	uint64_t config;
} legacy[] = {
	{ "cycles", 0 }, { "instructions", 1 }, { "cache-references", 2 },
	{ "cache-misses", 3 }, { "branches", 4 }, { "branch-misses", 5 },
	{ "stalled-cycles-frontend", 7 }, { "stalled-cycles-backend", 8 },
};

static void check_hw_event(const struct model_event *e)
{
	struct perf_event_attr a;
	char err[512];
	size_t i;
	int r;

	for (i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++)
		if (strcmp(legacy[i].perf_name, e->perf_name) == 0)
			break;
	if (i == sizeof(legacy) / sizeof(legacy[0]))
		fprintf(stderr, "%s: perf_name '%s' is none of perf's\n", e->name, e->perf_name);
	CHECK(i < sizeof(legacy) / sizeof(legacy[0]));
	memset(&a, 0, sizeof(a));
	r = event_encode(e->name, &a, err, sizeof(err));
	if (r != 0)
		fprintf(stderr, "%s\n", err);
	CHECK(r == 0);
	CHECK_EQ_U(a.type, PERF_TYPE_HARDWARE);
	CHECK_EQ_U(a.config, legacy[i].config);
	CHECK(!e->fixed);   /* planned on general counters: the CPU is unknown */
}

static char root[64];

static void fake_sysfs(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
}

static void make_fake_sysfs(void)
{
	char dir[128];

	snprintf(root, sizeof(root), "/tmp/stackd-unit-hwgeneric.XXXXXX");
	CHECK(mkdtemp(root) != NULL);
	snprintf(dir, sizeof(dir), "%s/cpu", root);
	CHECK(mkdir(dir, 0700) == 0);
	snprintf(dir, sizeof(dir), "%s/cpu/events", root);
	CHECK(mkdir(dir, 0700) == 0);
	snprintf(dir, sizeof(dir), "%s/cpu/format", root);
	CHECK(mkdir(dir, 0700) == 0);
	fake_sysfs("cpu/type", "4\n");
	fake_sysfs("cpu/format/event", "config:0-7\n");
	fake_sysfs("cpu/format/umask", "config:8-15\n");
	fake_sysfs("cpu/events/slots", "event=0x00,umask=0x4\n");
	fake_sysfs("cpu/events/topdown-retiring", "event=0x00,umask=0x80\n");
	fake_sysfs("cpu/events/topdown-bad-spec", "event=0x00,umask=0x81\n");
	fake_sysfs("cpu/events/topdown-fe-bound", "event=0x00,umask=0x82\n");
	fake_sysfs("cpu/events/topdown-be-bound", "event=0x00,umask=0x83\n");
}

static void check_sysfs_event(const struct model_event *e)
{
	static const struct {
		const char *perf_name;
		uint64_t config;
	} td[] = {
		{ "slots", 0x0400 }, { "topdown-retiring", 0x8000 },
		{ "topdown-bad-spec", 0x8100 }, { "topdown-fe-bound", 0x8200 },
		{ "topdown-be-bound", 0x8300 },
	};
	struct perf_event_attr a;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(td) / sizeof(td[0]) && strcmp(td[i].perf_name, e->perf_name); i++)
		;
	CHECK(i < sizeof(td) / sizeof(td[0]));
	memset(&a, 0, sizeof(a));
	CHECK(sysfs_event_resolve(root, e->name, &a, err, sizeof(err)) == 0);
	CHECK_EQ_U(a.type, 4);
	CHECK_EQ_U(a.config, td[i].config);
	CHECK(e->fixed);   /* perf metrics and the slots fixed counter */
}

static void check_encodings(void)
{
	char err[512], cmd[128];
	size_t k;
	unsigned g, e, n_sysfs = 0;

	CHECK(event_encode_init(err, sizeof(err)) == 0);
	make_fake_sysfs();
	for (k = 0; k < N_MODELS; k++)
		for (g = 0; g < models[k]->n_groups; g++) {
			const struct model_group *mg = &models[k]->groups[g];

			CHECK(mg->n_events <= MODEL_MAX_EVENTS);
			(void)col(models[k], mg->name, "cycles");   /* in every family */
			for (e = 0; e < mg->n_events; e++) {
				if (sysfs_event_is_spec(mg->events[e].name)) {
					check_sysfs_event(&mg->events[e]);
					n_sysfs++;
				} else {
					check_hw_event(&mg->events[e]);
				}
			}
			/* slots leads its group, as perf metrics require */
			if (strcmp(mg->name, "td_l1") == 0)
				CHECK(mg->model_leads && !strcmp(mg->events[0].name, "cpu/slots/"));
		}
	CHECK_EQ_U(n_sysfs, 5);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

/* The plan group of family f that counts column c; -1 when none, -2
 * when two do (a ratio set must be counted in one part, once). */
static int part_counting(const struct model *m, const struct plan *p, int f, const char *c)
{
	int at = -1, e = col(m, m->groups[f].name, c);
	unsigned g, i;

	for (g = 0; g < p->n_groups; g++)
		for (i = 0; p->groups[g].family == (unsigned)f && i < p->groups[g].n_events; i++)
			if (p->groups[g].events[i] == e)
				at = at == -1 ? (int)g : -2;
	return at;
}

/* Each ratio set in one part (plan.h): the miss ratios stay exact. */
static void check_sets(const struct model *m, const struct plan *p)
{
	static const char *const sets[][3] = {
		{ "core", "branches", "branch_misses" },
		{ "cache", "cache_references", "cache_misses" },
	};
	unsigned k;

	for (k = 0; k < 2; k++) {
		int f = model_group_index(m, sets[k][0]);
		int a = part_counting(m, p, f, sets[k][1]);

		CHECK(a >= 0);
		CHECK_EQ_U(part_counting(m, p, f, sets[k][2]), a);
	}
}

static void check_plans(void)
{
	static const bool off[MODEL_MAX_GROUPS];
	struct plan_budget b;
	struct plan *p = malloc(sizeof(*p));
	char err[512];
	size_t k;
	unsigned f, g, smt, wd;
	int r;

	CHECK(p != NULL);
	for (k = 0; k < N_MODELS; k++)
		for (smt = 0; smt < 2; smt++)
			for (wd = 0; wd < 2; wd++) {
				plan_budget_for(models[k], smt, wd, 0, &b);
				CHECK_EQ_U(b.gp_total, 4);
				r = plan_make(models[k], off, &b, p, err, sizeof(err));
				if (r != 0)
					fprintf(stderr, "%s: %s\n", models[k]->name, err);
				CHECK(r == 0);
				for (f = 0; f < models[k]->n_groups; f++)
					CHECK(p->families[f].collected);
				for (g = 0; g < p->n_groups; g++)
					CHECK(p->groups[g].gp_needed <= b.gp_free);
				check_sets(models[k], p);
				/* no fixed counter taken for granted (generic_td's
				 * perf metrics aside): the watchdog holds a general one */
				CHECK_EQ_U(b.gp_free, wd && models[k] != &model_hw_generic_td ? 3 : 4);
			}
	/* Top-Down level 1 whole with the watchdog on: it takes two general
	 * counters (cycles, instructions) beside perf metrics */
	plan_budget_for(&model_hw_generic_td, true, true, 0, &b);
	CHECK(plan_make(&model_hw_generic_td, off, &b, p, err, sizeof(err)) == 0);
	CHECK_EQ_U(p->families[model_group_index(&model_hw_generic_td, "td_l1")].n_parts, 1);
	free(p);
}

static void check_registry(void)
{
	const struct model *const *all;
	size_t n, i, k;

	all = model_all(&n);
	for (k = 0; k < N_MODELS; k++) {
		CHECK(model_find(models[k]->name) == models[k]);
		CHECK(models[k]->vendor == VENDOR_GENERIC);
		CHECK(models[k]->n_metrics <= MODEL_MAX_METRICS);
		CHECK(models[k]->n_groups <= MODEL_MAX_GROUPS);
		for (i = 0; i < n; i++)
			CHECK(all[i] != models[k]);   /* found by name only */
		for (i = 0; i < models[k]->n_metrics; i++) {
			const struct model_metric *mm = &models[k]->metrics[i];

			CHECK(mm->stack == NULL || (mm->title != NULL && strlen(mm->title) <= 10));
		}
	}
	CHECK_STR(model_find("generic_td")->metrics[model_metric_index(&model_hw_generic_td,
			"retiring")].title, "RET");
}

int main(void)
{
	check_generic();
	check_td();
	check_stalls();
	check_encodings();
	check_plans();
	check_registry();
	return 0;
}
