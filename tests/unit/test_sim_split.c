/*
 * test_sim_split.c - a family the plan split over groups is labelled as
 * such where readers look: on the simulated Skylake with SMT on and the
 * NMI watchdog (3 general counters free per thread), every family of more
 * events than that is counted in parts; the window read back from the
 * store marks exactly those families split (the API's "groups"[].split,
 * `stackctl show`'s "split" line), and no whole one.
 */
#include "sim_host.h"
#include "lib/clock.h"
#include "lib/query.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
	struct sim_host h;
	struct window w;
	struct db *db;
	char err[1024];
	unsigned g, n_split = 0, n_whole = 0;

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	CHECK(sim_host_open(&h, &model_skl, "skl", true, true, 0, err, sizeof(err)) == 0);
	sim_host_start(&h);
	CHECK(sim_host_run(&h, 4 * NS_PER_SEC, true, err, sizeof(err)) == 0);
	CHECK(db_open(h.db_path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * NS_PER_SEC, &w, err, sizeof(err)) == 0);
	for (g = 0; g < w.n_groups; g++) {
		bool planned_split = h.plan.families[g].collected && h.plan.families[g].n_parts > 1;

		CHECK(w.groups[g].split == planned_split);
		n_split += planned_split;
		n_whole += h.plan.families[g].collected && !planned_split;
	}
	CHECK(n_split > 0 && n_whole > 0);
	window_done(&w);
	db_close(db);
	sim_host_close(&h);
	printf("test_sim_split: ok (%u split, %u whole)\n", n_split, n_whole);
	return 0;
}
