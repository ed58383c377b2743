/*
 * cli.h - what stackctl's verbs share.
 *
 * Exit codes: 0 success, 1 the request failed (no database, no data, daemon
 * not running, no such target), 2 the command line is wrong.
 */
#ifndef STACKCTL_CLI_H
#define STACKCTL_CLI_H

#include "source.h"
#include "lib/rowset.h"

#include <stdint.h>

#define EXIT_USAGE 2

/* Print "stackctl: <verb>: <message>" on stderr. */
void cli_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse a duration option (> 0); on error print and return -EINVAL. */
int cli_parse_duration(const char *verb, const char *option, const char *text,
		       uint64_t *ret_ns);
int cli_parse_window(const char *verb, const char *text, uint64_t *ret_ns);

/* Report what getopt_long refused (c is ':' for a missing value, anything
 * else for an unknown option); returns EXIT_USAGE. */
int cli_bad_option(const char *verb, int c, char **argv);

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

/* --json and --csv, as every tabular verb takes them. */
enum { OPT_FORMAT_JSON = 0x210, OPT_FORMAT_CSV };
#define FORMAT_OPTIONS \
	{ "json", no_argument, NULL, OPT_FORMAT_JSON }, \
	{ "csv", no_argument, NULL, OPT_FORMAT_CSV }

/* c is getopt's value: true when it was --json or --csv (now in *fmt). */
bool cli_format_option(int c, enum rs_format *fmt);

/* --url and --db, as every data verb takes them (SOURCE_OPTIONS). */
struct cli_source {
	const char *url, *db;
};

/* c is getopt's value: true when it was --url or --db (now remembered). */
bool cli_source_option(struct cli_source *flags, int c, const char *arg);

/* Open the source; on failure print one line and return EXIT_FAILURE. */
int cli_open(const char *verb, const struct cli_source *flags, struct source *src);

/* GET target into *ret; on failure print one line and return the exit
 * status (cli_exit_for), else 0. */
int cli_get(const char *verb, struct source *src, const char *target, json_t **ret);

/* A duration option that may be 0 (--until): -EINVAL after printing. */
int cli_parse_offset(const char *verb, const char *option, const char *text,
		     uint64_t *ret_ns);

#endif
