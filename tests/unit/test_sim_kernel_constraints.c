/*
 * test_sim_kernel_constraints.c - the planner against a second opinion:
 * the kernel's own counter constraint tables (Linux 7.2.12,
 * tests/sim/kernel_constraints.c, generated from arch/x86/events/intel/
 * core.c and amd/core.c) and its greedy assignment (x86_schedule_events,
 * tests/sim/simpmu_kernel.c).  The planner reads perf's JSON "Counter"
 * masks through the models' event rules; the kernel keys its tables
 * otherwise (by event code alone, by event and umask, by ranges of codes),
 * and pairs AMD's large-increment events.
 *
 * For each hand model and table model of the CPUs below, one per kernel
 * table (skl, icl, glc, grt, AMD family 17h+), with SMT on and off and
 * the NMI watchdog on and off, every group of the daemon's plan is put on
 * the counters as the kernel would, beside the watchdog's cycles event:
 * every event gets a counter, and each general counter given is one perf's
 * JSON lists for the event.
 *
 * Planted disagreements, each a plan the planner accepts on masks that
 * miss a kernel rule, must be refused:
 *  - Skylake, SMT off (8 counters): five MEM_LOAD_RETIRED events, which
 *    INTEL_EVENT_CONSTRAINT(0xd1, 0xf) keeps on counters 0-3;
 *  - Ice Lake: five events of codes 0x48-0x56 with a counter mask
 *    (UOPS_DECODED.DEC0:c1 among them), restricted to 0-3 by the range
 *    entry keyed by event code alone, where perf's JSON, keyed by the full
 *    encoding, names no restriction for most (the old simulator's view);
 *  - Sapphire Rapids: two AMX_OPS_RETIRED events (0xce: counter 0 only);
 *  - Zen 4 with the watchdog: three RETIRED_SSE_AVX_FLOPS events not
 *    flagged as paired (3 counters to the planner, 3 pairs to the kernel,
 *    of which the watchdog's counter breaks one).
 */
#include "sim_host.h"
#include "simpmu_hw.h"
#include "lib/model/model_table.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct host {
	struct sim_host h;            /* model, table, unit, sim: for encoding */
	struct simpmu_arch arch;
};

/* A simulated PMU that encodes the model's events, and the arch whose
 * kernel rules place them. */
static void host_init(struct host *x, const struct model *m)
{
	const char *pmu = sim_host_pmu_of(m);
	struct simpmu_params p = { NULL, 1, true, false, 0, false };
	int r;

	memset(x, 0, sizeof(*x));
	x->h.model = m;
	if (sim_host_table_of(m, &x->h.table, &x->h.unit)) {
		struct simpmu_table_cpu cpu = { x->h.unit, m->gp_counters_smt,
						m->gp_counters_nosmt, m->fixed_counters };
		struct simpmu_table_cpu core = { "cpu_core", 8, 8, 4 };

		CHECK(simpmu_arch_from_table(x->h.table->name, &cpu, &x->arch) == 0);
		/* E-cores: not a simulated host (dynamic PMU type); their
		 * generic events encode on the P-cores' */
		p.pmu = x->h.table->name;
		r = simpmu_new_table(&p, pmu != NULL ? &cpu : &core, &x->h.sim);
	} else {
		CHECK(pmu != NULL);
		x->arch = *simpmu_arch_find(pmu);
		p.pmu = pmu;
		r = simpmu_new(&p, &x->h.sim);
	}
	CHECK(r == 0);
}

/* Put n events (and the watchdog's) on the counters as the kernel would;
 * false with why when it refuses or places one where perf's JSON says the
 * event cannot count. */
static bool kernel_places(const struct host *x, bool smt, bool wd,
			  const struct perf_event_attr *attr, unsigned n, char *why, size_t len)
{
	const struct simpmu_arch *a = &x->arch;
	unsigned n_gp = smt ? a->gp_smt : a->gp_nosmt, i, k = 0;
	struct simpmu_kslot s[2 * MODEL_MAX_EVENTS + 1];
	struct simpmu_need need[2 * MODEL_MAX_EVENTS + 1];

	if (wd) {
		simpmu_hw_watchdog_need(a, n_gp, &need[k]);
		s[k] = (struct simpmu_kslot){ need[k].kmask, need[k].kweight, need[k].pair, -1, -1 };
		k++;
	}
	for (i = 0; i < n; i++) {
		CHECK(simpmu_hw_need(a, n_gp, smt, &attr[i], &need[k]) == 0);
		if (need[k].kind == SIMPMU_SOFTWARE)
			continue;
		s[k] = (struct simpmu_kslot){ need[k].kmask, need[k].kweight, need[k].pair, -1, -1 };
		k++;
	}
	if (!simpmu_kernel_assign(s, k, n_gp)) {
		snprintf(why, len, "the kernel's scheduler refuses it (%u general counters)", n_gp);
		return false;
	}
	for (i = 0; i < k; i++)
		if (s[i].assign < 32 && need[i].kind == SIMPMU_COUNTER &&
		    !(need[i].mask & (1ULL << s[i].assign))) {
			snprintf(why, len, "the kernel puts config 0x%llx on counter %d, perf's JSON "
				 "allows 0x%llx", (unsigned long long)attr[i].config, s[i].assign,
				 (unsigned long long)need[i].mask);
			return false;
		}
	return true;
}

static unsigned plan_matrix(const struct model *m, const char **ktable)
{
	bool off[MODEL_MAX_GROUPS] = { false };
	struct host x;
	unsigned groups = 0;

	host_init(&x, m);
	*ktable = x.arch.ktable != NULL ? x.arch.ktable : "none";
	for (int smt = 0; smt < 2; smt++)
		for (int wd = 0; wd < 2; wd++) {
			struct plan_budget b;
			struct plan p;
			char err[512];

			plan_budget_for(m, smt, wd, 0, &b);
			CHECK(plan_make(m, off, &b, &p, err, sizeof(err)) == 0);
			for (unsigned g = 0; g < p.n_groups; g++) {
				const struct plan_group *pg = &p.groups[g];
				const struct model_group *mg = &m->groups[pg->family];
				struct perf_event_attr attr[MODEL_MAX_EVENTS];

				for (unsigned i = 0; i < pg->n_events; i++) {
					const struct model_event *e = &mg->events[pg->events[i]];

					if (sim_host_event_attr(&x.h, e, &attr[i]) < 0)
						fprintf(stderr, "%s: %s does not encode\n", m->name,
							e->name);
					CHECK(sim_host_event_attr(&x.h, e, &attr[i]) == 0);
				}
				if (!kernel_places(&x, smt, wd, attr, pg->n_events, err, sizeof(err))) {
					char label[64];

					plan_group_label(&p, g, label, sizeof(label));
					fprintf(stderr, "%s SMT %s watchdog %s: %s: %s\n", m->name,
						smt ? "on" : "off", wd ? "on" : "off", label, err);
					exit(1);
				}
				groups++;
			}
		}
	simpmu_free(x.h.sim);
	return groups;
}

/* One kernel table each: Skylake (skl), Ice Lake (icl), Sapphire Rapids,
 * Granite Rapids and Alder Lake's P-cores (glc), its E-cores (grt), Zen
 * 4 and 5 (AMD 17h+). */
static const char *const models[] = {
	"skl", "skx", "icl", "icx", "spr", "amd64_fam19h_zen4", "amd64_fam19h_zen3", "amd64_fam17h_zen2",
	"skylake", "skylakex", "icelake", "icelakex", "sapphirerapids", "graniterapids",
	"alderlake_cpu_core", "alderlake_cpu_atom", "amdzen4", "amdzen5",
};

/* Run fn(name) in a child, with libpfm4 forced to the model's PMU where
 * it has one (hand models: their event names are libpfm4's); a failure
 * exits the child and is counted here. */
static int in_child(void (*fn)(const char *), const char *name)
{
	const struct model *m = model_find(name);
	pid_t pid;
	int status;

	if (m == NULL)
		fprintf(stderr, "no model %s\n", name);
	CHECK(m != NULL);
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		const struct perfdb_table *t;
		const char *unit;

		if (!sim_host_table_of(m, &t, &unit))
			setenv("LIBPFM_FORCE_PMU", m->pmus[0], 1);
		fn(name);
		fflush(stdout);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static void every_plan(const char *name)
{
	const struct model *m = model_find(name);
	const char *ktable;
	unsigned n = plan_matrix(m, &ktable);

	/* no CPU of these is left to the JSON's masks alone */
	CHECK(strcmp(ktable, "none") != 0);
	printf("  %s (kernel table %s): %u groups of 4 host states placed\n", m->name, ktable, n);
}

/* A model of one family of raw events, with no counter rules: what the
 * planner believes when its masks miss a kernel rule. */
static void planted(const char *base, const char *const *raw, bool smt, bool wd,
		    const char *what)
{
	const struct model *m = model_find(base);
	struct model_event ev[MODEL_MAX_EVENTS];
	struct model_group g = { "planted", ev, 0, false };
	struct perf_event_attr attr[MODEL_MAX_EVENTS];
	bool off[MODEL_MAX_GROUPS] = { false };
	char col[MODEL_MAX_EVENTS][16], err[512];
	struct model fake;
	struct plan_budget b;
	struct plan p;
	struct host x;

	CHECK(m != NULL);
	host_init(&x, m);
	fake = *m;
	for (unsigned i = 0; raw[i] != NULL; i++) {
		snprintf(col[i], sizeof(col[i]), "e%u", i);
		ev[g.n_events++] = (struct model_event){ raw[i], col[i], NULL, false, false };
		CHECK(simpmu_encode(x.h.sim, raw[i], &attr[i]) == 0);
	}
	fake.groups = &g;
	fake.n_groups = 1;
	fake.ratio_sets = NULL;
	fake.n_ratio_sets = 0;
	fake.event_rules = NULL;
	fake.n_event_rules = 0;
	plan_budget_for(&fake, smt, wd, 0, &b);
	CHECK(plan_make(&fake, off, &b, &p, err, sizeof(err)) == 0);
	/* the planner puts them in one group... */
	CHECK_EQ_U(p.n_groups, 1);
	CHECK_EQ_U(p.groups[0].n_events, g.n_events);
	/* ...which the kernel refuses */
	CHECK(!kernel_places(&x, smt, wd, attr, g.n_events, err, sizeof(err)));
	printf("  planted on %s (%s): caught: %s\n", base, what, err);
	simpmu_free(x.h.sim);
}

/* MEM_LOAD_RETIRED.L1_HIT, L2_HIT, L3_HIT, L1_MISS, L2_MISS */
static void planted_skl(const char *name)
{
	static const char *const raw[] = { "r1d1", "r2d1", "r4d1", "r8d1", "r10d1", NULL };

	planted(name, raw, false, false, "SMT off: 5 events the kernel keeps on 0-3");
}

/* UOPS_DECODED.DEC0:c1, L1D_PEND_MISS.PENDING_CYCLES (c1),
 * INST_DECODED.DECODERS:c1, TX_MEM.ABORT_CONFLICT:c1 and
 * LOAD_HIT_PREFETCH.SWPF:c1: codes 0x56, 0x48, 0x55, 0x54, 0x4c */
static void planted_icl(const char *name)
{
	static const char *const raw[] = { "r1000156", "r1000148", "r1000155", "r1000154",
					   "r100014c", NULL };

	planted(name, raw, true, false, "5 cmask events of codes 0x48-0x56");
}

/* AMX_OPS_RETIRED.INT8 and .BF16 */
static void planted_spr(const char *name)
{
	static const char *const raw[] = { "r01ce", "r02ce", NULL };

	planted(name, raw, true, false, "two events for counter 0");
}

/* RETIRED_SSE_AVX_FLOPS, three umasks */
static void planted_zen4(const char *name)
{
	static const char *const raw[] = { "r0103", "r0203", "r0403", NULL };

	planted(name, raw, true, true, "3 pair events beside the watchdog");
}

int main(void)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		failed += in_child(every_plan, models[i]);
	failed += in_child(planted_skl, "skl");
	failed += in_child(planted_icl, "icl");
	failed += in_child(planted_spr, "spr");
	failed += in_child(planted_zen4, "amd64_fam19h_zen4");
	CHECK(failed == 0);
	printf("sim kernel constraints: every plan placed as the kernel does; planted "
	       "disagreements caught\n");
	return 0;
}
