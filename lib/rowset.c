/*
 * rowset.c - see rowset.h.
 */
#include "rowset.h"
#include "duration.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RS_TABLE_MAX_WIDTH 40   /* characters of one column, but the last */

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

static int cmp_rows(const void *a, const void *b, void *arg)
{
	int col = *(const int *)arg;
	const struct rs_cell *x = (const struct rs_cell *)a + col;
	const struct rs_cell *y = (const struct rs_cell *)b + col;

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

void rowset_sort(struct rowset *rs, int col)
{
	/* Rows are contiguous cell arrays, so qsort can move whole rows. */
	if (col < 0 || (size_t)col >= rs->n_cols || rs->n_rows < 2)
		return;
	/* qsort_r, not a global: the HTTP server sorts from several threads. */
	qsort_r(rs->cells, rs->n_rows, rs->n_cols * sizeof(*rs->cells), cmp_rows, &col);
}

void json_print_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p != '\0') {
		const unsigned char *run = p;

		/* Copy runs of plain characters in one write: exports print
		 * millions of strings. */
		while (*p >= 0x20 && *p != '"' && *p != '\\' && *p != 0x7f)
			p++;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		if (*p == '\0')
			break;
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			fprintf(f, "\\u%04x", *p);
		}
		p++;
	}
	fputc('"', f);
}

/* Plain machine form: integers exact, doubles round-trip to 6 significant digits. */
static void format_plain(const struct rs_cell *c, char *buf, size_t len)
{
	switch (c->type) {
	case RS_INT:
		snprintf(buf, len, "%" PRId64, c->i);
		return;
	case RS_DOUBLE:
		snprintf(buf, len, "%.6g", c->d);
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

static void print_table(const struct rowset *rs, size_t rows, FILE *f)
{
	size_t *width = calloc(rs->n_cols ? rs->n_cols : 1, sizeof(*width));
	bool *left = calloc(rs->n_cols ? rs->n_cols : 1, sizeof(*left));
	char buf[256];
	size_t c, r, last = 0;

	if (width == NULL || left == NULL) {
		free(width);
		free(left);
		return;
	}
	for (c = 0; c < rs->n_cols; c++)
		if (!rs->cols[c].table_hidden)
			last = c;
	for (c = 0; c < rs->n_cols; c++) {
		width[c] = strlen(rs->cols[c].title);
		left[c] = is_text_column(rs, c, rows);
		for (r = 0; r < rows; r++) {
			format_human(&rs->cols[c], cell(rs, r, (int)c), buf, sizeof(buf));
			if (strlen(buf) > width[c])
				width[c] = strlen(buf);
		}
		/* Long text (a command line) is cut, the last column less so. */
		if (width[c] > RS_TABLE_MAX_WIDTH)
			width[c] = c < last ? RS_TABLE_MAX_WIDTH : 2 * RS_TABLE_MAX_WIDTH;
	}
	for (r = 0; r <= rows; r++) {
		bool first = true;

		for (c = 0; c < rs->n_cols; c++) {
			const char *text = rs->cols[c].title;
			int w = (int)width[c];

			if (rs->cols[c].table_hidden)
				continue;
			if (r > 0) {
				format_human(&rs->cols[c], cell(rs, r - 1, (int)c), buf, sizeof(buf));
				if (strlen(buf) > width[c])
					buf[width[c]] = '\0';
				text = buf;
			}
			/* No padding after the last column: no trailing blanks. */
			if (c == last && left[c])
				w = 0;
			fprintf(f, "%s%*s", first ? "" : "  ", left[c] ? -w : w, text);
			first = false;
		}
		fputc('\n', f);
	}
	free(width);
	free(left);
}

static void json_row(const struct rowset *rs, size_t r, FILE *f)
{
	char buf[64];
	size_t c;

	fputc('{', f);
	for (c = 0; c < rs->n_cols; c++) {
		const struct rs_cell *x = cell(rs, r, (int)c);

		if (c)
			fputs(", ", f);
		json_print_string(f, rs->cols[c].name);
		fputs(": ", f);
		if (x->type == RS_TEXT) {
			json_print_string(f, x->s);
		} else if (x->type == RS_NULL) {
			fputs("null", f);
		} else {
			format_plain(x, buf, sizeof(buf));
			fputs(buf, f);
		}
	}
	fputc('}', f);
}

static void csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_row(const struct rowset *rs, size_t r, FILE *f)
{
	char buf[64];
	size_t c;

	for (c = 0; c < rs->n_cols; c++) {
		const struct rs_cell *x = cell(rs, r, (int)c);

		if (c)
			fputc(',', f);
		if (x->type == RS_TEXT) {
			csv_field(f, x->s);
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
	if (fmt == RS_JSON)
		fputc('[', f);
}

void rowset_stream_rows(struct rs_stream *s, const struct rowset *rs, size_t limit)
{
	size_t rows = limit != 0 && limit < rs->n_rows ? limit : rs->n_rows, r;

	if (s->fmt == RS_CSV && !s->header_done) {
		for (size_t c = 0; c < rs->n_cols; c++) {
			if (c)
				fputc(',', s->f);
			csv_field(s->f, rs->cols[c].name);
		}
		fputc('\n', s->f);
		s->header_done = true;
	}
	for (r = 0; r < rows; r++, s->rows++) {
		if (s->fmt == RS_JSON) {
			fputs(s->rows ? ",\n  " : "\n  ", s->f);
			json_row(rs, r, s->f);
		} else {
			csv_row(rs, r, s->f);
		}
	}
}

void rowset_stream_end(struct rs_stream *s)
{
	if (s->fmt == RS_JSON)
		fputs(s->rows ? "\n]\n" : "]\n", s->f);
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

void rowset_print_columns_json(const struct rowset *rs, FILE *f)
{
	size_t c;

	fputc('[', f);
	for (c = 0; c < rs->n_cols; c++) {
		const struct rs_column *col = &rs->cols[c];

		fputs(c ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
		json_print_string(f, col->name);
		fputs(", \"title\": ", f);
		json_print_string(f, col->title);
		fprintf(f, ", \"unit\": \"%s\", \"metric\": %s, \"stack\": ", rs_unit_name(col->unit),
			col->metric ? "true" : "false");
		json_print_string(f, col->stack);
		fputs(", \"parent\": ", f);
		json_print_string(f, col->parent);
		fputc('}', f);
	}
	fputs("]", f);
}
