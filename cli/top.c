/*
 * top.c - `stackctl top`: the processes of the last window, hottest first.
 *
 * JSON and CSV fields are named as the database columns they sum
 * (pid, comm, task_clock_ns, context_switches, and each counter group's
 * columns such as page_faults); derived figures carry their own names
 * (cpu_percent, <column>_coverage, the model's metrics).
 */
#include "cli.h"
#include "lib/paths.h"
#include "lib/query.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOP_DEFAULT_WINDOW_NS (10ULL * 1000000000ULL)
#define TOP_TABLE_ROWS 25

static void help(void)
{
	printf("Usage: stackctl top [OPTIONS]\n"
	       "\n"
	       "The processes that ran in the last window of stored data, sorted.\n"
	       "\n"
	       "  --db PATH        database (default $STACKD_DB, else /var/lib/stackd/stackd.db)\n"
	       "  --window DUR     how far back from the newest interval (default 10s)\n"
	       "  --sort COLUMN    sort by any output column, biggest first (default\n"
	       "                   task_clock_ns; 'cpu' means the same)\n"
	       "  --limit N        print at most N rows (default %d for the table, all for\n"
	       "                   --json and --csv; 0 = all)\n"
	       "  --all            include [idle] and [unattributed] rows\n"
	       "  --json, --csv    machine-readable output, fields named as stored\n"
	       "  -h, --help       this help\n"
	       "\n"
	       "Coverage columns say what share of a process's CPU time the counter\n"
	       "group behind a figure was measuring (groups take turns).\n", TOP_TABLE_ROWS);
}

enum { OPT_DB = 0x100, OPT_WINDOW, OPT_SORT, OPT_LIMIT, OPT_ALL, OPT_JSON, OPT_CSV };

struct top_columns {
	int pid, comm, uid, unit, cpu, tc, cs, start, cmdline;
	int family[MODEL_MAX_GROUPS][MODEL_MAX_EVENTS];
	int coverage[MODEL_MAX_GROUPS];
	int metric[MODEL_MAX_METRICS];
};

static int build_columns(struct rowset *rs, const struct model *m, struct top_columns *c)
{
	unsigned k;

	c->pid = rowset_add_column(rs, "pid", "PID", RS_UNIT_NONE);
	c->comm = rowset_add_column(rs, "comm", "COMM", RS_UNIT_NONE);
	c->cpu = rowset_add_column(rs, "cpu_percent", "CPU%", RS_UNIT_PERCENT);
	c->tc = rowset_add_column(rs, "task_clock_ns", "CPU-TIME", RS_UNIT_NS);
	c->cs = rowset_add_column(rs, "context_switches", "SWITCHES", RS_UNIT_COUNT);
	if (m != NULL) {
		unsigned g;

		for (g = 0; g < m->n_groups; g++) {
			const struct model_group *mg = &m->groups[g];

			/* cycles, instructions... are in every group of a hardware
			 * model: one column holds their sum over the groups. */
			for (k = 0; k < mg->n_events; k++) {
				int have = rowset_find_column(rs, mg->events[k].column);

				c->family[g][k] = have >= 0 ? have :
					rowset_add_column(rs, mg->events[k].column,
							  mg->events[k].column, RS_UNIT_COUNT);
			}
		}
		for (g = 0; g < m->n_groups; g++) {
			char name[64], title[32];

			snprintf(name, sizeof(name), "%s_coverage", m->groups[g].name);
			snprintf(title, sizeof(title), "COV:%s", m->groups[g].name);
			c->coverage[g] = rowset_add_column(rs, name, title, RS_UNIT_FRACTION);
		}
		for (k = 0; k < m->n_metrics; k++)
			c->metric[k] = rowset_add_column(rs, m->metrics[k].name, m->metrics[k].name,
							 m->metrics[k].unit == METRIC_FRACTION ?
							 RS_UNIT_FRACTION : RS_UNIT_COUNT);
	}
	c->uid = rowset_add_column(rs, "uid", "UID", RS_UNIT_NONE);
	c->unit = rowset_add_column(rs, "unit", "UNIT", RS_UNIT_NONE);
	c->start = rowset_add_column(rs, "start_ns", "START", RS_UNIT_NONE);
	c->cmdline = rowset_add_column(rs, "cmdline", "COMMAND", RS_UNIT_NONE);
	if (c->cmdline < 0)
		return -ENOMEM;
	/* The table keeps to what fits a terminal; JSON and CSV carry all. */
	rowset_hide_in_table(rs, c->uid);
	rowset_hide_in_table(rs, c->start);
	if (m != NULL)
		for (k = 0; k < m->n_metrics; k++)
			rowset_hide_in_table(rs, c->metric[k]);
	return 0;
}

static int fill_row(struct rowset *rs, const struct window *w, const struct window_proc *p,
		    const struct top_columns *c)
{
	const struct model *m = w->model;
	uint64_t span = w->to_ns > w->from_ns ? w->to_ns - w->from_ns : 0;
	int row = rowset_add_row(rs);

	if (row < 0)
		return row;
	rowset_set_int(rs, (size_t)row, c->pid, p->pid);
	if (rowset_set_text(rs, (size_t)row, c->comm, p->comm) < 0)
		return -ENOMEM;
	if (span > 0)
		rowset_set_double(rs, (size_t)row, c->cpu, (double)p->task_clock_ns * 100.0 / (double)span);
	rowset_set_int(rs, (size_t)row, c->tc, (int64_t)p->task_clock_ns);
	rowset_set_int(rs, (size_t)row, c->cs, (int64_t)p->context_switches);
	if (m != NULL) {
		struct metric_value mv[MODEL_MAX_METRICS];
		struct model_context ctx = { .smt_on = w->smt_on, .cpi_weights = NULL };
		int cols[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS];
		int64_t vals[MODEL_MAX_GROUPS * MODEL_MAX_EVENTS];
		unsigned g, k, n = 0, j;

		for (g = 0; g < m->n_groups; g++) {
			if (!p->sums[g].present)
				continue;
			for (k = 0; k < m->groups[g].n_events; k++) {
				for (j = 0; j < n && cols[j] != c->family[g][k]; j++)
					;
				if (j == n) {
					cols[n] = c->family[g][k];
					vals[n++] = 0;
				}
				vals[j] += (int64_t)p->sums[g].v[k];
			}
			if (p->task_clock_ns > 0)
				rowset_set_double(rs, (size_t)row, c->coverage[g],
						  (double)p->sums[g].task_clock_ns /
						  (double)p->task_clock_ns);
		}
		for (j = 0; j < n; j++)
			rowset_set_int(rs, (size_t)row, cols[j], vals[j]);
		memset(mv, 0, sizeof(mv));
		m->compute(m, p->sums, &ctx, mv);
		for (k = 0; k < m->n_metrics; k++)
			if (mv[k].valid)
				rowset_set_double(rs, (size_t)row, c->metric[k], mv[k].value);
	}
	if (p->uid >= 0)
		rowset_set_int(rs, (size_t)row, c->uid, p->uid);
	if (rowset_set_text(rs, (size_t)row, c->unit, p->unit) < 0 ||
	    rowset_set_text(rs, (size_t)row, c->cmdline, p->cmdline) < 0)
		return -ENOMEM;
	rowset_set_int(rs, (size_t)row, c->start, (int64_t)p->start_ns);
	return 0;
}

static void list_columns(const struct rowset *rs, char *buf, size_t len)
{
	size_t used = 0, i;

	buf[0] = '\0';
	for (i = 0; i < rs->n_cols && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", rs->cols[i].name);

		if (n > 0)
			used += (size_t)n;
	}
}

int verb_top(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_path = NULL, *sort = "task_clock_ns";
	uint64_t window_ns = TOP_DEFAULT_WINDOW_NS;
	enum rs_format fmt = RS_TABLE;
	long limit = -1;
	bool all = false;
	struct top_columns cols;
	struct rowset rs;
	struct window w;
	struct db *db = NULL;
	char err[1024];
	size_t i;
	int c, r, sort_col;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (c) {
		case OPT_DB:
			db_path = optarg;
			break;
		case OPT_WINDOW:
			if (cli_parse_window("top", optarg, &window_ns) < 0)
				return EXIT_USAGE;
			break;
		case OPT_SORT:
			sort = strcmp(optarg, "cpu") == 0 ? "task_clock_ns" : optarg;
			break;
		case OPT_LIMIT: {
			char *end;

			limit = strtol(optarg, &end, 10);
			if (*end != '\0' || end == optarg || limit < 0) {
				cli_error("top", "invalid --limit '%s' (expected a number >= 0)", optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case OPT_ALL:
			all = true;
			break;
		case OPT_JSON:
			fmt = RS_JSON;
			break;
		case OPT_CSV:
			fmt = RS_CSV;
			break;
		case 'h':
			help();
			return EXIT_SUCCESS;
		default:
			return cli_bad_option("top", c, argv);
		}
	}
	if (cli_no_arguments("top", argc, argv) != 0)
		return EXIT_USAGE;

	r = db_open(paths_database(db_path), &db, err, sizeof(err));
	if (r < 0) {
		cli_error("top", "%s", err);
		return EXIT_FAILURE;
	}
	r = query_window(db, window_ns, &w, err, sizeof(err));
	db_close(db);
	if (r < 0) {
		cli_error("top", "%s", err);
		return EXIT_FAILURE;
	}

	rowset_init(&rs);
	memset(&cols, -1, sizeof(cols));
	r = build_columns(&rs, w.model, &cols);
	for (i = 0; r == 0 && i < w.n_procs; i++) {
		if (!all && w.procs[i].pid <= 0)
			continue;
		r = fill_row(&rs, &w, &w.procs[i], &cols);
	}
	window_done(&w);
	if (r < 0) {
		cli_error("top", "out of memory");
		rowset_done(&rs);
		return EXIT_FAILURE;
	}
	sort_col = rowset_find_column(&rs, sort);
	if (sort_col < 0) {
		list_columns(&rs, err, sizeof(err));
		cli_error("top", "unknown --sort column '%s' (one of: %s)", sort, err);
		rowset_done(&rs);
		return EXIT_USAGE;
	}
	rowset_sort(&rs, sort_col);
	if (limit < 0)
		limit = fmt == RS_TABLE ? TOP_TABLE_ROWS : 0;
	rowset_print(&rs, fmt, (size_t)limit, stdout);
	rowset_done(&rs);
	return EXIT_SUCCESS;
}
