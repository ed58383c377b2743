/*
 * show.c - `stackctl show TARGET`: the stacks of one process, command or
 * unit over a window, as horizontal bars: Top-Down level 1 with its
 * level-2 children indented, frontend delivery, FLOPS, the CPI stack,
 * two-stage estimates as ranges, then the scalar figures; each with the
 * share of the target's time its counters measured (coverage); and a line
 * for intervals recorded under another formula version or model.
 * --json / --csv print the same figures as rows (name, value, unit,
 * coverage, stack, parent, core_scoped, help).
 */
#include "cli/cli.h"
#include "cli/cpi_fit_label.h"
#include "cli/recorded_label.h"
#include "cli/source.h"
#include "cli/target.h"
#include "cli/term.h"
#include "lib/duration.h"
#include "lib/rowset.h"
#include "lib/clock.h"
#include "lib/model/model.h"
#include "lib/model/model_hybrid.h"
#include "lib/sampling_mode.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BAR_WIDTH 30
#define NAME_WIDTH 22

enum { OPT_WINDOW = 0x100, OPT_NO_COLOR };

static void help(void)
{
	printf("Usage: stackctl show TARGET [OPTIONS]\n"
	       "\n"
	       "The stacks of one target over the last window, as bars: Top-Down level 1\n"
	       "with its level-2 children, frontend delivery (DSB/MITE/LSD/MS), FLOPS, CPI\n"
	       "stack, two-stage ranges, then single figures; each with its coverage (the\n"
	       "share of the target's CPU time the counters behind it were measuring).\n"
	       "\n"
	       "TARGET is a process id, a command name, or a systemd unit (a name ending\n"
	       "in .service, .scope, .slice...); pid:N, comm:NAME or unit:NAME say which.\n"
	       "A command or unit sums all its processes.\n"
	       "\n"
	       "  --window DUR     how far back from the newest data (default 60s)\n"
	       "  --json, --csv    the figures as rows for scripts\n"
	       "  --no-color       no colour (also: $NO_COLOR)\n"
	       SOURCE_HELP
	       "  -h, --help       this help\n");
}

/* TARGET -> "/api/v1/processes/N" and the like. */
static int target_path(const char *t, char *buf, size_t len)
{
	const char *kind, *name;
	char enc[800];

	if (target_parse(t, &kind, &name) < 0)
		return -EINVAL;
	source_encode(name, enc, sizeof(enc));   /* a path segment */
	snprintf(buf, len, "/api/v1/%s/%s", strcmp(kind, "pid") == 0 ? "processes" :
		 strcmp(kind, "unit") == 0 ? "units" : "comms", enc);
	return 0;
}

static const char *color_of(const char *node)
{
	static const struct { const char *name, *sgr; } colors[] = {
		{ "retiring", "32" }, { "bad_speculation", "31" }, { "frontend_bound", "35" },
		{ "backend_bound", "34" },
	};
	size_t i;

	for (i = 0; node != NULL && i < sizeof(colors) / sizeof(colors[0]); i++)
		if (strcmp(node, colors[i].name) == 0)
			return colors[i].sgr;
	return "36";
}

/* A bar of share (0..1) in eighths of a character. */
static void print_bar(double share, const char *sgr, bool color)
{
	static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	int units = (int)lround((share < 0 ? 0 : share > 1 ? 1 : share) * BAR_WIDTH * 8), i;

	if (color)
		printf("\033[%sm", sgr);
	for (i = 0; i < units / 8; i++)
		fputs("█", stdout);
	fputs(eighths[units % 8], stdout);
	if (color)
		fputs("\033[0m", stdout);
	for (i = units / 8 + (units % 8 != 0); i < BAR_WIDTH; i++)
		putchar(' ');
}

static const char *mstr(const json_t *m, const char *key)
{
	return json_string_value(json_object_get(m, key));
}

/* A metric of Linux perf's table (the API's "source": "perf"). */
static bool is_perf(const json_t *m)
{
	const char *s = mstr(m, "source");

	return s != NULL && strcmp(s, "perf") == 0;
}

static bool streq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static void format_value(const json_t *m, char *buf, size_t len)
{
	const char *unit = mstr(m, "unit");
	const json_t *v = json_object_get(m, "value");
	double x = json_number_value(v);

	if (!json_is_number(v))
		snprintf(buf, len, "-");
	else if (streq(unit, "fraction"))
		snprintf(buf, len, "%.1f%%", 100.0 * x);
	else if (streq(unit, "per_second"))
		snprintf(buf, len, "%.3g/s", x);
	else
		snprintf(buf, len, "%.3g", x);
}

/* The approximation a row's help names ("(approximation: ...)", "(lower
 * bound: ...)"), as the API gives it, into buf; false when it names none. */
static bool approx_text(const char *help, char *buf, size_t len)
{
	static const char *const words[] = { "approximation", "lower bound", "upper bound",
					     "lower estimate", "unknown" };
	const char *at = NULL, *open;
	size_t i;

	for (i = 0; help != NULL && i < sizeof(words) / sizeof(words[0]); i++) {
		const char *w = strstr(help, words[i]);

		if (w != NULL && (at == NULL || w < at))
			at = w;
	}
	if (at == NULL)
		return false;
	/* the parenthesis it stands in, else from the word to the end */
	for (open = at; open > help && open[-1] != '(' && open[-1] != ')'; open--)
		;
	if (open > help && open[-1] == '(') {
		const char *end;
		int depth = 0;

		for (end = open; *end != '\0' && (*end != ')' || depth > 0); end++)
			depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
		snprintf(buf, len, "%.*s", (int)(end - open), open);
	} else {
		snprintf(buf, len, "%s", at);
	}
	return true;
}

/* The health flags of a row (the API's "health": values no core can
 * produce, children above their parent), one line. */
static bool health_text(const json_t *m, char *buf, size_t len)
{
	const json_t *h = json_object_get(m, "health"), *x;
	size_t i, used = 0;

	if (!json_is_array(h) || json_array_size(h) == 0)
		return false;
	buf[0] = '\0';
	json_array_foreach(h, i, x) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? "; " : "",
				 json_string_value(x) ? json_string_value(x) : "?");

		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return true;
}

/* A row: its bar, value and coverage, marked "~" where it is an
 * approximation and "!" where a sanity check flags it (both explained
 * under the stack, print_notes); unit: what a fraction is a share of
 * where it differs from the stack's title (Top-Down's level 3: cycles). */
static void print_line(const json_t *m, int depth, double scale, const char *sgr, bool color,
		       const char *unit)
{
	char value[32], name[64], note[512];
	const json_t *cov = json_object_get(m, "coverage");
	bool approx = approx_text(mstr(m, "help"), note, sizeof(note));
	bool flagged = health_text(m, note, sizeof(note));

	format_value(m, value, sizeof(value));
	snprintf(name, sizeof(name), "%*s%s", 2 + 2 * depth, "", mstr(m, "name"));
	printf("%-*s ", NAME_WIDTH + 2, name);
	print_bar(scale > 0 ? json_number_value(json_object_get(m, "value")) / scale : 0, sgr,
		  color);
	printf(" %8s%c%c %4.0f%%%s%s%s\n", value, approx ? '~' : ' ', flagged ? '!' : ' ',
	       100.0 * json_number_value(cov),
	       json_is_true(json_object_get(m, "core_scoped")) ? "  (whole core)" : "",
	       unit != NULL ? "  " : "", unit != NULL ? unit : "");
}

/* Under a stack: what each "~" and "!" of its rows means. */
static void print_notes(const json_t *metrics, const char *stack)
{
	const json_t *m;
	char note[512];
	size_t i;

	json_array_foreach(metrics, i, m) {
		if (!streq(mstr(m, "stack"), stack))
			continue;
		if (approx_text(mstr(m, "help"), note, sizeof(note)))
			printf("  ~ %s: %s\n", mstr(m, "name"), note);
		if (health_text(m, note, sizeof(note)))
			printf("  ! %s: %s\n", mstr(m, "name"), note);
	}
}

static void print_children(const json_t *metrics, const char *parent, int depth, double scale,
			   const char *sgr, bool color)
{
	const json_t *m;
	size_t i;

	json_array_foreach(metrics, i, m) {
		if (!streq(mstr(m, "parent"), parent))
			continue;
		/* Top-Down's level 3 (perf's tma_* nodes) are shares of cycles,
		 * under level-2 shares of slots: they need not add up to it */
		print_line(m, depth, scale, sgr, color,
			   depth >= 2 && streq(mstr(m, "stack"), "topdown") &&
			   streq(mstr(m, "unit"), "fraction") ? "of cycles" : NULL);
		if (depth < 4)
			print_children(metrics, mstr(m, "name"), depth + 1, scale, sgr, color);
	}
}

/* Stacks in slots are titled from the model's facts (its slot stage and
 * width); the others by their unit. */
static const char *stack_title_of(const struct model *m, const char *stack, char *buf,
				  size_t len)
{
	if (m != NULL && model_stack_title(m, stack, buf, len) == 0)
		return buf;
	if (streq(stack, "frontend"))
		return "Frontend delivery";
	if (streq(stack, "flops"))
		return "FLOPS stack: share of the core's peak FLOP rate";
	if (streq(stack, "cpi"))
		return "CPI stack: cycles per instruction";
	if (streq(stack, "cpi_cycles"))
		return "Cycle-accounted CPI stack: cycles per instruction by cause";
	return stack;
}

/* A hybrid CPU's stacks are one per core type ("topdown@cpu_atom"),
 * titled with it, and its combined Top-Down says how it combines. */
static const char *stack_title(const char *model, const char *stack, char *buf, size_t len)
{
	const struct model *m = model != NULL ? model_find(model) : NULL;
	const struct model *parts[HYBRID_MAX_TYPES];
	const char *units[HYBRID_MAX_TYPES], *at = strchr(stack, '@');
	unsigned base[HYBRID_MAX_TYPES + 1], n = model_hybrid_parts(m, parts, units, base), i;
	char family[64], title[192];

	if (n > 0 && at == NULL && streq(stack, "topdown"))
		return "Top-Down, both core types: each one's shares weighted by its cycles";
	if (n == 0 || at == NULL)
		return stack_title_of(m, stack, buf, len);
	snprintf(family, sizeof(family), "%.*s", (int)(at - stack), stack);
	for (i = 0; i < n && !streq(units[i], at + 1); i++)
		;
	snprintf(buf, len, "%s (%s): %s", streq(at + 1, "cpu_atom") ? "E-cores" : "P-cores",
		 at + 1, stack_title_of(i < n ? parts[i] : NULL, family, title, sizeof(title)));
	return buf;
}

static void print_stack(const json_t *metrics, const char *model, const char *stack,
			bool color)
{
	char title[160];
	const json_t *m;
	double total = 0;
	bool fractions = true;
	size_t i;

	json_array_foreach(metrics, i, m)
		if (streq(mstr(m, "stack"), stack) && mstr(m, "parent") == NULL) {
			/* an overlap part is negative: bars against the positive sum */
			if (json_number_value(json_object_get(m, "value")) > 0)
				total += json_number_value(json_object_get(m, "value"));
			fractions &= streq(mstr(m, "unit"), "fraction");
		}
	/* the title may run into the bars' column: they start below it */
	printf("\n%-*s %8s  %s\n", NAME_WIDTH + 3 + BAR_WIDTH,
	       stack_title(model, stack, title, sizeof(title)), "value",
	       "coverage");
	json_array_foreach(metrics, i, m) {
		const char *name = mstr(m, "name");

		if (!streq(mstr(m, "stack"), stack) || mstr(m, "parent") != NULL)
			continue;
		/* Fractions against 1; other stacks (CPI) against their total. */
		print_line(m, 0, fractions ? 1.0 : total, color_of(streq(stack, "topdown") ? name :
								   NULL), color, NULL);
		print_children(metrics, name, 1, fractions ? 1.0 : total,
			       color_of(streq(stack, "topdown") ? name : NULL), color);
	}
	print_notes(metrics, stack);
}

static const json_t *find_metric(const json_t *metrics, const char *name)
{
	const json_t *m;
	size_t i;

	json_array_foreach(metrics, i, m)
		if (streq(mstr(m, "name"), name))
			return m;
	return NULL;
}

/* name_low / name_high pairs: shown once, as a range; one of the two
 * alone (the other stage has no counter: unknown) beside the metric
 * `name` it bounds.  Into base: name. */
static bool range_base(const json_t *metrics, const char *name, char *base, size_t len)
{
	size_t n = strlen(name);
	char other[160];

	if (n > 4 && strcmp(name + n - 4, "_low") == 0) {
		snprintf(base, len, "%.*s", (int)(n - 4), name);
		snprintf(other, sizeof(other), "%s_high", base);
	} else if (n > 5 && strcmp(name + n - 5, "_high") == 0) {
		snprintf(base, len, "%.*s", (int)(n - 5), name);
		snprintf(other, sizeof(other), "%s_low", base);
	} else {
		return false;
	}
	return find_metric(metrics, other) != NULL || find_metric(metrics, base) != NULL;
}

static bool is_range_part(const json_t *metrics, const char *name)
{
	char base[128];

	return range_base(metrics, name, base, sizeof(base));
}

/* Linux perf's own metrics (source "perf"), after ours: perf's names run
 * longer, so they get a column of their own. */
static void print_perf_metrics(const json_t *metrics)
{
	const json_t *m;
	size_t i;
	int w = 0;

	json_array_foreach(metrics, i, m)
		if (is_perf(m) && mstr(m, "stack") == NULL && (int)strlen(mstr(m, "name")) > w)
			w = (int)strlen(mstr(m, "name"));
	if (w == 0)
		return;
	printf("\n%-*s %8s  %s\n", w + 2, "Linux perf's metrics", "value", "coverage");
	json_array_foreach(metrics, i, m) {
		char value[32];

		if (!is_perf(m) || mstr(m, "stack") != NULL)
			continue;  /* a node of the tree above */
		format_value(m, value, sizeof(value));
		printf("  %-*s %8s  %5.0f%%\n", w, mstr(m, "name"), value,
		       100.0 * json_number_value(json_object_get(m, "coverage")));
	}
}

/* One range: "low .. high", a side with no counter "unknown". */
static void print_range(const json_t *metrics, const char *base)
{
	char name[160], lo[32] = "unknown", hi[32] = "unknown";
	const json_t *l, *h;
	int pad;

	snprintf(name, sizeof(name), "%s_low", base);
	l = find_metric(metrics, name);
	snprintf(name, sizeof(name), "%s_high", base);
	h = find_metric(metrics, name);
	if (l != NULL)
		format_value(l, lo, sizeof(lo));
	if (h != NULL)
		format_value(h, hi, sizeof(hi));
	pad = BAR_WIDTH - (int)strlen(lo) - (int)strlen(hi) - 4;
	printf("  %-*s %s .. %s  %*s%5.0f%%\n", NAME_WIDTH, base, lo, hi, pad > 0 ? pad : 0, "",
	       100.0 * json_number_value(json_object_get(l != NULL ? l : h, "coverage")));
}

static void print_ranges_and_scalars(const json_t *metrics, const char *model)
{
	const struct model *md = model != NULL ? model_find(model) : NULL;
	const json_t *m;
	bool header = false, figures = false;
	char title[256];
	size_t i;

	if (md == NULL || model_ranges_title(md, title, sizeof(title)) < 0)
		snprintf(title, sizeof(title), "Ranges: each loss at two pipeline stages, the "
			 "smaller .. the larger (unknown: no counter for that stage)");
	json_array_foreach(metrics, i, m) {
		const char *name = mstr(m, "name");
		size_t n = strlen(name);
		char base[128], low[160];

		if (!range_base(metrics, name, base, sizeof(base)))
			continue;
		/* each range once: at its _low, or at a _high with no _low */
		snprintf(low, sizeof(low), "%s_low", base);
		if (n > 5 && strcmp(name + n - 5, "_high") == 0 && find_metric(metrics, low) != NULL)
			continue;
		if (!header)
			printf("\n%s\n", title);
		header = true;
		print_range(metrics, base);
	}
	json_array_foreach(metrics, i, m) {
		char value[32];

		if (mstr(m, "stack") != NULL || is_range_part(metrics, mstr(m, "name")) ||
		    is_perf(m))
			continue;
		if (!figures)
			printf("\n%-*s %8s  %s\n", NAME_WIDTH + 2, "Figures", "value", "coverage");
		figures = true;
		format_value(m, value, sizeof(value));
		printf("  %-*s %8s  %5.0f%%  %s\n", NAME_WIDTH, mstr(m, "name"), value,
		       100.0 * json_number_value(json_object_get(m, "coverage")), mstr(m, "help"));
	}
	print_perf_metrics(metrics);
}

/* How exact the figures can be, from the host's whole: the share of its
 * busy CPU time stackd charged to a process, and which sampling mode
 * measured the window, always (a report on one target reads this once,
 * and every figure below depends on it).  An older daemon sent neither. */
static void print_host_quality(const json_t *a)
{
	const json_t *at = json_object_get(a, "attribution");
	const json_t *sm = json_object_get(a, "sampling_mode");

	if (!json_is_object(at) || !json_is_object(sm))
		return;
	printf("host: attributed %.1f%% of busy CPU, %.1f%% of switches%s; sampling: %s\n",
	       100.0 * json_number_value(json_object_get(at, "cpu_share")),
	       100.0 * json_number_value(json_object_get(at, "switch_share")),
	       json_is_true(json_object_get(at, "low")) ? " (LOW: figures may miss time)" : "",
	       mstr(sm, "text"));
}

/* Which mode measured the target's own CPU time: a process on the CPU
 * that sampled periodically is all statistical however small the host's
 * share above.  An older daemon sent no periodic_share. */
static void print_target_mode(const json_t *a)
{
	const json_t *share = json_object_get(a, "periodic_share");
	char text[SAMPLING_MODE_TEXT_MAX];

	if (!json_is_number(share))
		return;
	printf("this target: sampling: %s\n", sampling_mode_describe(json_number_value(share),
								     text, sizeof(text)));
}

/* Families the plan split over groups (too many events for the counters
 * free): their figures combine groups counted at different times, which
 * every figure built on them inherits. */
static void print_split(const json_t *a)
{
	const json_t *g;
	size_t i, n = 0;

	json_array_foreach(json_object_get(a, "groups"), i, g)
		if (json_is_true(json_object_get(g, "split")))
			printf("%s%s", n++ ? ", " : "split (combines groups counted at different "
			       "times, each event scaled to its family's cycles): ", mstr(g, "name"));
	if (n > 0)
		putchar('\n');
}

/* Under the regression CPI stack, its label and the fit's quality; where
 * the model has that stack but no fit, its title and why. */
static void print_cpi_fit(const json_t *a, bool under_stack)
{
	const json_t *fit = json_object_get(a, "cpi_fit");
	uint64_t now = (uint64_t)json_integer_value(json_object_get(json_object_get(a, "window"),
								      "to_ns"));

	if (!json_is_object(fit))
		return;
	if (!under_stack) {
		char title[160];

		printf("\n%s\n", stack_title(mstr(a, "model"), "cpi", title, sizeof(title)));
	}
	cpi_fit_print(fit, now, "  ", stdout);
}

static void print_bars(const json_t *a, const char *window, bool color)
{
	const json_t *metrics = json_object_get(a, "metrics"), *who = json_object_get(a, "who");
	const json_t *p, *m;
	static const char *const keys[] = { "pid", "comm", "unit" };
	const char *stacks[16];
	size_t i, n_stacks = 0, k;
	char safe[1024];

	for (k = 0; k < 3; k++)
		if (json_is_string(json_object_get(who, keys[k])))
			printf("%s %s", keys[k], term_safe(json_string_value(json_object_get(who,
			       keys[k])), safe, sizeof(safe)));
	printf(": %" PRId64 " process%s, CPU %.1f%%, model %s, last %s\n",
	       (int64_t)json_integer_value(json_object_get(a, "process_count")),
	       json_integer_value(json_object_get(a, "process_count")) == 1 ? "" : "es",
	       json_number_value(json_object_get(a, "cpu_percent")),
	       json_string_value(json_object_get(a, "model")), window);
	json_array_foreach(json_object_get(a, "processes"), i, p) {
		if (i == 5) {
			printf("  ...\n");
			break;
		}
		printf("  pid %-7" PRId64 " %s\n", (int64_t)json_integer_value(json_object_get(p, "pid")),
		       term_safe(mstr(p, "cmdline") ? mstr(p, "cmdline") : mstr(p, "comm"), safe,
				 sizeof(safe)));
	}
	print_host_quality(a);
	print_target_mode(a);
	print_split(a);
	recorded_label_print(a, "", stdout);
	json_array_foreach(metrics, i, m) {
		const char *s = mstr(m, "stack");

		for (k = 0; s != NULL && k < n_stacks && !streq(stacks[k], s); k++)
			;
		if (s != NULL && k == n_stacks && n_stacks < 16)
			stacks[n_stacks++] = s;
	}
	for (k = 0; k < n_stacks; k++) {
		print_stack(metrics, mstr(a, "model"), stacks[k], color);
		if (streq(stacks[k], "cpi"))
			print_cpi_fit(a, true);
	}
	for (k = 0; k < n_stacks && !streq(stacks[k], "cpi"); k++)
		;
	if (k == n_stacks)
		print_cpi_fit(a, false);
	print_ranges_and_scalars(metrics, mstr(a, "model"));
}

/* A row's help; the regression CPI stack's rows say there, too, that they
 * are an estimate and how good the fit is (scripts read no header). */
static int set_help(struct rowset *rs, size_t row, int col, const json_t *m, const char *fit)
{
	const char *text = mstr(m, "help"), *stack = mstr(m, "stack");
	char buf[512];

	if (text == NULL)
		return 0;
	if (fit[0] == '\0' || stack == NULL || strcmp(stack, "cpi") != 0)
		return rowset_set_text(rs, row, col, text);
	snprintf(buf, sizeof(buf), "%s (%s)", text, fit);
	return rowset_set_text(rs, row, col, buf);
}

static int print_rows(const json_t *a, enum rs_format fmt)
{
	static const char *const names[] = { "name", "value", "unit", "coverage", "stack", "parent",
					      "core_scoped", "help" };
	uint64_t now = (uint64_t)json_integer_value(json_object_get(json_object_get(a, "window"),
								      "to_ns"));
	char fit[256];
	struct rowset rs;
	const json_t *m;
	size_t i, k;

	(void)cpi_fit_label(json_object_get(a, "cpi_fit"), now, fit, sizeof(fit));

	rowset_init(&rs);
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (rowset_add_column(&rs, names[k], names[k], RS_UNIT_NONE) < 0)
			goto oom;
	json_array_foreach(json_object_get(a, "metrics"), i, m) {
		int row = rowset_add_row(&rs);

		if (row < 0)
			goto oom;
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			const json_t *v = json_object_get(m, names[k]);

			if (strcmp(names[k], "help") == 0) {
				if (set_help(&rs, (size_t)row, (int)k, m, fit) < 0)
					goto oom;
				continue;
			}
			if (json_is_string(v) && rowset_set_text(&rs, (size_t)row, (int)k,
								  json_string_value(v)) < 0)
				goto oom;
			if (json_is_number(v))
				rowset_set_double(&rs, (size_t)row, (int)k, json_number_value(v));
			if (json_is_boolean(v))
				rowset_set_int(&rs, (size_t)row, (int)k, json_is_true(v));
		}
	}
	rowset_print(&rs, fmt, 0, stdout);
	rowset_done(&rs);
	return EXIT_SUCCESS;
oom:
	rowset_done(&rs);
	cli_error("show", "out of memory");
	return EXIT_FAILURE;
}

int verb_show(int argc, char **argv)
{
	static const struct option options[] = {
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt o = { .verb = "show", .options = options,
				.common = CLI_SOURCE | CLI_FORMAT, .help = help };
	uint64_t window_ns = 60ULL * NS_PER_SEC;
	bool no_color = false;
	char target[1024], window[32];
	const char *arg;
	struct source src;
	json_t *a = NULL;
	int c, r;

	while ((c = cli_getopt(&o, argc, argv)) >= 0) {
		switch (c) {
		case OPT_WINDOW:
			if (cli_parse_window("show", optarg, &window_ns) < 0)
				return EXIT_USAGE;
			break;
		case OPT_NO_COLOR:
			no_color = true;
			break;
		}
	}
	if (c == CLI_GETOPT_EXIT)
		return o.status;
	arg = cli_one_target("show", argc, argv, "stackctl show nginx");
	if (arg == NULL)
		return EXIT_USAGE;
	if (target_path(arg, target, sizeof(target) - 40) < 0) {
		cli_error("show", "invalid target '%s' (a pid, command name or unit; pid:N, "
			  "comm:NAME, unit:NAME)", arg);
		return EXIT_USAGE;
	}
	duration_format(window_ns, window, sizeof(window));
	source_add_param(target, sizeof(target), "window", window);
	if (cli_open("show", &o.source, &src) != 0)
		return EXIT_FAILURE;
	r = cli_get("show", &src, target, &a);
	source_close(&src);
	if (r != 0)
		return r;
	if (o.fmt == RS_TABLE) {
		print_bars(a, window, term_color_wanted(STDOUT_FILENO, no_color));
		r = EXIT_SUCCESS;
	} else {
		r = print_rows(a, o.fmt);
	}
	json_decref(a);
	return r;
}
