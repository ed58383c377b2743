/*
 * cli.h - what stackctl's verbs share.
 *
 * Exit codes: 0 success, 1 the request failed (no database, no data, daemon
 * not reachable and no database, no such target, a metric the data's model
 * does not compute), 2 the command line is wrong, 3 `status` read a
 * database whose daemon is not running.
 */
#ifndef STACKCTL_CLI_H
#define STACKCTL_CLI_H

#include "cli/source.h"
#include "lib/rowset.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#define EXIT_USAGE 2
#define EXIT_NOT_RUNNING 3   /* status: printed, but stackd is down */

/* Print "stackctl: <verb>: <message>" on stderr. */
void cli_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse a duration option (> 0); on error print and return -EINVAL. */
int cli_parse_duration(const char *verb, const char *option, const char *text,
		       uint64_t *ret_ns);
int cli_parse_window(const char *verb, const char *text, uint64_t *ret_ns);

/* Refuse arguments left after the options; returns 0 or EXIT_USAGE. */
int cli_no_arguments(const char *verb, int argc, char **argv);

/* The one target (pid, command name or unit) left after the options, or
 * NULL after saying it is missing or not alone; example shows a use. */
const char *cli_one_target(const char *verb, int argc, char **argv, const char *example);

int verb_top(int argc, char **argv);
int verb_show(int argc, char **argv);
int verb_history(int argc, char **argv);
int verb_status(int argc, char **argv);
int verb_export(int argc, char **argv);
int verb_analyze(int argc, char **argv);

/* The exit status for a source_get error: EXIT_USAGE for a request the
 * API called wrong (-EINVAL), else EXIT_FAILURE. */
int cli_exit_for(int err);

/* --url and --db, as given (NULL when not). */
struct cli_source {
	const char *url, *db;
};

/* The options every verb's command line may hold besides its own. */
enum {
	CLI_SOURCE = 1 << 0,   /* --url URL, --db FILE: into source */
	CLI_FORMAT = 1 << 1,   /* --json, --csv: into fmt */
};

#define CLI_MAX_OPTIONS 32

/* A verb's command line: the verb fills the first fields (and fmt with its
 * default), then calls cli_getopt() until it returns one of these: */
#define CLI_GETOPT_END  (-1)   /* options done; argv[optind] is the first argument */
#define CLI_GETOPT_EXIT (-2)   /* --help printed, or a bad option said: return status */
struct cli_getopt {
	const char *verb;
	const struct option *options;   /* the verb's own, { NULL } ended; may be NULL */
	const char *shortopts;          /* the verb's own short options ("bn:d:"); may be NULL */
	unsigned common;                /* CLI_SOURCE | CLI_FORMAT */
	void (*help)(void);             /* -h, --help */
	struct cli_source source;
	enum rs_format fmt;             /* RS_TABLE (0) unless set by the verb or --json/--csv */
	int status;                     /* the exit status, after CLI_GETOPT_EXIT */
	/* cli_getopt()'s own */
	bool started;
	struct option merged[CLI_MAX_OPTIONS + 1];
	char shortopts_all[32];
};

/* The next of the verb's own options (getopt_long's value, optarg set),
 * handling the common ones and -h/--help itself; CLI_GETOPT_END or
 * CLI_GETOPT_EXIT when there is none.  Starts argv over on the first call. */
int cli_getopt(struct cli_getopt *o, int argc, char **argv);

/* Open the source; on failure print one line and return EXIT_FAILURE. */
int cli_open(const char *verb, const struct cli_source *flags, struct source *src);

/* GET target into *ret; on failure print one line and return the exit
 * status (cli_exit_for), else 0. */
int cli_get(const char *verb, struct source *src, const char *target, json_t **ret);

/* A duration option that may be 0 (--until): -EINVAL after printing. */
int cli_parse_offset(const char *verb, const char *option, const char *text,
		     uint64_t *ret_ns);

#endif
