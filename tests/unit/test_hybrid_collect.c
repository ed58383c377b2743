/*
 * test_hybrid_collect.c - a hybrid model's groups on the real kernel: each
 * core type's groups opened on its own CPUs only, each CPU's worker
 * rotating its own core type's groups, and a process pinned to one CPU
 * charged in that core type's groups alone.
 *
 * This VM has no hybrid PMU, so the two "core types" are the software
 * model twice, on CPU 0 and on CPU 1: the collector, the workers and
 * the kernel's per-CPU groups are the very code a cpu_core/cpu_atom host
 * runs (the core types' CPUs come from the PMUs' sysfs "cpus" files
 * there; here they are given).  Needs two online CPUs and CAP_PERFMON.
 */
#include "test.h"
#include "daemon/collect/collector.h"
#include "daemon/collect/worker.h"
#include "daemon/plan/plan.h"
#include "lib/clock.h"
#include "lib/model/model_hybrid.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The model lives as long as the process, as the registry's do. */
const struct model *hybrid_model;

static pid_t spin_on(int cpu)
{
	pid_t pid = fork();

	CHECK(pid >= 0);
	if (pid == 0) {
		cpu_set_t set;
		volatile unsigned long x = 0;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			_exit(2);
		for (;;)
			x++;
	}
	return pid;
}

/* The CPU time the handovers charged to pid in groups [from, to). */
static uint64_t charged(const struct handover *h, pid_t pid, unsigned from, unsigned to)
{
	uint64_t t = 0;
	size_t i;

	for (; h != NULL; h = h->next)
		for (i = 0; i < h->acc.n; i++)
			if (h->acc.entries[i].pid == pid && h->acc.entries[i].group >= from &&
			    h->acc.entries[i].group < to)
				t += h->acc.entries[i].time_ns;
	return t;
}

static uint64_t enabled(const struct handover *h, unsigned from, unsigned to)
{
	uint64_t t = 0;
	unsigned g;

	for (; h != NULL; h = h->next)
		for (g = from; g < to; g++)
			t += h->enabled_ns[g];
	return t;
}

int main(void)
{
	const struct model *sw[2] = { &model_software, &model_software };
	const char *units[2] = { "sw_p", "sw_e" };
	struct collector_params params;
	struct collector *col;
	struct worker w[2];
	struct handover *h[2];
	struct plan plan;
	char err[512];
	unsigned base, g, i;
	pid_t pid;
	int r;

	const struct model *m = hybrid_model = model_hybrid_build("swhybrid", sw, units, 2);

	CHECK(m != NULL);
	base = model_software.n_groups;
	plan_whole(m, &plan);
	memset(&params, 0, sizeof(params));
	params.plan = &plan;
	params.switch_position = SWITCH_LEADER;
	params.ring_pages = 8;
	params.count_user = params.count_kernel = true;
	params.core_types = (struct collector_core_types){ 2, { "sw_p", "sw_e" }, { "0", "1" } };
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "SKIP test_hybrid_collect: one CPU online\n");
		return 0;
	}
	r = collector_open(&params, &col, err, sizeof(err));
	if (r == -EACCES || r == -EPERM) {
		fprintf(stderr, "SKIP test_hybrid_collect: %s\n", err);
		return 0;
	}
	if (r < 0)
		fprintf(stderr, "collector_open: %s\n", err);
	CHECK(r == 0);
	CHECK(col->cpus[0].cpu == 0 && col->cpus[1].cpu == 1);
	for (g = 0; g < plan.n_groups; g++) {
		CHECK(collector_group_here(&col->cpus[0], g) == (g < base));
		CHECK(collector_group_here(&col->cpus[1], g) == (g >= base));
	}
	/* a core type's CPUs not known: refused, with the PMU named */
	params.core_types.n = 1;
	CHECK(collector_open(&params, &col, err, sizeof(err)) == -EINVAL ||
	      (fprintf(stderr, "%s\n", err), 0));
	CHECK(strstr(err, "sw_e") != NULL);

	pid = spin_on(1);
	for (i = 0; i < 2; i++) {
		CHECK(worker_init(&w[i], col, &col->cpus[i], (uint64_t)(10 * NS_PER_MSEC),
				  (int32_t)getpid()) == 0);
		CHECK(worker_start(&w[i]) == 0);
	}
	usleep(400000);
	for (i = 0; i < 2; i++)
		worker_request_flush(&w[i], 1);
	for (i = 0; i < 2; i++) {
		bool late;

		h[i] = worker_collect(&w[i], 1, monotonic_ns() + (uint64_t)(5 * NS_PER_SEC), &late);
		CHECK(h[i] != NULL && !late);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* each CPU ran its own core type's groups only */
	CHECK(enabled(h[0], 0, base) > 0 && enabled(h[0], base, plan.n_groups) == 0);
	CHECK(enabled(h[1], base, plan.n_groups) > 0 && enabled(h[1], 0, base) == 0);
	/* the spinner on CPU 1 is charged in the second core type's groups
	 * (its share of a 400 ms window on a CPU it may share), and nothing
	 * in the first's */
	CHECK(charged(h[1], pid, base, plan.n_groups) > (uint64_t)(50 * NS_PER_MSEC));
	CHECK(charged(h[0], pid, 0, plan.n_groups) == 0);
	CHECK(charged(h[1], pid, 0, base) == 0);
	for (i = 0; i < 2; i++) {
		worker_stop(&w[i]);
		while (h[i] != NULL) {
			struct handover *next = h[i]->next;

			worker_recycle(&w[i], h[i]);
			h[i] = next;
		}
		worker_done(&w[i]);
	}
	collector_close(col);
	printf("test_hybrid_collect: ok\n");
	return 0;
}
