/*
 * db_columns.h - the sample table's value columns (v0 .. v15) written out
 * for SQL, from the one count STACKD_SAMPLE_VALUES, so that no statement
 * lists them by hand and none can fall behind the schema.
 */
#ifndef STACKD_DB_COLUMNS_H
#define STACKD_DB_COLUMNS_H

#include <stddef.h>

/* Room for any list db_value_list writes with a template of up to 48
 * bytes: 16 items of the template with its names filled in, and ", ". */
#define DB_VALUE_LIST_MAX 1280

/* One item per value column, joined by ", ": each '@' of item is replaced
 * by the column's name (v0 .. v15) and each '#' by the SQL parameter
 * ?(first_param + i) for column i.  E.g. "sum(s.@)" gives "sum(s.v0),
 * sum(s.v1), ..."; "@ = @ + excluded.@" the upsert's sums.  Returns the
 * list's length, or -1 (buf holds "") when it does not fit in len. */
int db_value_list(char *buf, size_t len, const char *item, int first_param);

#endif
