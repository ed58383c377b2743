/*
 * cli.h - what stackctl's verbs share.
 *
 * Exit codes: 0 success, 1 the request failed (no database, no data, daemon
 * not running, no such target), 2 the command line is wrong.
 */
#ifndef STACKCTL_CLI_H
#define STACKCTL_CLI_H

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

int verb_top(int argc, char **argv);
int verb_show(int argc, char **argv);
int verb_history(int argc, char **argv);
int verb_status(int argc, char **argv);
int verb_export(int argc, char **argv);
int verb_analyze(int argc, char **argv);

/* The exit status for a source_get error: EXIT_USAGE for a request the
 * API called wrong (-EINVAL), else EXIT_FAILURE. */
int cli_exit_for(int err);

#endif
