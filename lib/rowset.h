/*
 * rowset.h - rows of typed cells and the one printer that renders them as a
 * table for people, JSON for scripts or CSV for spreadsheets, so the three
 * outputs cannot drift apart.  JSON keys and CSV headers are the column
 * names (the database column a value comes from, where there is one); the
 * table uses a short title and human units.
 */
#ifndef STACKD_ROWSET_H
#define STACKD_ROWSET_H

#include "lib/jsonw.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum rs_type { RS_NULL, RS_INT, RS_DOUBLE, RS_TEXT };

enum rs_unit {
	RS_UNIT_NONE,
	RS_UNIT_NS,        /* table shows 12.3ms, 4.56s */
	RS_UNIT_PERCENT,   /* value already in percent; table adds no sign */
	RS_UNIT_FRACTION,  /* 0..1; table shows it as a percentage */
	RS_UNIT_COUNT,     /* table shows 12.3k, 4.5M */
};

enum rs_format { RS_TABLE, RS_JSON, RS_CSV };

struct rs_column {
	char name[64];     /* JSON key, CSV header */
	char title[32];    /* table header */
	enum rs_unit unit;
	bool table_hidden; /* JSON and CSV only: the table stays narrow */
	/* For a model metric: its stack ("topdown", "flops", "cpi") and tree
	 * parent, "" when none; lets a reader pick a family's columns. */
	char stack[32];
	char parent[32];
	bool metric;       /* a model metric (set with rowset_set_tree) */
};

struct rs_cell {
	enum rs_type type;
	int64_t i;
	double d;
	char *s;
};

struct rowset {
	struct rs_column *cols;
	size_t n_cols, cap_cols;
	struct rs_cell *cells;   /* n_rows * n_cols, row-major */
	size_t n_rows, cap_rows;
};

void rowset_init(struct rowset *rs);
void rowset_done(struct rowset *rs);
/* Drop the rows, keep the columns and the room (a stream printed them). */
void rowset_clear_rows(struct rowset *rs);

/* Columns must all be added before the first row.  Return the column index
 * or -ENOMEM. */
int rowset_add_column(struct rowset *rs, const char *name, const char *title, enum rs_unit unit);
int rowset_find_column(const struct rowset *rs, const char *name);   /* -1 if none */
void rowset_hide_in_table(struct rowset *rs, int col);
void rowset_set_tree(struct rowset *rs, int col, const char *stack, const char *parent);

/* "none", "ns", "percent", "fraction", "count"; parse returns -EINVAL for
 * anything else. */
const char *rs_unit_name(enum rs_unit u);
int rs_unit_parse(const char *name, enum rs_unit *ret);

/* A new row of NULL cells; returns its index or -ENOMEM. */
int rowset_add_row(struct rowset *rs);
void rowset_set_int(struct rowset *rs, size_t row, int col, int64_t v);
void rowset_set_double(struct rowset *rs, size_t row, int col, double v);
int rowset_set_text(struct rowset *rs, size_t row, int col, const char *v);  /* copies */

/* Sort by a column: numbers biggest first, text alphabetically; NULLs last. */
void rowset_sort(struct rowset *rs, int col);
/* That order for two cells: < 0 when x comes first. */
int rowset_cell_compare(const struct rs_cell *x, const struct rs_cell *y);

/* Print at most limit rows (0: all). */
void rowset_print(const struct rowset *rs, enum rs_format fmt, size_t limit, FILE *f);

/* Widths a live view keeps from frame to frame, by column name, so a
 * column never narrows and the table does not jump as values change. */
#define RS_WIDTHS_MAX 128
struct rs_widths {
	char name[RS_WIDTHS_MAX][64];
	size_t width[RS_WIDTHS_MAX];
	size_t n;
};

/* How a table is drawn on a terminal. */
struct rs_table_style {
	size_t first_row;          /* rows scrolled past */
	size_t rows;               /* at most this many after them; 0: all */
	bool color;                /* shares (fractions) coloured by size */
	struct rs_widths *widths;  /* NULL, or widths kept across frames */
	/* The terminal's columns (0: no limit): a last column of text (a
	 * command line) is cut so that every line fits. */
	size_t max_width;
};

/* The characters the table gives column col: its widest cell or title,
 * cut to a maximum (a last column of text may be cut further). */
size_t rowset_table_width(const struct rowset *rs, size_t col);

/* The table of rs as style says (the title line always). */
void rowset_print_table(const struct rowset *rs, const struct rs_table_style *style, FILE *f);

/* The rows as a JSON array, a value in w's document (an API answer). */
void rowset_print_json(const struct rowset *rs, size_t limit, struct jsonw *w);

/* JSON or CSV of several rowsets with the same columns (pages of an
 * export) as one document: one JSON array, one CSV header. */
struct rs_stream {
	FILE *f;
	enum rs_format fmt;   /* RS_JSON or RS_CSV */
	struct jsonw *json;   /* RS_JSON: the writer, NULL: own */
	struct jsonw own;     /* the document when the stream is one */
	size_t rows;          /* printed so far */
	bool header_done;
	bool terminal;        /* f is a terminal: CSV fields lose their controls */
};

void rowset_stream_begin(struct rs_stream *s, enum rs_format fmt, FILE *f);
void rowset_stream_rows(struct rs_stream *s, const struct rowset *rs, size_t limit);
void rowset_stream_end(struct rs_stream *s);

/* The columns as a JSON array of {"name", "title", "unit", "metric",
 * "stack", "parent"}: what a reader of the rows needs to print them as we do. */
void rowset_print_columns_json(const struct rowset *rs, struct jsonw *w);

/* A cell as the table shows it ("12.3%", "4.56s", "-"), into buf. */
void rowset_format_cell(const struct rowset *rs, size_t row, int col, char *buf, size_t len);

/* A number as the table shows one of that unit. */
void rs_format_number(enum rs_unit unit, double v, char *buf, size_t len);

#endif
