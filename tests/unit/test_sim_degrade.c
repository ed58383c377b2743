/*
 * test_sim_degrade.c - a guest whose kernel refuses one event (its
 * hypervisor hides it): the daemon's collector opens what opens
 * (daemon/collect/collector_degrade.h).  On the simulated Skylake (SMT
 * off, every family) whose kernel refuses MACHINE_CLEARS.COUNT, exactly the
 * families holding that event are left out, each saying the kernel's
 * answer; every other family counts, schedules and gives the truth's
 * figures; the store registers only what counts.
 */
#include "sim_host.h"
#include "lib/clock.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool family_has(const struct model_group *g, const char *column)
{
	return model_event_index(g, column) >= 0;
}

int main(void)
{
	static const char refused[] = "machine_clears_count";
	struct sim_host h;
	char err[1024];
	unsigned f, g, n_refused = 0;

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	if (sim_host_open_refusing(&h, &model_skl, "skl", false, false, 0, refused, err,
				   sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		CHECK(0);
	}
	for (f = 0; f < model_skl.n_groups; f++) {
		const struct plan_family *pf = &h.plan.families[f];
		bool has = family_has(&model_skl.groups[f], refused);

		CHECK(pf->refused == has);
		CHECK(pf->collected == !has);
		if (has) {
			n_refused++;
			CHECK(strstr(pf->why, "this host refused it") != NULL);
			CHECK(strstr(pf->why, "No such file or directory") != NULL);
		}
	}
	CHECK(n_refused >= 1 && n_refused < model_skl.n_groups);
	for (g = 0; g < h.plan.n_groups; g++)
		CHECK(!family_has(&model_skl.groups[h.plan.groups[g].family], refused));
	sim_host_start(&h);
	CHECK(sim_host_run(&h, 5 * NS_PER_SEC, true, err, sizeof(err)) == 0);
	if (sim_host_verify(&h, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		CHECK(0);
	}
	sim_host_close(&h);

	/* refused on CPU 1 only, after CPU 0 opened it: left out all the same
	 * (a family counts the same on every CPU, or a process moving
	 * between them is measured by different groups), the CPU named */
	CHECK(sim_host_open_refusing(&h, &model_skl, "skl", false, false, 0,
				     "machine_clears_count@1:2", err, sizeof(err)) == 0);
	for (f = 0; f < model_skl.n_groups; f++)
		if (family_has(&model_skl.groups[f], refused))
			CHECK(h.plan.families[f].refused &&
			      strstr(h.plan.families[f].why, "on cpu 1") != NULL);
	sim_host_close(&h);
	/* permission is not a refusal of the event: the start stops */
	CHECK(sim_host_open_refusing(&h, &model_skl, "skl", false, false, 0,
				     "machine_clears_count@-1:13", err, sizeof(err)) == -EACCES);
	CHECK(strstr(err, "CAP_PERFMON") != NULL);
	sim_host_close(&h);
	printf("test_sim_degrade: ok (%u famil%s refused)\n", n_refused, n_refused == 1 ? "y" : "ies");
	return 0;
}
