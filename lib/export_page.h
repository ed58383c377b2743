/*
 * export_page.h - one page of the stored sample rows as GET /api/v1/export
 * reads it: the query string's window, target, cursor and size, the rows
 * as a rowset (rowset.h) with their columns.  The API prints the page as
 * JSON rows or as a CSV body (format=csv); `stackctl export --db` reads the very
 * same page from the file and prints it with the very same printer, so
 * the CLI and the API cannot drift, and neither goes through JSON to get
 * the other's rows.
 */
#ifndef STACKD_EXPORT_PAGE_H
#define STACKD_EXPORT_PAGE_H

#include "lib/api.h"
#include "lib/rowset.h"

#include <stdbool.h>
#include <stdint.h>

/* A CSV page's header fields (format=csv): its row count, and the next
 * page's cursor (absent on the last page), as "after" takes it. */
#define EXPORT_HEADER_ROWS "Stackd-Rows"
#define EXPORT_HEADER_NEXT "Stackd-Next"

struct export_page {
	struct rowset rs;           /* the rows, or (out given) the latest few */
	size_t n_rows;              /* on the page */
	uint64_t from_ns, to_ns;
	char next[96];              /* the next page's cursor; "" on the last page */
	/* internal */
	struct rs_stream *out;
	int first_event_col;
	struct export_cursor last;
};

/* The page query ("from=10m&limit=1000&after=...&format=csv", NULL: the
 * defaults) asks of db, for who acc says.  out NULL: the rows into p->rs;
 * else printed into out as they are read, a few at a time (a page's rows
 * are never all held), p->rs keeping the columns.  Returns 0, an HTTP
 * status (400, 500, 503) with err said, or -ENOMEM; export_page_done(p)
 * in every case. */
int export_page_read(struct db *db, const struct api_access *acc, const char *query,
		     struct rs_stream *out, struct export_page *p, char *err, size_t errlen);
void export_page_done(struct export_page *p);

#endif
