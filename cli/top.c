/*
 * top.c - `stackctl top`: the processes of the last window, hottest
 * frontend-bound first, live in a terminal (top_live.c) or printed once
 * (or -n times) for scripts and pipes.
 *
 * Rows and fields are the API's (GET /api/v1/top): `--json` prints its
 * "rows", `--csv` the same fields.
 */
#include "cli/cli.h"
#include "cli/term.h"
#include "cli/top_live.h"
#include "cli/top_view.h"
#include "lib/clock.h"
#include "lib/top_rows.h"

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
	       "  --sort COLUMN    sort by any column, biggest first: its field name or its\n"
	       "                   title, any case (FE, cpu%%).  Default: frontend-\n"
	       "                   bound slots (frontend_bound_slots), so a busy process\n"
	       "                   outranks an idle one with a high ratio; CPU time when\n"
	       "                   the model has no Top-Down.  Aliases: cpu, frontend,\n"
	       "                   backend, badspec, retire, flops\n"
	       "  --by KIND        process (default), comm, unit, user, namespace, pod or\n"
	       "                   container: sum the processes of each command name,\n"
	       "                   systemd unit, user, or Kubernetes namespace, pod or\n"
	       "                   container (Docker's and podman's too, by id)\n"
	       "  --family NAME    the figures shown beside the Top-Down split: l2, fe_l3\n"
	       "                   (level 3 under the frontend), frontend, flops, cpi\n"
	       "                   (regression), commit (Zen 4's commit stage), cpi_cycles\n"
	       "                   (stall-cycle accounted), all,\n"
	       "                   none (default l2, or all without Top-Down)\n"
	       "  --user USER      only USER's processes (name or uid)\n"
	       "  --unit UNIT      only processes of this systemd unit (a glob: '*.service')\n"
	       "  --comm NAME      only processes with this command name (a glob: 'sql*')\n"
	       "  --all            include the [idle] and [unattributed] rows\n"
	       "  --limit N        at most N rows (default: the terminal's height live, %d\n"
	       "                   printed, all with --json/--csv)\n"
	       "  -n, --iterations N  stop after N refreshes\n"
	       "  -d, --delay SECS time between refreshes: seconds (-d 1) or a duration\n"
	       "                   (500ms; default 1s)\n"
	       "  -b, --batch      print instead of the live view, even on a terminal\n"
	       "  --json, --csv    the rows for scripts (every field, named as the API)\n"
	       "  --no-color       no colour (also: $NO_COLOR; never when not a terminal)\n"
	       SOURCE_HELP
	       "  -h, --help       this help\n"
	       "\n"
	       "Rates: per second of wall time (FAULT/s, GFLOP/s, as perf stat and pidstat),\n"
	       "beside per second of the process's CPU time (FAULT/CPU-S, GFLOP/CPU-S).\n"
	       "Shares are coloured on a terminal: yellow from 20%%, red from 50%%.\n"
	       "\n"
	       "Keys in the live view (h shows them there too):\n"
	       "  f b s r   sort by frontend-bound, backend-bound, bad-speculation,\n"
	       "            retiring slots      i  IPC      F  GFLOP/s\n"
	       "  P c       sort by CPU time    M  memory-bound share (if the model has it)\n"
	       "  < >       sort by the previous / next column\n"
	       "  t  next family    g  next grouping (process, comm, unit, user, namespace,\n"
	       "                    pod, container)\n"
	       "  Up Down PgUp PgDn Home End  scroll\n"
	       "  /  search commands (text or glob)     u  filter by user     m  by unit\n"
	       "  o  by command     x  clear filters\n"
	       "  space p  pause / resume     h ?  help     q  quit\n", TOP_TABLE_ROWS);
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
	cli_error("top", "unknown --family '%s' (one of: l2, fe_l3, frontend, flops, cpi, commit, "
		  "cpi_cycles, all, none)", name);
	return -EINVAL;
}

static int run_batch(struct source *src, struct top_request *req, enum rs_format fmt,
		     long iterations, uint64_t delay_ns, bool color)
{
	struct rs_table_style st = { .color = color, .max_width = req->width };
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
		if (fmt == RS_TABLE) {
			top_view_print_header(&v, src, stdout);
			rowset_print_table(&v.rs, &st, stdout);
		} else {
			rowset_print(&v.rs, fmt, 0, stdout);
		}
		top_view_done(&v);
		if (fflush(stdout) != 0)
			return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}

/* What the command line asks for. */
struct top_args {
	struct cli_getopt o;   /* --url/--db, --json/--csv */
	struct top_request req;
	uint64_t delay_ns;
	long limit, iterations;   /* -1: not given */
	bool batch, no_color;
};

/* One of top's own options into a; 0 or -EINVAL (said). */
static int parse_option(struct top_args *a, int c, const char *arg)
{
	switch (c) {
	case OPT_WINDOW:
		return cli_parse_window("top", arg, &a->req.window_ns);
	case OPT_SORT:
		a->req.sort = arg;
		return 0;
	case OPT_BY:
		a->req.by = arg;
		return 0;
	case OPT_FAMILY:
		a->req.family = arg;
		return check_family(arg);
	case OPT_USER:
		return parse_user(arg, &a->req.uid);
	case OPT_UNIT:
		a->req.unit = arg;
		return 0;
	case OPT_COMM:
		a->req.comm = arg;
		return 0;
	case OPT_ALL:
		a->req.all = true;
		return 0;
	case OPT_LIMIT:
		return parse_count("--limit", arg, &a->limit);
	case 'n':
		if (parse_count("--iterations", arg, &a->iterations) < 0)
			return -EINVAL;
		if (a->iterations == 0) {
			cli_error("top", "--iterations must be at least 1");
			return -EINVAL;
		}
		return 0;
	case 'd':
		return cli_parse_duration("top", "--delay", arg, &a->delay_ns);
	case 'b':
		a->batch = true;
		return 0;
	case OPT_NO_COLOR:
		a->no_color = true;
		return 0;
	}
	return 0;
}

/* The command line into a; -1 to go on, else the exit status. */
static int parse_args(struct top_args *a, int argc, char **argv)
{
	static const struct option options[] = {
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
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ NULL, 0, NULL, 0 },
	};
	const char *by;
	enum top_by kind;
	int c;

	a->o = (struct cli_getopt){ .verb = "top", .options = options, .shortopts = "bn:d:",
				    .common = CLI_SOURCE | CLI_FORMAT, .help = help };
	while ((c = cli_getopt(&a->o, argc, argv)) >= 0)
		if (parse_option(a, c, optarg) < 0)
			return EXIT_USAGE;
	if (c == CLI_GETOPT_EXIT)
		return a->o.status;
	if (cli_no_arguments("top", argc, argv) != 0)
		return EXIT_USAGE;
	by = a->req.by;
	if (by != NULL && top_rows_by_parse(by, &kind) < 0) {
		cli_error("top", "invalid --by '%s' (one of: process, comm, unit, user, namespace, "
			  "pod, container)", by);
		return EXIT_USAGE;
	}
	return -1;
}

int verb_top(int argc, char **argv)
{
	struct top_args a = { .req = { .window_ns = TOP_DEFAULT_WINDOW_NS, .uid = -1 },
			      .delay_ns = TOP_DEFAULT_DELAY_NS, .limit = -1, .iterations = -1 };
	enum rs_format fmt;
	struct source src;
	int r;

	r = parse_args(&a, argc, argv);
	if (r >= 0)
		return r;
	if (cli_open("top", &a.o.source, &src) != 0)
		return EXIT_FAILURE;
	fmt = a.o.fmt;
	if (fmt == RS_TABLE && !a.batch && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
		r = top_live(&src, &a.req, a.limit, a.iterations < 0 ? 0 : a.iterations,
			     a.delay_ns, term_color_wanted(STDOUT_FILENO, a.no_color));
	} else {
		a.req.limit = a.limit >= 0 ? (size_t)a.limit : fmt == RS_TABLE ? TOP_TABLE_ROWS : 0;
		a.req.width = fmt == RS_TABLE ? (size_t)term_columns(STDOUT_FILENO) : 0;
		r = run_batch(&src, &a.req, fmt, a.iterations < 0 ? 1 : a.iterations, a.delay_ns,
			      term_color_wanted(STDOUT_FILENO, a.no_color));
	}
	source_close(&src);
	return r;
}
