/*
 * api_top.c - GET /api/v1/top: the processes (or comms, units, users,
 * Kubernetes namespaces, pods, containers) of
 * the last window, sorted, with the columns that describe them and the
 * window's health, so a client can draw `stackctl top` from this alone.
 */
#include "lib/api_endpoints.h"
#include "lib/top_rows.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TOP_LIMIT 20

static int parse_filter(const struct http_query *q, const struct api_access *acc,
			struct top_filter *f, char *err, size_t errlen)
{
	const char *user = http_query_get(q, "user");
	int r;

	*f = (struct top_filter)TOP_FILTER_ALL;
	f->comm = http_query_get(q, "comm");
	f->unit = http_query_get(q, "unit");
	r = http_query_bool(q, "all", &f->include_idle, err, errlen);
	if (r < 0)
		return r;
	if (user != NULL) {
		uint64_t uid;

		if (http_query_uint(q, "user", INT32_MAX, &uid, err, errlen) < 0) {
			snprintf(err, errlen, "parameter 'user': '%s' is not a numeric uid", user);
			return -EINVAL;
		}
		f->uid = (int64_t)uid;
	}
	if (!acc->full) {
		if (f->uid >= 0 && f->uid != acc->uid) {
			snprintf(err, errlen, "parameter 'user': you may see your own processes only "
				 "(uid %" PRId64 ")", acc->uid);
			return -EPERM;
		}
		f->uid = acc->uid;
		f->include_idle = false;
	}
	return 0;
}

static int print_top(struct db *db, const struct window *w, enum top_by by, const char *sort,
		     const struct rowset *rs, size_t total, uint64_t limit,
		     struct api_response *resp)
{
	struct api_out o;
	char host[256];

	if (api_out_open(&o) < 0)
		return -ENOMEM;
	api_host(db, host, sizeof(host));
	jsonw_object_begin(&o.w);
	jsonw_field_string(&o.w, "host", host);
	jsonw_field_string(&o.w, "model", w->model_name);
	jsonw_field_uint(&o.w, "formula_version", w->model ? w->model->formula_version : 0);
	jsonw_field_string_or_null(&o.w, "model_description",
				   w->model ? w->model->description : NULL);
	api_print_recorded_under(&o.w, w->recorded, w->n_recorded);
	jsonw_field_string(&o.w, "by", top_rows_by_name(by));
	jsonw_field_string(&o.w, "sort", sort);
	jsonw_field_uint(&o.w, "total_rows", total);
	jsonw_break(&o.w, 1);
	api_print_window_health(&o.w, w);
	api_print_cpi_fit(&o.w, w->model, &w->cpi_fit);
	jsonw_break(&o.w, 1);
	jsonw_key(&o.w, "columns");
	rowset_print_columns_json(rs, &o.w);
	jsonw_break(&o.w, 1);
	jsonw_key(&o.w, "rows");
	rowset_print_json(rs, (size_t)limit, &o.w);
	jsonw_object_end(&o.w);
	return api_out_finish(&o, 200, true, resp);
}

/* A sort column the rows lack: one made from a metric another model
 * computes is missing from this data (404: the request is right, the data
 * cannot answer it); any other name is a mistake in the request (400). */
static int refuse_sort(struct api_response *resp, const struct window *w,
		       const struct rowset *rs, const char *asked, const char *column)
{
	const struct model *other;
	char metric[128], cols[1024];
	size_t n = strlen(column);

	snprintf(metric, sizeof(metric), "%s", column);
	if (n > strlen("_slots") && n < sizeof(metric) && strcmp(column + n - 6, "_slots") == 0)
		metric[n - 6] = '\0';
	other = model_with_metric(metric);
	top_rows_list_columns(rs, cols, sizeof(cols));
	if (other != NULL)
		return api_error(resp, 404, "parameter 'sort': '%s' needs %s, which the %s model "
				 "does not compute (%s does); one of: cpu, %s", asked, metric,
				 w->model_name, other->name, cols);
	return api_error(resp, 400, "parameter 'sort': unknown column '%s' (one of: cpu, %s)",
			 asked, cols);
}

/* The rows sorted by the column sort names (NULL: the default): for
 * processes, only the first limit (the order kept with a shared window);
 * a sum per comm, unit... from all of them.  -ENOENT: no such column. */
static int build_sorted(const struct window *w, const struct top_filter *f, enum top_by by,
			const char *sort, size_t limit, struct rowset *rs, int *col,
			size_t *total)
{
	int r;

	if (by == TOP_BY_PROCESS)
		return top_rows_build_first(w, f, sort, limit, rs, col, total);
	r = top_rows_build(w, f, by, rs);
	if (r < 0)
		return r;
	*col = sort != NULL ? top_rows_find_sort(rs, sort) :
	       rowset_find_column(rs, top_rows_default_sort(rs));
	if (*col < 0)
		return -ENOENT;
	rowset_sort(rs, *col);
	*total = rs->n_rows;
	return 0;
}

int api_top(const struct api_request *rq, struct api_response *resp)
{
	static const char *const keys[] = { "window", "sort", "limit", "user", "unit", "comm",
					    "all", "by", NULL };
	uint64_t window_ns = API_DEFAULT_WINDOW_NS, limit = DEFAULT_TOP_LIMIT;
	enum top_by by = TOP_BY_PROCESS;
	struct top_filter filter;
	struct http_query q;
	struct rowset rs;
	size_t total;
	const struct window *w;
	char err[1024];
	int r, col;

	if (http_query_parse(rq->query, keys, &q, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "window", API_MAX_WINDOW_NS, &window_ns, err, sizeof(err)) < 0 ||
	    http_query_uint(&q, "limit", API_MAX_LIMIT, &limit, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	if (http_query_get(&q, "by") != NULL &&
	    top_rows_by_parse(http_query_get(&q, "by"), &by) < 0)
		return api_error(resp, 400, "parameter 'by': '%s' is not one of process, comm, "
				 "unit, user, namespace, pod, container", http_query_get(&q, "by"));
	r = parse_filter(&q, rq->acc, &filter, err, sizeof(err));
	if (r < 0)
		return api_error(resp, r == -EPERM ? 403 : 400, "%s", err);
	r = api_window_get(rq, window_ns, &w, err, sizeof(err));
	if (r < 0)
		return api_error(resp, r == -ENODATA || r == -EAGAIN ? 503 : 500, "%s", err);
	rowset_init(&rs);
	r = build_sorted(w, &filter, by, http_query_get(&q, "sort"), (size_t)limit, &rs, &col,
			 &total);
	if (r == -ENOENT) {
		/* the column the name stands for (an alias: "backend") */
		const char *asked = http_query_get(&q, "sort");

		r = refuse_sort(resp, w, &rs, asked ? asked : "",
				asked ? top_rows_sort_column(asked) : top_rows_default_sort(&rs));
		goto out;
	}
	if (r < 0)
		goto out;
	r = print_top(rq->db, w, by, rs.cols[col].name, &rs, total, limit, resp);
out:
	rowset_done(&rs);
	api_window_put(rq, w);
	return r;
}
