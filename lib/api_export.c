/*
 * api_export.c - GET /api/v1/export: the stored sample rows themselves,
 * for notebooks, one page at a time.  A row is one counter group's counts
 * for one process over one interval; its counts go to columns named as
 * the events (every event any stored group has: empty where the row's
 * group did not count it).  "next" resumes after the page's last row; a
 * CSV page (format=csv) is the CSV itself, its cursor in a header field.
 * The page itself is export_page_read's (export_page.h), which `stackctl
 * export --db` calls too.
 */
#include "lib/api_endpoints.h"
#include "lib/export_page.h"
#include "lib/rowset.h"

#include <errno.h>
#include <stdio_ext.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT_DEFAULT_ROWS 10000
/* Rows held before a stream prints them: few enough to stay in the cache */
#define EXPORT_STREAM_ROWS 256
#define EXPORT_MAX_COLUMNS 256

static const char *const fixed_columns[] = {
	"interval_start_ns", "interval_end_ns", "pid", "start_ns", "comm", "uid", "unit",
	"model", "group", "task_clock_ns", "context_switches",
	"rollup_s",   /* 0: a raw interval; 60, 3600, 86400: the sums of a minute, hour, day */
	"interval_periodic_ns",   /* of the interval's CPU time, how much was sampled
				   * periodically (statistical), not at every switch */
};
#define N_FIXED (sizeof(fixed_columns) / sizeof(fixed_columns[0]))

static const char *const page_keys[] = { "from", "to", "who", "after", "limit", "format", NULL };

static int add_row(const struct export_row *row, void *arg)
{
	struct export_page *p = arg;
	struct rowset *rs = &p->rs;
	int r = rowset_add_row(rs);
	size_t i;
	unsigned k;

	if (r < 0)
		return r;
	i = (size_t)r;
	rowset_set_int(rs, i, 0, (int64_t)row->interval_start_ns);
	rowset_set_int(rs, i, 1, (int64_t)row->interval_end_ns);
	rowset_set_int(rs, i, 2, row->pid);
	rowset_set_int(rs, i, 3, (int64_t)row->start_ns);
	if (row->uid >= 0)
		rowset_set_int(rs, i, 5, row->uid);
	rowset_set_int(rs, i, 9, (int64_t)row->task_clock_ns);
	rowset_set_int(rs, i, 10, (int64_t)row->context_switches);
	rowset_set_int(rs, i, 11, row->rollup_s);
	rowset_set_int(rs, i, 12, (int64_t)row->interval_periodic_ns);
	if (rowset_set_text(rs, i, 4, row->comm) < 0 || rowset_set_text(rs, i, 6, row->unit) < 0 ||
	    rowset_set_text(rs, i, 7, row->model) < 0 || rowset_set_text(rs, i, 8, row->group) < 0)
		return -ENOMEM;
	for (k = 0; k < row->n_values; k++) {
		int col = rowset_find_column(rs, row->columns[k]);

		if (col >= p->first_event_col)
			rowset_set_int(rs, i, col, (int64_t)row->v[k]);
	}
	p->last = row->key;
	p->n_rows++;
	if (p->out != NULL && rs->n_rows == EXPORT_STREAM_ROWS) {
		rowset_stream_rows(p->out, rs, 0);
		rowset_clear_rows(rs);
	}
	return 0;
}

static int parse_cursor(const char *text, struct export_cursor *c)
{
	char tail;

	if (text == NULL)
		return 0;
	if (sscanf(text, "%" SCNd64 ".%" SCNd64 ".%" SCNd64 "%c", &c->interval_id, &c->process_id,
		   &c->group_id, &tail) != 3 || c->interval_id < 0 || c->process_id < 0 ||
	    c->group_id < 0)
		return -EINVAL;
	return 0;
}

static int build_columns(struct db *db, struct export_page *p)
{
	char (*names)[64] = calloc(EXPORT_MAX_COLUMNS, sizeof(*names));
	int n, i, r = 0;
	size_t c;

	if (names == NULL)
		return -ENOMEM;
	n = query_event_columns(db, names, EXPORT_MAX_COLUMNS);
	for (c = 0; r >= 0 && c < N_FIXED; c++)
		r = rowset_add_column(&p->rs, fixed_columns[c], fixed_columns[c], RS_UNIT_NONE);
	p->first_event_col = (int)N_FIXED;
	for (i = 0; r >= 0 && i < n; i++)
		if (rowset_find_column(&p->rs, names[i]) < 0)
			r = rowset_add_column(&p->rs, names[i], names[i], RS_UNIT_COUNT);
	free(names);
	return n < 0 ? -EIO : r < 0 ? -ENOMEM : 0;
}

/* The query's parameters into p's window, target and cursor, and the page
 * read; 0, an HTTP status with err, or -ENOMEM. */
static int read_page(struct db *db, const struct api_access *acc, const struct http_query *q,
		     struct export_page *p, char *err, size_t errlen)
{
	uint64_t oldest, newest, limit = EXPORT_DEFAULT_ROWS;
	struct export_cursor after = { 0, 0, 0 };
	enum query_who who = WHO_PID;
	const char *what = NULL, *format = http_query_get(q, "format");
	int n;

	if (http_query_uint(q, "limit", API_MAX_EXPORT_ROWS, &limit, err, errlen) < 0)
		return 400;
	if (http_query_get(q, "who") != NULL &&
	    api_parse_who(http_query_get(q, "who"), &who, &what, err, errlen) < 0)
		return 400;
	if (parse_cursor(http_query_get(q, "after"), &after) < 0) {
		snprintf(err, errlen, "parameter 'after': '%s' is not a cursor from \"next\"",
			 http_query_get(q, "after"));
		return 400;
	}
	if (format != NULL && strcmp(format, "csv") != 0 && strcmp(format, "json") != 0) {
		snprintf(err, errlen, "parameter 'format': '%s' is not json or csv", format);
		return 400;
	}
	if (limit == 0)
		limit = EXPORT_DEFAULT_ROWS;
	if (query_span(db, &oldest, &newest) < 0) {
		snprintf(err, errlen, "no data yet: stackd has not stored an interval");
		return 503;
	}
	p->from_ns = newest > 3600 * NS_PER_SEC ? newest - 3600 * NS_PER_SEC : 0;
	p->to_ns = newest;
	if (api_parse_time(q, "from", newest, &p->from_ns, err, errlen) < 0 ||
	    api_parse_time(q, "to", newest, &p->to_ns, err, errlen) < 0)
		return 400;
	if (p->to_ns <= p->from_ns) {
		snprintf(err, errlen, "parameter 'from' must be before 'to'");
		return 400;
	}
	if (build_columns(db, p) < 0) {
		snprintf(err, errlen, "cannot read the counter groups");
		return 500;
	}
	n = query_export(db, p->from_ns, p->to_ns, who, what, acc->full ? -1 : acc->uid, &after,
			 limit, add_row, p, err, errlen);
	if (n < 0)
		return n == -ENOMEM ? -ENOMEM : 500;
	if (p->out != NULL)
		rowset_stream_rows(p->out, &p->rs, 0);   /* the last few, or the header */
	if ((uint64_t)n == limit)
		snprintf(p->next, sizeof(p->next), "%" PRId64 ".%" PRId64 ".%" PRId64,
			 p->last.interval_id, p->last.process_id, p->last.group_id);
	return 0;
}

int export_page_read(struct db *db, const struct api_access *acc, const char *query,
		     struct rs_stream *out, struct export_page *p, char *err, size_t errlen)
{
	struct http_query q;

	memset(p, 0, sizeof(*p));
	rowset_init(&p->rs);
	p->out = out;
	if (http_query_parse(query, page_keys, &q, err, errlen) < 0)
		return 400;
	return read_page(db, acc, &q, p, err, errlen);
}

void export_page_done(struct export_page *p)
{
	rowset_done(&p->rs);
}

/* The body being printed: a buffer that grows by realloc, which moves a
 * large block by remapping it (open_memstream copies it and zeroes the
 * new room at every growth: a fifth of a page's cost, measured). */
struct body {
	char *buf;
	size_t len, cap;
};

static ssize_t body_write(void *cookie, const char *data, size_t n)
{
	struct body *b = cookie;

	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1 << 20;
		char *more;

		while (b->len + n + 1 > cap)
			cap *= 2;
		more = realloc(b->buf, cap);
		if (more == NULL)
			return -1;   /* stdio's error flag: fclose fails */
		b->buf = more;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, data, n);
	b->len += n;
	return (ssize_t)n;
}

/* A CSV page (format=csv): the rows printed as they are read by the one
 * CSV printer (rowset.h) into the whole body, the header line first on
 * every page, the cursor in a header field.  No JSON around it: the
 * client copies the body through as it came.  0, an HTTP status with err,
 * or -ENOMEM. */
static int answer_csv(const struct api_request *rq, struct api_response *resp, char *err,
		      size_t errlen)
{
	static const cookie_io_functions_t io = { .write = body_write };
	struct body body = { NULL, 0, 0 };
	struct export_page page;
	struct rs_stream s;
	FILE *f = fopencookie(&body, "w", io);
	int r;

	if (f == NULL)
		return -ENOMEM;
	/* one thread writes it: stdio's lock per character is pure cost */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	rowset_stream_begin(&s, RS_CSV, f);
	r = export_page_read(rq->db, rq->acc, rq->query, &s, &page, err, errlen);
	rowset_stream_end(&s);
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r != 0) {
		free(body.buf);
		export_page_done(&page);
		return r;
	}
	resp->status = 200;
	resp->body = body.buf;   /* the header line at least */
	resp->len = body.len;
	resp->content_type = "text/csv; charset=utf-8";
	/* a page is asked for once, by the one exporter walking the cursor */
	resp->cacheable = false;
	resp->headers[0].name = EXPORT_HEADER_ROWS;
	snprintf(resp->headers[0].value, sizeof(resp->headers[0].value), "%zu", page.n_rows);
	if (page.next[0] != '\0') {
		resp->headers[1].name = EXPORT_HEADER_NEXT;
		snprintf(resp->headers[1].value, sizeof(resp->headers[1].value), "%s", page.next);
	}
	export_page_done(&page);
	return 0;
}

/* format=csv in the query string (as the page read will parse it). */
static bool wants_csv(const char *query)
{
	struct http_query q;
	const char *format;
	char err[16];

	if (http_query_parse(query, page_keys, &q, err, sizeof(err)) < 0)
		return false;   /* the page read says what is wrong */
	format = http_query_get(&q, "format");
	return format != NULL && strcmp(format, "csv") == 0;
}

int api_export(const struct api_request *rq, struct api_response *resp)
{
	struct export_page page;
	struct api_out o;
	char err[1024];
	int r;

	if (wants_csv(rq->query)) {
		r = answer_csv(rq, resp, err, sizeof(err));
		return r > 0 ? api_error(resp, r, "%s", err) : r;
	}
	r = export_page_read(rq->db, rq->acc, rq->query, NULL, &page, err, sizeof(err));
	if (r != 0 || api_out_open(&o) < 0) {
		export_page_done(&page);
		return r > 0 ? api_error(resp, r, "%s", err) : -ENOMEM;
	}
	jsonw_object_begin(&o.w);
	jsonw_field_uint(&o.w, "from_ns", page.from_ns);
	jsonw_field_uint(&o.w, "to_ns", page.to_ns);
	jsonw_field_int(&o.w, "row_count", (int64_t)page.rs.n_rows);
	jsonw_key(&o.w, "next");
	if (page.next[0] != '\0')
		jsonw_string(&o.w, page.next);
	else
		jsonw_null(&o.w);
	jsonw_break(&o.w, 1);
	jsonw_key(&o.w, "columns");
	rowset_print_columns_json(&page.rs, &o.w);
	jsonw_break(&o.w, 1);
	jsonw_key(&o.w, "rows");
	rowset_print_json(&page.rs, 0, &o.w);
	jsonw_object_end(&o.w);
	export_page_done(&page);
	return api_out_finish(&o, 200, true, resp);
}
