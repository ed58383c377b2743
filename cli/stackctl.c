/*
 * stackctl.c - the command line for stackd's data: a verbs table.  Each
 * verb parses its options with cli_getopt() (cli.c) and fills a rowset, so
 * its table, JSON and CSV come from one printer.
 */
#include "cli.h"
#include "lib/version.h"

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
