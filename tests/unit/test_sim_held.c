/*
 * test_sim_held.c - another PMU user holds 2 general counters on every CPU
 * of a Skylake (SMT off: 8 general counters) the daemon planned as its
 * own.  The groups that no longer fit are refused by the simulated PMU
 * (its pinned leaders go into error state), benched, refused again; the
 * daemon's review of each interval (daemon/plan/plan_held.h, as
 * interval_flush feeds it) then asks for one more counter held back, the
 * host is planned again with it, and so on until every group schedules:
 * two counters held back, every group counting, every figure the truth.
 */
#include "sim_host.h"
#include "daemon/plan/plan_held.h"
#include "lib/clock.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

struct held_run {
	struct sim_host *h;
	struct plan_held held;
	int changed;                 /* the review's first non-zero answer */
	uint64_t t;                  /* intervals seen */
	uint64_t changed_at;         /* at the review's answer */
	uint64_t refused_late;       /* refusals in this plan's last 10 intervals */
};

static void on_interval(void *ctx, const struct interval_data *iv)
{
	struct held_run *r = ctx;
	unsigned g;

	r->t++;
	for (g = 0; g < iv->n_groups && r->t > 15; g++)
		r->refused_late += iv->unschedulable[g];
	if (r->changed == 0) {
		r->changed = plan_held_review(&r->held, &r->h->plan, iv->enabled_ns,
					      iv->unschedulable, iv->n_groups, iv->ncpus);
		r->changed_at = r->t;
	}
}

int main(void)
{
	struct sim_host h;
	struct held_run run = { .h = &h };
	char err[1024];
	unsigned round, c;

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	for (round = 0; round < 4; round++) {
		CHECK(sim_host_open(&h, &model_skl, "skl", false, false, run.held.extra, err,
				    sizeof(err)) == 0);
		for (c = 0; c < SIM_HOST_CPUS; c++)   /* the other tool holds 2, whatever we plan */
			CHECK(simpmu_reserve(h.sim, (int)c, 2) == 0);
		h.on_interval = on_interval;
		h.on_interval_ctx = &run;
		run.changed = 0;
		run.t = run.changed_at = 0;
		run.refused_late = 0;
		sim_host_start(&h);
		CHECK(sim_host_run(&h, 25 * NS_PER_SEC, true, err, sizeof(err)) == 0);
		fprintf(stderr, "round %u: %u held back, review %+d after %llu intervals, %llu "
			"refusals in the last 10\n", round, run.held.extra, run.changed,
			(unsigned long long)run.changed_at, (unsigned long long)run.refused_late);
		if (run.changed == 0)
			break;
		CHECK(run.changed == 1);   /* never one fewer while the tool holds them */
		sim_host_close(&h);
	}
	/* two rounds found one counter each; the third plan fits beside the tool */
	CHECK_EQ_U(round, 2);
	CHECK_EQ_U(run.held.extra, 2);
	CHECK_EQ_U(run.refused_late, 0);
	if (sim_host_verify(&h, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		CHECK(0);
	}
	sim_host_close(&h);
	printf("test_sim_held: ok\n");
	return 0;
}
