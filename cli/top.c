/*
 * top.c - `stackctl top`: the processes of the last window, hottest
 * frontend-bound first, live in a terminal (top_live.c) or printed once
 * (or -n times) for scripts and pipes.
 *
 * Rows and fields are the API's (GET /api/v1/top): `--json` prints its
 * "rows", `--csv` the same fields.
 */
#include "cli.h"
#include "term.h"
#include "top_live.h"
#include "top_view.h"
#include "lib/clock.h"

#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TOP_DEFAULT_WINDOW_NS (10ULL * NS_PER_SEC)
#define TOP_DEFAULT_DELAY_NS (NS_PER_SEC)
#define TOP_TABLE_ROWS 25

static void help(void)
{
	printf("Usage: stackctl top [OPTIONS]\n"
	       "\n"
	       "Processes by why the CPU is slow for them, over the last window.  In a\n"
	       "terminal: a live view refreshed every second (keys below); piped, with\n"
	       "-b, --json or --csv: printed once (or -n times).\n"
	       "\n"
	       "  --window DUR     how far back from the newest data (default 10s)\n"
	       "  --sort COLUMN    sort by any column, biggest first.  Default: frontend-\n"
	       "                   bound slots (frontend_bound_slots), so a busy process\n"
	       "                   outranks an idle one with a high ratio; CPU time when\n"
	       "                   the model has no Top-Down.  Aliases: cpu, frontend,\n"
	       "                   backend, badspec, retire, flops\n"
	       "  --by KIND        process (default), comm, unit or user: sum the processes\n"
	       "                   of each command name, systemd unit or user\n"
	       "  --family NAME    the figures shown beside the Top-Down split: l2, frontend,\n"
	       "                   flops, cpi, all, none (default l2, or all without Top-Down)\n"
	       "  --user USER      only USER's processes (name or uid)\n"
	       "  --unit UNIT      only processes of this systemd unit\n"
	       "  --comm NAME      only processes with this command name\n"
	       "  --all            include the [idle] and [unattributed] rows\n"
	       "  --limit N        at most N rows (default: the terminal's height live, %d\n"
	       "                   printed, all with --json/--csv)\n"
	       "  -n, --iterations N  stop after N refreshes\n"
	       "  -d, --delay DUR  time between refreshes (default 1s)\n"
	       "  -b, --batch      print instead of the live view, even on a terminal\n"
	       "  --json, --csv    the rows for scripts (every field, named as the API)\n"
	       "  --no-color       no colour (also: $NO_COLOR)\n"
	       SOURCE_HELP
	       "  -h, --help       this help\n"
	       "\n"
	       "Keys in the live view:\n"
	       "  f b s r   sort by frontend-bound, backend-bound, bad-speculation,\n"
	       "            retiring slots      i  IPC      F  GFLOP/s      c  CPU time\n"
	       "  t  next family    g  next grouping (process, comm, unit, user)\n"
	       "  u  filter by user     m  by unit     o  by command     x  clear filters\n"
	       "  space  pause / resume     q  quit\n", TOP_TABLE_ROWS);
}

enum { OPT_WINDOW = 0x100, OPT_SORT, OPT_BY, OPT_FAMILY, OPT_USER, OPT_UNIT, OPT_COMM,
       OPT_ALL, OPT_LIMIT, OPT_NO_COLOR };

/* A user name or a numeric uid. */
static int parse_user(const char *text, int64_t *uid)
{
	struct passwd *pw = getpwnam(text);
	char *end;
	long v;

	if (pw != NULL) {
		*uid = pw->pw_uid;
		return 0;
	}
	v = strtol(text, &end, 10);
	if (*text == '\0' || *end != '\0' || v < 0 || v > INT32_MAX) {
		cli_error("top", "unknown user '%s'", text);
		return -EINVAL;
	}
	*uid = v;
	return 0;
}

static int parse_count(const char *opt, const char *text, long *ret)
{
	char *end;

	*ret = strtol(text, &end, 10);
	if (*text == '\0' || *end != '\0' || *ret < 0) {
		cli_error("top", "invalid %s '%s' (expected a number >= 0)", opt, text);
		return -EINVAL;
	}
	return 0;
}

static int check_family(const char *name)
{
	size_t i;

	for (i = 0; top_view_families[i] != NULL; i++)
		if (strcmp(top_view_families[i], name) == 0)
			return 0;
	cli_error("top", "unknown --family '%s' (one of: l2, frontend, flops, cpi, all, none)",
		  name);
	return -EINVAL;
}

static int run_batch(struct source *src, struct top_request *req, enum rs_format fmt,
		     long iterations, uint64_t delay_ns)
{
	char err[1024];
	long i;

	for (i = 0; iterations == 0 || i < iterations; i++) {
		struct top_view v;
		struct timespec ts = { (time_t)(delay_ns / NS_PER_SEC),
				       (long)(delay_ns % NS_PER_SEC) };
		int r;

		if (i > 0) {
			nanosleep(&ts, NULL);
			if (fmt == RS_TABLE)
				putchar('\n');
		}
		r = top_view_fetch(src, req, &v, err, sizeof(err));
		if (r < 0) {
			cli_error("top", "%s", err);
			return r == -EINVAL ? EXIT_USAGE : EXIT_FAILURE;
		}
		if (fmt == RS_TABLE)
			top_view_print_header(&v, src, stdout);
		rowset_print(&v.rs, fmt, 0, stdout);
		top_view_done(&v);
		if (fflush(stdout) != 0)
			return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}

int verb_top(int argc, char **argv)
{
	static const struct option options[] = {
		SOURCE_OPTIONS,
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "by", required_argument, NULL, OPT_BY },
		{ "family", required_argument, NULL, OPT_FAMILY },
		{ "user", required_argument, NULL, OPT_USER },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ "iterations", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "batch", no_argument, NULL, 'b' },
		FORMAT_OPTIONS,
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct top_request req = { .window_ns = TOP_DEFAULT_WINDOW_NS, .uid = -1 };
	struct cli_source flags = { NULL, NULL };
	uint64_t delay_ns = TOP_DEFAULT_DELAY_NS;
	enum rs_format fmt = RS_TABLE;
	long limit = -1, iterations = -1;
	bool batch = false, no_color = false;
	struct source src;
	int c, r;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hbn:d:", options, NULL)) != -1) {
		if (cli_source_option(&flags, c, optarg) || cli_format_option(c, &fmt))
			continue;
		switch (c) {
		case OPT_WINDOW:
			if (cli_parse_window("top", optarg, &req.window_ns) < 0)
				return EXIT_USAGE;
			break;
		case OPT_SORT:
			req.sort = optarg;
			break;
		case OPT_BY:
			req.by = optarg;
			break;
		case OPT_FAMILY:
			if (check_family(optarg) < 0)
				return EXIT_USAGE;
			req.family = optarg;
			break;
		case OPT_USER:
			if (parse_user(optarg, &req.uid) < 0)
				return EXIT_USAGE;
			break;
		case OPT_UNIT:
			req.unit = optarg;
			break;
		case OPT_COMM:
			req.comm = optarg;
			break;
		case OPT_ALL:
			req.all = true;
			break;
		case OPT_LIMIT:
			if (parse_count("--limit", optarg, &limit) < 0)
				return EXIT_USAGE;
			break;
		case 'n':
			if (parse_count("--iterations", optarg, &iterations) < 0 || iterations == 0) {
				if (iterations == 0)
					cli_error("top", "--iterations must be at least 1");
				return EXIT_USAGE;
			}
			break;
		case 'd':
			if (cli_parse_duration("top", "--delay", optarg, &delay_ns) < 0)
				return EXIT_USAGE;
			break;
		case 'b':
			batch = true;
			break;
		case OPT_NO_COLOR:
			no_color = true;
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
	if (req.by != NULL && strcmp(req.by, "process") != 0 && strcmp(req.by, "comm") != 0 &&
	    strcmp(req.by, "unit") != 0 && strcmp(req.by, "user") != 0) {
		cli_error("top", "invalid --by '%s' (one of: process, comm, unit, user)", req.by);
		return EXIT_USAGE;
	}
	if (cli_open("top", &flags, &src) != 0)
		return EXIT_FAILURE;
	if (fmt == RS_TABLE && !batch && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
		r = top_live(&src, &req, limit, iterations < 0 ? 0 : iterations, delay_ns,
			     term_color_wanted(STDOUT_FILENO, no_color));
	} else {
		req.limit = limit >= 0 ? (size_t)limit : fmt == RS_TABLE ? TOP_TABLE_ROWS : 0;
		r = run_batch(&src, &req, fmt, iterations < 0 ? 1 : iterations, delay_ns);
	}
	source_close(&src);
	return r;
}
