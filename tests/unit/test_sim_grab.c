/*
 * test_sim_grab.c - another PMU user takes counters in the middle of a run
 * (tests/sim/sim_host.h, Skylake with SMT off: 8 general counters, every
 * family whole).  It takes 5 of CPU 0's general counters: only the FLOPS
 * group with two general events still fits there.  Then:
 *  - within one rotation period every group that no longer fits has left
 *    CPU 0's rotation (the simulator shows each disabled, the one that
 *    fits running), and none is ever enabled beside another (the
 *    simulator asserts it);
 *  - the groups are reported unschedulable in the stored intervals, which
 *    /api/v1/system and stackctl status show;
 *  - every process's CPU time still equals the truth: no time is lost to a
 *    group that counts nothing.
 * When the user lets go, the benched groups come back after their 10 s.
 */
#include "sim_host.h"
#include "lib/clock.h"
#include "lib/query.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static void check_cpu0_states(struct sim_host *h, bool only_flops_b)
{
	unsigned running = 0;

	for (unsigned g = 0; g < h->plan.n_groups; g++) {
		const char *family = h->model->groups[h->plan.groups[g].family].name;
		enum simpmu_state st;

		CHECK(simpmu_group_state(h->sim, h->col->cpus[0].groups[g].fds[0], &st) == 0);
		if (st == SIMPMU_ACTIVE) {
			running++;
			if (only_flops_b)
				CHECK_STR(family, "flops_b");
		}
		CHECK(st != SIMPMU_ERROR || !only_flops_b);   /* benched groups are disabled */
	}
	CHECK(running <= 1);
}

int main(void)
{
	struct sim_host h;
	struct window w;
	struct db *db;
	char err[1024];
	uint64_t benched = 0;
	int flops_b = -1;

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	CHECK(sim_host_open(&h, &model_skl, "skl", false, false, 0, err, sizeof(err)) == 0);
	CHECK_EQ_U(h.plan.n_groups, model_skl.n_groups);   /* nothing split */
	sim_host_start(&h);
	CHECK(sim_host_run(&h, 1500 * NS_PER_MSEC, false, err, sizeof(err)) == 0);

	CHECK(simpmu_reserve(h.sim, 0, 5) == 0);
	/* One rotation period later, CPU 0 runs flops_b alone. */
	CHECK(sim_host_run(&h, h.rotate_ns + NS_PER_MSEC, false, err, sizeof(err)) == 0);
	CHECK(simpmu_reserved_held(h.sim, 0));
	check_cpu0_states(&h, true);
	CHECK(sim_host_run(&h, 2 * NS_PER_SEC, true, err, sizeof(err)) == 0);
	check_cpu0_states(&h, true);
	CHECK_EQ_U(simpmu_violations(h.sim), 0);

	CHECK(db_open(h.db_path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * NS_PER_SEC, &w, err, sizeof(err)) == 0);
	for (unsigned g = 0; g < w.n_groups; g++) {
		if (strcmp(w.groups[g].name, "flops_b") == 0) {
			flops_b = (int)g;
			CHECK_EQ_U(w.groups[g].unschedulable, 0);
		} else {
			CHECK(w.groups[g].unschedulable > 0);
			benched += w.groups[g].unschedulable;
		}
	}
	CHECK(flops_b >= 0);
	CHECK(w.unschedulable == benched);
	for (unsigned i = 0; i < SIM_HOST_TASKS; i++) {
		struct group_sums truth[MODEL_MAX_GROUPS];
		uint64_t tc = 0;

		for (size_t k = 0; k < w.n_procs; k++)
			if (w.procs[k].pid == sim_host_pid(i))
				tc += w.procs[k].task_clock_ns;
		sim_host_truth(&h, i, truth);
		CHECK_EQ_U(tc, truth[0].task_clock_ns);
	}
	window_done(&w);
	db_close(db);

	/* The user lets go: after the bench the groups rotate again. */
	CHECK(simpmu_reserve(h.sim, 0, 0) == 0);
	CHECK(sim_host_run(&h, 11 * NS_PER_SEC, false, err, sizeof(err)) == 0);
	{
		unsigned seen = 0;

		for (unsigned r = 0; r < h.plan.n_groups; r++) {
			enum simpmu_state st;

			CHECK(sim_host_run(&h, h.rotate_ns, false, err, sizeof(err)) == 0);
			for (unsigned g = 0; g < h.plan.n_groups; g++)
				if (simpmu_group_state(h.sim, h.col->cpus[0].groups[g].fds[0], &st) == 0 &&
				    st == SIMPMU_ACTIVE && strcmp(h.model->groups[h.plan.groups[g].family].name,
								  "flops_b") != 0)
					seen++;
		}
		CHECK(seen > 0);
	}
	CHECK_EQ_U(simpmu_violations(h.sim), 0);
	sim_host_close(&h);
	return 0;
}
