/*
 * cli.c - what stackctl's verbs share (cli.h): the options every verb
 * takes, parsed in one place, and one-line errors with the exit status to
 * go with them.
 */
#include "cli/cli.h"
#include "lib/duration.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* getopt_long values of the common options, above any verb's own. */
enum { OPT_SOURCE_DB = 0x200, OPT_SOURCE_URL, OPT_FORMAT_JSON, OPT_FORMAT_CSV };

static const struct option source_options[] = {
	{ "db", required_argument, NULL, OPT_SOURCE_DB },
	{ "url", required_argument, NULL, OPT_SOURCE_URL },
};
static const struct option format_options[] = {
	{ "json", no_argument, NULL, OPT_FORMAT_JSON },
	{ "csv", no_argument, NULL, OPT_FORMAT_CSV },
};
static const struct option help_option = { "help", no_argument, NULL, 'h' };

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

	if (duration_parse_cli(text, &ns) < 0 || ns == 0) {
		cli_error(verb, "invalid %s '%s' (expected seconds, or a duration such as "
			  "500ms, 5m, 1h)",
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

/* Report what getopt_long refused (c is ':' for a missing value, anything
 * else for an unknown option); returns EXIT_USAGE. */
static int bad_option(const char *verb, int c, char **argv)
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
	if (duration_parse_cli(text, ret_ns) < 0) {
		cli_error(verb, "invalid %s '%s' (seconds, or a duration such as 10m)", option,
			  text);
		return -EINVAL;
	}
	return 0;
}

static bool source_option(struct cli_source *flags, int c, const char *arg)
{
	if (c == OPT_SOURCE_DB)
		flags->db = arg;
	else if (c == OPT_SOURCE_URL)
		flags->url = arg;
	else
		return false;
	return true;
}

static bool format_option(int c, enum rs_format *fmt)
{
	if (c == OPT_FORMAT_JSON)
		*fmt = RS_JSON;
	else if (c == OPT_FORMAT_CSV)
		*fmt = RS_CSV;
	else
		return false;
	return true;
}

/* The verb's options, then the common ones it takes, then --help. */
static int merge_options(struct cli_getopt *o)
{
	size_t n = 0, i;

	for (i = 0; o->options != NULL && o->options[i].name != NULL; i++)
		if (n < CLI_MAX_OPTIONS)
			o->merged[n++] = o->options[i];
	if (o->common & CLI_SOURCE)
		for (i = 0; i < sizeof(source_options) / sizeof(source_options[0]); i++)
			if (n < CLI_MAX_OPTIONS)
				o->merged[n++] = source_options[i];
	if (o->common & CLI_FORMAT)
		for (i = 0; i < sizeof(format_options) / sizeof(format_options[0]); i++)
			if (n < CLI_MAX_OPTIONS)
				o->merged[n++] = format_options[i];
	if (n >= CLI_MAX_OPTIONS)
		return -E2BIG;
	o->merged[n++] = help_option;
	memset(&o->merged[n], 0, sizeof(o->merged[n]));
	/* ':' first: getopt says nothing and returns ':' for a missing value. */
	snprintf(o->shortopts_all, sizeof(o->shortopts_all), ":h%s",
		 o->shortopts ? o->shortopts : "");
	return 0;
}

int cli_getopt(struct cli_getopt *o, int argc, char **argv)
{
	if (!o->started) {
		o->started = true;
		opterr = 0;
		optind = 1;
		if (merge_options(o) < 0) {
			cli_error(o->verb, "too many options");
			o->status = EXIT_FAILURE;
			return CLI_GETOPT_EXIT;
		}
	}
	for (;;) {
		int c = getopt_long(argc, argv, o->shortopts_all, o->merged, NULL);

		if (c == -1)
			return CLI_GETOPT_END;
		if (source_option(&o->source, c, optarg) || format_option(c, &o->fmt))
			continue;
		if (c == 'h') {
			o->help();
			o->status = EXIT_SUCCESS;
			return CLI_GETOPT_EXIT;
		}
		if (c == '?' || c == ':') {
			o->status = bad_option(o->verb, c, argv);
			return CLI_GETOPT_EXIT;
		}
		return c;
	}
}
