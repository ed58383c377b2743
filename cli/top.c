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
#include "lib/top_rows.h"

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
	struct top_filter filter = TOP_FILTER_ALL;
	struct rowset rs;
	struct window w;
	struct db *db = NULL;
	char err[1024];
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
			sort = top_rows_sort_column(optarg);
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
			filter.include_idle = true;
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
	r = top_rows_build(&w, &filter, &rs);
	window_done(&w);
	if (r < 0) {
		cli_error("top", "out of memory");
		rowset_done(&rs);
		return EXIT_FAILURE;
	}
	sort_col = rowset_find_column(&rs, sort);
	if (sort_col < 0) {
		top_rows_list_columns(&rs, err, sizeof(err));
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
