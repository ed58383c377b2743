/*
 * json_rowset.c - see json_rowset.h.
 */
#include "cli/json_rowset.h"

#include <errno.h>
#include <stdio.h>

static int load_columns(const json_t *columns, struct rowset *rs, char *err, size_t errlen)
{
	const json_t *c;
	size_t i;

	json_array_foreach(columns, i, c) {
		const char *name = json_string_value(json_object_get(c, "name"));
		const char *title = json_string_value(json_object_get(c, "title"));
		const char *unit = json_string_value(json_object_get(c, "unit"));
		enum rs_unit u = RS_UNIT_NONE;
		int col;

		if (name == NULL || (unit != NULL && rs_unit_parse(unit, &u) < 0)) {
			snprintf(err, errlen, "column %zu of the answer has no name or an unknown unit",
				 i);
			return -EPROTO;
		}
		col = rowset_add_column(rs, name, title, u);
		if (col < 0)
			return -ENOMEM;
		if (json_is_true(json_object_get(c, "metric")))
			rowset_set_tree(rs, col, json_string_value(json_object_get(c, "stack")),
					json_string_value(json_object_get(c, "parent")));
	}
	return 0;
}

static int load_cell(struct rowset *rs, size_t row, int col, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_INTEGER:
		rowset_set_int(rs, row, col, (int64_t)json_integer_value(v));
		return 0;
	case JSON_REAL:
		rowset_set_double(rs, row, col, json_real_value(v));
		return 0;
	case JSON_STRING:
		return rowset_set_text(rs, row, col, json_string_value(v));
	case JSON_TRUE:
	case JSON_FALSE:
		rowset_set_int(rs, row, col, json_is_true(v));
		return 0;
	default:
		return 0;   /* null: the cell stays empty */
	}
}

int json_rowset_load(const json_t *columns, const json_t *rows, struct rowset *rs, char *err,
		     size_t errlen)
{
	const json_t *r;
	size_t i;
	int ret;

	if (!json_is_array(columns) || !json_is_array(rows)) {
		snprintf(err, errlen, "the answer has no \"columns\" and \"rows\" arrays");
		return -EPROTO;
	}
	ret = load_columns(columns, rs, err, errlen);
	json_array_foreach(rows, i, r) {
		int row;
		size_t c;

		if (ret < 0)
			break;
		row = rowset_add_row(rs);
		if (row < 0)
			return -ENOMEM;
		for (c = 0; ret == 0 && c < rs->n_cols; c++) {
			const json_t *v = json_object_get(r, rs->cols[c].name);

			if (v != NULL)
				ret = load_cell(rs, (size_t)row, (int)c, v);
		}
	}
	return ret;
}
