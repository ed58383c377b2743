/*
 * stackctl.c - the command line for stackd's data: a verbs table and the
 * helpers every verb uses.  Each verb parses its own options and fills a
 * rowset, so its table, JSON and CSV come from one printer.
 */
#include "cli.h"
#include "lib/duration.h"
#include "lib/version.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct verb {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
};

static const struct verb verbs[] = {
	{ "top", verb_top, "processes by why the CPU is slow for them, live like top" },
	{ "show", verb_show, "the stacks of one process, command or unit, as bars" },
	{ "history", verb_history, "how figures of one target changed over time" },
	{ "status", verb_status, "daemon health: version, model, groups, losses, database" },
	{ "export", verb_export, "the stored interval rows, as CSV or JSON" },
	{ "analyze", verb_analyze, "stacks of a perf stat -x, recording, with the same formulas" },
};

void cli_error(const char *verb, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "stackctl: %s%s", verb ? verb : "", verb ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_duration(const char *verb, const char *option, const char *text,
		       uint64_t *ret_ns)
{
	uint64_t ns;

	if (duration_parse(text, &ns) < 0 || ns == 0) {
		cli_error(verb, "invalid %s '%s' (expected a duration such as 10s, 5m, 1h)",
			  option, text);
		return -EINVAL;
	}
	*ret_ns = ns;
	return 0;
}

int cli_parse_window(const char *verb, const char *text, uint64_t *ret_ns)
{
	return cli_parse_duration(verb, "--window", text, ret_ns);
}

int cli_bad_option(const char *verb, int c, char **argv)
{
	if (c == ':')
		cli_error(verb, "option '%s' needs a value", argv[optind - 1]);
	else
		cli_error(verb, "unknown option '%s' (see stackctl %s --help)", argv[optind - 1],
			  verb);
	return EXIT_USAGE;
}

int cli_no_arguments(const char *verb, int argc, char **argv)
{
	if (optind < argc) {
		cli_error(verb, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	return 0;
}

const char *cli_one_target(const char *verb, int argc, char **argv, const char *example)
{
	if (optind >= argc) {
		cli_error(verb, "which process? give a pid, command name or unit (e.g. %s)",
			  example);
		return NULL;
	}
	if (optind + 1 < argc) {
		cli_error(verb, "unexpected argument '%s' (one target at a time)",
			  argv[optind + 1]);
		return NULL;
	}
	return argv[optind];
}

int cli_exit_for(int err)
{
	return err == -EINVAL ? EXIT_USAGE : EXIT_FAILURE;
}

bool cli_format_option(int c, enum rs_format *fmt)
{
	if (c == OPT_FORMAT_JSON)
		*fmt = RS_JSON;
	else if (c == OPT_FORMAT_CSV)
		*fmt = RS_CSV;
	else
		return false;
	return true;
}

bool cli_source_option(struct cli_source *flags, int c, const char *arg)
{
	if (c == OPT_SOURCE_DB)
		flags->db = arg;
	else if (c == OPT_SOURCE_URL)
		flags->url = arg;
	else
		return false;
	return true;
}

int cli_open(const char *verb, const struct cli_source *flags, struct source *src)
{
	char err[1024];

	if (source_open(src, flags->url, flags->db, err, sizeof(err)) < 0) {
		cli_error(verb, "%s", err);
		return EXIT_FAILURE;
	}
	return 0;
}

int cli_get(const char *verb, struct source *src, const char *target, json_t **ret)
{
	char err[1024];
	int r = source_get(src, target, ret, err, sizeof(err));

	if (r < 0) {
		cli_error(verb, "%s", err);
		return cli_exit_for(r);
	}
	return 0;
}

int cli_parse_offset(const char *verb, const char *option, const char *text,
		     uint64_t *ret_ns)
{
	if (duration_parse(text, ret_ns) < 0) {
		cli_error(verb, "invalid %s '%s' (a duration such as 10m)", option, text);
		return -EINVAL;
	}
	return 0;
}

static void help(void)
{
	size_t i;

	printf("Usage: stackctl VERB [OPTIONS]\n"
	       "\n"
	       "Show what stackd measured: per process, why the CPU is slow for it.\n"
	       "\n"
	       "Verbs:\n");
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		printf("  %-10s %s\n", verbs[i].name, verbs[i].help);
	printf("\n"
	       "Data comes from the running daemon's API (--url, default the Unix socket\n"
	       "/run/stackd/stackd.sock, then http://127.0.0.1:9466), or from a database\n"
	       "file (--db FILE; also used when the daemon is not running).  Tabular verbs\n"
	       "print a table, or --json / --csv for scripts.\n"
	       "\n"
	       "Exit status: 0 success, 1 the request failed (daemon or data not there, no\n"
	       "such target), 2 bad command line.\n"
	       "See 'stackctl VERB --help' for each verb, and stackctl(1).\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		cli_error(NULL, "no verb given (try 'stackctl top', or 'stackctl --help')");
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		help();
		return EXIT_SUCCESS;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("stackctl %s\n", STACKD_VERSION);
		return EXIT_SUCCESS;
	}
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strcmp(argv[1], verbs[i].name) == 0)
			return verbs[i].run(argc - 1, argv + 1);
	if (argv[1][0] == '-')
		cli_error(NULL, "options go after the verb: 'stackctl top %s ...' "
			  "(see stackctl --help)", argv[1]);
	else
		cli_error(NULL, "unknown verb '%s' (see stackctl --help)", argv[1]);
	return EXIT_USAGE;
}
