/*
 * test_sim_replan.c - a re-plan's switch on the simulated PMU (replan.c):
 * after the final cut the old counter groups are closed
 * (collector_close_groups) and the side-band events go on recording; a
 * process forked, renamed and ended then is in what worker_take_rest hands
 * over afterwards - its records alone, no counts (the group indices are
 * the old plan's) - and the ring is left empty.  Nothing the final cut
 * took comes again.
 */
#include "sim_host.h"
#include "lib/clock.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* The final flush of the old plan, as interval_flush(d, true) does it on
 * the simulated clock: every worker cuts and stops, then disables. */
static void final_flush(struct sim_host *h)
{
	struct interval_data *iv = NULL, *done = NULL;
	unsigned c;

	CHECK(flush_request(&h->fl, true, &iv) == 0);
	for (c = 0; c < SIM_HOST_CPUS; c++) {
		CHECK(!worker_tick(&h->workers[c]));
		worker_end(&h->workers[c]);
	}
	CHECK(flush_collect(&h->fl, iv, &done) == 0);
	interval_free(done);
}

int main(void)
{
	struct sim_host h;
	struct simpmu_task *kid;
	struct handover *rest;
	char err[1024];
	unsigned fork_seen = 0, comm_seen = 0, exit_seen = 0;
	size_t i;

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	CHECK(sim_host_open(&h, &model_skl, "skl", true, false, 0, err, sizeof(err)) == 0);
	sim_host_start(&h);
	CHECK(sim_host_run(&h, 1500 * NS_PER_MSEC, false, err, sizeof(err)) == 0);
	final_flush(&h);
	collector_close_groups(h.col);

	/* the switch: a process lives and dies on CPU 0, then CPU 1 sees nothing */
	kid = simpmu_task_new(h.sim, 777, 777, "sh", 1.0);
	CHECK(kid != NULL);
	simpmu_fork(h.sim, 0, h.init, kid);
	simpmu_exec(h.sim, 0, kid, "gapkid");
	simpmu_run(h.sim, 0, kid, 2 * NS_PER_MSEC);
	simpmu_exit(h.sim, 0, kid);
	simpmu_run(h.sim, 0, simpmu_task_idle(h.sim), NS_PER_MSEC);

	rest = worker_take_rest(&h.workers[0]);
	CHECK(rest != NULL);
	for (i = 0; i < rest->n_life; i++) {
		const struct life_rec *lr = &rest->life[i];

		CHECK(lr->pid == 777);   /* nothing the final cut took */
		fork_seen += lr->type == LIFE_FORK;
		exit_seen += lr->type == LIFE_EXIT;
		if (lr->type == LIFE_COMM && strcmp(lr->comm, "gapkid") == 0 && lr->exec)
			comm_seen++;
	}
	CHECK(fork_seen == 1 && comm_seen == 1 && exit_seen == 1);
	CHECK_EQ_U(rest->acc.n, 0);              /* no counts of the old groups */
	CHECK_EQ_U(rest->st.samples, 0);
	CHECK(rest->acc.shared == NULL);
	handover_free(rest);
	CHECK(worker_take_rest(&h.workers[0]) == NULL);   /* the ring is empty now */
	CHECK(worker_take_rest(&h.workers[1]) == NULL);   /* CPU 1 saw nothing */
	sim_host_close(&h);
	return 0;
}
