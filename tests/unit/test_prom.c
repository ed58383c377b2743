/*
 * /metrics bookkeeping: counters add up across intervals, exited processes
 * leave the per-process family (and the index is rebuilt so the others keep
 * their counts), names beyond max_keys add up under "[other]", and only the
 * top-N processes are printed, a set that changes only when another
 * process is clearly busier (smoothed over intervals); labels are valid UTF-8
 * whatever bytes a name holds; a re-plan (SIGHUP) moves each group's counts
 * to its new index, prints no group left out, and starts a new one at 0;
 * the newest interval's periodic (statistical) share is a gauge; a
 * target's Top-Down nodes come from the model's formulas (perf's values);
 * only the top N comms are printed, the rest under "[other]".
 */
#include "daemon/serve/prom.h"
#include "lib/utf8.h"
#include "test.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

/* max_keys names followed, 10 comms and units printed, top processes. */
static const struct prom_limits *lim(unsigned max_keys, unsigned top)
{
	static struct prom_limits l;

	l = (struct prom_limits){ .max_keys = max_keys, .top_comms = 10, .top_units = 10,
				  .top_processes = top };
	return &l;
}

static void interval(struct interval_data *iv, struct iv_proc *procs, size_t n,
		     struct iv_row *rows)
{
	size_t i;

	memset(iv, 0, sizeof(*iv));
	iv->procs = procs;
	iv->n_procs = n;
	iv->rows = rows;
	iv->n_rows = n;
	for (i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].proc = (uint32_t)i;
		rows[i].task_clock_ns = 1000000000ULL * (i + 1);   /* 1 s, 2 s, 3 s */
		rows[i].context_switches = 10;
		rows[i].v[0] = 5;
	}
}

/* jansson's strict check (no surrogates, nothing past U+10FFFF). */
static int valid_utf8(const char *s)
{
	json_t *j = json_string(s);

	json_decref(j);
	return j != NULL;
}

/* n intervals in which alpha, beta and gamma run a, b and c ms. */
static void top_churn(struct prom *p, struct iv_proc *procs, uint64_t a, uint64_t b, uint64_t c,
		      int n)
{
	struct iv_row rows[3];
	struct interval_data iv;

	while (n-- > 0) {
		interval(&iv, procs, 3, rows);
		rows[0].task_clock_ns = a * 1000000;
		rows[1].task_clock_ns = b * 1000000;
		rows[2].task_clock_ns = c * 1000000;
		prom_add_interval(p, &iv);
	}
}

static char *render(struct prom *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	prom_render(p, NULL, true, f);
	fclose(f);
	return buf;
}

/* A plan of the software model without its faults family. */
static void migrations_only(struct plan *p)
{
	bool off[MODEL_MAX_GROUPS] = { true, false };
	struct plan_budget b;
	char err[256];

	plan_budget_for(&model_software, false, false, 0, &b);
	CHECK(plan_make(&model_software, off, &b, p, err, sizeof(err)) == 0);
	CHECK_EQ_U(p->n_groups, 1);
}

/* One interval of 1 s for process alpha, counted by plan group g. */
static void add_alpha(struct prom *p, unsigned g, uint64_t v0)
{
	struct iv_proc procs[1] = { { .pid = 10, .start_ns = 1000, .comm = "alpha" } };
	struct iv_row rows[1];
	struct interval_data iv;

	interval(&iv, procs, 1, rows);
	iv.rows[0].group = (uint16_t)g;   /* (through iv: what prom reads) */
	iv.rows[0].v[0] = v0;
	prom_add_interval(p, &iv);
}

static void test_replan(void)
{
	static const char *mig_events =
		"stackd_host_events_total{group=\"migrations\",event=\"migrations\"} 7\n";
	struct plan whole, mig;
	struct prom *p;
	char *text;

	plan_whole(&model_software, &whole);
	migrations_only(&mig);
	CHECK(prom_new(&model_software, &whole, lim(10, 10), &p) == 0);
	add_alpha(p, 1, 7);   /* migrations, in the whole plan */
	add_alpha(p, 0, 3);   /* faults */

	prom_replan(p, &mig);   /* migrations moves to index 0; faults is left out */
	text = render(p);
	CHECK(strstr(text, mig_events) != NULL);
	CHECK(strstr(text, "group=\"faults\"") == NULL);
	free(text);
	add_alpha(p, 0, 1);   /* migrations, in the new plan */

	prom_replan(p, &whole);   /* back: migrations keeps 8, faults starts again at 0 */
	text = render(p);
	CHECK(strstr(text, "{group=\"migrations\",event=\"migrations\"} 8\n") != NULL);
	CHECK(strstr(text, "{group=\"faults\",event=\"page_faults\"} 0\n") != NULL);
	/* CPU time is not per group: all three intervals, 1 s each */
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"alpha\"} 3\n") != NULL);
	free(text);
	prom_free(p);
}

/* The headline: idle, unattributed and a process - the ratio of the newest
 * interval's busy time, the CPU totals, and a comm series for each pseudo
 * process (no unit, no process series), so comms add up to all CPU time. */
static void test_attribution(void)
{
	struct iv_proc procs[3] = {
		{ .pid = 0, .comm = "[idle]" },
		{ .pid = -1, .comm = "[unattributed]" },
		{ .pid = 10, .start_ns = 1000, .comm = "alpha" },
	};
	struct iv_row rows[3];
	struct interval_data iv;
	struct prom *p;
	char *text;

	CHECK(prom_new(&model_software, NULL, lim(10, 10), &p) == 0);
	interval(&iv, procs, 3, rows);   /* idle 1 s, unattributed 2 s, alpha 3 s */
	iv.end_ns = 1795000000000000000ULL;
	prom_add_interval(p, &iv);
	text = render(p);
	CHECK(strstr(text, "\nstackd_attributed_ratio 0.600000\n") != NULL);   /* 3 of 5 busy */
	CHECK(strstr(text, "\nstackd_unattributed_cpu_seconds_total 2.000000\n") != NULL);
	CHECK(strstr(text, "\nstackd_idle_cpu_seconds_total 1.000000\n") != NULL);
	CHECK(strstr(text, "\nstackd_cpu_seconds_total 6.000000\n") != NULL);
	CHECK(strstr(text, "\nstackd_last_interval_timestamp_seconds 1795000000.000\n") != NULL);
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"[idle]\"} 1\n") != NULL);
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"[unattributed]\"} 2\n") !=
	      NULL);
	CHECK(strstr(text, "pid=\"0\"") == NULL);
	CHECK(strstr(text, "pid=\"-1\"") == NULL);
	free(text);
	prom_free(p);
}

/* The sampling mode of the newest interval: 0 before any (and when every
 * switch was sampled), the share of all its CPU time measured
 * periodically after, while the health counter adds up every interval's. */
static void test_periodic_share(void)
{
	struct iv_proc procs[1] = { { .pid = 10, .start_ns = 1000, .comm = "alpha" } };
	struct iv_row rows[1];
	struct interval_data iv;
	struct prom *p;
	char *text;

	CHECK(prom_new(&model_software, NULL, lim(10, 10), &p) == 0);
	text = render(p);
	CHECK(strstr(text, "\nstackd_periodic_share 0.000000\n") != NULL);
	free(text);
	interval(&iv, procs, 1, rows);
	iv.ncpus = 4;
	iv.start_ns = 1000000000000ULL;
	iv.end_ns = iv.start_ns + 2000000000ULL;   /* 8 CPU-s */
	iv.st.periodic_ns = 2000000000ULL;        /* one CPU all along */
	prom_add_interval(p, &iv);
	iv.st.periodic_ns = 1000000000ULL;        /* half of it */
	prom_add_interval(p, &iv);
	text = render(p);
	CHECK(strstr(text, "\nstackd_periodic_share 0.125000\n") != NULL);
	CHECK(strstr(text, "\nstackd_periodic_mode_cpu_seconds_total 3.000000000\n") != NULL);
	free(text);
	prom_free(p);
}

/* Column col of family fam of m in a row of plan_whole (the family's order). */
static void put(const struct model *m, const char *fam, const char *col, uint64_t v,
		struct iv_row *r)
{
	int g = model_group_index(m, fam), k = g < 0 ? -1 : model_event_index(&m->groups[g], col);

	CHECK(g >= 0 && k >= 0);
	r->group = (uint16_t)g;
	r->v[k] = v;
}

/* A target's Top-Down nodes through the model's own formulas: Skylake, SMT
 * off, 1 s of CPU in each of td_l1, td_l2_be and td_l2_ret.  Perf's skl-metrics.json
 * (Linux 7.2.12): slots = 4 x 1000 cycles; frontend 1000/4000 = 0.25;
 * backend 1 - 0.25 - (2000 + 4 x 25)/4000 = 0.225; memory_bound = (300 +
 * 50)/(500 + 100 + 0.4 x 250 + 50) x 0.225 = 0.105 with retiring 0.4 and
 * 2_PORTS_UTIL 250 (td_l2_ret).  Printed as CPU seconds x share: 3 s of
 * CPU (1 s in each group), all of it measured: 0.75, 0.675, 0.315. */
static void test_topdown(void)
{
	const struct model *m = &model_skl;
	struct iv_proc procs[1] = { { .pid = 10, .start_ns = 1000, .comm = "stream" } };
	struct iv_row rows[3];
	struct interval_data iv;
	struct prom *p;
	char *text;
	unsigned i;

	CHECK(prom_new(m, NULL, lim(10, 0), &p) == 0);
	memset(&iv, 0, sizeof(iv));
	memset(rows, 0, sizeof(rows));
	iv.procs = procs;
	iv.n_procs = 1;
	iv.rows = rows;
	iv.n_rows = 3;
	for (i = 0; i < 3; i++)
		rows[i].task_clock_ns = 1000000000ULL;
	put(m, "td_l1", "cycles", 1000, &rows[0]);
	put(m, "td_l1", "instructions", 1500, &rows[0]);
	put(m, "td_l1", "uops_issued", 2000, &rows[0]);
	put(m, "td_l1", "retire_slots", 1600, &rows[0]);
	put(m, "td_l1", "idq_not_delivered", 1000, &rows[0]);
	put(m, "td_l1", "recovery_cycles", 25, &rows[0]);
	put(m, "td_l2_be", "cycles", 1000, &rows[1]);
	put(m, "td_l2_be", "stalls_mem_any", 300, &rows[1]);
	put(m, "td_l2_be", "bound_on_stores", 50, &rows[1]);
	put(m, "td_l2_be", "stalls_total", 500, &rows[1]);
	put(m, "td_l2_be", "ports_util_1", 100, &rows[1]);
	put(m, "td_l2_ret", "cycles", 1000, &rows[2]);
	put(m, "td_l2_ret", "instructions", 1500, &rows[2]);
	put(m, "td_l2_ret", "retire_slots", 1600, &rows[2]);
	put(m, "td_l2_ret", "ports_util_2", 250, &rows[2]);
	prom_add_interval(p, &iv);
	text = render(p);
	CHECK(strstr(text, "stackd_comm_topdown_measured_seconds_total{comm=\"stream\"} 3\n"));
	CHECK(strstr(text, "{comm=\"stream\",node=\"frontend_bound\",level=\"1\"} 0.75\n"));
	CHECK(strstr(text, "{comm=\"stream\",node=\"backend_bound\",level=\"1\"} 0.67"));
	CHECK(strstr(text, "{comm=\"stream\",node=\"memory_bound\",level=\"2\"} 0.31"));
	/* IPC from the groups counting both: 3000 / 3000 (td_l2_be has no instructions) */
	CHECK(strstr(text, "stackd_comm_instructions_total{comm=\"stream\"} 3000\n"));
	CHECK(strstr(text, "stackd_comm_cycles_total{comm=\"stream\"} 3000\n"));
	CHECK(strstr(text, "stackd_host_events_total{group=\"td_l2_be\",event=\"stalls_mem_any\"} 300\n"));
	CHECK(strstr(text, "_events_total{comm=") == NULL);   /* no event series per target */
	free(text);
	prom_free(p);
}

/* Only the top N comms printed; the rest, and a demoted one from then on,
 * under [other]; [idle] always printed, ranked or not. */
static void test_top_comms(void)
{
	struct iv_proc procs[3] = {
		{ .pid = 0, .comm = "[idle]" },
		{ .pid = 10, .start_ns = 1000, .comm = "alpha" },
		{ .pid = 11, .start_ns = 2000, .comm = "beta" },
	};
	struct prom_limits l = { .max_keys = 10, .top_comms = 1 };
	struct prom *p;
	char *text;

	CHECK(prom_new(&model_software, NULL, &l, &p) == 0);
	top_churn(p, procs, 9000, 3000, 1000, 3);   /* idle 9 s, alpha 3 s, beta 1 s */
	text = render(p);
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"[idle]\"} 27\n"));
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"alpha\"} 9\n"));
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"[other]\"} 3\n"));
	CHECK(strstr(text, "comm=\"beta\"") == NULL);
	free(text);
	top_churn(p, procs, 9000, 1000, 6000, 8);   /* beta 6x alpha: takes its place */
	text = render(p);
	CHECK(strstr(text, "comm=\"alpha\"") == NULL);
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"beta\"} ") != NULL);
	free(text);
	prom_free(p);
}

int main(void)
{
	static char unit[] = "a.service";
	struct iv_proc procs[3] = {
		{ .pid = 10, .start_ns = 1000, .comm = "alpha", .unit = unit },
		{ .pid = 11, .start_ns = 2000, .comm = "beta" },
		{ .pid = 12, .start_ns = 3000, .comm = "gamma" },
	};
	struct iv_row rows[3];
	struct interval_data iv;
	struct prom *p;
	char *text;

	CHECK(prom_new(&model_software, NULL, lim(2, 2), &p) == 0);
	interval(&iv, procs, 3, rows);
	prom_add_interval(p, &iv);
	procs[0].exit_ns = 5;   /* alpha exits during the second interval */
	prom_add_interval(p, &iv);
	interval(&iv, procs + 1, 2, rows);   /* beta 1 s, gamma 2 s */
	prom_add_interval(p, &iv);
	text = render(p);
	/* per comm: alpha 2 x 1 s; beta 2 x 2 s + 1 s; gamma ("[other]": max 2 names) 2 x 3 s + 2 s */
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"alpha\"} 2\n") != NULL);
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"beta\"} 5\n") != NULL);
	CHECK(strstr(text, "stackd_comm_cpu_seconds_total{comm=\"[other]\"} 8\n") != NULL);
	CHECK(strstr(text, "stackd_unit_cpu_seconds_total{unit=\"a.service\"} 2\n") != NULL);
	/* per process: alpha pruned; beta and gamma kept their totals across the rebuild */
	CHECK(strstr(text, "pid=\"10\"") == NULL);
	CHECK(strstr(text, "stackd_process_cpu_seconds_total{pid=\"11\",comm=\"beta\"} 5\n") != NULL);
	CHECK(strstr(text, "stackd_process_cpu_seconds_total{pid=\"12\",comm=\"gamma\"} 8\n") != NULL);
	CHECK(strstr(text, "stackd_intervals_total 3\n") != NULL);
	free(text);
	prom_free(p);

	/* top-N: only the busiest of the last interval */
	CHECK(prom_new(&model_software, NULL, lim(10, 1), &p) == 0);
	interval(&iv, procs, 3, rows);
	prom_add_interval(p, &iv);
	text = render(p);
	CHECK(strstr(text, "pid=\"12\"") != NULL);
	CHECK(strstr(text, "stackd_process_cpu_seconds_total{pid=\"11\"") == NULL);
	free(text);
	prom_free(p);

	/* the top-N set is stable: two processes of similar CPU swapping places
	 * do not swap series; one clearly busier takes the least busy's place */
	CHECK(prom_new(&model_software, NULL, lim(10, 2), &p) == 0);
	procs[0].exit_ns = 0;   /* alpha runs again */
	top_churn(p, procs, 3000, 2000, 1900, 5);
	top_churn(p, procs, 3000, 1900, 2000, 5);   /* beta and gamma swap: no churn */
	text = render(p);
	CHECK(strstr(text, "pid=\"10\"") != NULL && strstr(text, "pid=\"11\"") != NULL);
	CHECK(strstr(text, "pid=\"12\"") == NULL);
	free(text);
	top_churn(p, procs, 3000, 500, 6000, 5);    /* gamma 12 x beta: it takes beta's place */
	text = render(p);
	CHECK(strstr(text, "pid=\"10\"") != NULL && strstr(text, "pid=\"12\"") != NULL);
	CHECK(strstr(text, "pid=\"11\"") == NULL);
	free(text);
	prom_free(p);

	/* names of any bytes: labels stay valid UTF-8, escaped as the format asks */
	CHECK(prom_new(&model_software, NULL, lim(10, 10), &p) == 0);
	snprintf(procs[0].comm, sizeof(procs[0].comm), "%s",
		 "\xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81\xd0");
	snprintf(procs[1].comm, sizeof(procs[1].comm), "%s", "\xff\"q\\\n\xed\xa0\x80");
	procs[0].unit = NULL;
	interval(&iv, procs, 2, rows);
	prom_add_interval(p, &iv);
	text = render(p);
	CHECK(valid_utf8(text));
	CHECK(strstr(text, "{comm=\"\xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81"
		      UTF8_REPLACEMENT "\"} ") != NULL);
	CHECK(strstr(text, ",comm=\"" UTF8_REPLACEMENT "\\\"q\\\\\\n" UTF8_REPLACEMENT
		      UTF8_REPLACEMENT UTF8_REPLACEMENT "\"} ") != NULL);
	free(text);
	prom_free(p);
	test_replan();
	test_topdown();
	test_top_comms();
	test_attribution();
	test_periodic_share();
	return 0;
}
