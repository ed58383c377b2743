/* The sampling mode and its share (lib/sampling_mode.h): none, a sliver,
 * a part and all of the CPU time measured periodically, as shares, modes
 * and texts whose two parts add up as printed; then through the store:
 * the periodic time of each interval over all the CPUs' time, for a
 * window (/api/v1/system's and /api/v1/top's "sampling_mode", the target
 * endpoint's) and per series point ("periodic_share"). */
#include "daemon/attribute/interval.h"
#include "lib/api.h"
#include "lib/clock.h"
#include "lib/db.h"
#include "lib/pids.h"
#include "lib/query.h"
#include "lib/sampling_mode.h"
#include "daemon/store/store.h"
#include "test_db.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define T0 3000000ULL
#define N_INTERVALS 10

static void test_helpers(void)
{
	static const struct {
		uint64_t periodic_ns, cpu_ns;
		enum sampling_mode mode;
		const char *name, *percent, *text;
	} cases[] = {
		{ 0, 0, SAMPLING_PER_SWITCH, "per-switch", "0.0%", "per-switch (exact)" },
		{ 0, 4 * SEC, SAMPLING_PER_SWITCH, "per-switch", "0.0%", "per-switch (exact)" },
		{ SEC, 4 * SEC, SAMPLING_MIXED, "mixed", "25.0%",
		  "mixed, 75.0% per-switch (exact) and 25.0% periodic (statistical)" },
		/* 1/3: the parts add up to 100.0 as printed */
		{ SEC, 3 * SEC, SAMPLING_MIXED, "mixed", "33.3%",
		  "mixed, 66.7% per-switch (exact) and 33.3% periodic (statistical)" },
		/* 1 ms of 20 CPU-s: periodic, however little, is never "0.0%" */
		{ SEC / 1000, 20 * SEC, SAMPLING_MIXED, "mixed", "<0.1%",
		  "mixed, >99.9% per-switch (exact) and <0.1% periodic (statistical)" },
		/* 99.85%: not all, so never "100.0%" either */
		{ 9985 * SEC / 10000, SEC, SAMPLING_MIXED, "mixed", "99.9%",
		  "mixed, 0.1% per-switch (exact) and 99.9% periodic (statistical)" },
		/* a tick short of all of it (CPU clocks): all periodic */
		{ SEC - 1000, SEC, SAMPLING_PERIODIC, "periodic", "100.0%",
		  "periodic (statistical)" },
		/* and a tick over it: capped at 1 */
		{ SEC + 1000, SEC, SAMPLING_PERIODIC, "periodic", "100.0%",
		  "periodic (statistical)" },
	};
	char buf[SAMPLING_MODE_TEXT_MAX], pct[16];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double share = sampling_mode_share(cases[i].periodic_ns, cases[i].cpu_ns);

		CHECK(share >= 0.0 && share <= 1.0);
		CHECK(sampling_mode_of(share) == cases[i].mode);
		CHECK_STR(sampling_mode_name(sampling_mode_of(share)), cases[i].name);
		CHECK_STR(sampling_mode_percent(share, pct, sizeof(pct)), cases[i].percent);
		CHECK_STR(sampling_mode_describe(share, buf, sizeof(buf)), cases[i].text);
	}
	CHECK(fabs(sampling_mode_share(SEC, 4 * SEC) - 0.25) < 1e-12);
	CHECK(sampling_mode_share(SEC + 1000, SEC) == 1.0);
}

/* Interval k of 1 s on 2 CPUs: web busy on CPU 1, batch on CPU 0; in
 * intervals 6 and 7 CPU 0 was sampled periodically all along, in 8 for
 * half of it, so batch's own figures there are statistical and web's
 * exact, whatever the host's share. */
static struct interval_data *make_interval(unsigned k)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));
	uint64_t periodic = k == 6 || k == 7 ? SEC : k == 8 ? SEC / 2 : 0;
	unsigned i;

	CHECK(iv != NULL);
	iv->start_ns = (T0 + k) * SEC;
	iv->end_ns = (T0 + k + 1) * SEC;
	iv->ncpus = 2;
	iv->n_groups = 1;
	iv->enabled_ns[0] = 2 * SEC;
	iv->st.samples = 100;
	iv->st.periodic_ns = periodic;
	iv->procs = calloc(2, sizeof(*iv->procs));
	iv->rows = calloc(2, sizeof(*iv->rows));
	CHECK(iv->procs != NULL && iv->rows != NULL);
	for (i = 0; i < 2; i++) {
		iv->procs[i] = (struct iv_proc){ .pid = 42 + (int32_t)i, .uid = 0,
						 .start_ns = 5 * SEC };
		snprintf(iv->procs[i].comm, sizeof(iv->procs[i].comm), "%s", i ? "batch" : "web");
		iv->rows[i] = (struct iv_row){ .proc = i, .group = 0, .task_clock_ns = SEC,
					       .context_switches = 50,
					       .periodic_ns = i ? periodic : 0 };
	}
	iv->n_procs = iv->n_rows = 2;
	return iv;
}

/* GET path?query answers 200 with want in its body. */
static void check_api(struct db *db, const char *path, const char *query, const char *want)
{
	api_expect(&model_software, db, path, query, want);
}

static void test_stored(const char *path)
{
	struct series_bucket b[N_INTERVALS + 1];
	const struct model *m = NULL;
	struct db *db = NULL;
	struct window w;
	char err[1024];
	int n, i;

	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	/* the newest 5 s (intervals 5..9): 2.5 CPU-s periodic of 10 */
	CHECK(query_health(db, 5 * SEC, &w, err, sizeof(err)) == 0);
	CHECK_EQ_U(w.split.cpu_ns, 10 * SEC);
	CHECK_EQ_U(w.split.periodic_ns, 5 * SEC / 2);
	CHECK(fabs(cpu_split_periodic_share(&w.split) - 0.25) < 1e-12);
	window_done(&w);
	/* per 1 s bucket: half of the 2 CPU-s in 6 and 7, a quarter in 8 */
	n = query_series(db, WHO_HOST, NULL, -1, T0 * SEC, (T0 + N_INTERVALS) * SEC, SEC, b,
			 N_INTERVALS + 1, &m, err, sizeof(err));
	CHECK_EQ_U(n, N_INTERVALS);
	for (i = 0; i < n; i++)
		CHECK(fabs(cpu_split_periodic_share(&b[i].host) -
			   (i == 6 || i == 7 ? 0.5 : i == 8 ? 0.25 : 0.0)) < 1e-12);
	check_api(db, "/api/v1/system", "window=5s",
		  "\"sampling_mode\": {\"mode\": \"mixed\", \"periodic_share\": 0.25, "
		  "\"periodic_ns\": 2500000000, \"cpu_ns\": 10000000000, \"text\": \"mixed, "
		  "75.0% per-switch (exact) and 25.0% periodic (statistical)\"}");
	check_api(db, "/api/v1/top", "window=5s", "\"mode\": \"mixed\", \"periodic_share\": 0.25");
	check_api(db, "/api/v1/comms/web", "window=5s", "\"mode\": \"mixed\", "
		  "\"periodic_share\": 0.25");
	/* each target's own share: batch ran on the periodic CPU, 2.5 of
	 * its 5 CPU-s statistical; web none */
	check_api(db, "/api/v1/comms/batch", "window=5s", "\"periodic_share\": 0.5, "
		  "\"periodic_ns\": 2500000000");
	check_api(db, "/api/v1/comms/web", "window=5s", "\"periodic_share\": 0, "
		  "\"periodic_ns\": 0");
	check_api(db, "/api/v1/processes/43", "window=2s", "\"periodic_share\": 0.25, "
		  "\"periodic_ns\": 500000000");
	check_api(db, "/api/v1/top", "window=5s", "\"comm\": \"batch\", \"cpu_percent\": 100, "
		  "\"periodic_share\": 0.5,");
	check_api(db, "/api/v1/top", "window=5s", "\"comm\": \"web\", \"cpu_percent\": 100, "
		  "\"periodic_share\": 0,");
	check_api(db, "/api/v1/system", "window=1s", "\"mode\": \"per-switch\", "
		  "\"periodic_share\": 0, \"periodic_ns\": 0");
	/* series points: the host's share, and the target's own (web: none
	 * of its time; batch: all of it in 6 and 7, half in 8) */
	check_api(db, "/api/v1/series", "who=comm:web&metric=cpu_percent&from=@3000006&"
		  "to=@3000008&step=1s", "\"low_attribution\": false, \"periodic_share\": 0.5, "
		  "\"target_periodic_share\": 0}");
	check_api(db, "/api/v1/series", "who=comm:web&metric=cpu_percent&from=@3000008&"
		  "to=@3000009&step=1s", "\"periodic_share\": 0.25, \"target_periodic_share\": 0}");
	check_api(db, "/api/v1/series", "who=comm:batch&metric=cpu_percent&from=@3000006&"
		  "to=@3000008&step=1s", "\"periodic_share\": 0.5, \"target_periodic_share\": 1}");
	check_api(db, "/api/v1/series", "who=comm:batch&metric=cpu_percent&from=@3000008&"
		  "to=@3000009&step=1s", "\"periodic_share\": 0.25, "
		  "\"target_periodic_share\": 0.5}");
	db_close(db);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-mode.XXXXXX", path[64], cmd[128], err[1024];
	struct store *s = NULL;
	unsigned k;

	test_helpers();
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/mode.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-m", 1, err, sizeof(err)) == 0);
	for (k = 0; k < N_INTERVALS; k++) {
		struct interval_data *iv = make_interval(k);

		CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
		interval_free(iv);
	}
	store_close(s);
	test_stored(path);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
