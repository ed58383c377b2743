/* The rows of `stackctl top` and /api/v1/top: column names unique for
 * every model (a JSON object cannot hold two "machine_clears"), slot
 * columns = share x width x cycles, grouping by comm / unit / user sums the
 * counts before the formulas run, filters, sort aliases and the default
 * sort (frontend-bound slots). */
#include "lib/top_rows.h"
#include "test.h"

#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#define NEAR(a, b) CHECK(fabs((a) - (b)) <= 1e-6 * fmax(1.0, fabs(b)))

static void fill(const struct model *m, struct window_proc *p, int32_t pid, const char *comm,
		 int64_t uid, uint64_t tc, double scale)
{
	/* the sums a window would allocate with each process: no check
	 * builds more than four processes at once */
	static struct group_sums pool[4][MODEL_MAX_GROUPS];
	static unsigned next;
	unsigned g, k;

	memset(p, 0, sizeof(*p));
	p->sums = pool[next++ % 4];
	memset(p->sums, 0, sizeof(pool[0]));
	p->pid = pid;
	p->uid = uid;
	p->task_clock_ns = tc;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	for (g = 0; g < m->n_groups; g++) {
		p->sums[g].present = true;
		p->sums[g].task_clock_ns = tc / m->n_groups;
		for (k = 0; k < m->groups[g].n_events; k++)
			p->sums[g].v[k] = (uint64_t)(scale * (1000000.0 + 1000.0 * k));
		/* cycles first, instructions second in every hardware group */
	}
}

static double cell(const struct rowset *rs, size_t row, const char *col)
{
	int c = rowset_find_column(rs, col);
	const struct rs_cell *x;

	CHECK(c >= 0);
	x = &rs->cells[row * rs->n_cols + (size_t)c];
	return x->type == RS_INT ? (double)x->i : x->type == RS_DOUBLE ? x->d : NAN;
}

static void check_unique_columns(const struct model *m, enum top_by by)
{
	struct window_proc procs[3];
	struct window w = { .from_ns = 0, .to_ns = 10000000000ULL, .model = m, .procs = procs,
			    .n_procs = 3 };
	struct top_filter f = TOP_FILTER_ALL;
	struct rowset rs;
	size_t i, j;

	fill(m, &procs[0], 10, "a", 0, 4000000000ULL, 1.0);
	fill(m, &procs[1], 11, "b", 1000, 2000000000ULL, 2.0);
	fill(m, &procs[2], 12, "b", 1000, 1000000000ULL, 3.0);
	rowset_init(&rs);
	CHECK(top_rows_build(&w, &f, by, &rs) == 0);
	for (i = 0; i < rs.n_cols; i++)
		for (j = i + 1; j < rs.n_cols; j++)
			if (strcmp(rs.cols[i].name, rs.cols[j].name) == 0) {
				fprintf(stderr, "model %s: column '%s' twice\n", m->name, rs.cols[i].name);
				CHECK(0);
			}
	if (by == TOP_BY_COMM) {
		CHECK(rs.n_rows == 2);
		/* rows come out in key order: a, then b (two processes) */
		CHECK(cell(&rs, 1, "processes") == 2);
		CHECK(cell(&rs, 1, "task_clock_ns") == 3000000000.0);
		if (rowset_find_column(&rs, "cycles") >= 0) {
			double want = 0;
			unsigned g, k;

			for (g = 0; g < m->n_groups; g++)
				for (k = 0; k < m->groups[g].n_events; k++)
					if (strcmp(m->groups[g].events[k].column, "cycles") == 0)
						want += 5.0 * (1000000.0 + 1000.0 * k);
			NEAR(cell(&rs, 1, "cycles"), want);
		}
	}
	if (m->pipeline_width > 0 && model_metric_index(m, "frontend_bound") >= 0) {
		CHECK(strcmp(top_rows_default_sort(&rs), "frontend_bound_slots") == 0);
		for (i = 0; i < rs.n_rows; i++) {
			double fe = cell(&rs, i, "frontend_bound"), cyc = cell(&rs, i, "cycles");

			if (!isnan(fe))
				NEAR(cell(&rs, i, "frontend_bound_slots"), fe * m->pipeline_width * cyc);
		}
	} else {
		CHECK(strcmp(top_rows_default_sort(&rs), "task_clock_ns") == 0);
	}
	rowset_done(&rs);
}

static void check_filters(void)
{
	struct window_proc procs[4];
	struct window w = { .to_ns = 1000000000ULL, .model = &model_software, .procs = procs,
			    .n_procs = 4 };
	struct top_filter f = TOP_FILTER_ALL;
	struct rowset rs;
	char unit[] = "db.service";

	fill(&model_software, &procs[0], 0, "[idle]", -1, 1000, 1);
	fill(&model_software, &procs[1], 20, "x", 1000, 1000, 1);
	fill(&model_software, &procs[2], 21, "y", 0, 1000, 1);
	fill(&model_software, &procs[3], 22, "x", 0, 1000, 1);
	rowset_init(&rs);
	CHECK(top_rows_build(&w, &f, TOP_BY_PROCESS, &rs) == 0);
	CHECK(rs.n_rows == 3);   /* [idle] left out */
	rowset_done(&rs);
	f.include_idle = true;
	f.uid = 0;
	rowset_init(&rs);
	CHECK(top_rows_build(&w, &f, TOP_BY_PROCESS, &rs) == 0);
	CHECK(rs.n_rows == 2);
	rowset_done(&rs);
	f = (struct top_filter)TOP_FILTER_ALL;
	f.comm = "x";
	rowset_init(&rs);
	CHECK(top_rows_build(&w, &f, TOP_BY_USER, &rs) == 0);
	CHECK(rs.n_rows == 2);   /* x runs as uid 0 and uid 1000 */
	CHECK(cell(&rs, 0, "uid") == 0 && cell(&rs, 1, "uid") == 1000);
	rowset_done(&rs);
	/* globs, as fnmatch: x* keeps both x, [xy] all three */
	w.procs[2].unit = unit;
	f.comm = "x*";
	rowset_init(&rs);
	CHECK(top_rows_build(&w, &f, TOP_BY_PROCESS, &rs) == 0);
	CHECK(rs.n_rows == 2);
	rowset_done(&rs);
	f.comm = NULL;
	f.unit = "*.service";
	rowset_init(&rs);
	CHECK(top_rows_build(&w, &f, TOP_BY_PROCESS, &rs) == 0);
	CHECK(rs.n_rows == 1 && cell(&rs, 0, "pid") == 21);
	rowset_done(&rs);
	CHECK(top_rows_name_matches("[idle]", "[idle]"));   /* itself, though a glob */
	CHECK(top_rows_name_matches("sql*", "sqlite3"));
	CHECK(!top_rows_name_matches("sql*", "mysql"));
	CHECK(top_rows_name_matches("*sql*", "mysqld"));
}

/* The C library's user lookup, counted: each call reads /etc/passwd anew
 * (and with nsswitch's "systemd" source, for a uid /etc/passwd lacks, a
 * dozen files more).  This test's own definition takes the calls. */
static unsigned pw_lookups;

int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t len, struct passwd **found)
{
	(void)uid;
	(void)pw;
	(void)buf;
	(void)len;
	pw_lookups++;
	*found = NULL;   /* a container's user: no name */
	return 0;
}

/* 300 processes of 3 users: 3 lookups, not one per row (issue 34: a
 * window of thousands of processes spent most of a /top request there). */
static void check_user_lookups(void)
{
	enum { N = 300 };
	struct window_proc *procs = calloc(N, sizeof(*procs));
	struct group_sums *sums = calloc(N * MODEL_MAX_GROUPS, sizeof(*sums));
	struct window w = { .to_ns = 1000000000ULL, .model = &model_software, .n_procs = N };
	struct top_filter f = TOP_FILTER_ALL;
	struct rowset rs;
	size_t i;

	CHECK(procs != NULL && sums != NULL);
	for (i = 0; i < N; i++) {
		procs[i].sums = &sums[i * MODEL_MAX_GROUPS];
		procs[i].pid = 100 + (int32_t)i;
		procs[i].uid = 1000 + (int64_t)(i % 3);
		procs[i].task_clock_ns = 1000;
		snprintf(procs[i].comm, sizeof(procs[i].comm), "p%zu", i);
	}
	w.procs = procs;
	pw_lookups = 0;
	rowset_init(&rs);
	CHECK(top_rows_build(&w, &f, TOP_BY_PROCESS, &rs) == 0);
	CHECK(rs.n_rows == N);
	rowset_done(&rs);
	if (pw_lookups != 3)
		fprintf(stderr, "%u user lookups for %d processes of 3 users\n", pw_lookups, N);
	CHECK_EQ_U(pw_lookups, 3);
	free(procs);
	free(sums);
}

/* A sort named as people write it: API name, alias or table title, any
 * case; a rate per CPU second has its per-wall-second column beside it. */
static void check_sort_names_and_rates(void)
{
	struct window_proc p;
	/* 2 s of CPU time in a 4 s window: per wall second is half per CPU second */
	struct window w = { .to_ns = 4000000000ULL, .model = &model_software, .procs = &p,
			    .n_procs = 1 };
	struct top_filter f = TOP_FILTER_ALL;
	struct rowset rs;
	char name[64];

	fill(&model_software, &p, 20, "x", 0, 2000000000ULL, 1);
	rowset_init(&rs);
	CHECK(top_rows_build(&w, &f, TOP_BY_PROCESS, &rs) == 0);
	CHECK(top_rows_find_sort(&rs, "cpu") == rowset_find_column(&rs, "task_clock_ns"));
	CHECK(top_rows_find_sort(&rs, "CPU") == rowset_find_column(&rs, "task_clock_ns"));
	CHECK(top_rows_find_sort(&rs, "cpu%") == rowset_find_column(&rs, "cpu_percent"));
	CHECK(top_rows_find_sort(&rs, "Cpu_Percent") == rowset_find_column(&rs, "cpu_percent"));
	CHECK(top_rows_find_sort(&rs, "fault/s") == rowset_find_column(&rs, "page_faults_per_s"));
	CHECK(top_rows_find_sort(&rs, "nosuch") == -1);
	NEAR(cell(&rs, 0, "page_faults_per_s"), cell(&rs, 0, "page_faults_per_cpu_s") / 2);
	NEAR(cell(&rs, 0, "switches_per_s"), cell(&rs, 0, "switches_per_cpu_s") / 2);
	CHECK(strcmp(rs.cols[rowset_find_column(&rs, "page_faults_per_cpu_s")].title,
		     "FAULT/CPU-S") == 0);
	rowset_done(&rs);
	top_rows_wall_name("gflops", name, sizeof(name));
	CHECK_STR(name, "gflops_wall");
	top_rows_wall_name("migrations_per_cpu_s", name, sizeof(name));
	CHECK_STR(name, "migrations_per_s");
}

/* The attributed shares of a window: idle left out of the busy time,
 * nothing busy reads as all attributed, switches from the health sums. */
static void test_attributed_shares(void)
{
	struct window w;

	memset(&w, 0, sizeof(w));
	CHECK(cpu_split_attributed_cpu(&w.split) == 1.0);
	CHECK(cpu_split_attributed_switches(&w.split) == 1.0);
	w.split.cpu_ns = 10000;
	w.split.idle_ns = 6000;
	w.split.unattributed_ns = 1000;
	CHECK(fabs(cpu_split_attributed_cpu(&w.split) - 0.75) < 1e-12);   /* 3000 of 4000 busy */
	w.split.switches = 100;
	w.split.unattributed_switches = 10;
	CHECK(fabs(cpu_split_attributed_switches(&w.split) - 0.9) < 1e-12);
	CHECK(cpu_split_low(&w.split));                      /* 75% of CPU */
	w.split.unattributed_ns = 100;                       /* 97.5%, but 90% of switches */
	CHECK(cpu_split_low(&w.split));
	w.split.unattributed_switches = 5;                   /* 95%: not below */
	CHECK(!cpu_split_low(&w.split));
	/* a nearly idle host: half of 10 ms busy unattributed is a low share
	 * of almost nothing (0.5% of all the CPUs' time), not a warning */
	w.split.cpu_ns = 1000000000;
	w.split.idle_ns = 990000000;
	w.split.unattributed_ns = 5000000;
	CHECK(fabs(cpu_split_attributed_cpu(&w.split) - 0.5) < 1e-12);
	CHECK(!cpu_split_low(&w.split));
	w.split.unattributed_ns = 10000000;                  /* 1% of all: low */
	w.split.idle_ns = 980000000;
	CHECK(cpu_split_low(&w.split));
}

int main(void)
{
	const struct model *const *all;
	enum top_by by;
	size_t n, i;

	test_attributed_shares();

	all = model_all(&n);
	for (i = 0; i < n; i++)
		for (by = TOP_BY_PROCESS; by <= TOP_BY_USER; by++)
			check_unique_columns(all[i], by);
	check_filters();
	check_user_lookups();
	check_sort_names_and_rates();
	CHECK(strcmp(top_rows_sort_column("cpu"), "task_clock_ns") == 0);
	CHECK(strcmp(top_rows_sort_column("frontend"), "frontend_bound_slots") == 0);
	CHECK(strcmp(top_rows_sort_column("frontend_bound"), "frontend_bound") == 0);
	{
		enum top_by b;

		CHECK(top_rows_by_parse("unit", &b) == 0 && b == TOP_BY_UNIT);
		CHECK(top_rows_by_parse("units", &b) == -EINVAL);
		CHECK(strcmp(top_rows_by_name(TOP_BY_USER), "user") == 0);
	}
	printf("top_rows: %zu models x 4 groupings, columns unique, slots, sums, filters\n", n);
	return 0;
}
