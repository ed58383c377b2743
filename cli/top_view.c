/*
 * top_view.c - see top_view.h.
 */
#include "cli/top_view.h"
#include "cli/cpi_fit_label.h"
#include "cli/term.h"
#include "cli/json_rowset.h"
#include "lib/duration.h"
#include "lib/clock.h"
#include "lib/sampling_mode.h"
#include "lib/top_rows.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "l2": the Top-Down level-2 nodes; "fe_l3": level 3 under the frontend
 * with its level-2 parents; the others are stacks by name; "all": every
 * metric (the software model has no stacks); "none". */
const char *const top_view_families[] = { "l2", "fe_l3", "frontend", "flops", "cpi", "commit",
					  "cpi_cycles", "all", "none", NULL };

/* The Top-Down level of a node: 1 without a parent, 2 under a level-1
 * node, ... (the parents are columns of the same rowset). */
static int td_level(const struct rowset *rs, const struct rs_column *c)
{
	int level = 1, p;

	while (c->parent[0] != '\0' && level < 8 && (p = rowset_find_column(rs, c->parent)) >= 0) {
		c = &rs->cols[p];
		level++;
	}
	return level;
}

static bool is_fetch_node(const char *name)
{
	return strcmp(name, "fetch_latency") == 0 || strcmp(name, "fetch_bandwidth") == 0;
}

static bool in_family(const struct rowset *rs, const struct rs_column *c, const char *family)
{
	if (!c->metric || strcmp(family, "none") == 0)
		return false;
	if (strcmp(family, "all") == 0)
		return true;
	if (strcmp(family, "l2") == 0)
		return strcmp(c->stack, "topdown") == 0 && td_level(rs, c) == 2;
	if (strcmp(family, "fe_l3") == 0)
		return strcmp(c->stack, "topdown") == 0 &&
		       (is_fetch_node(c->name) || is_fetch_node(c->parent));
	/* achieved GFLOP/s and share of peak belong with the FLOPS stack */
	if (strcmp(family, "flops") == 0 &&
	    (strcmp(c->name, "gflops") == 0 || strcmp(c->name, "flop_peak_fraction") == 0))
		return true;
	return strcmp(c->stack, family) == 0;
}

static bool has_family(const struct rowset *rs, const char *family)
{
	size_t c;

	for (c = 0; c < rs->n_cols; c++)
		if (in_family(rs, &rs->cols[c], family))
			return true;
	return strcmp(family, "none") == 0;
}

static bool is_l1(const struct rs_column *c)
{
	return c->metric && strcmp(c->stack, "topdown") == 0 && c->parent[0] == '\0' &&
	       c->unit == RS_UNIT_FRACTION;
}

/* Some row's CPU time was measured partly periodically (its
 * periodic_share above 0): only then the table shows PERIODIC. */
static bool any_periodic(const struct rowset *rs)
{
	int c = rowset_find_column(rs, "periodic_share");
	size_t r;

	for (r = 0; c >= 0 && r < rs->n_rows; r++) {
		const struct rs_cell *cell = &rs->cells[r * rs->n_cols + (size_t)c];

		/* JSON may carry a whole share (1) as an integer */
		if ((cell->type == RS_DOUBLE && cell->d > 0.0) ||
		    (cell->type == RS_INT && cell->i > 0))
			return true;
	}
	return false;
}

/* Some row failed a sanity check (lib/model/model_sanity.h): only then
 * the table shows HEALTH, which says which figure and why. */
static bool any_health(const struct rowset *rs)
{
	int c = rowset_find_column(rs, "health");
	size_t r;

	for (r = 0; c >= 0 && r < rs->n_rows; r++)
		if (rs->cells[r * rs->n_cols + (size_t)c].type == RS_TEXT)
			return true;
	return false;
}

static void choose_columns(struct top_view *v)
{
	static const char *const always[] = { "pid", "user", "uid", "comm", "unit", "processes",
					      "cpu_percent", "ipc", "namespace", "pod",
					      "container" };
	struct rowset *rs = &v->rs;
	bool have_l1 = false;
	size_t c, i;

	v->periodic = any_periodic(rs);
	for (c = 0; c < rs->n_cols; c++)
		have_l1 |= is_l1(&rs->cols[c]);
	for (c = 0; c < rs->n_cols; c++) {
		struct rs_column *col = &rs->cols[c];
		bool show = is_l1(col) || in_family(rs, col, v->family) ||
			    strcmp(col->name, v->sort) == 0 || strcmp(col->name, "cmdline") == 0;

		for (i = 0; !show && i < sizeof(always) / sizeof(always[0]); i++)
			show = strcmp(col->name, always[i]) == 0;
		/* by=process rows carry unit and uid too: the table keeps to USER */
		if (rowset_find_column(rs, "pid") >= 0 &&
		    (strcmp(col->name, "unit") == 0 || strcmp(col->name, "uid") == 0))
			show = strcmp(col->name, v->sort) == 0;
		if (!have_l1 && (strcmp(col->name, "task_clock_ns") == 0 ||
				 strcmp(col->name, "context_switches") == 0))
			show = true;
		if (strcmp(col->name, "periodic_share") == 0)
			show = v->periodic || strcmp(col->name, v->sort) == 0;
		if (strcmp(col->name, "health") == 0)
			show = any_health(rs);
		col->table_hidden = !show;
	}
	/* a rate per CPU second shown: its per wall second beside it */
	for (c = 0; c < rs->n_cols; c++) {
		char wall[64];
		int w;

		if (!rs->cols[c].metric || rs->cols[c].table_hidden)
			continue;
		top_rows_wall_name(rs->cols[c].name, wall, sizeof(wall));
		w = rowset_find_column(rs, wall);
		if (w >= 0)
			rs->cols[w].table_hidden = false;
	}
}

/* The characters a shown column takes in the table; a command line can
 * be cut down to COMMAND_MIN (rowset_print_table's max_width). */
#define COMMAND_MIN 12
static size_t shown_width(const struct rowset *rs, size_t c)
{
	size_t w = rowset_table_width(rs, c);

	return strcmp(rs->cols[c].name, "cmdline") == 0 && w > COMMAND_MIN ? COMMAND_MIN : w;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Which columns give way first when the table is too wide (-1: none):
 * 0 a rate's per-wall-second twin, 1 the Top-Down level-1 split when the
 * family shown is another stack, 2 the family's own, from the right.  The
 * keys, CPU%, IPC, the sort column and the command line stay. */
static int drop_rank(const struct top_view *v, const struct rs_column *col)
{
	bool td_family = strcmp(v->family, "l2") == 0 || strcmp(v->family, "fe_l3") == 0;

	if (col->table_hidden || strcmp(col->name, v->sort) == 0)
		return -1;
	if (!col->metric && (ends_with(col->name, "_wall") || ends_with(col->name, "_per_s")))
		return 0;
	if (is_l1(col))
		return td_family ? -1 : 1;
	return in_family(&v->rs, col, v->family) ? 2 : -1;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Hide columns by drop_rank until the table fits v->width, and note
 * their titles in table order. */
static void fit_columns(struct top_view *v)
{
	struct rowset *rs = &v->rs;
	size_t c, total = 0, used = 0, dropped[64] = { 0 }, k;
	int rank;

	for (c = 0; c < rs->n_cols; c++)
		if (!rs->cols[c].table_hidden)
			total += shown_width(rs, c) + (total > 0 ? 2 : 0);
	for (rank = 0; rank <= 2; rank++)
		for (c = rs->n_cols; c-- > 0 && total > v->width && v->n_dropped < 64;) {
			if (drop_rank(v, &rs->cols[c]) != rank)
				continue;
			rs->cols[c].table_hidden = true;
			total -= shown_width(rs, c) + 2;
			dropped[v->n_dropped++] = c;
		}
	qsort(dropped, v->n_dropped, sizeof(dropped[0]), cmp_size);
	for (k = 0; k < v->n_dropped; k++) {
		int n = snprintf(v->dropped + used, sizeof(v->dropped) - used, "%s%s",
				 used > 0 ? " " : "", rs->cols[dropped[k]].title);

		if (n < 0 || (size_t)n >= sizeof(v->dropped) - used)
			break;
		used += (size_t)n;
	}
}

int top_view_fetch(struct source *src, const struct top_request *req, struct top_view *v,
		   char *err, size_t errlen)
{
	char target[2048], num[32];
	const char *sort;
	int r;

	memset(v, 0, sizeof(*v));
	rowset_init(&v->rs);
	snprintf(target, sizeof(target), "/api/v1/top");
	duration_format(req->window_ns, num, sizeof(num));
	source_add_param(target, sizeof(target), "window", num);
	snprintf(num, sizeof(num), "%zu", req->limit);
	source_add_param(target, sizeof(target), "limit", num);
	if (req->sort != NULL)
		source_add_param(target, sizeof(target), "sort", req->sort);
	if (req->by != NULL)
		source_add_param(target, sizeof(target), "by", req->by);
	if (req->comm != NULL)
		source_add_param(target, sizeof(target), "comm", req->comm);
	if (req->unit != NULL)
		source_add_param(target, sizeof(target), "unit", req->unit);
	if (req->uid >= 0) {
		snprintf(num, sizeof(num), "%" PRId64, req->uid);
		source_add_param(target, sizeof(target), "user", num);
	}
	if (req->all)
		source_add_param(target, sizeof(target), "all", "1");
	r = source_get(src, target, &v->answer, err, errlen);
	if (r < 0)
		return r;
	r = json_rowset_load(json_object_get(v->answer, "columns"),
			     json_object_get(v->answer, "rows"), &v->rs, err, errlen);
	if (r < 0) {
		top_view_done(v);
		return r == -ENOMEM ? r : -EIO;
	}
	sort = json_string_value(json_object_get(v->answer, "sort"));
	snprintf(v->sort, sizeof(v->sort), "%s", sort ? sort : "");
	v->total_rows = (size_t)json_integer_value(json_object_get(v->answer, "total_rows"));
	num[0] = '\0';
	if (req->uid >= 0)
		snprintf(num, sizeof(num), ", uid %" PRId64, req->uid);
	snprintf(v->filters, sizeof(v->filters), "%s%s%s%s%s", req->comm ? ", comm " : "",
		 req->comm ? req->comm : "", req->unit ? ", unit " : "", req->unit ? req->unit : "",
		 num);
	/* Point at our own table, never at the caller's buffer. */
	v->family = NULL;
	for (size_t i = 0; req->family != NULL && top_view_families[i] != NULL; i++)
		if (strcmp(top_view_families[i], req->family) == 0)
			v->family = top_view_families[i];
	/* a family asked for that this model has no column of: say which
	 * it has, rather than show another one */
	if (req->family != NULL && v->family != NULL && !has_family(&v->rs, v->family)) {
		size_t used = 0;

		used += (size_t)snprintf(err, errlen, "the model (%s) has no family '%s'; one of:",
					 json_string_value(json_object_get(v->answer, "model")) ?
					 json_string_value(json_object_get(v->answer, "model")) : "?",
					 req->family);
		for (size_t i = 0; top_view_families[i] != NULL && used < errlen; i++)
			if (has_family(&v->rs, top_view_families[i]))
				used += (size_t)snprintf(err + used, errlen - used, " %s",
							 top_view_families[i]);
		top_view_done(v);
		return -EINVAL;
	}
	if (v->family == NULL || !has_family(&v->rs, v->family))
		v->family = has_family(&v->rs, "l2") ? "l2" : "all";
	choose_columns(v);
	v->width = req->width;
	if (v->width > 0)
		fit_columns(v);
	return 0;
}

void top_view_done(struct top_view *v)
{
	rowset_done(&v->rs);
	json_decref(v->answer);
	v->answer = NULL;
}

const char *top_view_next_family(const struct top_view *v)
{
	size_t i, start = 0, k;

	for (i = 0; top_view_families[i] != NULL; i++)
		if (strcmp(top_view_families[i], v->family) == 0)
			start = i;
	for (k = 1; k <= i; k++) {
		const char *f = top_view_families[(start + k) % i];

		if (has_family(&v->rs, f))
			return f;
	}
	return v->family;
}

static uint64_t u64(const json_t *o, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(o, key));
}

/* "attributed 99.2% of busy CPU, 99.9% of switches" (an older daemon's
 * answer has no attribution: nothing), LOW when under the threshold. */
static void print_attribution(const json_t *at, FILE *f)
{
	double cpu = json_number_value(json_object_get(at, "cpu_share"));
	double sw = json_number_value(json_object_get(at, "switch_share"));

	if (!json_is_object(at)) {
		fputs("attributed: unknown", f);
		return;
	}
	fprintf(f, "attributed %.1f%% of busy CPU, %.1f%% of switches", 100.0 * cpu, 100.0 * sw);
	if (json_is_true(json_object_get(at, "low")))
		fprintf(f, " - LOW (below %.0f%%): figures miss part of the host's work",
			100.0 * json_number_value(json_object_get(at, "warn_below")));
}

/* "sampling: 25.0% periodic (statistical)" when any of the window was
 * measured periodically (lib/sampling_mode.h); nothing when every switch
 * was sampled, the usual case: the header is four dense lines redrawn at
 * every refresh and cut at the terminal's width, and like the LOW warning
 * this speaks only when the figures are other than exact (`stackctl
 * status` always says which mode). */
static void print_sampling_mode(const json_t *sm, FILE *f)
{
	double share = json_number_value(json_object_get(sm, "periodic_share"));
	enum sampling_mode m = sampling_mode_of(share);

	if (m == SAMPLING_MIXED) {
		char pct[16];

		fprintf(f, "  |  sampling: %s periodic (statistical)",
			sampling_mode_percent(share, pct, sizeof(pct)));
	} else if (m == SAMPLING_PERIODIC) {
		fputs("  |  sampling: periodic (statistical)", f);
	}
}

/* The data covers less than the window asked for (the daemon started, or
 * was stopped, within it): say so, or the figures read as the whole span. */
static void print_short_window(const json_t *win, FILE *f)
{
	uint64_t asked = u64(win, "asked_ns"), have = u64(win, "to_ns") - u64(win, "from_ns");
	char a[32], h[32];

	if (asked == 0 || have + NS_PER_SEC + asked / 10 >= asked)
		return;
	duration_format_approx((double)have, h, sizeof(h));
	duration_format_approx((double)asked, a, sizeof(a));
	fprintf(f, "note: data covers only %s of the %s asked: stackd started (or did not run) "
		"within the window\n", h, a);
}

void top_view_print_header(const struct top_view *v, const struct source *src, FILE *f)
{
	const json_t *a = v->answer, *win = json_object_get(a, "window");
	const json_t *col = json_object_get(a, "collector"), *g;
	uint64_t to_ns = u64(win, "to_ns"), from_ns = u64(win, "from_ns");
	char span[32], at[32], where[600];
	time_t t = (time_t)(to_ns / NS_PER_SEC);
	struct tm tm;
	size_t i;
	char safe[1024];

	duration_format_approx((double)(to_ns - from_ns), span, sizeof(span));
	strftime(at, sizeof(at), "%H:%M:%S", localtime_r(&t, &tm));
	source_describe(src, where, sizeof(where));
	fprintf(f, "%s - model %s, last %s to %s, %" PRIu64 " CPUs - %s\n",
		term_safe(json_string_value(json_object_get(a, "host")), safe, sizeof(safe)),
		json_string_value(json_object_get(a, "model")), span, at, u64(win, "ncpus"), where);
	fputs("families:", f);
	json_array_foreach(json_object_get(a, "groups"), i, g)
		fprintf(f, " %s %.0f%%", json_string_value(json_object_get(g, "name")),
			100.0 * json_number_value(json_object_get(g, "coverage")));
	fputc('\n', f);
	print_attribution(json_object_get(a, "attribution"), f);
	print_sampling_mode(json_object_get(a, "sampling_mode"), f);
	fprintf(f, "  |  lost %" PRIu64 " samples, %" PRIu64 " throttled, %" PRIu64
		" unattributed spans, %" PRIu64 " unschedulable\n", u64(col, "lost_samples"),
		u64(col, "throttles"), u64(col, "unattributed_spans"), u64(col, "unschedulable"));
	fprintf(f, "by %s, sorted by %s, family %s: %zu of %zu rows%s%s\n",
		json_string_value(json_object_get(a, "by")), v->sort, v->family, v->rs.n_rows,
		v->total_rows, v->filters[0] ? " - only" : "",
		term_safe(v->filters[0] ? v->filters + 1 : "", safe, sizeof(safe)));
	if (v->n_dropped > 0)
		fprintf(f, "not shown, to fit %zu columns: %s (--json, --csv: all)\n", v->width,
			v->dropped);
	if (src->note[0] != '\0')
		fprintf(f, "note: %s\n", src->note);
	if (v->periodic)
		fputs("PERIODIC: the share of a row's CPU time sampled periodically (statistical); "
		      "the rest per switch (exact)\n", f);
	print_short_window(win, f);
	/* the CPI stack's columns are an estimate: say whose, and how good */
	if (strcmp(v->family, "cpi") == 0 || strcmp(v->family, "all") == 0)
		cpi_fit_print(json_object_get(a, "cpi_fit"), to_ns, "cpi: ", f);
}
