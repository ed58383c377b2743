/* The first rows of /api/v1/top without every row: top_rows_build_first
 * gives, for every sort column, filter and limit, exactly the rows that
 * building every process's row, sorting them (rowset_sort) and keeping
 * the first `limit` gives, and the count of rows kept; the same again
 * when the window keeps its orders (a shared window's top_ranks), on the
 * first request (computed) and the next (kept). */
#include "lib/top_rank.h"
#include "lib/top_rows.h"
#include "test.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_PROCS 40

/* The rows as CSV text, at most limit (0: all). */
static char *as_csv(const struct rowset *rs, size_t limit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	rowset_print(rs, RS_CSV, limit, f);
	fclose(f);
	return buf;
}

/* Processes with ties (task clock in 7 values, comms in 5), users 0 and
 * 1000, an [idle] row, counts that give every metric a value. */
static void make_window(const struct model *m, struct window *w)
{
	size_t i;
	unsigned g, k;

	memset(w, 0, sizeof(*w));
	w->to_ns = 10000000000ULL;
	w->model = m;
	w->procs = calloc(N_PROCS, sizeof(*w->procs));
	CHECK(w->procs != NULL);
	w->n_procs = N_PROCS;
	for (i = 0; i < N_PROCS; i++) {
		struct window_proc *p = &w->procs[i];

		p->sums = calloc(MODEL_MAX_GROUPS, sizeof(*p->sums));
		CHECK(p->sums != NULL);
		p->pid = i == 0 ? 0 : (int32_t)(100 + i);
		snprintf(p->comm, sizeof(p->comm), "%s", i == 0 ? "[idle]" : "svc");
		p->comm[3] = i == 0 ? p->comm[3] : (char)('a' + i % 5);
		p->uid = i % 3 ? 1000 : 0;
		p->task_clock_ns = 1000000ULL * (1 + i % 7);
		p->context_switches = (i * 37) % 11;
		for (g = 0; g < m->n_groups; g++) {
			p->sums[g].present = (i + g) % 4 != 0;
			p->sums[g].task_clock_ns = p->task_clock_ns / m->n_groups;
			for (k = 0; k < m->groups[g].n_events; k++)
				p->sums[g].v[k] = 1000000ULL + (uint64_t)((i * 7919 + k * 104729) % 500000);
		}
	}
}

static void free_window(struct window *w)
{
	size_t i;

	for (i = 0; i < w->n_procs; i++)
		free(w->procs[i].sums);
	free(w->procs);
}

/* The first `limit` lines of csv (its header and limit rows; 0: all). */
static size_t csv_prefix(const char *csv, size_t limit)
{
	const char *p = csv;
	size_t lines = 0;

	while (*p != '\0' && (limit == 0 || lines < limit + 1)) {
		const char *nl = strchr(p, '\n');

		p = nl != NULL ? nl + 1 : p + strlen(p);
		lines++;
	}
	return (size_t)(p - csv);
}

/* One sort and filter: for each limit, the first rows as the full sort
 * gives them. */
static void check_case(const struct window *w, const struct top_filter *f, const char *sort,
		       const size_t *limits, size_t n_limits)
{
	struct rowset all, first;
	size_t total = 0, l;
	int col_all, col_first = -1;
	char *want = NULL, *got;

	rowset_init(&all);
	CHECK(top_rows_build(w, f, TOP_BY_PROCESS, &all) == 0);
	col_all = top_rows_find_sort(&all, sort);
	if (col_all >= 0) {
		rowset_sort(&all, col_all);
		want = as_csv(&all, 0);
	}
	for (l = 0; l < n_limits; l++) {
		int r;

		rowset_init(&first);
		r = top_rows_build_first(w, f, sort, limits[l], &first, &col_first, &total);
		if (col_all < 0) {
			CHECK(r == -ENOENT);
			CHECK(first.n_cols == all.n_cols);   /* to say which columns there are */
			rowset_done(&first);
			continue;
		}
		CHECK(r == 0);
		CHECK(col_first == col_all);
		CHECK(total == all.n_rows);
		CHECK(first.n_rows == (limits[l] == 0 || limits[l] > total ? total : limits[l]));
		got = as_csv(&first, 0);
		if (strlen(got) != csv_prefix(want, limits[l]) ||
		    strncmp(want, got, strlen(got)) != 0) {
			fprintf(stderr, "sort %s limit %zu uid %lld comm %s:\nwant\n%s\ngot\n%s\n",
				sort, limits[l], (long long)f->uid, f->comm ? f->comm : "-", want,
				got);
			CHECK(0);
		}
		free(got);
		rowset_done(&first);
	}
	free(want);
	rowset_done(&all);
}

/* Requests at once on one window: each gets the rows one alone gets. */
struct thread_ask {
	const struct window *w;
	const char *const *sorts;
	size_t n_sorts;
	char **want;
	unsigned seed;
};

static char *first_csv(const struct window *w, const char *sort)
{
	struct top_filter f = TOP_FILTER_ALL;
	struct rowset rs;
	size_t total;
	int col;
	char *csv;

	rowset_init(&rs);
	if (top_rows_build_first(w, &f, sort, 7, &rs, &col, &total) < 0) {
		rowset_done(&rs);
		return strdup("");
	}
	csv = as_csv(&rs, 0);
	rowset_done(&rs);
	return csv;
}

static void *thread_main(void *arg)
{
	struct thread_ask *a = arg;
	unsigned i;

	for (i = 0; i < 40; i++) {
		size_t s = (a->seed + i * 7) % a->n_sorts;
		char *got = first_csv(a->w, a->sorts[s]);

		CHECK(strcmp(got, a->want[s]) == 0);
		free(got);
	}
	return NULL;
}

static void check_threads(const struct window *w, const char *const *sorts, size_t n)
{
	struct window fresh = *w;
	struct thread_ask asks[4];
	pthread_t t[4];
	char *want[16];
	size_t i;

	CHECK(n <= 16);
	fresh.ranks = NULL;   /* each alone, nothing kept */
	for (i = 0; i < n; i++)
		want[i] = first_csv(&fresh, sorts[i]);
	fresh.ranks = top_ranks_new();   /* then kept, computed by whoever comes first */
	for (i = 0; i < 4; i++) {
		asks[i] = (struct thread_ask){ &fresh, sorts, n, want, (unsigned)i };
		CHECK(pthread_create(&t[i], NULL, thread_main, &asks[i]) == 0);
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	top_ranks_free(fresh.ranks);
	for (i = 0; i < n; i++)
		free(want[i]);
}

static void check_model(const struct model *m, bool keep_orders)
{
	/* more numeric columns than a window keeps orders of (4), text ones
	 * (never kept), an alias, one only Top-Down models have, no such */
	static const char *const sorts[] = { "task_clock_ns", "comm", "cpu", "context_switches",
					     "frontend_bound_slots", "ipc", "pid", "cpu_percent",
					     "page_faults", "user", "nosuch" };
	static const size_t limits[] = { 0, 1, 7, 20, N_PROCS + 5 };
	struct top_filter filters[3] = { TOP_FILTER_ALL, TOP_FILTER_ALL, TOP_FILTER_ALL };
	struct window w;
	size_t s, fi, pass;

	filters[1].uid = 1000;
	filters[2].comm = "svc[ab]";
	filters[2].include_idle = true;
	make_window(m, &w);
	w.ranks = keep_orders ? top_ranks_new() : NULL;
	/* with orders kept, the second pass finds them kept */
	for (pass = 0; pass < (keep_orders ? 2u : 1u); pass++)
		for (s = 0; s < sizeof(sorts) / sizeof(sorts[0]); s++)
			for (fi = 0; fi < 3; fi++)
				check_case(&w, &filters[fi], sorts[s], limits,
					   sizeof(limits) / sizeof(limits[0]));
	if (keep_orders)
		check_threads(&w, sorts, sizeof(sorts) / sizeof(sorts[0]));
	top_ranks_free(w.ranks);
	free_window(&w);
}

int main(void)
{
	const struct model *const *all;
	size_t n, i;

	/* the software model and the first with Top-Down (slot columns) */
	all = model_all(&n);
	check_model(&model_software, false);
	check_model(&model_software, true);
	for (i = 0; i < n && model_metric_index(all[i], "frontend_bound") < 0; i++)
		;
	CHECK(i < n);
	check_model(all[i], false);
	check_model(all[i], true);
	printf("top_first: %s and %s x 11 sorts x 3 filters x 5 limits, with and without kept "
	       "orders, and 4 threads at once: the first rows of the full sort\n",
	       model_software.name, all[i]->name);
	return 0;
}
