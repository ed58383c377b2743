/*
 * test_sim_tables.c - models made from Linux perf's tables
 * (lib/model/model_table.h) collected end to end on the simulated PMU, as
 * test_sim_truth does for the hand models: the planner's groups opened by
 * the real collector, rotated, attributed, stored and read back, against
 * the scripted truth, with SMT on and off and the NMI watchdog on and off.
 *
 * What is independent here: the collector opens each event by the spec the
 * model writes ("cpu/event=0xc2,umask=0x4,cmask=0x1,edge=1,frontend=0x8/"),
 * which the collector's sysfs resolver places by the format files of the
 * simulated host's sysfs tree; the truth knows the event by its perf table
 * fields placed by tests/sim/perfdb_encode.c (held to libpfm4 by
 * test_perfdb_libpfm).  A term written, parsed or placed wrongly counts
 * nothing the truth has, and the metrics that read it differ.  The counters
 * each event may use are the JSON's "Counter" (the simulated hardware's, in
 * tests/sim/simpmu_table.c), not the planner's rules.
 *
 * For every model: no group is ever unschedulable nor two enabled at once,
 * each process's CPU time is exact, every metric the truth defines (our
 * stacks and perf's own metrics, lib/model/model_perf.c) agrees to 1e-9,
 * Top-Down level 1 sums to 1 where it is defined, and the metrics named
 * below were among those compared.
 */
#include "sim_host.h"
#include "lib/clock.h"
#include "lib/model/model_table.h"
#include "lib/perfdb/perf_set.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct table_case {
	const char *model;
	/* metrics that must have been compared: ours and perf's, reading the
	 * terms this CPU's specs carry (cmask, edge, frontend, inv, any, AMD's
	 * event bits 32-35) */
	const char *const must[8];
};

static const struct table_case cases[] = {
	{ "graniterapids", { "frontend_bound", "heavy_ops", "tma_frontend_bound",
			     "tma_info_frontend_dsb_coverage", "tma_ms_switches",
			     "tma_microcode_sequencer", "tma_info_core_flopc", NULL } },
	{ "sierraforest", { "frontend_bound", "fetch_latency", "tma_frontend_bound",
			    "tma_ifetch_latency", "tma_resource_bound", "tma_info_core_flopc",
			    NULL } },
	{ "amdzen5", { "frontend_bound", "smt_contention", "frontend_bound_by_latency",
		       "bad_speculation_from_mispredicts", "backend_bound_by_memory",
		       "retiring_from_microcode", NULL } },
	/* perf 7.2's V3 frontend_bound and bad_speculation write 10 slots per
	 * cycle, its retiring and backend_bound read #slots: the PMU's
	 * caps/slots, stored as meta pmu_slots as the daemon does */
	{ "neoverse-v3", { "frontend_bound", "bad_speculation", "retiring", "backend_bound",
			   "ipc", "fp_ops_per_cycle", NULL } },
	{ "alderlake_cpu_core", { "frontend_bound", "memory_bound", "tma_frontend_bound",
				  "tma_info_frontend_lsd_coverage", "tma_ms_switches",
				  "tma_info_core_flopc", NULL } },
	/* AnyThread terms and a core whose threads share 8 counters */
	{ "skylakex", { "frontend_bound", "tma_frontend_bound", "tma_info_core_coreipc", NULL } },
	/* inv terms */
	{ "lunarlake_cpu_core", { "frontend_bound", "tma_frontend_bound", NULL } },
};

static void scenario(const struct model *m, bool smt, bool wd, bool *checked, unsigned *ran)
{
	struct sim_host h;
	char err[1024], label[128];
	int r;

	snprintf(label, sizeof(label), "%s SMT %s watchdog %s", m->name, smt ? "on" : "off",
		 wd ? "on" : "off");
	r = sim_host_open(&h, m, sim_host_pmu_of(m), smt, wd, 0, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "%s: %s (%s)\n", label, err, strerror(-r));
		exit(1);
	}
	sim_host_start(&h);
	r = sim_host_run(&h, 3 * NS_PER_SEC, true, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "%s: run: %s (%s)\n", label, err, strerror(-r));
		exit(1);
	}
	if (simpmu_violations(h.sim) != 0) {
		fprintf(stderr, "%s: %s\n", label, simpmu_violation_text(h.sim));
		exit(1);
	}
	if (sim_host_verify_metrics(&h, checked, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", label, err);
		exit(1);
	}
	sim_host_close(&h);
	(*ran)++;
}

static void model_matrix(const struct table_case *c)
{
	const struct model *m = model_find(c->model);
	bool checked[MODEL_MAX_METRICS] = { false };
	unsigned ran = 0, n = 0, perf = 0;
	const struct perfdb_table *t;
	const struct perf_set *set;
	const char *unit;

	CHECK(m != NULL);
	CHECK(sim_host_table_of(m, &t, &unit));
	CHECK(sim_host_pmu_of(m) != NULL);
	set = perf_set_get(t, unit);
	CHECK(set != NULL);
	for (int smt = 0; smt < 2; smt++)
		for (int wd = 0; wd < 2; wd++)
			scenario(m, smt, wd, checked, &ran);
	for (unsigned k = 0; k < m->n_metrics; k++) {
		n += checked[k];
		perf += checked[k] && perf_set_index(set, m->metrics[k].name) >= 0;
	}
	for (unsigned i = 0; c->must[i] != NULL; i++) {
		int k = model_metric_index(m, c->must[i]);

		if (k < 0 || !checked[k])
			fprintf(stderr, "%s: %s %s\n", m->name, c->must[i],
				k < 0 ? "is not a metric of the model" : "was never compared");
		CHECK(k >= 0 && checked[k]);
	}
	printf("  %s: %u host states, %u of %u metrics compared with the truth (%u of perf's)",
	       m->name, ran, n, m->n_metrics, perf);
	if (n < m->n_metrics)
		printf("; undefined by the truth:");
	for (unsigned k = 0; k < m->n_metrics; k++)
		if (!checked[k])
			printf(" %s", m->metrics[k].name);
	printf("\n");
	CHECK(ran == 4);
}

static bool in_cases(const struct model *m)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(cases[i].model, m->name) == 0)
			return true;
	return false;
}

/* Every other table model the simulator has a PMU for, in one host state
 * (SMT and the watchdog on, as most hosts run). */
static void the_others(void)
{
	const struct model *all[128];
	size_t n = model_tables_all(all, sizeof(all) / sizeof(all[0]));
	bool checked[MODEL_MAX_METRICS] = { false };
	unsigned ran = 0, skipped = 0, generic = 0;

	for (size_t i = 0; i < n; i++) {
		if (in_cases(all[i]))
			continue;
		if (all[i]->vendor == VENDOR_GENERIC) {
			generic++;   /* no family of its own: the generic groups (lib/model/models.c) */
			continue;
		}
		if (sim_host_pmu_of(all[i]) == NULL) {
			skipped++;   /* cpu_atom: a dynamic PMU type, not simulated */
			continue;
		}
		scenario(all[i], true, true, checked, &ran);
	}
	printf("  %u other table models in one host state each, %u E-core PMUs not simulated, "
	       "%u on the generic groups\n", ran, skipped, generic);
	CHECK(ran >= 20);
}

/* Run fn(arg) in a child: a failure exits it, and is counted here. */
static int in_child(void (*fn)(const struct table_case *), const struct table_case *arg)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (fn != NULL)
			fn(arg);
		else
			the_others();
		fflush(stdout);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

int main(void)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		failed += in_child(model_matrix, &cases[i]);
	failed += in_child(NULL, NULL);
	CHECK(failed == 0);
	return 0;
}
