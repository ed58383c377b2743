/*
 * test_sim_foreign.c - another reader sampling context switches beside
 * stackd (a second stackd, perf record), on the simulated PMU.  The kernel
 * fills one sample's data for every sampler of a switch, so stackd's
 * switch samples carry the other reader's time, on its clock, and maybe
 * its id (simpmu_other_reader).  Whether that clock runs ahead of stackd's
 * or behind it, and whether the id is the other reader's or stackd's own,
 * every sample must go to the group that wrote it and into the interval it
 * was written in: each process's CPU time exact to the ns and every metric
 * to 1e-9, as without the other reader (test_sim_truth.c), for every
 * hardware model; the other reader's id counted (foreign_id_samples).  Each worker is preempted right after every enable
 * (simpmu_preempt_on_enable), as on a busy CPU, so at a rotation's drain
 * the ring holds samples of both the group just disabled and the one just
 * enabled.
 */
#include "sim_host.h"
#include "lib/clock.h"
#include "lib/query.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define OTHER_ID (1ULL << 40)           /* no id of the simulator's */
#define PREEMPT_NS (300 * 1000ULL)      /* 0.3 ms after each enable */

struct other {
	const char *what;
	uint64_t id;          /* 0: perf record's way, no id in its samples */
	int64_t offset_ns;    /* its clock minus stackd's */
};

static const struct other others[] = {
	{ "a second stackd, clock 5 ms ahead", OTHER_ID, 5 * 1000 * 1000LL },
	{ "a second stackd, clock 5 ms behind", OTHER_ID, -5 * 1000 * 1000LL },
	{ "a second stackd, clock 0.5 s ahead", OTHER_ID, 500 * 1000 * 1000LL },
	{ "a second stackd, clock 0.5 s behind", OTHER_ID, -500 * 1000 * 1000LL },
	{ "perf record (our id), clock 5 ms ahead", 0, 5 * 1000 * 1000LL },
	{ "perf record (our id), clock 5 ms behind", 0, -5 * 1000 * 1000LL },
};

/* What the host stored: the samples that carried another reader's id,
 * and the CPU time of pid. */
static void stored(const struct sim_host *h, int32_t pid, uint64_t *foreign, uint64_t *pid_ns)
{
	struct window w;
	struct db *db;
	char err[256];

	CHECK(db_open(h->db_path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * NS_PER_SEC, &w, err, sizeof(err)) == 0);
	*foreign = w.foreign_id_samples;
	*pid_ns = 0;
	for (size_t k = 0; k < w.n_procs; k++)
		if (w.procs[k].pid == pid)
			*pid_ns += w.procs[k].task_clock_ns;
	window_done(&w);
	db_close(db);
}

/* Besides the scripted tasks: each preempting task's CPU time exact too,
 * and stackd's workers none (no time passes while they run here) - a
 * sample put in the wrong group moves time between those two.  Each
 * switch sample of ours carried the other reader's id, or none did. */
static void check_others(const struct sim_host *h, const struct other *o,
			 struct simpmu_task *const *busy, const char *name)
{
	uint64_t foreign, ns;

	for (int c = 0; c < SIM_HOST_CPUS; c++) {
		stored(h, 3001 + c, &foreign, &ns);
		if (ns != simpmu_truth_ns(busy[c])) {
			fprintf(stderr, "%s, %s: the preempting task on cpu %d: %llu ns measured, "
				"%llu true\n", name, o->what, c, (unsigned long long)ns,
				(unsigned long long)simpmu_truth_ns(busy[c]));
			exit(1);
		}
	}
	stored(h, SIM_HOST_WORKER_PID, &foreign, &ns);
	if (ns != 0) {
		fprintf(stderr, "%s, %s: stackd's workers: %llu ns measured, none true\n", name,
			o->what, (unsigned long long)ns);
		exit(1);
	}
	if (o->id != 0)
		CHECK(foreign > 1000);
	else
		CHECK_EQ_U(foreign, 0);
}

static void scenario(const struct model *m, const struct other *o, unsigned *ran)
{
	struct sim_host h;
	struct simpmu_task *busy[SIM_HOST_CPUS];
	char err[1024];
	int r;

	r = sim_host_open(&h, m, sim_host_pmu_of(m), true, false, 0, err, sizeof(err));
	if (r == -ENOSPC) {
		sim_host_close(&h);
		return;
	}
	if (r < 0) {
		fprintf(stderr, "%s: %s (%s)\n", m->name, err, strerror(-r));
		exit(1);
	}
	sim_host_start(&h);
	for (int c = 0; c < SIM_HOST_CPUS; c++) {
		struct simpmu_task *t = simpmu_task_new(h.sim, 3001 + c, 3001 + c, "busy", 1.0);

		CHECK(t != NULL);
		busy[c] = t;
		CHECK(simpmu_other_reader(h.sim, c, o->id, o->offset_ns) == 0);
		CHECK(simpmu_preempt_on_enable(h.sim, c, t, PREEMPT_NS) == 0);
	}
	r = sim_host_run(&h, 3 * NS_PER_SEC, false, err, sizeof(err));
	/* The last flush's tick may rotate after its cut, and nothing would
	 * take a preemption's samples there: none from then on. */
	for (int c = 0; c < SIM_HOST_CPUS && r == 0; c++)
		CHECK(simpmu_preempt_on_enable(h.sim, c, NULL, 0) == 0);
	if (r == 0)
		r = sim_host_run(&h, 0, true, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "%s, %s: run: %s (%s)\n", m->name, o->what, err, strerror(-r));
		exit(1);
	}
	if (simpmu_violations(h.sim) != 0) {
		fprintf(stderr, "%s, %s: %s\n", m->name, o->what, simpmu_violation_text(h.sim));
		exit(1);
	}
	if (sim_host_verify(&h, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s, %s: %s\n", m->name, o->what, err);
		exit(1);
	}
	check_others(&h, o, busy, m->name);
	sim_host_close(&h);
	(*ran)++;
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
			unsigned ran = 0;

			setenv("LIBPFM_FORCE_PMU", all[i]->pmus[0], 1);
			for (size_t k = 0; k < sizeof(others) / sizeof(others[0]); k++)
				scenario(all[i], &others[k], &ran);
			printf("  %s: %u readers beside stackd, every process exact\n", all[i]->name,
			       ran);
			fflush(stdout);
			_exit(ran > 0 ? 0 : 1);
		}
		CHECK(waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	CHECK(failed == 0);
	return 0;
}
