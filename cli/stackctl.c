/*
 * stackctl.c - the command line for stackd's data: a verbs table.  Each
 * verb parses its options with cli_getopt() (cli.c) and fills a rowset, so
 * its table, JSON and CSV come from one printer.
 */
#include "cli/cli.h"
#include "cli/argv_hoist.h"
#include "lib/version.h"

#include <errno.h>

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

static void help(void)
{
	size_t i;

	printf("Usage: stackctl [--url URL | --db FILE] [--json | --csv] VERB [OPTIONS]\n"
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
	       "print a table, or --json / --csv for scripts.  These, and --no-color, go\n"
	       "before the verb or after it: 'stackctl --db F show 1234' is\n"
	       "'stackctl show --db F 1234'.\n"
	       "\n"
	       "Exit status: 0 success, 1 the request failed (daemon or data not there, no\n"
	       "such target), 2 bad command line, 3 status: the daemon is not running.\n"
	       "See 'stackctl VERB --help' for each verb, and stackctl(1).\n");
}

/* --help, --version, or a mistake: the exit status. */
static int not_a_verb(const char *arg)
{
	if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 || strcmp(arg, "help") == 0) {
		help();
		return EXIT_SUCCESS;
	}
	if (strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0) {
		printf("stackctl %s\n", STACKD_VERSION);
		return EXIT_SUCCESS;
	}
	if (arg[0] == '-')
		cli_error(NULL, "unknown option '%s' before the verb (only --url, --db, --json, "
			  "--csv and --no-color go there; see stackctl --help)", arg);
	else
		cli_error(NULL, "unknown verb '%s' (see stackctl --help)", arg);
	return EXIT_USAGE;
}

/* The options every verb reads that may also stand before the verb. */
static const struct argv_global globals[] = {
	{ "--url", true }, { "--db", true }, { "--json", false }, { "--csv", false },
	{ "--no-color", false },
};

int main(int argc, char **argv)
{
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	int bad = 0, r;
	size_t i;

	if (args == NULL) {
		cli_error(NULL, "out of memory");
		return EXIT_FAILURE;
	}
	r = argv_hoist(argc, argv, globals, sizeof(globals) / sizeof(globals[0]), args, &bad);
	if (r == -EINVAL) {
		cli_error(NULL, "option '%s' needs a value", argv[bad]);
		r = EXIT_USAGE;
	} else if (r < 0) {
		cli_error(NULL, "no verb given (try 'stackctl top', or 'stackctl --help')");
		r = EXIT_USAGE;
	} else {
		r = -1;
		for (i = 0; r < 0 && i < sizeof(verbs) / sizeof(verbs[0]); i++)
			if (strcmp(args[1], verbs[i].name) == 0)
				r = verbs[i].run(argc - 1, args + 1);
		if (r < 0)
			r = not_a_verb(args[1]);
	}
	free(args);
	return r;
}
