/*
 * test_formula_history.c - intervals stored under an older formula version
 * are recomputed with the current one where their events allow, and
 * labelled where they do not (issue 29, part 5), through the readers
 * stackctl and the API use.
 *
 * The history is Skylake's real one: formula version 1 stored td_l1 as
 * cycles, instructions, uops_issued, retire_slots, idq_not_delivered,
 * recovery_cycles (lib/model/model_skl.c before commit d9b339d, which
 * appended the SMT-on events recovery_cycles_any, one_thread_active and
 * ref_xclk and bumped it to version 2).  With SMT off version 2 reads the
 * same six, so perf's level 1 for Skylake (SLOTS = 4 * cycles) must come
 * back from version 1's counts:
 *   frontend_bound  = IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS
 *   bad_speculation = (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS
 *                      + 4 * INT_MISC.RECOVERY_CYCLES) / SLOTS
 *   retiring        = UOPS_RETIRED.RETIRE_SLOTS / SLOTS
 *   backend_bound   = 1 - frontend_bound - (UOPS_ISSUED.ANY + 4 * RECOVERY) / SLOTS
 */
#include "cli/recorded_label.h"
#include "daemon/attribute/interval.h"
#include "daemon/store/store.h"
#include "lib/clock.h"
#include "lib/query.h"
#include "test.h"
#include "test_db.h"

#include <jansson.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#define SEC ((uint64_t)NS_PER_SEC)
#define PID 100

/* td_l1 of version 1: six events, by default the first six of version 2's. */
static struct model skl_v1(const struct model *skl, struct model_group *g,
			   const struct model_event *events)
{
	struct model m = *skl;

	*g = skl->groups[0];
	g->n_events = 6;
	if (events != NULL)
		g->events = events;
	m.formula_version = 1;
	m.groups = g;
	m.n_groups = 1;
	return m;
}

/* One interval ending at end_s: process PID ("spin") with v in group 0. */
static void write_interval(struct store *s, uint64_t end_s, unsigned n_groups,
			   const uint64_t *v, unsigned nv)
{
	struct interval_data *iv = calloc(1, sizeof(*iv));
	char err[1024];
	unsigned g;

	CHECK(iv != NULL);
	iv->start_ns = (end_s - 1) * SEC;
	iv->end_ns = end_s * SEC;
	iv->ncpus = 1;
	iv->n_groups = n_groups;
	for (g = 0; g < n_groups; g++)
		iv->enabled_ns[g] = SEC;
	iv->st.busiest_cpu = -1;
	iv->n_procs = 1;
	iv->procs = calloc(1, sizeof(*iv->procs));
	iv->procs[0] = (struct iv_proc){ .pid = PID, .start_ns = 5 * SEC, .comm = "spin", .uid = 0 };
	iv->n_rows = 1;
	iv->rows = calloc(1, sizeof(*iv->rows));
	iv->rows[0] = (struct iv_row){ .proc = 0, .group = 0, .task_clock_ns = SEC / 2,
				       .context_switches = 1 };
	memcpy(iv->rows[0].v, v, nv * sizeof(*v));
	CHECK(store_write_intervals(s, iv, err, sizeof(err)) == 0);
	interval_free(iv);
}

/* The reading model's figures for PID over the window. */
static void figures(const struct window *w, struct metric_value *mv)
{
	const struct window_proc *p = find(w, PID);
	struct model_context ctx = { .smt_on = false };

	CHECK(p != NULL && w->model != NULL);
	memset(mv, 0, MODEL_MAX_METRICS * sizeof(*mv));
	w->model->compute(w->model, p->sums, &ctx, mv);
}

static const struct metric_value *figure(const struct window *w, const struct metric_value *mv,
					 const char *name)
{
	int k = model_metric_index(w->model, name);

	CHECK(k >= 0);
	return &mv[k];
}

static bool near(const struct metric_value *v, double want)
{
	return v->valid && fabs(v->value - want) < 1e-9;
}

/* GET path?query as JSON (200 expected). */
static json_t *api_json(const struct model *m, struct db *db, const char *path,
			const char *query)
{
	struct api_info info = { .database = "test", .model = m };
	struct api_access acc = { .full = true, .uid = 0 };
	struct api_response resp;
	json_t *j;

	CHECK(api_handle(&info, db, NULL, "GET", path, query, &acc, &resp) == 0);
	if (resp.status != 200)
		fprintf(stderr, "%s?%s: %d %s\n", path, query, resp.status, resp.body);
	CHECK(resp.status == 200);
	j = json_loads(resp.body, 0, NULL);
	free(resp.body);
	CHECK(j != NULL);
	return j;
}

/* The one entry of the answer's recorded_under, in words. */
static void label_of(const json_t *a, char *buf, size_t len)
{
	const json_t *r = json_object_get(a, "recorded_under");

	CHECK(json_array_size(r) == 1);
	recorded_label(a, json_array_get(r, 0), buf, len);
}

/* Version 1's counts, read by version 2: perf's level 1, and every
 * surface says they were recorded under v1 and recomputed. */
static void check_recomputed(const char *dir, const struct model *skl)
{
	/* cycles, instructions, uops_issued, retire_slots, idq_not_delivered,
	 * recovery_cycles: SLOTS 4e6 */
	static const uint64_t v1[] = { 1000000, 800000, 1400000, 1200000, 800000, 25000 };
	static const uint64_t v2[] = { 2000000, 1000000, 2000000, 1600000, 3000000, 50000,
				       7, 8, 9 };
	struct metric_value mv[MODEL_MAX_METRICS];
	struct model_group g1;
	struct model old = skl_v1(skl, &g1, NULL);
	char path[256], err[1024], line[1024];
	struct store *s = NULL;
	struct db *db = NULL;
	struct window w;
	json_t *a;
	int i;

	model_group_columns(&g1, line, sizeof(line));
	CHECK_STR(line, "cycles,instructions,uops_issued,retire_slots,idq_not_delivered,"
		  "recovery_cycles");
	snprintf(path, sizeof(path), "%s/v1.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &old, NULL, "boot-1", 1, err, sizeof(err)) == 0);
	for (i = 0; i < 3; i++)
		write_interval(s, 100 + i, 1, v1, 6);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * SEC, &w, err, sizeof(err)) == 0);
	CHECK(w.model == skl && w.model->formula_version == 2);
	figures(&w, mv);
	CHECK(near(figure(&w, mv, "frontend_bound"), 0.2));
	CHECK(near(figure(&w, mv, "retiring"), 0.3));
	CHECK(near(figure(&w, mv, "bad_speculation"), 0.075));
	CHECK(near(figure(&w, mv, "backend_bound"), 0.425));
	CHECK_EQ_U(w.n_recorded, 1);
	CHECK_STR(w.recorded[0].model, "skl");
	CHECK_EQ_U(w.recorded[0].formula_version, 1);
	CHECK_EQ_U(w.recorded[0].intervals, 3);
	CHECK(w.recorded[0].recomputed);
	window_done(&w);

	a = api_json(skl, db, "/api/v1/comms/spin", "window=1h");
	CHECK_EQ_U(json_integer_value(json_object_get(a, "formula_version")), 2);
	label_of(a, line, sizeof(line));
	CHECK_STR(line, "recorded under skl formula v1 (3 intervals): recomputed with v2");
	CHECK(json_array_size(json_object_get(json_array_get(json_object_get(a, "recorded_under"),
							     0), "missing_events")) == 0);
	json_decref(a);
	a = api_json(skl, db, "/api/v1/series", "who=comm:spin&metric=frontend_bound&step=1s");
	CHECK(fabs(json_number_value(json_object_get(json_array_get(json_object_get(a, "points"),
								    0), "value")) - 0.2) < 1e-9);
	label_of(a, line, sizeof(line));
	CHECK_STR(line, "recorded under skl formula v1 (3 intervals): recomputed with v2");
	json_decref(a);
	a = api_json(skl, db, "/api/v1/top", "window=1h");
	label_of(a, line, sizeof(line));
	CHECK_STR(line, "recorded under skl formula v1 (3 intervals): recomputed with v2");
	json_decref(a);

	/* then version 2 (every family, whole): one window of both sums the
	 * six events both counted; the label stays on v1's intervals */
	CHECK(store_register(s, skl, NULL, "boot-1", 1, err, sizeof(err)) == 0);
	for (i = 0; i < 2; i++)
		write_interval(s, 103 + i, skl->n_groups, v2, 9);
	CHECK(query_window(db, 3600 * SEC, &w, err, sizeof(err)) == 0);
	figures(&w, mv);
	CHECK(near(figure(&w, mv, "frontend_bound"), (3 * 800000.0 + 2 * 3000000.0) /
		   (4 * (3 * 1000000.0 + 2 * 2000000.0))));
	CHECK(near(figure(&w, mv, "retiring"), (3 * 1200000.0 + 2 * 1600000.0) /
		   (4 * (3 * 1000000.0 + 2 * 2000000.0))));
	CHECK_EQ_U(w.n_recorded, 1);
	CHECK_EQ_U(w.recorded[0].intervals, 3);
	window_done(&w);
	/* a window of v2's intervals only says nothing */
	CHECK(query_window(db, 2 * SEC, &w, err, sizeof(err)) == 0);
	CHECK_EQ_U(w.n_intervals, 2);
	CHECK_EQ_U(w.n_recorded, 0);
	window_done(&w);
	db_close(db);
	store_close(s);
}

/* Version 1 without idq_not_delivered and with a column version 2 no
 * longer has: the counts are kept (export), what needs the missing event
 * is not computed, the rest is, and the label names the event. */
static void check_column_removed(const char *dir, const struct model *skl)
{
	static const uint64_t v1[] = { 1000000, 800000, 1400000, 1200000, 25000, 4242 };
	struct model_event ev[6];
	struct model_group g1;
	struct model old;
	struct metric_value mv[MODEL_MAX_METRICS];
	char path[256], err[1024], line[1024];
	struct store *s = NULL;
	struct db *db = NULL;
	struct window w;
	json_t *a;
	int i;

	/* cycles, instructions, uops_issued, retire_slots, recovery_cycles, old_column */
	memcpy(ev, skl->groups[0].events, 4 * sizeof(*ev));
	ev[4] = skl->groups[0].events[5];
	ev[5] = (struct model_event){ "r1234", "old_column", NULL, false, false };
	old = skl_v1(skl, &g1, ev);
	snprintf(path, sizeof(path), "%s/removed.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &old, NULL, "boot-1", 1, err, sizeof(err)) == 0);
	for (i = 0; i < 4; i++)
		write_interval(s, 100 + i, 1, v1, 6);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * SEC, &w, err, sizeof(err)) == 0);
	figures(&w, mv);
	CHECK(near(figure(&w, mv, "retiring"), 0.3));
	CHECK(near(figure(&w, mv, "bad_speculation"), 0.075));
	CHECK(!figure(&w, mv, "frontend_bound")->valid);   /* missing, never 0 */
	CHECK(!figure(&w, mv, "backend_bound")->valid);
	CHECK_EQ_U(w.n_recorded, 1);
	CHECK(!w.recorded[0].recomputed);
	CHECK_STR(w.recorded[0].missing, "idq_not_delivered");
	window_done(&w);
	/* the counts are all still there, old_column too */
	CHECK(scalar(path, "SELECT sum(v5) FROM sample") == 4 * 4242);

	a = api_json(skl, db, "/api/v1/comms/spin", "window=1h");
	label_of(a, line, sizeof(line));
	CHECK_STR(line, "recorded under skl formula v1 (4 intervals): events differ (lacks "
		  "idq_not_delivered): counts kept, figures that need them not computed");
	json_decref(a);
	db_close(db);
	store_close(s);
}

/* A host that moved to another model: the old model's intervals are not
 * computed (their columns may name other events) but counted, labelled,
 * and their CPU time kept. */
static void check_other_model(const char *dir, const struct model *skl)
{
	static const uint64_t v[] = { 1000000, 800000, 1400000, 1200000, 800000, 25000, 0, 0, 0 };
	static const uint64_t sw[] = { 1, 2, 3 };
	char path[256], err[1024], line[1024];
	struct store *s = NULL;
	struct db *db = NULL;
	struct window w;
	json_t *a;
	int i;

	snprintf(path, sizeof(path), "%s/other.db", dir);
	CHECK(store_open(path, &s, err, sizeof(err)) == 0);
	CHECK(store_register(s, &model_software, NULL, "boot-1", 1, err, sizeof(err)) == 0);
	for (i = 0; i < 5; i++)
		write_interval(s, 100 + i, model_software.n_groups, sw, 3);
	CHECK(store_register(s, skl, NULL, "boot-1", 1, err, sizeof(err)) == 0);
	write_interval(s, 105, skl->n_groups, v, 9);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0);
	CHECK(query_window(db, 3600 * SEC, &w, err, sizeof(err)) == 0);
	CHECK(w.model == skl);
	CHECK_EQ_U(find(&w, PID)->task_clock_ns, 6 * SEC / 2);
	CHECK_EQ_U(w.n_recorded, 1);
	CHECK_STR(w.recorded[0].model, "software");
	CHECK_EQ_U(w.recorded[0].intervals, 5);
	CHECK(!w.recorded[0].recomputed);
	window_done(&w);
	a = api_json(skl, db, "/api/v1/comms/spin", "window=1h");
	label_of(a, line, sizeof(line));
	CHECK_STR(line, "recorded under software formula v1 (5 intervals): events differ: "
		  "counts kept, stacks not computed");
	json_decref(a);
	db_close(db);
	store_close(s);
}

int main(void)
{
	char dir[] = "/tmp/stackd-unit-formula.XXXXXX";
	const struct model *skl = model_find("skl");
	char cmd[300];

	CHECK(skl != NULL && skl->formula_version == 2);
	CHECK(mkdtemp(dir) != NULL);
	check_recomputed(dir, skl);
	check_column_removed(dir, skl);
	check_other_model(dir, skl);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
