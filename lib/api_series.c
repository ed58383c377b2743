/*
 * api_series.c - GET /api/v1/series: one metric of one target over time,
 * in buckets summed from the stored intervals.
 */
#include "lib/api_out.h"
#include "lib/db.h"
#include "lib/sampling_mode.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the points were summed from: raw intervals, rollups, or both. */
static const char *series_source(const struct series_bucket *b, int n)
{
	bool raw = false, minute = false, hour = false;
	int i;

	for (i = 0; i < n; i++) {
		raw |= b[i].resolution_s == 0;
		minute |= b[i].resolution_s == STACKD_ROLLUP_MINUTE_S;
		hour |= b[i].resolution_s == STACKD_ROLLUP_HOUR_S;
	}
	if (raw && !minute && !hour)
		return "intervals";
	if (!raw && minute && !hour)
		return "minute rollups";
	if (!raw && !minute && hour)
		return "hour rollups";
	return n > 0 ? "intervals and rollups" : "intervals";
}

/* One bucket: the metric (index mi of m, or cpu_percent when mi < 0). */
static void print_point(struct jsonw *j, const struct series_bucket *b, const struct model *m,
			int mi, bool smt_on, const double *cpi_weights, bool gap_before)
{
	double v, cov = 1.0;
	bool core = false;

	if (mi < 0) {
		v = b->span_ns > 0 ? (double)b->task_clock_ns * 100.0 / (double)b->span_ns : NAN;
	} else {
		struct metric_value mv[MODEL_MAX_METRICS];
		struct model_context ctx = { smt_on, cpi_weights };

		memset(mv, 0, sizeof(mv));
		m->compute(m, b->sums, &ctx, mv);
		v = mv[mi].valid ? mv[mi].value : NAN;
		cov = mv[mi].valid ? mv[mi].coverage : 0;
		core = mv[mi].valid && mv[mi].core_scoped;
	}
	jsonw_break(j, 2);
	jsonw_object_begin(j);
	jsonw_field_uint(j, "t_ns", b->start_ns);
	jsonw_field_double(j, "value", v);
	jsonw_field_double(j, "coverage", cov);
	jsonw_field_uint(j, "resolution_s", b->resolution_s);
	/* the events count the whole core (SMT on): not this thread's alone */
	jsonw_field_bool(j, "core_scoped", core);
	/* no data for the target since the previous point (it did not run,
	 * or stackd did not): a chart breaks its line here */
	jsonw_field_bool(j, "gap_before", gap_before);
	/* the host's attributed shares over the bucket: when low, stackd
	 * could not charge part of the CPU time to anyone, and the target's
	 * figure may be missing some of it */
	jsonw_field_double(j, "attributed_cpu", cpu_split_attributed_cpu(&b->host));
	jsonw_field_double(j, "attributed_switches", cpu_split_attributed_switches(&b->host));
	jsonw_field_bool(j, "low_attribution", cpu_split_low(&b->host));
	/* the share of the host's CPU time over the bucket measured in
	 * periodic mode (statistical); 0: every switch sampled (exact) */
	jsonw_field_double(j, "periodic_share", cpu_split_periodic_share(&b->host));
	/* the target's own: the share of its CPU time over the bucket that
	 * was measured periodically (the exactness of this point's value) */
	jsonw_field_double(j, "target_periodic_share",
			   sampling_mode_share(b->periodic_ns, b->task_clock_ns));
	jsonw_object_end(j);
}


/* The metric's index in m, the model of the data (NULL: one this build
 * does not know).  Returns 0, or 1 after an error answer: 404 for a metric
 * only other models compute (the data cannot answer it), 400 for a name
 * no model knows (a mistake in the request). */
static int resolve_metric(const struct model *m, const char *metric, int *ret_mi,
			  struct api_response *resp)
{
	const struct model *other;
	char list[1024] = "";
	size_t used = 0;
	unsigned k;
	int r;

	*ret_mi = m != NULL ? model_metric_index(m, metric) : -1;
	if (*ret_mi >= 0)
		return 0;
	other = model_with_metric(metric);
	for (k = 0; m != NULL && k < m->n_metrics && used < sizeof(list); k++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, ", %s", m->metrics[k].name);
	if (other != NULL)
		r = api_error(resp, 404, "parameter 'metric': the %s model does not compute %s "
			      "(%s does); one of: cpu_percent%s", m != NULL ? m->name : "data's",
			      metric, other->name, list);
	else
		r = api_error(resp, 400, "parameter 'metric': unknown metric '%s' (one of: "
			      "cpu_percent%s)", metric, list);
	return r < 0 ? r : 1;
}

int api_series(struct db *db, const char *query, const struct api_access *acc,
		      struct api_response *resp)
{
	static const char *const keys[] = { "who", "metric", "from", "to", "step", NULL };
	uint64_t oldest, newest, from, to, step = 0;
	struct series_bucket *b;
	struct query_cpi_fit fit;
	const struct model *m = NULL;
	enum query_who who = WHO_PID;
	const char *what = NULL, *metric;
	struct http_query q;
	struct api_out o;
	char err[1024], smt[8];
	int n, i, mi = -1;
	bool smt_on = query_meta(db, "smt", smt, sizeof(smt)) == 0 && strcmp(smt, "on") == 0;

	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0 ||
	    api_parse_who(http_query_get(&q, "who"), &who, &what, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	metric = http_query_get(&q, "metric");
	if (metric == NULL)
		return api_error(resp, 400, "parameter 'metric' is missing (e.g. metric=cpu_percent)");
	if (query_span(db, &oldest, &newest) < 0)
		return api_error(resp, 503, "no data yet: stackd has not stored an interval");
	from = newest > 3600 * NS_PER_SEC ? newest - 3600 * NS_PER_SEC : 0;
	to = newest;
	if (api_parse_time(&q, "from", newest, &from, err, sizeof(err)) < 0 ||
	    api_parse_time(&q, "to", newest, &to, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "step", API_MAX_WINDOW_NS, &step, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	if (to <= from)
		return api_error(resp, 400, "parameter 'from' must be before 'to'");
	if (step == 0)
		step = (to - from + API_MAX_POINTS / 4 - 1) / (API_MAX_POINTS / 4);
	if (step < NS_PER_SEC / 1000)
		step = NS_PER_SEC / 1000;
	if ((to - from) / step > API_MAX_POINTS)
		return api_error(resp, 400, "parameter 'step': %" PRIu64 " points would exceed the limit "
			    "of %d; use a longer step", (to - from) / step, API_MAX_POINTS);
	b = calloc(API_MAX_POINTS + 1, sizeof(*b));
	if (b == NULL)
		return -ENOMEM;
	n = query_series(db, who, what, acc->full ? -1 : acc->uid, from, to, step, b,
			 API_MAX_POINTS + 1, &m, err, sizeof(err));
	if (n < 0) {
		free(b);
		return api_error(resp, 500, "%s", err);
	}
	if (strcmp(metric, "cpu_percent") != 0) {
		int r = resolve_metric(m, metric, &mi, resp);

		if (r != 0) {
			free(b);
			return r < 0 ? r : 0;
		}
	}
	if (query_cpi_fit(db, m, &fit) < 0)
		snprintf(fit.reason, sizeof(fit.reason), "no regression fit: cannot read the "
			 "stored fits");
	if (api_out_open(&o) < 0) {
		free(b);
		return -ENOMEM;
	}
	jsonw_object_begin(&o.w);
	jsonw_key(&o.w, "who");
	jsonw_object_begin(&o.w);
	/* a user who sees only their own processes gets only those */
	jsonw_field_string(&o.w, api_who_key(who),
			   who == WHO_HOST && !acc->full ? "your processes but [idle]" : what);
	jsonw_object_end(&o.w);
	jsonw_field_string(&o.w, "metric", metric);
	jsonw_field_string(&o.w, "unit", mi >= 0 ? api_metric_unit(m->metrics[mi].unit) : "percent");
	jsonw_field_string(&o.w, "source", series_source(b, n));
	jsonw_field_uint(&o.w, "from_ns", from);
	jsonw_field_uint(&o.w, "to_ns", to);
	jsonw_field_uint(&o.w, "step_ns", step);
	jsonw_break(&o.w, 1);
	jsonw_key(&o.w, "points");
	jsonw_array_begin(&o.w);
	for (i = 0; i < n; i++)
		print_point(&o.w, &b[i], m, mi, smt_on, fit.fitted ? fit.weights : NULL,
			    series_gap_before(b, (size_t)i, step));
	jsonw_array_end(&o.w);
	if (mi >= 0 && m->metrics[mi].stack != NULL && strcmp(m->metrics[mi].stack, "cpi") == 0)
		api_print_cpi_fit(&o.w, m, &fit);
	jsonw_object_end(&o.w);
	free(b);
	return api_out_finish(&o, 200, true, resp);
}

