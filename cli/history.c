/*
 * history.c - `stackctl history TARGET`: how figures of one target
 * changed, as a time table (one row per step) and a sparkline per figure.
 * One GET /api/v1/series per figure, joined on the bucket time.
 */
#include "cli/cli.h"
#include "cli/cpi_fit_label.h"
#include "cli/recorded_label.h"
#include "cli/source.h"
#include "cli/target.h"
#include "lib/api.h"
#include "lib/duration.h"
#include "lib/rowset.h"
#include "lib/clock.h"
#include "lib/health_fields.h"
#include "lib/sampling_mode.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_METRICS 8
#define DEFAULT_ROWS 30
#define DEFAULT_METRICS "cpu_percent,frontend_bound,bad_speculation,backend_bound,retiring"

enum { OPT_SINCE = 0x100, OPT_UNTIL, OPT_STEP, OPT_METRIC };

static void help(void)
{
	printf("Usage: stackctl history TARGET [OPTIONS]\n"
	       "\n"
	       "How figures of one target changed over time: a table with one row per\n"
	       "step, and a sparkline per figure.  TARGET as for 'stackctl show': a pid,\n"
	       "command name or unit (pid:N, comm:NAME, unit:NAME).\n"
	       "\n"
	       "  --since DUR      how far back from the newest data (default 1h)\n"
	       "  --until DUR      end that long before the newest data (default 0: newest)\n"
	       "  --step DUR       one row per step (default: --since / %d, at least 1s;\n"
	       "                   one giving over %d rows is made coarser, as said)\n"
	       "  --metric LIST    comma-separated figures (default cpu_percent and the\n"
	       "                   Top-Down level-1 split the model has; any metric name\n"
	       "                   'stackctl show --csv' lists)\n"
	       "  --json, --csv    the rows for scripts (t_ns, each figure, its coverage)\n"
	       SOURCE_HELP
	       "  -h, --help       this help\n", DEFAULT_ROWS, API_MAX_POINTS);
}

struct series {
	char name[64];
	json_t *answer;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Every bucket time of every series, sorted, without repeats. */
static size_t bucket_times(const struct series *s, size_t n, uint64_t **ret)
{
	size_t cap = 0, count = 0, i, j, out = 0;
	uint64_t *t;
	const json_t *p;

	for (i = 0; i < n; i++)
		cap += json_array_size(json_object_get(s[i].answer, "points"));
	t = calloc(cap + 1, sizeof(*t));
	if (t == NULL)
		return 0;
	for (i = 0; i < n; i++)
		json_array_foreach(json_object_get(s[i].answer, "points"), j, p)
			t[count++] = (uint64_t)json_integer_value(json_object_get(p, "t_ns"));
	qsort(t, count, sizeof(*t), cmp_u64);
	for (i = 0; i < count; i++)
		if (out == 0 || t[out - 1] != t[i])
			t[out++] = t[i];
	*ret = t;
	return out;
}

static enum rs_unit unit_of(const json_t *answer)
{
	const char *u = json_string_value(json_object_get(answer, "unit"));

	if (u != NULL && strcmp(u, "fraction") == 0)
		return RS_UNIT_FRACTION;
	if (u != NULL && strcmp(u, "percent") == 0)
		return RS_UNIT_PERCENT;
	return RS_UNIT_COUNT;
}

/* Some point of some series had a low attributed share on the host. */
static bool any_low_attribution(const struct series *s, size_t n)
{
	const json_t *p;
	size_t k, j;

	for (k = 0; k < n; k++)
		json_array_foreach(json_object_get(s[k].answer, "points"), j, p)
			if (json_is_true(json_object_get(p, "low_attribution")))
				return true;
	return false;
}

/* The share of the target's CPU time at point p measured in periodic
 * (statistical) mode; an older daemon says only the host's. */
static double target_periodic(const json_t *p)
{
	const json_t *own = json_object_get(p, "target_periodic_share");

	return json_number_value(json_is_number(own) ? own : json_object_get(p, "periodic_share"));
}

/* Some point of some series had part of the target's time measured in
 * periodic mode. */
static bool any_periodic(const struct series *s, size_t n)
{
	const json_t *p;
	size_t k, j;

	for (k = 0; k < n; k++)
		json_array_foreach(json_object_get(s[k].answer, "points"), j, p)
			if (target_periodic(p) > 0)
				return true;
	return false;
}

/* The columns about the host behind each row; low and periodic are -1
 * when no row would have anything to say in them. */
struct host_cols {
	int acpu, asw, low;
	int pshare, tpshare, periodic;
};

/* The host's attributed shares of point p into the row; when low, the
 * visible column says which share and how much.  Then the share of its
 * time measured periodically; the visible column marks the rows where
 * there was some. */
static int set_host(struct rowset *rs, size_t row, const json_t *p, const struct host_cols *c)
{
	double cpu = json_number_value(json_object_get(p, "attributed_cpu"));
	double sw = json_number_value(json_object_get(p, "attributed_switches"));
	double per = target_periodic(p);
	char text[64];

	rowset_set_double(rs, row, c->acpu, cpu);
	rowset_set_double(rs, row, c->asw, sw);
	rowset_set_double(rs, row, c->pshare,
			  json_number_value(json_object_get(p, "periodic_share")));
	rowset_set_double(rs, row, c->tpshare, per);
	if (c->periodic >= 0 && sampling_mode_of(per) != SAMPLING_PER_SWITCH) {
		char pct[16];

		sampling_mode_percent(per, pct, sizeof(pct));
		snprintf(text, sizeof(text), "%s of its CPU", pct);
		if (rowset_set_text(rs, row, c->periodic, text) < 0)
			return -ENOMEM;
	}
	if (c->low < 0 || !json_is_true(json_object_get(p, "low_attribution")))
		return 0;
	if (cpu <= sw)
		snprintf(text, sizeof(text), "%.1f%% of CPU", 100.0 * cpu);
	else
		snprintf(text, sizeof(text), "%.1f%% of switches", 100.0 * sw);
	return rowset_set_text(rs, row, c->low, text);
}

/* The host columns after the figures'. */
static void add_host_cols(const struct series *s, size_t n, struct rowset *rs,
			  struct host_cols *c)
{
	c->acpu = rowset_add_column(rs, "attributed_cpu", "ATTRIB CPU", RS_UNIT_FRACTION);
	c->asw = rowset_add_column(rs, "attributed_switches", "ATTRIB SW", RS_UNIT_FRACTION);
	c->pshare = rowset_add_column(rs, "periodic_share", "PERIODIC SHARE", RS_UNIT_FRACTION);
	rowset_hide_in_table(rs, c->acpu);
	rowset_hide_in_table(rs, c->asw);
	c->tpshare = rowset_add_column(rs, "target_periodic_share", "TARGET PERIODIC SHARE",
				       RS_UNIT_FRACTION);
	rowset_hide_in_table(rs, c->pshare);
	rowset_hide_in_table(rs, c->tpshare);
	/* and a column saying when stackd could not charge part of the host's
	 * time to anyone, when that ever happened: such a row may be low */
	c->low = any_low_attribution(s, n) ?
		 rowset_add_column(rs, "low_attribution", "LOW ATTRIBUTION", RS_UNIT_NONE) : -1;
	/* and one saying when part of the target's time was sampled
	 * periodically: such a row's figures are estimates */
	c->periodic = any_periodic(s, n) ?
		      rowset_add_column(rs, "periodic_sampling", "PERIODIC SAMPLING",
					RS_UNIT_NONE) : -1;
}

static int build_rows(const struct series *s, size_t n, struct rowset *rs, bool long_span)
{
	uint64_t *t = NULL;
	size_t nt = bucket_times(s, n, &t), i, k, j;
	int col_time, col_t, col_gap;
	struct host_cols hc;
	const json_t *host;
	uint64_t step;

	col_time = rowset_add_column(rs, "time", "TIME", RS_UNIT_NONE);
	col_t = rowset_add_column(rs, "t_ns", "T_NS", RS_UNIT_NONE);
	rowset_hide_in_table(rs, col_t);
	for (k = 0; k < n; k++) {
		char cov[96];

		rowset_add_column(rs, s[k].name, s[k].name, unit_of(s[k].answer));
		snprintf(cov, sizeof(cov), "%.63s_coverage", s[k].name);
		rowset_hide_in_table(rs, rowset_add_column(rs, cov, "COV", RS_UNIT_FRACTION));
	}
	/* a column saying how long nothing was stored before a row, when
	 * that ever happened in the window: a gap is said, not skipped over */
	step = (uint64_t)json_integer_value(json_object_get(s[0].answer, "step_ns"));
	col_gap = -1;
	for (i = 1; i < nt && col_gap < 0; i++)
		if (step > 0 && t[i] - t[i - 1] > step + step / 2)
			col_gap = rowset_add_column(rs, "no_data_before", "NO DATA BEFORE",
						    RS_UNIT_NONE);
	add_host_cols(s, n, rs, &hc);
	for (i = 0; i < nt; i++) {
		time_t secs = (time_t)(t[i] / NS_PER_SEC);
		char when[32];
		struct tm tm;
		int row = rowset_add_row(rs);

		if (row < 0) {
			free(t);
			return -ENOMEM;
		}
		strftime(when, sizeof(when), long_span ? "%m-%d %H:%M:%S" : "%H:%M:%S",
			 localtime_r(&secs, &tm));
		if (rowset_set_text(rs, (size_t)row, col_time, when) < 0) {
			free(t);
			return -ENOMEM;
		}
		rowset_set_int(rs, (size_t)row, col_t, (int64_t)t[i]);
		if (col_gap >= 0 && i > 0 && t[i] - t[i - 1] > step + step / 2) {
			char gap[32];

			duration_format_approx((double)(t[i] - t[i - 1] - step), gap, sizeof(gap));
			if (rowset_set_text(rs, (size_t)row, col_gap, gap) < 0) {
				free(t);
				return -ENOMEM;
			}
		}
		host = NULL;
		for (k = 0; k < n; k++) {
			const json_t *p;

			json_array_foreach(json_object_get(s[k].answer, "points"), j, p) {
				if ((uint64_t)json_integer_value(json_object_get(p, "t_ns")) != t[i])
					continue;
				if (json_is_number(json_object_get(p, "value")))
					rowset_set_double(rs, (size_t)row, (int)(2 + 2 * k),
							  json_number_value(json_object_get(p, "value")));
				rowset_set_double(rs, (size_t)row, (int)(3 + 2 * k),
						  json_number_value(json_object_get(p, "coverage")));
				host = host != NULL ? host : p;
			}
		}
		if (host != NULL && set_host(rs, (size_t)row, host, &hc) < 0) {
			free(t);
			return -ENOMEM;
		}
	}
	free(t);
	return 0;
}

/* One line of ▁..█ per figure, scaled from its minimum to its maximum;
 * "-" and why for a figure with no value in the window. */
static void print_sparklines(const struct rowset *rs, size_t n)
{
	static const char *const levels[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	size_t k, r;

	putchar('\n');
	for (k = 0; k < n; k++) {
		int col = (int)(2 + 2 * k);
		double lo = INFINITY, hi = -INFINITY;
		char a[32], b[32];

		for (r = 0; r < rs->n_rows; r++) {
			const struct rs_cell *c = &rs->cells[r * rs->n_cols + (size_t)col];
			double v = c->type == RS_INT ? (double)c->i : c->d;

			if (c->type == RS_NULL)
				continue;
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
		if (!isfinite(lo)) {
			/* the series says only that there is no value; either
			 * cause leaves the coverage at 0 */
			printf("%-22s -  no values in this window (not measured, or not "
			       "computable from the counts)\n", rs->cols[col].name);
			continue;
		}
		printf("%-22s ", rs->cols[col].name);
		for (r = 0; r < rs->n_rows; r++) {
			const struct rs_cell *c = &rs->cells[r * rs->n_cols + (size_t)col];
			double v = c->type == RS_INT ? (double)c->i : c->d;

			if (c->type == RS_NULL)
				putchar(' ');
			else
				fputs(levels[hi - lo > 1e-6 * fmax(fabs(hi), 1e-300) ?
					     (int)lround((v - lo) / (hi - lo) * 7) : 0], stdout);
		}
		rs_format_number(rs->cols[col].unit, lo, a, sizeof(a));
		rs_format_number(rs->cols[col].unit, hi, b, sizeof(b));
		printf("  %s .. %s\n", a, b);
	}
}

/* What the command line asks for. */
struct history_args {
	struct cli_getopt o;         /* --url/--db, --json/--csv */
	const char *metrics;         /* NULL: DEFAULT_METRICS, less what the model lacks */
	const char *kind, *name;     /* the target */
	uint64_t since, until, step;
	uint64_t step_asked;         /* --step when too fine for the span; else 0 */
};

static int fetch(struct source *src, const struct history_args *a, const char *metric,
		 json_t **ret, char *err, size_t errlen)
{
	char target[1200], who[400], num[32];

	snprintf(who, sizeof(who), "%s:%s", a->kind, a->name);
	snprintf(target, sizeof(target), "/api/v1/series");
	source_add_param(target, sizeof(target), "who", who);
	source_add_param(target, sizeof(target), "metric", metric);
	duration_format(a->since, num, sizeof(num));
	source_add_param(target, sizeof(target), "from", num);
	if (a->until > 0) {
		duration_format(a->until, num, sizeof(num));
		source_add_param(target, sizeof(target), "to", num);
	}
	duration_format(a->step, num, sizeof(num));
	source_add_param(target, sizeof(target), "step", num);
	return source_get(src, target, ret, err, errlen);
}

/* A step that would give more rows than a series may hold (--since 90d
 * --step 1h) becomes the smallest multiple of it that fits; the footer says
 * so.  A long span is meant to be read from the rollups, not refused. */
static void coarsen_step(struct history_args *a)
{
	uint64_t span = a->since - a->until, k;

	if (span / a->step <= API_MAX_POINTS)
		return;
	k = (span + a->step * API_MAX_POINTS - 1) / (a->step * API_MAX_POINTS);
	a->step_asked = a->step;
	a->step *= k;
}

/* The command line into a; -1 to go on, else the exit status. */
static int parse_args(struct history_args *a, int argc, char **argv)
{
	static const struct option options[] = {
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "step", required_argument, NULL, OPT_STEP },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ NULL, 0, NULL, 0 },
	};
	const char *arg;
	int c, r = 0;

	a->o = (struct cli_getopt){ .verb = "history", .options = options,
				    .common = CLI_SOURCE | CLI_FORMAT, .help = help };
	while (r == 0 && (c = cli_getopt(&a->o, argc, argv)) >= 0) {
		if (c == OPT_SINCE)
			r = cli_parse_duration("history", "--since", optarg, &a->since);
		else if (c == OPT_UNTIL)
			r = cli_parse_offset("history", "--until", optarg, &a->until);
		else if (c == OPT_STEP)
			r = cli_parse_duration("history", "--step", optarg, &a->step);
		else if (c == OPT_METRIC)
			a->metrics = optarg;
	}
	if (r < 0)
		return EXIT_USAGE;
	if (c == CLI_GETOPT_EXIT)
		return a->o.status;
	arg = cli_one_target("history", argc, argv, "stackctl history nginx --since 1h");
	if (arg == NULL)
		return EXIT_USAGE;
	if (target_parse(arg, &a->kind, &a->name) < 0) {
		cli_error("history", "invalid target '%s' (a pid, command name or unit; pid:N, "
			  "comm:NAME, unit:NAME)", arg);
		return EXIT_USAGE;
	}
	if (a->until >= a->since) {
		cli_error("history", "--until must be less far back than --since");
		return EXIT_USAGE;
	}
	if (a->step == 0)
		a->step = (a->since - a->until) / DEFAULT_ROWS > NS_PER_SEC ?
			  (a->since - a->until) / DEFAULT_ROWS : NS_PER_SEC;
	coarsen_step(a);
	return -1;
}

/* A series per figure asked for into s[0..*n); 0, or the exit status
 * after saying what failed. */
static int fetch_all(struct source *src, const struct history_args *a, struct series *s,
		     size_t *n)
{
	char err[1024], list[1024], *save = NULL, *m;

	snprintf(list, sizeof(list), "%s", a->metrics ? a->metrics : DEFAULT_METRICS);
	for (m = strtok_r(list, ",", &save); m != NULL; m = strtok_r(NULL, ",", &save)) {
		int r;

		if (*n == MAX_METRICS) {
			cli_error("history", "at most %d figures at a time", MAX_METRICS);
			return EXIT_USAGE;
		}
		r = fetch(src, a, m, &s[*n].answer, err, sizeof(err));
		/* The default list names Top-Down figures a model may lack
		 * (404: the data's model does not compute it). */
		if (r == -ENOENT && a->metrics == NULL)
			continue;
		if (r < 0) {
			cli_error("history", "%s", err);
			return cli_exit_for(r);
		}
		snprintf(s[(*n)++].name, sizeof(s[0].name), "%s", m);
	}
	return 0;
}

/* A metric of the regression CPI stack is an estimate: its label and the
 * fit's quality once (the answers of its metrics carry the same fit), or
 * why there is no fit and its rows are empty. */
static void print_cpi_fit_note(const struct series *s, size_t n)
{
	char line[1024];
	size_t k;

	for (k = 0; k < n; k++) {
		const json_t *fit = json_object_get(s[k].answer, "cpi_fit");

		if (cpi_fit_label(fit, (uint64_t)json_integer_value(json_object_get(s[k].answer,
			"to_ns")), line, sizeof(line))) {
			printf("\n%s", line);
			return;
		}
	}
}

/* Under the table: the step, where the rows come from, and a hint when
 * they come from rollups coarser than the step. */
static void print_footer(const struct history_args *a, const struct series *s, size_t n)
{
	json_int_t res = 0;
	const json_t *p;
	char step[32];
	size_t j;

	duration_format(a->step, step, sizeof(step));
	printf("\n%s %s, one row per %s, from stored %s", a->kind, a->name, step,
	       json_string_value(json_object_get(s[0].answer, "source")));
	if (a->step_asked > 0) {
		char asked[32];

		duration_format(a->step_asked, asked, sizeof(asked));
		printf(" (--step %s would be over %d rows)", asked, API_MAX_POINTS);
	}
	json_array_foreach(json_object_get(s[0].answer, "points"), j, p)
		if (json_integer_value(json_object_get(p, "resolution_s")) > res)
			res = json_integer_value(json_object_get(p, "resolution_s"));
	if (res > 0 && (uint64_t)res * NS_PER_SEC > a->step) {
		char roll[32];

		duration_format((uint64_t)res * NS_PER_SEC, roll, sizeof(roll));
		printf(" (rollups of %s: use --step %s or more for even rows)", roll, roll);
	}
	/* the same window for every figure: the first answer's */
	json_array_foreach(json_object_get(s[0].answer, "recorded_under"), j, p) {
		char line[1024];

		recorded_label(s[0].answer, p, line, sizeof(line));
		printf("\n%s", line);
	}
	if (any_low_attribution(s, n))
		printf("\nLOW ATTRIBUTION: in those steps stackd charged less than %.0f%% of the "
		       "host's busy CPU time\nor switches to a process; their figures may be "
		       "missing some of %s's time", 100.0 * ATTRIBUTED_WARN_BELOW, a->name);
	if (any_periodic(s, n))
		printf("\nPERIODIC SAMPLING: that share of %s's CPU time was sampled "
		       "periodically, not at\nevery switch (the cost budget): figures there are "
		       "statistical estimates, not exact", a->name);
}

/* The n series as a table with sparklines, or as JSON/CSV rows: 0, 1 when
 * the target did not run in the span (said), -ENOMEM. */
static int print_history(const struct history_args *a, const struct series *s, size_t n)
{
	struct rowset rs;
	int r;

	rowset_init(&rs);
	r = build_rows(s, n, &rs, a->since - a->until > 86400ULL * NS_PER_SEC);
	if (r == 0 && rs.n_rows == 0) {
		char since[32], until[32];

		/* as `stackctl show` says of a target not in its window */
		duration_format(a->since, since, sizeof(since));
		duration_format(a->until, until, sizeof(until));
		cli_error("history", "%s %s did not run between %s and %s before the newest data",
			  a->kind, a->name, since, a->until ? until : "0s");
		rowset_done(&rs);
		return 1;
	}
	if (r == 0)
		rowset_print(&rs, a->o.fmt, 0, stdout);
	if (r == 0 && a->o.fmt == RS_TABLE && rs.n_rows > 0) {
		print_footer(a, s, n);
		print_cpi_fit_note(s, n);
		print_sparklines(&rs, n);
	}
	rowset_done(&rs);
	return r;
}

int verb_history(int argc, char **argv)
{
	struct history_args a = { .since = 3600ULL * NS_PER_SEC };
	struct series s[MAX_METRICS];
	struct source src;
	size_t n = 0, k;
	int r;

	r = parse_args(&a, argc, argv);
	if (r >= 0)
		return r;
	if (cli_open("history", &a.o.source, &src) != 0)
		return EXIT_FAILURE;
	r = fetch_all(&src, &a, s, &n);
	source_close(&src);
	if (r == 0) {
		r = print_history(&a, s, n);
		if (r < 0)
			cli_error("history", "out of memory");
		r = r != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	}
	for (k = 0; k < n; k++)
		json_decref(s[k].answer);
	return r;
}
