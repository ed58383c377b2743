/*
 * rowset.c - see rowset.h.
 */
#include "lib/rowset.h"
#include "lib/duration.h"
#include "lib/utf8.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RS_TABLE_MAX_WIDTH 40   /* characters of one column, but the last */
#define RS_TABLE_CELL_MAX 512   /* bytes of one cell's text, before the cut */
#define RS_PLAIN_DIGITS 6       /* significant digits of a double in JSON and CSV */

void rowset_init(struct rowset *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void rowset_done(struct rowset *rs)
{
	size_t i;

	for (i = 0; i < rs->n_rows * rs->n_cols; i++)
		free(rs->cells[i].s);
	free(rs->cells);
	free(rs->cols);
	memset(rs, 0, sizeof(*rs));
}

void rowset_clear_rows(struct rowset *rs)
{
	size_t i;

	for (i = 0; i < rs->n_rows * rs->n_cols; i++)
		free(rs->cells[i].s);
	rs->n_rows = 0;
}

int rowset_add_column(struct rowset *rs, const char *name, const char *title, enum rs_unit unit)
{
	struct rs_column *c;

	if (rs->n_rows > 0)
		return -EINVAL;
	if (rs->n_cols == rs->cap_cols) {
		size_t cap = rs->cap_cols ? rs->cap_cols * 2 : 16;
		struct rs_column *more = realloc(rs->cols, cap * sizeof(*more));

		if (more == NULL)
			return -ENOMEM;
		rs->cols = more;
		rs->cap_cols = cap;
	}
	c = &rs->cols[rs->n_cols];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->title, sizeof(c->title), "%s", title ? title : name);
	c->unit = unit;
	return (int)rs->n_cols++;
}

int rowset_find_column(const struct rowset *rs, const char *name)
{
	size_t i;

	for (i = 0; i < rs->n_cols; i++)
		if (strcmp(rs->cols[i].name, name) == 0)
			return (int)i;
	return -1;
}

void rowset_hide_in_table(struct rowset *rs, int col)
{
	if (col >= 0 && (size_t)col < rs->n_cols)
		rs->cols[col].table_hidden = true;
}

void rowset_set_tree(struct rowset *rs, int col, const char *stack, const char *parent)
{
	if (col < 0 || (size_t)col >= rs->n_cols)
		return;
	rs->cols[col].metric = true;
	snprintf(rs->cols[col].stack, sizeof(rs->cols[col].stack), "%s", stack ? stack : "");
	snprintf(rs->cols[col].parent, sizeof(rs->cols[col].parent), "%s", parent ? parent : "");
}

static const char *const unit_names[] = {
	[RS_UNIT_NONE] = "none", [RS_UNIT_NS] = "ns", [RS_UNIT_PERCENT] = "percent",
	[RS_UNIT_FRACTION] = "fraction", [RS_UNIT_COUNT] = "count",
};

const char *rs_unit_name(enum rs_unit u)
{
	return (size_t)u < sizeof(unit_names) / sizeof(unit_names[0]) ? unit_names[u] : "none";
}

int rs_unit_parse(const char *name, enum rs_unit *ret)
{
	size_t i;

	for (i = 0; i < sizeof(unit_names) / sizeof(unit_names[0]); i++)
		if (strcmp(name, unit_names[i]) == 0) {
			*ret = (enum rs_unit)i;
			return 0;
		}
	return -EINVAL;
}

int rowset_add_row(struct rowset *rs)
{
	if (rs->n_rows == rs->cap_rows) {
		size_t cap = rs->cap_rows ? rs->cap_rows * 2 : 64;
		struct rs_cell *more = realloc(rs->cells, cap * rs->n_cols * sizeof(*more));

		if (more == NULL)
			return -ENOMEM;
		rs->cells = more;
		rs->cap_rows = cap;
	}
	memset(&rs->cells[rs->n_rows * rs->n_cols], 0, rs->n_cols * sizeof(*rs->cells));
	return (int)rs->n_rows++;
}

static struct rs_cell *cell(const struct rowset *rs, size_t row, int col)
{
	return &rs->cells[row * rs->n_cols + (size_t)col];
}

void rowset_set_int(struct rowset *rs, size_t row, int col, int64_t v)
{
	struct rs_cell *c = cell(rs, row, col);

	c->type = RS_INT;
	c->i = v;
}

void rowset_set_double(struct rowset *rs, size_t row, int col, double v)
{
	struct rs_cell *c = cell(rs, row, col);

	if (!isfinite(v)) {
		c->type = RS_NULL;
		return;
	}
	c->type = RS_DOUBLE;
	c->d = v;
}

int rowset_set_text(struct rowset *rs, size_t row, int col, const char *v)
{
	struct rs_cell *c = cell(rs, row, col);

	free(c->s);
	c->s = NULL;
	c->type = RS_NULL;
	if (v == NULL)
		return 0;
	c->s = strdup(v);
	if (c->s == NULL)
		return -ENOMEM;
	c->type = RS_TEXT;
	return 0;
}

static double num(const struct rs_cell *c)
{
	return c->type == RS_INT ? (double)c->i : c->d;
}

int rowset_cell_compare(const struct rs_cell *x, const struct rs_cell *y)
{
	if (x->type == RS_NULL || y->type == RS_NULL)
		return (x->type == RS_NULL) - (y->type == RS_NULL);
	if (x->type == RS_TEXT && y->type == RS_TEXT)
		return strcmp(x->s, y->s);
	if (x->type == RS_TEXT || y->type == RS_TEXT)
		return (x->type == RS_TEXT) - (y->type == RS_TEXT);
	if (num(x) != num(y))
		return num(x) > num(y) ? -1 : 1;
	return 0;
}

static int cmp_rows(const void *a, const void *b, void *arg)
{
	int col = *(const int *)arg;

	return rowset_cell_compare((const struct rs_cell *)a + col,
				   (const struct rs_cell *)b + col);
}

void rowset_sort(struct rowset *rs, int col)
{
	/* Rows are contiguous cell arrays, so qsort can move whole rows. */
	if (col < 0 || (size_t)col >= rs->n_cols || rs->n_rows < 2)
		return;
	/* qsort_r, not a global: the HTTP server sorts from several threads. */
	qsort_r(rs->cells, rs->n_rows, rs->n_cols * sizeof(*rs->cells), cmp_rows, &col);
}

/* Plain machine form: integers exact, doubles round-trip to 6 significant digits. */
static void format_plain(const struct rs_cell *c, char *buf, size_t len)
{
	switch (c->type) {
	case RS_INT:
		snprintf(buf, len, "%" PRId64, c->i);
		return;
	case RS_DOUBLE:
		snprintf(buf, len, "%.*g", RS_PLAIN_DIGITS, c->d);
		return;
	case RS_TEXT:
		snprintf(buf, len, "%s", c->s);
		return;
	case RS_NULL:
		buf[0] = '\0';
		return;
	}
}

static void format_human(const struct rs_column *col, const struct rs_cell *c, char *buf,
			 size_t len)
{
	double v;

	if (c->type == RS_NULL) {
		snprintf(buf, len, "-");
		return;
	}
	if (c->type == RS_TEXT) {
		snprintf(buf, len, "%s", c->s);
		return;
	}
	v = num(c);
	switch (col->unit) {
	case RS_UNIT_NS:
		duration_format_approx(v, buf, len);
		return;
	case RS_UNIT_PERCENT:
		snprintf(buf, len, "%.1f", v);
		return;
	case RS_UNIT_FRACTION:
		snprintf(buf, len, "%.1f%%", v * 100.0);
		return;
	case RS_UNIT_COUNT:
		if (v >= 1e9)
			snprintf(buf, len, "%.1fG", v / 1e9);
		else if (v >= 1e6)
			snprintf(buf, len, "%.1fM", v / 1e6);
		else if (v >= 1e4)
			snprintf(buf, len, "%.1fk", v / 1e3);
		else if (c->type == RS_INT)
			snprintf(buf, len, "%" PRId64, c->i);
		else if (fabs(v) >= 100)
			snprintf(buf, len, "%.0f", v);   /* 1450, not 1.45e+03 */
		else
			snprintf(buf, len, "%.3g", v);
		return;
	case RS_UNIT_NONE:
		format_plain(c, buf, len);
		return;
	}
}

void rs_format_number(enum rs_unit unit, double v, char *buf, size_t len)
{
	struct rs_column col = { .unit = unit };
	struct rs_cell c = { .type = RS_DOUBLE, .d = v };

	format_human(&col, &c, buf, len);
}

void rowset_format_cell(const struct rowset *rs, size_t row, int col, char *buf, size_t len)
{
	format_human(&rs->cols[col], cell(rs, row, col), buf, len);
}

static bool is_text_column(const struct rowset *rs, size_t col, size_t rows)
{
	size_t r;

	for (r = 0; r < rows; r++)
		if (cell(rs, r, (int)col)->type == RS_TEXT)
			return true;
	return false;
}

/* What the table shows in row r (0: the titles, then the rows) of column
 * c, into buf: valid UTF-8, control characters as '?' so a name cannot
 * move the cursor or retitle the terminal.  Returns its characters. */
static size_t table_text(const struct rowset *rs, size_t r, size_t c, char *buf, size_t len)
{
	char raw[RS_TABLE_CELL_MAX];

	if (r == 0)
		snprintf(raw, sizeof(raw), "%s", rs->cols[c].title);
	else
		format_human(&rs->cols[c], cell(rs, r - 1, (int)c), raw, sizeof(raw));
	return utf8_sanitize(buf, len, raw, UTF8_CONTROLS_VISIBLE);
}

/* Each column's width in characters: its widest cell, cut to a maximum. */
static void table_widths(const struct rowset *rs, size_t rows, size_t last, size_t *width,
			 bool *left)
{
	char buf[RS_TABLE_CELL_MAX];
	size_t c, r, n;

	for (c = 0; c < rs->n_cols; c++) {
		width[c] = 0;
		left[c] = is_text_column(rs, c, rows);
		for (r = 0; r <= rows; r++) {
			n = table_text(rs, r, c, buf, sizeof(buf));
			if (n > width[c])
				width[c] = n;
		}
		/* Long text (a command line) is cut, the last column less so. */
		if (width[c] > RS_TABLE_MAX_WIDTH)
			width[c] = c < last ? RS_TABLE_MAX_WIDTH : 2 * RS_TABLE_MAX_WIDTH;
	}
}

size_t rowset_table_width(const struct rowset *rs, size_t col)
{
	char buf[RS_TABLE_CELL_MAX];
	size_t r, width = 0;

	for (r = 0; r <= rs->n_rows; r++) {
		size_t n = table_text(rs, r, col, buf, sizeof(buf));
		if (n > width)
			width = n;
	}
	return width > RS_TABLE_MAX_WIDTH ? RS_TABLE_MAX_WIDTH : width;
}

/* A last column of text cut to what max_width leaves it (at least a few
 * characters: a table wider than the terminal is its caller's to fit). */
static void fit_last(const struct rowset *rs, size_t last, size_t max_width, size_t *width,
		     const bool *left)
{
	size_t c, used = 0;

	if (max_width == 0 || !left[last])
		return;
	for (c = 0; c < last; c++)
		if (!rs->cols[c].table_hidden)
			used += width[c] + 2;
	if (used + width[last] > max_width)
		width[last] = used + 8 < max_width ? max_width - used : 8;
}

/* The colour of a share: red from half, yellow from a fifth, else none. */
static const char *share_color(const struct rs_column *col, const struct rs_cell *c)
{
	double v;

	if (col->unit != RS_UNIT_FRACTION || (c->type != RS_DOUBLE && c->type != RS_INT))
		return NULL;
	v = c->type == RS_DOUBLE ? c->d : (double)c->i;
	return v >= 0.5 ? "\033[1;31m" : v >= 0.2 ? "\033[33m" : NULL;
}

/* Row r of the table (0: the titles, then rs's row r - 1). */
static void print_table_row(const struct rowset *rs, size_t r, size_t last,
			    const size_t *width, const bool *left, bool color, FILE *f)
{
	char buf[RS_TABLE_CELL_MAX];
	bool first = true;
	size_t c, n, pad;

	for (c = 0; c < rs->n_cols; c++) {
		const char *on = NULL;

		if (rs->cols[c].table_hidden)
			continue;
		n = table_text(rs, r, c, buf, sizeof(buf));
		if (n > width[c]) {
			buf[utf8_prefix_bytes(buf, width[c])] = '\0';
			n = width[c];
		}
		pad = width[c] - n;
		/* No padding after the last column: no trailing blanks. */
		if (c == last && left[c])
			pad = 0;
		if (color && r > 0)
			on = share_color(&rs->cols[c], cell(rs, r - 1, (int)c));
		fprintf(f, "%s%*s%s%s%s%*s", first ? "" : "  ", left[c] ? 0 : (int)pad, "",
			on ? on : "", buf, on ? "\033[0m" : "", left[c] ? (int)pad : 0, "");
		first = false;
	}
	fputc('\n', f);
}

/* Widen each column to what it was in earlier frames, and remember. */
static void keep_widths(const struct rowset *rs, size_t *width, struct rs_widths *kept)
{
	size_t c, k;

	for (c = 0; c < rs->n_cols; c++) {
		for (k = 0; k < kept->n && strcmp(kept->name[k], rs->cols[c].name) != 0; k++)
			;
		if (k == kept->n) {
			if (kept->n == RS_WIDTHS_MAX)
				continue;
			snprintf(kept->name[k], sizeof(kept->name[k]), "%s", rs->cols[c].name);
			kept->width[k] = 0;
			kept->n++;
		}
		if (kept->width[k] > width[c])
			width[c] = kept->width[k];
		kept->width[k] = width[c];
	}
}

void rowset_print_table(const struct rowset *rs, const struct rs_table_style *st, FILE *f)
{
	size_t *width = calloc(rs->n_cols ? rs->n_cols : 1, sizeof(*width));
	bool *left = calloc(rs->n_cols ? rs->n_cols : 1, sizeof(*left));
	size_t c, r, last = 0, end;

	if (width == NULL || left == NULL) {
		free(width);
		free(left);
		return;
	}
	for (c = 0; c < rs->n_cols; c++)
		if (!rs->cols[c].table_hidden)
			last = c;
	/* every row, shown or scrolled past: scrolling does not resize */
	table_widths(rs, rs->n_rows, last, width, left);
	if (st->widths != NULL)
		keep_widths(rs, width, st->widths);
	fit_last(rs, last, st->max_width, width, left);
	print_table_row(rs, 0, last, width, left, st->color, f);
	end = st->rows == 0 || st->first_row + st->rows > rs->n_rows ? rs->n_rows :
	      st->first_row + st->rows;
	for (r = st->first_row; r < end; r++)
		print_table_row(rs, r + 1, last, width, left, st->color, f);
	free(width);
	free(left);
}

static void print_table(const struct rowset *rs, size_t rows, FILE *f)
{
	size_t *width = calloc(rs->n_cols ? rs->n_cols : 1, sizeof(*width));
	bool *left = calloc(rs->n_cols ? rs->n_cols : 1, sizeof(*left));
	size_t c, r, last = 0;

	if (width == NULL || left == NULL) {
		free(width);
		free(left);
		return;
	}
	for (c = 0; c < rs->n_cols; c++)
		if (!rs->cols[c].table_hidden)
			last = c;
	table_widths(rs, rows, last, width, left);
	for (r = 0; r <= rows; r++)
		print_table_row(rs, r, last, width, left, false, f);
	free(width);
	free(left);
}

static void json_row(const struct rowset *rs, size_t r, struct jsonw *w)
{
	size_t c;

	jsonw_object_begin(w);
	for (c = 0; c < rs->n_cols; c++) {
		const struct rs_cell *x = cell(rs, r, (int)c);

		jsonw_key(w, rs->cols[c].name);
		switch (x->type) {
		case RS_TEXT:
			jsonw_string(w, x->s);
			break;
		case RS_INT:
			jsonw_int(w, x->i);
			break;
		case RS_DOUBLE:
			jsonw_double_g(w, x->d, RS_PLAIN_DIGITS);
			break;
		case RS_NULL:
			jsonw_null(w);
			break;
		}
	}
	jsonw_object_end(w);
}

/* A field starting with one of these is a formula to a spreadsheet
 * (=HYPERLINK(...), +cmd|...): OWASP's advice against CSV injection is a
 * leading apostrophe, inside quotes.  Text fields only: numbers are
 * written as numbers, a negative one included. */
static bool csv_formula_start(const char *s)
{
	return s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;
}

/* A CSV field, quoted when it must be, as valid UTF-8.  data: a value (not
 * a column name), made safe for spreadsheets; terminal: controls shown as
 * '?' (as tables show them), so another user's process name cannot send
 * escape sequences to the reader's terminal. */
static void csv_field(FILE *f, const char *s, bool data, bool terminal)
{
	bool formula = data && csv_formula_start(s);
	bool quote = formula || strpbrk(s, ",\"\n\r") != NULL;
	size_t n;

	if (quote)
		fputc('"', f);
	if (formula)
		fputc('\'', f);
	while (*s != '\0') {
		/* printable ASCII but '"' goes out as it is, a run at a time:
		 * an export writes millions of fields */
		size_t run = 0;
		int32_t cp;

		while ((unsigned char)s[run] >= 0x20 && (unsigned char)s[run] < 0x7f && s[run] != '"')
			run++;
		if (run > 0) {
			fwrite(s, 1, run, f);
			s += run;
			continue;
		}
		cp = utf8_decode(s, &n);
		if (cp < 0) {
			fputs(UTF8_REPLACEMENT, f);
		} else if (terminal && utf8_is_control(cp)) {
			fputc('?', f);
		} else {
			if (*s == '"')
				fputc('"', f);
			fwrite(s, 1, n, f);
		}
		s += n;
	}
	if (quote)
		fputc('"', f);
}

/* v in decimal into f: what "%" PRId64 prints, without printf's parsing
 * of its format for each of an export's millions of numbers. */
static void csv_int(FILE *f, int64_t v)
{
	char buf[24];
	char *p = buf + sizeof(buf);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

static void csv_row(const struct rowset *rs, size_t r, FILE *f, bool terminal)
{
	char buf[64];
	size_t c;

	for (c = 0; c < rs->n_cols; c++) {
		const struct rs_cell *x = cell(rs, r, (int)c);

		if (c)
			fputc(',', f);
		if (x->type == RS_TEXT) {
			csv_field(f, x->s, true, terminal);
		} else if (x->type == RS_INT) {
			csv_int(f, x->i);
		} else {
			format_plain(x, buf, sizeof(buf));
			fputs(buf, f);
		}
	}
	fputc('\n', f);
}

void rowset_stream_begin(struct rs_stream *s, enum rs_format fmt, FILE *f)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->fmt = fmt;
	s->terminal = isatty(fileno(f)) == 1;
	if (fmt == RS_JSON) {
		jsonw_init(&s->own, f);
		jsonw_array_begin(&s->own);
	}
}

/* The stream as a JSON array in w's document. */
static void stream_begin_json(struct rs_stream *s, struct jsonw *w)
{
	memset(s, 0, sizeof(*s));
	s->f = w->f;
	s->fmt = RS_JSON;
	s->json = w;
	jsonw_array_begin(w);
}

static struct jsonw *stream_json(struct rs_stream *s)
{
	return s->json != NULL ? s->json : &s->own;
}

void rowset_stream_rows(struct rs_stream *s, const struct rowset *rs, size_t limit)
{
	size_t rows = limit != 0 && limit < rs->n_rows ? limit : rs->n_rows, r;

	if (s->fmt == RS_CSV && !s->header_done) {
		for (size_t c = 0; c < rs->n_cols; c++) {
			if (c)
				fputc(',', s->f);
			csv_field(s->f, rs->cols[c].name, false, s->terminal);
		}
		fputc('\n', s->f);
		s->header_done = true;
	}
	for (r = 0; r < rows; r++, s->rows++) {
		if (s->fmt == RS_JSON) {
			jsonw_break(stream_json(s), 2);
			json_row(rs, r, stream_json(s));
		} else {
			csv_row(rs, r, s->f, s->terminal);
		}
	}
}

void rowset_stream_end(struct rs_stream *s)
{
	struct jsonw *w = stream_json(s);

	if (s->fmt != RS_JSON)
		return;
	/* One row a line, the closing bracket on its own and a line break
	 * after it (the end of the document, or before what follows). */
	if (s->rows)
		jsonw_break(w, 0);
	jsonw_array_end(w);
	jsonw_break(w, 0);
}

void rowset_print(const struct rowset *rs, enum rs_format fmt, size_t limit, FILE *f)
{
	struct rs_stream s;

	if (fmt == RS_TABLE) {
		print_table(rs, limit != 0 && limit < rs->n_rows ? limit : rs->n_rows, f);
		return;
	}
	rowset_stream_begin(&s, fmt, f);
	rowset_stream_rows(&s, rs, limit);
	rowset_stream_end(&s);
}

void rowset_print_json(const struct rowset *rs, size_t limit, struct jsonw *w)
{
	struct rs_stream s;

	stream_begin_json(&s, w);
	rowset_stream_rows(&s, rs, limit);
	rowset_stream_end(&s);
}

void rowset_print_columns_json(const struct rowset *rs, struct jsonw *w)
{
	size_t c;

	jsonw_array_begin(w);
	for (c = 0; c < rs->n_cols; c++) {
		const struct rs_column *col = &rs->cols[c];

		jsonw_break(w, 2);
		jsonw_object_begin(w);
		jsonw_field_string(w, "name", col->name);
		jsonw_field_string(w, "title", col->title);
		jsonw_field_string(w, "unit", rs_unit_name(col->unit));
		jsonw_field_bool(w, "metric", col->metric);
		jsonw_field_string(w, "stack", col->stack);
		jsonw_field_string(w, "parent", col->parent);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}
