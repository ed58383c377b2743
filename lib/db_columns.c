/*
 * db_columns.c - see db_columns.h.
 */
#include "lib/db_columns.h"
#include "lib/db.h"

#include <stdio.h>

/* item for column i at buf[*used], or -1 when it does not fit. */
static int put_item(char *buf, size_t len, size_t *used, const char *item, int i,
		    int first_param)
{
	for (const char *c = item; *c != '\0'; c++) {
		int n;

		if (*c == '@')
			n = snprintf(buf + *used, len - *used, "v%d", i);
		else if (*c == '#')
			n = snprintf(buf + *used, len - *used, "?%d", first_param + i);
		else
			n = snprintf(buf + *used, len - *used, "%c", *c);
		if (n < 0 || (size_t)n >= len - *used)
			return -1;
		*used += (size_t)n;
	}
	return 0;
}

int db_value_list(char *buf, size_t len, const char *item, int first_param)
{
	size_t used = 0;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	for (int i = 0; i < STACKD_SAMPLE_VALUES; i++) {
		if ((i > 0 && put_item(buf, len, &used, ", ", 0, 0) < 0) ||
		    put_item(buf, len, &used, item, i, first_param) < 0) {
			buf[0] = '\0';
			return -1;
		}
	}
	return (int)used;
}
