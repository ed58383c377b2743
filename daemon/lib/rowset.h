/*
 * rowset.h - rows of typed cells and the one printer that renders them as a
 * table for people, JSON for scripts or CSV for spreadsheets, so the three
 * outputs cannot drift apart.  JSON keys and CSV headers are the column
 * names (the database column a value comes from, where there is one); the
 * table uses a short title and human units.
 */
#ifndef STACKD_ROWSET_H
#define STACKD_ROWSET_H

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

/* Columns must all be added before the first row.  Return the column index
 * or -ENOMEM. */
int rowset_add_column(struct rowset *rs, const char *name, const char *title, enum rs_unit unit);
int rowset_find_column(const struct rowset *rs, const char *name);   /* -1 if none */
void rowset_hide_in_table(struct rowset *rs, int col);

/* A new row of NULL cells; returns its index or -ENOMEM. */
int rowset_add_row(struct rowset *rs);
void rowset_set_int(struct rowset *rs, size_t row, int col, int64_t v);
void rowset_set_double(struct rowset *rs, size_t row, int col, double v);
int rowset_set_text(struct rowset *rs, size_t row, int col, const char *v);  /* copies */

/* Sort by a column: numbers biggest first, text alphabetically; NULLs last. */
void rowset_sort(struct rowset *rs, int col);

/* Print at most limit rows (0: all). */
void rowset_print(const struct rowset *rs, enum rs_format fmt, size_t limit, FILE *f);

/* Write s as a JSON string literal, quotes included. */
void json_print_string(FILE *f, const char *s);

#endif
