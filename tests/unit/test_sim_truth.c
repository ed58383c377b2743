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
#include "lib/query.h"
#include "test.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The simulated PMU that stands for a model's hardware. */
static const char *sim_pmu_of(const struct model *m)
{
	switch (m->vendor) {
	case VENDOR_INTEL:
		return m->pmus[0];
	case VENDOR_AMD:
		return "amd64_fam19h_zen4";
	case VENDOR_ARM:
		return "arm_n1";
	default:
		return NULL;
	}
}

static bool close_enough(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want));
}

static void check_process(const struct sim_host *h, const struct window *w, unsigned i,
			  const char *label)
{
	const struct model *m = h->model;
	struct metric_value got[MODEL_MAX_METRICS], want[MODEL_MAX_METRICS];
	struct group_sums truth[MODEL_MAX_GROUPS];
	struct model_context ctx = { h->plan.budget.smt_on, NULL };
	const struct window_proc *p = NULL;
	double l1 = 0.0;
	bool l1_valid = false;

	for (size_t k = 0; k < w->n_procs; k++)
		if (w->procs[k].pid == sim_host_pid(i)) {
			if (getenv("SIM_DEBUG") != NULL)
				fprintf(stderr, "  pid %d start %llu tc %llu comm %s\n", w->procs[k].pid,
					(unsigned long long)w->procs[k].start_ns,
					(unsigned long long)w->procs[k].task_clock_ns, w->procs[k].comm);
			p = &w->procs[k];
		}
	CHECK(p != NULL);
	sim_host_truth(h, i, truth);
	if (p->task_clock_ns != truth[0].task_clock_ns) {
		fprintf(stderr, "%s: task %u: %llu ns measured, %llu true\n", label, i,
			(unsigned long long)p->task_clock_ns,
			(unsigned long long)truth[0].task_clock_ns);
		exit(1);
	}
	memset(got, 0, sizeof(got));
	memset(want, 0, sizeof(want));
	m->compute(m, p->sums, &ctx, got);
	m->compute(m, truth, &ctx, want);
	for (unsigned k = 0; k < m->n_metrics; k++) {
		if (!want[k].valid)
			continue;
		if (!got[k].valid || !close_enough(got[k].value, want[k].value)) {
			fprintf(stderr, "%s: task %u: %s = %.12g (%s), truth %.12g\n", label, i,
				m->metrics[k].name, got[k].value, got[k].valid ? "valid" : "invalid",
				want[k].value);
			exit(1);
		}
		if (m->metrics[k].stack != NULL && strcmp(m->metrics[k].stack, "topdown") == 0 &&
		    m->metrics[k].parent == NULL) {
			l1 += got[k].value;
			l1_valid = true;
		}
	}
	if (l1_valid && fabs(l1 - 1.0) > 1e-9) {
		fprintf(stderr, "%s: task %u: Top-Down level 1 sums to %.12g\n", label, i, l1);
		exit(1);
	}
}

static void scenario(const struct model *m, bool smt, bool wd, unsigned reserved,
		     unsigned *ran, unsigned *nothing_fits)
{
	struct sim_host h;
	struct window w;
	struct db *db;
	char err[1024], label[128];
	int r;

	snprintf(label, sizeof(label), "%s SMT %s watchdog %s %u held", m->name,
		 smt ? "on" : "off", wd ? "on" : "off", reserved);
	r = sim_host_open(&h, m, sim_pmu_of(m), smt, wd, reserved, err, sizeof(err));
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
	CHECK(db_open(h.db_path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * NS_PER_SEC, &w, err, sizeof(err)) == 0);
	if (w.unschedulable != 0) {
		fprintf(stderr, "%s: the plan did not fit: %llu unschedulable\n", label,
			(unsigned long long)w.unschedulable);
		exit(1);
	}
	if (getenv("SIM_DEBUG") != NULL)
		fprintf(stderr, "%s: samples %llu backwards %llu lost %llu unattributed %llu unknown %llu foreign %llu\n", label,
			(unsigned long long)w.samples, (unsigned long long)w.backwards_reads,
			(unsigned long long)w.lost_records, (unsigned long long)w.unattributed_spans,
			(unsigned long long)w.unknown_id_samples, (unsigned long long)w.foreign_id_samples);
	for (unsigned i = 0; i < SIM_HOST_TASKS; i++)
		check_process(&h, &w, i, label);
	window_done(&w);
	db_close(db);
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

		if (sim_pmu_of(all[i]) == NULL)
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
