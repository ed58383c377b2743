/*
 * api_series.c - GET /api/v1/series: one metric of one target over time,
 * in buckets summed from the stored intervals.
 */
#include "lib/api_endpoints.h"
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
	bool raw = false, minute = false, hour = false, day = false;
	int i;

	for (i = 0; i < n; i++) {
		raw |= b[i].resolution_s == 0;
		minute |= b[i].resolution_s == STACKD_ROLLUP_MINUTE_S;
		hour |= b[i].resolution_s == STACKD_ROLLUP_HOUR_S;
		day |= b[i].resolution_s == STACKD_ROLLUP_DAY_S;
	}
	if (raw + minute + hour + day > 1)
		return "intervals and rollups";
	return minute ? "minute rollups" : hour ? "hour rollups" : day ? "day rollups" :
	       "intervals";
}

/* One bucket: the metric (index mi of m, or cpu_percent when mi < 0). */
static void print_point(struct jsonw *j, const struct series_bucket *b, const struct model *m,
			int mi, const struct model_context *ctx, bool gap_before)
{
	double v, cov = 1.0;
	bool core = false;

	if (mi < 0) {
		v = b->span_ns > 0 ? (double)b->task_clock_ns * 100.0 / (double)b->span_ns : NAN;
	} else {
		struct metric_value mv[MODEL_MAX_METRICS];

		memset(mv, 0, sizeof(mv));
		m->compute(m, b->sums, ctx, mv);
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

/* What a request asks for, its parameters checked. */
struct series_ask {
	enum query_who who;
	const char *what, *metric;   /* in the parsed query */
	uint64_t from, to, step;
};

/* What the answer is made of. */
struct series_data {
	const struct model *m;       /* the data's; NULL: one this build does not know */
	int mi;                      /* the metric's index in m; -1: cpu_percent */
	struct series_bucket *b;
	int n;
	bool smt_on;
	unsigned slots;              /* meta "pmu_slots": the PMU's slots per cycle, 0 unknown */
	char cpuid[64];              /* meta "cpuid": the CPU as perf names it, "" unknown */
	struct query_cpi_fit fit;
	struct recorded_under recorded[RECORDED_UNDER_MAX];   /* over from .. to */
	unsigned n_recorded;
};

/* An error answer's api_error() result as the helpers return it: 1 (the
 * answer is written) or -ENOMEM. */
static int answered(int r)
{
	return r < 0 ? r : 1;
}

/* A quarter of the points allowed over span, in whole minutes from a
 * minute on and whole hours from an hour on: such a step's points are
 * summed from the rollups (query_series), 60 or 3600 times fewer rows
 * than the raw intervals, and sum to the same. */
static uint64_t default_step(uint64_t span)
{
	uint64_t step = (span + API_MAX_POINTS / 4 - 1) / (API_MAX_POINTS / 4);
	uint64_t unit = step >= STACKD_ROLLUP_HOUR_S * NS_PER_SEC ?
			STACKD_ROLLUP_HOUR_S * NS_PER_SEC :
			step >= STACKD_ROLLUP_MINUTE_S * NS_PER_SEC ?
			STACKD_ROLLUP_MINUTE_S * NS_PER_SEC : 1;

	return (step + unit - 1) / unit * unit;
}

/* Parse query into q and check it into a (from and to default to the last
 * hour of data, step to a quarter of the points allowed, default_step; from rounded down
 * to a multiple of step).  Returns 0, or 1
 * after an error answer, or -ENOMEM. */
static int parse_ask(struct db *db, const char *query, struct http_query *q,
		     struct series_ask *a, struct api_response *resp)
{
	static const char *const keys[] = { "who", "metric", "from", "to", "step", NULL };
	uint64_t oldest, newest;
	char err[1024];

	a->who = WHO_PID;
	a->what = NULL;
	a->step = 0;
	if (http_query_parse(query, keys, q, err, sizeof(err)) < 0 ||
	    api_parse_who(http_query_get(q, "who"), &a->who, &a->what, err, sizeof(err)) < 0)
		return answered(api_error(resp, 400, "%s", err));
	a->metric = http_query_get(q, "metric");
	if (a->metric == NULL)
		return answered(api_error(resp, 400, "parameter 'metric' is missing (e.g. "
					  "metric=cpu_percent)"));
	if (query_span(db, &oldest, &newest) < 0)
		return answered(api_error(resp, 503, "no data yet: stackd has not stored an "
					  "interval"));
	a->from = newest > 3600 * NS_PER_SEC ? newest - 3600 * NS_PER_SEC : 0;
	a->to = newest;
	if (api_parse_time(q, "from", newest, &a->from, err, sizeof(err)) < 0 ||
	    api_parse_time(q, "to", newest, &a->to, err, sizeof(err)) < 0 ||
	    http_query_duration(q, "step", API_MAX_WINDOW_NS, &a->step, err, sizeof(err)) < 0)
		return answered(api_error(resp, 400, "%s", err));
	if (a->to <= a->from)
		return answered(api_error(resp, 400, "parameter 'from' must be before 'to'"));
	if (a->step == 0)
		a->step = default_step(a->to - a->from);
	if (a->step < NS_PER_SEC / 1000)
		a->step = NS_PER_SEC / 1000;
	/* Buckets on multiples of step since the epoch, not on the newest
	 * interval's end: two answers with the same step share their bucket
	 * times however far the data moved between them, so a client joins
	 * its series on t_ns (the dashboard's charts were blank when an
	 * interval landed between its requests).  The first bucket is then
	 * whole, and starts up to a step before the asked from. */
	a->from -= a->from % a->step;
	/* counted once rounded: the rounding adds up to one bucket */
	if ((a->to - a->from) / a->step > API_MAX_POINTS)
		return answered(api_error(resp, 400, "parameter 'step': %" PRIu64 " points would "
					  "exceed the limit of %d; use a longer step",
					  (a->to - a->from) / a->step, API_MAX_POINTS));
	return 0;
}

/* The data's model and formula version (null and 0: one this build does
 * not know), and what the span holds recorded under others. */
static void print_model(struct jsonw *j, const struct series_data *d)
{
	jsonw_field_string_or_null(j, "model", d->m != NULL ? d->m->name : NULL);
	jsonw_field_uint(j, "formula_version", d->m != NULL ? d->m->formula_version : 0);
	api_print_recorded_under(j, d->recorded, d->n_recorded);
}

/* The answer: the target, the metric and its unit, the points. */
static void print_series(struct jsonw *j, const struct series_ask *a, bool full,
			 const struct series_data *d)
{
	const struct model *m = d->m;
	struct model_context ctx = { .smt_on = d->smt_on,
				     .cpi_weights = d->fit.fitted ? d->fit.weights : NULL,
				     .slots = d->slots,
				     .cpuid = d->cpuid[0] ? d->cpuid : NULL };
	int i;

	jsonw_object_begin(j);
	jsonw_key(j, "who");
	jsonw_object_begin(j);
	/* a user who sees only their own processes gets only those */
	jsonw_field_string(j, api_who_key(a->who),
			   a->who == WHO_HOST && !full ? "your processes but [idle]" : a->what);
	jsonw_object_end(j);
	jsonw_field_string(j, "metric", a->metric);
	jsonw_field_string(j, "unit", d->mi >= 0 ? api_metric_unit(m->metrics[d->mi].unit) :
			   "percent");
	jsonw_field_string(j, "source", series_source(d->b, d->n));
	print_model(j, d);
	jsonw_field_uint(j, "from_ns", a->from);
	jsonw_field_uint(j, "to_ns", a->to);
	jsonw_field_uint(j, "step_ns", a->step);
	jsonw_break(j, 1);
	jsonw_key(j, "points");
	jsonw_array_begin(j);
	for (i = 0; i < d->n; i++)
		print_point(j, &d->b[i], m, d->mi, &ctx, series_gap_before(d->b, (size_t)i, a->step));
	jsonw_array_end(j);
	if (d->mi >= 0 && m->metrics[d->mi].stack != NULL &&
	    strcmp(m->metrics[d->mi].stack, "cpi") == 0)
		api_print_cpi_fit(j, m, &d->fit);
	jsonw_object_end(j);
}

int api_series(const struct api_request *rq, struct api_response *resp)
{
	const struct api_access *acc = rq->acc;
	struct series_data d = { .m = NULL, .mi = -1 };
	struct series_ask a;
	struct http_query q;
	struct api_out o;
	char err[1024], smt[8];
	int r;

	d.smt_on = query_meta(rq->db, "smt", smt, sizeof(smt)) == 0 && strcmp(smt, "on") == 0;
	d.slots = query_meta(rq->db, "pmu_slots", smt, sizeof(smt)) == 0 ?
		  (unsigned)strtoul(smt, NULL, 10) : 0;
	if (query_meta(rq->db, "cpuid", d.cpuid, sizeof(d.cpuid)) < 0)
		d.cpuid[0] = '\0';
	r = parse_ask(rq->db, rq->query, &q, &a, resp);
	if (r != 0)
		return r < 0 ? r : 0;
	d.b = calloc(API_MAX_POINTS + 1, sizeof(*d.b));
	if (d.b == NULL)
		return -ENOMEM;
	d.n = query_series(rq->db, a.who, a.what, acc->full ? -1 : acc->uid, a.from, a.to, a.step,
			   d.b, API_MAX_POINTS + 1, &d.m, err, sizeof(err));
	if (d.n < 0) {
		free(d.b);
		return api_error(resp, 500, "%s", err);
	}
	if (strcmp(a.metric, "cpu_percent") != 0) {
		r = resolve_metric(d.m, a.metric, &d.mi, resp);
		if (r != 0) {
			free(d.b);
			return r < 0 ? r : 0;
		}
	}
	r = query_recorded_under(rq->db, d.m, d.smt_on, a.from, a.to, d.recorded,
				 RECORDED_UNDER_MAX, err, sizeof(err));
	if (r < 0) {
		free(d.b);
		return r == -ENOMEM ? r : api_error(resp, 500, "%s", err);
	}
	d.n_recorded = (unsigned)r;
	if (query_cpi_fit(rq->db, d.m, &d.fit) < 0)
		snprintf(d.fit.reason, sizeof(d.fit.reason), "no regression fit: cannot read the "
			 "stored fits");
	if (api_out_open(&o) < 0) {
		free(d.b);
		return -ENOMEM;
	}
	print_series(&o.w, &a, acc->full, &d);
	free(d.b);
	return api_out_finish(&o, 200, true, resp);
}
