/*
 * test_sim_truth.c - stackd's whole pipeline on a simulated PMU against the
 * scripted truth (tests/sim/sim_host.h), for every hardware model x SMT
 * on/off x NMI watchdog on/off x 0, 1, 2 general counters held by another
 * user:
 *  - the plan fits the simulated PMU: no group is ever found unschedulable,
 *    and the simulator saw no two groups of a CPU enabled at once;
 *  - every process's CPU time is exact (ns), and every metric the truth
 *    defines comes out the same to 1e-9, through rotation, attribution,
 *    parts of split families, the store and the query;
 *  - Top-Down level 1 of every process sums to 1.
 * Each model runs in a child process with LIBPFM_FORCE_PMU set to its PMU,
 * as libpfm4 encodes for the PMU it was initialized with.
 */
#include "sim_host.h"
#include "lib/clock.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void scenario(const struct model *m, bool smt, bool wd, unsigned reserved,
		     unsigned *ran, unsigned *nothing_fits)
{
	struct sim_host h;
	char err[1024], label[128];
	int r;

	snprintf(label, sizeof(label), "%s SMT %s watchdog %s %u held", m->name,
		 smt ? "on" : "off", wd ? "on" : "off", reserved);
	r = sim_host_open(&h, m, sim_host_pmu_of(m), smt, wd, reserved, err, sizeof(err));
	if (r == -ENOSPC) {
		(*nothing_fits)++;
		sim_host_close(&h);
		return;
	}
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
	if (sim_host_verify(&h, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", label, err);
		exit(1);
	}
	sim_host_close(&h);
	(*ran)++;
}

static void model_matrix(const struct model *m)
{
	unsigned ran = 0, nothing_fits = 0;

	for (int smt = 0; smt < 2; smt++)
		for (int wd = 0; wd < 2; wd++)
			for (unsigned reserved = 0; reserved < 3; reserved++)
				scenario(m, smt, wd, reserved, &ran, &nothing_fits);
	printf("  %s: %u host states checked against the truth, %u where nothing fits\n",
	       m->name, ran, nothing_fits);
	CHECK(ran >= 4);   /* with nobody else's counters, something always fits */
}

int main(void)
{
	const struct model *const *all;
	size_t n;
	int failed = 0;

	all = model_all(&n);
	for (size_t i = 0; i < n; i++) {
		pid_t pid;
		int status;

		if (sim_host_pmu_of(all[i]) == NULL)
			continue;
		pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			setenv("LIBPFM_FORCE_PMU", all[i]->pmus[0], 1);
			model_matrix(all[i]);
			fflush(stdout);
			_exit(0);
		}
		CHECK(waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	CHECK(failed == 0);
	return 0;
}
