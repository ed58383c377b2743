/*
 * export.c - `stackctl export`: the stored sample rows for notebooks, as
 * CSV or JSON, page by page (GET /api/v1/export's pages, "next") so a
 * large export never holds more than one page in memory: from a file, the
 * API's own page read in-process (export_page.h); from the daemon, the
 * page it printed as CSV (the body copied through, no parsing), or its
 * JSON rows for JSON.  With -o FILE the file appears only when the export
 * is complete.
 */
#include "cli/cli.h"
#include "cli/http_client.h"
#include "cli/json_rowset.h"
#include "cli/source.h"
#include "cli/target.h"
#include "lib/duration.h"
#include "lib/export_page.h"
#include "lib/clock.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The API's cap: fewer requests (600,000 rows via the API: 4.7 s at 10000) */
#define EXPORT_PAGE_ROWS 20000
#define EXPORT_MAX_PAGE_ROWS 20000   /* the API's cap */

enum { OPT_SINCE = 0x100, OPT_UNTIL, OPT_WHO, OPT_FORMAT, OPT_PAGE_ROWS };

static void help(void)
{
	printf("Usage: stackctl export [OPTIONS]\n"
	       "\n"
	       "The stored rows themselves: one row per counter group, process and\n"
	       "interval, with the interval's times, the process (pid, start, comm, uid,\n"
	       "unit), the group, its CPU time and switches and its raw event counts\n"
	       "(one column per event; empty where the row's group did not count it).\n"
	       "Counts add up: sum them over any window and apply the model's formulas.\n"
	       "\n"
	       "  --since DUR      how far back from the newest data (default 1h)\n"
	       "  --until DUR      end that long before the newest data (default 0)\n"
	       "  --who TARGET     one pid, command or unit only (as for 'stackctl show')\n"
	       "  --format FMT     csv (default) or json; --csv and --json say the same\n"
	       "  -o, --output FILE  write FILE (complete or not at all) instead of stdout\n"
	       "  --page-rows N    rows per request (default %d, at most %d)\n"
	       SOURCE_HELP
	       "  -h, --help       this help\n", EXPORT_PAGE_ROWS, EXPORT_MAX_PAGE_ROWS);
}

struct export_job {
	struct source *src;
	uint64_t since, until;
	const char *kind, *name;
	struct rs_stream out;
	size_t rows;
	long page_rows;
	bool progress;
	char *header;   /* the CSV header line the daemon's first page had */
};

/* The page's query string, "?from=...&limit=..." (after: the previous
 * page's "next", NULL on the first), the same whichever way it is read. */
static void page_query(const struct export_job *job, const char *after, bool csv, char *query,
		       size_t len)
{
	char num[32];

	query[0] = '\0';
	duration_format(job->since, num, sizeof(num));
	source_add_param(query, len, "from", num);
	if (job->until > 0) {
		duration_format(job->until, num, sizeof(num));
		source_add_param(query, len, "to", num);
	}
	if (job->kind != NULL) {
		char who[400];

		snprintf(who, sizeof(who), "%s:%s", job->kind, job->name);
		source_add_param(query, len, "who", who);
	}
	snprintf(num, sizeof(num), "%ld", job->page_rows);
	source_add_param(query, len, "limit", num);
	if (after != NULL)
		source_add_param(query, len, "after", after);
	if (csv)
		source_add_param(query, len, "format", "csv");
}

/* A page from a database file: the API's own page (export_page.h) read
 * in-process and printed as it is read by the one printer, no JSON
 * between. */
static int page_from_file(struct export_job *job, char *after, size_t afterlen, char *err,
			  size_t errlen)
{
	const struct api_access full = { true, (int64_t)getuid() };
	struct export_page page;
	char query[1200];
	int r;

	page_query(job, after[0] ? after : NULL, false, query, sizeof(query));
	/* source_add_param starts the string with '?' */
	r = export_page_read(job->src->db, &full, query + (query[0] == '?'), &job->out, &page,
			     err, errlen);
	if (r == 0) {
		job->rows += page.n_rows;
		snprintf(after, afterlen, "%s", page.next);
	}
	export_page_done(&page);
	/* the API's statuses as source_get returns them */
	return r == 400 ? -EINVAL : r == 503 ? -ENODATA : r > 0 ? -EIO : r;
}

/* A CSV page from the daemon (format=csv): the body its printer wrote,
 * copied through as it came, the cursor in a header field.  The header
 * line is printed once, from the first page; a later page's must be the
 * same (a group stored with new events meanwhile would shift columns). */
static int page_csv_from_daemon(struct export_job *job, const char *target, char *after,
				size_t afterlen, char *err, size_t errlen)
{
	struct http_reply rep;
	char rows[32];
	size_t head;
	int r;

	r = http_client_fetch(job->src->url, target, "text/csv", SOURCE_TIMEOUT_MS, &rep, err,
			      errlen);
	if (r < 0)
		return r;
	if (rep.status != 200) {
		json_t *j = json_loads(rep.body, JSON_DECODE_ANY, NULL);

		r = source_refused(rep.status, j, err, errlen);
		json_decref(j);
	} else if (http_reply_header(&rep, EXPORT_HEADER_ROWS, rows, sizeof(rows)) < 0) {
		snprintf(err, errlen, "the daemon's answer is not a CSV page (no %s field): "
			 "is it an older stackd?", EXPORT_HEADER_ROWS);
		r = -EPROTO;
	}
	head = strcspn(rep.body, "\n") + (rep.body[strcspn(rep.body, "\n")] == '\n');
	if (r == 0 && job->header == NULL) {
		job->header = strndup(rep.body, head);
		r = job->header != NULL ? 0 : -ENOMEM;
		head = 0;
	} else if (r == 0 && (strlen(job->header) != head ||
			      memcmp(job->header, rep.body, head) != 0)) {
		snprintf(err, errlen, "the stored counter groups changed during the export (other "
			 "event columns): export again");
		r = -EAGAIN;
	}
	if (r == 0) {
		fwrite(rep.body + head, 1, rep.len - head, job->out.f);
		job->out.header_done = true;
		job->rows += strtoul(rows, NULL, 10);
		after[0] = '\0';
		(void)http_reply_header(&rep, EXPORT_HEADER_NEXT, after, afterlen);
	}
	http_reply_done(&rep);
	return r;
}

/* A page from the daemon: as CSV when that is what is printed (and not to
 * a terminal, where the printer hides control characters), else as the
 * API's JSON rows, into the same printer. */
static int page_from_daemon(struct export_job *job, char *after, size_t afterlen, char *err,
			    size_t errlen)
{
	bool csv = job->out.fmt == RS_CSV && !job->out.terminal;
	char target[1300], query[1200];
	json_t *page = NULL;
	const char *next;
	struct rowset rs;
	int r;

	page_query(job, after[0] ? after : NULL, csv, query, sizeof(query));
	snprintf(target, sizeof(target), "/api/v1/export%s", query);
	if (csv)
		return page_csv_from_daemon(job, target, after, afterlen, err, errlen);
	r = source_get(job->src, target, &page, err, errlen);
	if (r < 0)
		return r;
	rowset_init(&rs);
	r = json_rowset_load(json_object_get(page, "columns"), json_object_get(page, "rows"), &rs,
			     err, errlen);
	if (r == 0) {
		rowset_stream_rows(&job->out, &rs, 0);
		job->rows += rs.n_rows;
	}
	rowset_done(&rs);
	next = json_string_value(json_object_get(page, "next"));
	snprintf(after, afterlen, "%s", next ? next : "");
	json_decref(page);
	return r;
}

static int run(struct export_job *job, char *err, size_t errlen)
{
	char after[96] = "";

	for (;;) {
		int r = job->src->is_http ? page_from_daemon(job, after, sizeof(after), err, errlen) :
			page_from_file(job, after, sizeof(after), err, errlen);

		if (r < 0)
			return r;
		if (ferror(job->out.f)) {
			snprintf(err, errlen, "cannot write: %s", strerror(errno));
			return -EIO;
		}
		if (job->progress)
			fprintf(stderr, "\rexported %zu rows", job->rows);
		if (after[0] == '\0')
			return 0;
	}
}

static int finish_file(FILE *f, const char *tmp, const char *path, int r, char *err,
		       size_t errlen)
{
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		if (r == 0)
			snprintf(err, errlen, "cannot write %.800s: %s", tmp, strerror(errno));
		r = r ? r : -EIO;
	}
	fclose(f);
	if (r == 0 && rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot rename %.400s to %.400s: %s", tmp, path, strerror(errno));
		r = -EIO;
	}
	if (r < 0)
		unlink(tmp);
	return r;
}

/* What the command line asks for. */
struct export_args {
	struct cli_getopt o;   /* --url/--db, --json/--csv */
	struct export_job job;
	const char *output, *who;
};

/* One of export's own options into a; 0 or -EINVAL (said). */
static int parse_option(struct export_args *a, int c, const char *arg)
{
	char *end;

	switch (c) {
	case OPT_SINCE:
		return cli_parse_duration("export", "--since", arg, &a->job.since);
	case OPT_UNTIL:
		return cli_parse_offset("export", "--until", arg, &a->job.until);
	case OPT_WHO:
		a->who = arg;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "csv") != 0 && strcmp(arg, "json") != 0) {
			cli_error("export", "invalid --format '%s' (csv or json)", arg);
			return -EINVAL;
		}
		a->o.fmt = arg[0] == 'c' ? RS_CSV : RS_JSON;
		return 0;
	case 'o':
		a->output = arg;
		return 0;
	case OPT_PAGE_ROWS:
		a->job.page_rows = strtol(arg, &end, 10);
		if (*arg == '\0' || *end != '\0' || a->job.page_rows < 1 ||
		    a->job.page_rows > EXPORT_MAX_PAGE_ROWS) {
			cli_error("export", "invalid --page-rows '%s' (1 to %d)", arg,
				  EXPORT_MAX_PAGE_ROWS);
			return -EINVAL;
		}
		return 0;
	}
	return 0;
}

/* The command line into a; -1 to go on, else the exit status. */
static int parse_args(struct export_args *a, int argc, char **argv)
{
	static const struct option options[] = {
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "who", required_argument, NULL, OPT_WHO },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output", required_argument, NULL, 'o' },
		{ "page-rows", required_argument, NULL, OPT_PAGE_ROWS },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->o = (struct cli_getopt){ .verb = "export", .options = options, .shortopts = "o:",
				    .common = CLI_SOURCE | CLI_FORMAT, .help = help,
				    .fmt = RS_CSV };
	while ((c = cli_getopt(&a->o, argc, argv)) >= 0)
		if (parse_option(a, c, optarg) < 0)
			return EXIT_USAGE;
	if (c == CLI_GETOPT_EXIT)
		return a->o.status;
	if (cli_no_arguments("export", argc, argv) != 0)
		return EXIT_USAGE;
	if (a->who != NULL && target_parse(a->who, &a->job.kind, &a->job.name) < 0) {
		cli_error("export", "invalid --who '%s' (a pid, command name or unit)", a->who);
		return EXIT_USAGE;
	}
	if (a->job.until >= a->job.since) {
		cli_error("export", "--until must be less far back than --since");
		return EXIT_USAGE;
	}
	return -1;
}

/* Every page into output (NULL: stdout), complete or not at all; 0, or
 * -errno with err set. */
static int export_to(struct export_job *job, const char *output, enum rs_format fmt,
		     char *err, size_t errlen)
{
	char tmp[4200];
	FILE *f = stdout;
	int r;

	if (output != NULL) {
		snprintf(tmp, sizeof(tmp), "%s.partial", output);
		f = fopen(tmp, "we");
		if (f == NULL) {
			snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
			return -EIO;
		}
	}
	job->progress = output != NULL && isatty(STDERR_FILENO);
	/* the one thread writes it: stdio's lock per character is pure cost */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	rowset_stream_begin(&job->out, fmt, f);
	r = run(job, err, errlen);
	if (r == 0)
		rowset_stream_end(&job->out);
	if (job->progress)
		fputc('\n', stderr);
	if (output != NULL)
		r = finish_file(f, tmp, output, r, err, errlen);
	else if (fflush(stdout) != 0 && r == 0) {
		snprintf(err, errlen, "cannot write: %s", strerror(errno));
		r = -EIO;
	}
	return r;
}

int verb_export(int argc, char **argv)
{
	struct export_args a = { .job = { .since = 3600ULL * NS_PER_SEC,
					  .page_rows = EXPORT_PAGE_ROWS } };
	struct source src;
	char err[4400];   /* room for "cannot create PATH.partial: ..." */
	int r;

	r = parse_args(&a, argc, argv);
	if (r >= 0)
		return r;
	if (cli_open("export", &a.o.source, &src) != 0)
		return EXIT_FAILURE;
	a.job.src = &src;
	r = export_to(&a.job, a.output, a.o.fmt, err, sizeof(err));
	free(a.job.header);
	source_close(&src);
	if (r < 0) {
		cli_error("export", "%s", err);
		return cli_exit_for(r);
	}
	return EXIT_SUCCESS;
}
