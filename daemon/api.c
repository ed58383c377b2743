/*
 * api.c - see api.h.  Every answer is JSON ({"error": "..."} with a 4xx or
 * 5xx status when it fails), except /metrics (Prometheus text format).
 */
#include "api.h"
#include "http_query.h"
#include "lib/duration.h"
#include "lib/rowset.h"
#include "lib/top_rows.h"
#include "lib/version.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_WINDOW_NS (60ULL * 1000000000ULL)
#define DEFAULT_TOP_LIMIT 20
#define NS 1000000000ULL

/* One response being written. */
struct out {
	FILE *f;
	char *buf;
	size_t len;
};

static int out_open(struct out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	return o->f == NULL ? -ENOMEM : 0;
}

static int out_finish(struct out *o, int status, const char *type, bool cacheable,
		      struct api_response *resp)
{
	if (fclose(o->f) != 0) {
		free(o->buf);
		return -ENOMEM;
	}
	resp->status = status;
	resp->body = o->buf;
	resp->len = o->len;
	resp->content_type = type;
	resp->cacheable = cacheable;
	return 0;
}

static int fail(struct api_response *resp, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct api_response *resp, int status, const char *fmt, ...)
{
	char msg[1024];
	struct out o;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (out_open(&o) < 0)
		return -ENOMEM;
	fputs("{\"error\": ", o.f);
	json_print_string(o.f, msg);
	fputs("}\n", o.f);
	return out_finish(&o, status, "application/json", false, resp);
}

static void json_double(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else
		fputs("null", f);
}

static void json_string_or_null(FILE *f, const char *s)
{
	if (s != NULL)
		json_print_string(f, s);
	else
		fputs("null", f);
}

static const char *unit_name(enum metric_unit u)
{
	switch (u) {
	case METRIC_FRACTION:
		return "fraction";
	case METRIC_RATIO:
		return "ratio";
	case METRIC_RATE:
		return "per_second";
	default:
		return "count";
	}
}

/* ---- /api/v1/top ------------------------------------------------------- */

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

static int api_top(struct db *db, const char *query, const struct api_access *acc,
		   struct api_response *resp)
{
	static const char *const keys[] = { "window", "sort", "limit", "user", "unit", "comm",
					    "all", NULL };
	uint64_t window_ns = DEFAULT_WINDOW_NS, limit = DEFAULT_TOP_LIMIT;
	struct top_filter filter;
	struct http_query q;
	const char *sort;
	struct rowset rs;
	struct window w;
	struct out o;
	char err[1024];
	int r, col;

	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "window", API_MAX_WINDOW_NS, &window_ns, err, sizeof(err)) < 0 ||
	    http_query_uint(&q, "limit", API_MAX_LIMIT, &limit, err, sizeof(err)) < 0)
		return fail(resp, 400, "%s", err);
	r = parse_filter(&q, acc, &filter, err, sizeof(err));
	if (r < 0)
		return fail(resp, r == -EPERM ? 403 : 400, "%s", err);
	sort = top_rows_sort_column(http_query_get(&q, "sort") ? http_query_get(&q, "sort") :
				    "task_clock_ns");
	r = query_window(db, window_ns, &w, err, sizeof(err));
	if (r == -ENODATA)
		return fail(resp, 503, "%s", err);
	if (r < 0)
		return fail(resp, 500, "%s", err);
	rowset_init(&rs);
	r = top_rows_build(&w, &filter, &rs);
	window_done(&w);
	if (r < 0) {
		rowset_done(&rs);
		return -ENOMEM;
	}
	col = rowset_find_column(&rs, sort);
	if (col < 0) {
		top_rows_list_columns(&rs, err, sizeof(err));
		rowset_done(&rs);
		return fail(resp, 400, "parameter 'sort': unknown column '%s' (one of: cpu, %s)",
			    sort, err);
	}
	rowset_sort(&rs, col);
	if (out_open(&o) < 0) {
		rowset_done(&rs);
		return -ENOMEM;
	}
	rowset_print(&rs, RS_JSON, (size_t)limit, o.f);
	rowset_done(&rs);
	return out_finish(&o, 200, "application/json", true, resp);
}

/* ---- /api/v1/{processes,comms,units}/NAME ------------------------------ */

static bool matches(const struct window_proc *p, enum query_who who, const char *what,
		    long pid)
{
	switch (who) {
	case WHO_PID:
		return p->pid > 0 && p->pid == pid;
	case WHO_COMM:
		return strcmp(p->comm, what) == 0;
	case WHO_UNIT:
		return p->unit != NULL && strcmp(p->unit, what) == 0;
	}
	return false;
}

static const char *who_key(enum query_who who)
{
	return who == WHO_PID ? "pid" : who == WHO_COMM ? "comm" : "unit";
}

static void print_metrics(FILE *f, const struct model *m, const struct metric_value *mv)
{
	unsigned k;
	bool first = true;

	fputs("\"metrics\": [", f);
	for (k = 0; k < m->n_metrics; k++) {
		const struct model_metric *mm = &m->metrics[k];

		if (!mv[k].valid)
			continue;
		fprintf(f, "%s\n  {\"name\": \"%s\", \"value\": ", first ? "" : ",", mm->name);
		json_double(f, mv[k].value);
		fprintf(f, ", \"unit\": \"%s\", \"parent\": ", unit_name(mm->unit));
		json_string_or_null(f, mm->parent);
		fputs(", \"stack\": ", f);
		json_string_or_null(f, mm->stack);
		fputs(", \"coverage\": ", f);
		json_double(f, mv[k].coverage);
		fprintf(f, ", \"core_scoped\": %s, \"help\": ", mv[k].core_scoped ? "true" : "false");
		json_print_string(f, mm->help);
		fputc('}', f);
		first = false;
	}
	fputs("]", f);
}

static int api_target(struct db *db, enum query_who who, const char *what, const char *query,
		      const struct api_access *acc, struct api_response *resp)
{
	static const char *const keys[] = { "window", NULL };
	struct group_sums sums[MODEL_MAX_GROUPS];
	uint64_t window_ns = DEFAULT_WINDOW_NS, tc = 0, cs = 0, span;
	const struct model *m;
	struct http_query q;
	struct window w;
	struct out o;
	char err[1024], *end;
	size_t i, n = 0;
	unsigned g, k;
	long pid = 0;
	int r;

	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "window", API_MAX_WINDOW_NS, &window_ns, err, sizeof(err)) < 0)
		return fail(resp, 400, "%s", err);
	if (who == WHO_PID && ((pid = strtol(what, &end, 10)) <= 0 || pid > INT32_MAX ||
			       *end != '\0' || *what == '\0'))
		return fail(resp, 400, "'%s' is not a process id", what);
	r = query_window(db, window_ns, &w, err, sizeof(err));
	if (r == -ENODATA)
		return fail(resp, 503, "%s", err);
	if (r < 0)
		return fail(resp, 500, "%s", err);
	m = w.model;
	memset(sums, 0, sizeof(sums));
	if (out_open(&o) < 0) {
		window_done(&w);
		return -ENOMEM;
	}
	fprintf(o.f, "{\"who\": {\"%s\": ", who_key(who));
	json_print_string(o.f, what);
	fputs("},\n \"processes\": [", o.f);
	for (i = 0; i < w.n_procs; i++) {
		const struct window_proc *p = &w.procs[i];

		if (!matches(p, who, what, pid) || (!acc->full && p->uid != acc->uid))
			continue;
		tc += p->task_clock_ns;
		cs += p->context_switches;
		for (g = 0; m != NULL && g < m->n_groups; g++) {
			if (!p->sums[g].present)
				continue;
			sums[g].present = true;
			sums[g].task_clock_ns += p->sums[g].task_clock_ns;
			sums[g].context_switches += p->sums[g].context_switches;
			for (k = 0; k < MODEL_MAX_EVENTS; k++)
				sums[g].v[k] += p->sums[g].v[k];
		}
		if (n < 100) {
			fprintf(o.f, "%s\n  {\"pid\": %" PRId32 ", \"start_ns\": %" PRIu64 ", \"comm\": ",
				n ? "," : "", p->pid, p->start_ns);
			json_print_string(o.f, p->comm);
			fputs(", \"uid\": ", o.f);
			if (p->uid >= 0)
				fprintf(o.f, "%" PRId64, p->uid);
			else
				fputs("null", o.f);
			fputs(", \"unit\": ", o.f);
			json_string_or_null(o.f, p->unit);
			fputs(", \"cmdline\": ", o.f);
			json_string_or_null(o.f, p->cmdline);
			fprintf(o.f, ", \"task_clock_ns\": %" PRIu64 "}", p->task_clock_ns);
		}
		n++;
	}
	if (n == 0) {
		fclose(o.f);
		free(o.buf);
		window_done(&w);
		return fail(resp, 404, "no %s '%s' ran in the last %.0f s%s", who_key(who), what,
			    (double)window_ns / 1e9, acc->full ? "" : " (among your processes)");
	}
	span = w.to_ns > w.from_ns ? w.to_ns - w.from_ns : 0;
	fprintf(o.f, "],\n \"process_count\": %zu,\n \"window\": {\"from_ns\": %" PRIu64
		", \"to_ns\": %" PRIu64 "},\n \"model\": \"%s\", \"formula_version\": %u,\n"
		" \"task_clock_ns\": %" PRIu64 ", \"context_switches\": %" PRIu64
		", \"cpu_percent\": ", n, w.from_ns, w.to_ns, m != NULL ? m->name : w.model_name,
		m != NULL ? m->formula_version : 0, tc, cs);
	json_double(o.f, span > 0 ? (double)tc * 100.0 / (double)span : NAN);
	fputs(",\n \"groups\": [", o.f);
	for (g = 0; m != NULL && g < m->n_groups; g++) {
		fprintf(o.f, "%s\n  {\"name\": \"%s\", \"coverage\": ", g ? "," : "",
			m->groups[g].name);
		json_double(o.f, tc > 0 ? (double)sums[g].task_clock_ns / (double)tc : NAN);
		fputs(", \"counts\": {", o.f);
		for (k = 0; k < m->groups[g].n_events; k++)
			fprintf(o.f, "%s\"%s\": %" PRIu64, k ? ", " : "",
				m->groups[g].events[k].column, sums[g].v[k]);
		fputs("}}", o.f);
	}
	fputs("],\n ", o.f);
	if (m != NULL) {
		struct model_context ctx = { .smt_on = w.smt_on, .cpi_weights = NULL };
		struct metric_value mv[MODEL_MAX_METRICS];

		memset(mv, 0, sizeof(mv));
		m->compute(m, sums, &ctx, mv);
		print_metrics(o.f, m, mv);
	} else {
		fputs("\"metrics\": []", o.f);
	}
	fputs("}\n", o.f);
	window_done(&w);
	return out_finish(&o, 200, "application/json", true, resp);
}

/* ---- /api/v1/series ---------------------------------------------------- */

/* "1h" (that long before the newest data) or "@1700000000" (Unix seconds). */
static int parse_time(const struct http_query *q, const char *key, uint64_t newest,
		      uint64_t *ret, char *err, size_t errlen)
{
	const char *v = http_query_get(q, key);
	uint64_t ns;

	if (v == NULL)
		return 1;
	if (v[0] == '@') {
		char *end;
		double secs = strtod(v + 1, &end);

		if (end == v + 1 || *end != '\0' || !(secs > 0) || secs > 1e11) {
			snprintf(err, errlen, "parameter '%s': '%s' is not @UNIX-SECONDS", key, v);
			return -EINVAL;
		}
		*ret = (uint64_t)(secs * 1e9);
		return 0;
	}
	if (duration_parse(v, &ns) < 0 || ns > newest) {
		snprintf(err, errlen, "parameter '%s': '%s' is neither a duration back from the "
			 "newest data (e.g. 1h) nor @UNIX-SECONDS", key, v);
		return -EINVAL;
	}
	*ret = newest - ns;
	return 0;
}

static int parse_who(const char *v, enum query_who *who, const char **what, char *err,
		     size_t errlen)
{
	static const struct { const char *prefix; enum query_who who; } kinds[] = {
		{ "pid:", WHO_PID }, { "comm:", WHO_COMM }, { "unit:", WHO_UNIT },
	};
	size_t i;

	for (i = 0; v != NULL && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strncmp(v, kinds[i].prefix, strlen(kinds[i].prefix)) == 0 &&
		    v[strlen(kinds[i].prefix)] != '\0') {
			char *end;

			*who = kinds[i].who;
			*what = v + strlen(kinds[i].prefix);
			if (*who == WHO_PID && (strtol(*what, &end, 10) <= 0 || *end != '\0'))
				break;
			return 0;
		}
	snprintf(err, errlen, "parameter 'who': %s%s%s (expected pid:N, comm:NAME or unit:NAME)",
		 v ? "'" : "", v ? v : "missing", v ? "' is not valid" : "");
	return -EINVAL;
}

static int api_series(struct db *db, const char *query, const struct api_access *acc,
		      struct api_response *resp)
{
	static const char *const keys[] = { "who", "metric", "from", "to", "step", NULL };
	uint64_t oldest, newest, from, to, step = 0;
	struct series_bucket *b;
	const struct model *m = NULL;
	enum query_who who = WHO_PID;
	const char *what = NULL, *metric;
	struct http_query q;
	struct out o;
	char err[1024];
	int n, i, mi = -1;

	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0 ||
	    parse_who(http_query_get(&q, "who"), &who, &what, err, sizeof(err)) < 0)
		return fail(resp, 400, "%s", err);
	metric = http_query_get(&q, "metric");
	if (metric == NULL)
		return fail(resp, 400, "parameter 'metric' is missing (e.g. metric=cpu_percent)");
	if (query_span(db, &oldest, &newest) < 0)
		return fail(resp, 503, "no data yet: stackd has not stored an interval");
	from = newest > 3600 * NS ? newest - 3600 * NS : 0;
	to = newest;
	if (parse_time(&q, "from", newest, &from, err, sizeof(err)) < 0 ||
	    parse_time(&q, "to", newest, &to, err, sizeof(err)) < 0 ||
	    http_query_duration(&q, "step", API_MAX_WINDOW_NS, &step, err, sizeof(err)) < 0)
		return fail(resp, 400, "%s", err);
	if (to <= from)
		return fail(resp, 400, "parameter 'from' must be before 'to'");
	if (step == 0)
		step = (to - from + API_MAX_POINTS / 4 - 1) / (API_MAX_POINTS / 4);
	if (step < NS / 1000)
		step = NS / 1000;
	if ((to - from) / step > API_MAX_POINTS)
		return fail(resp, 400, "parameter 'step': %" PRIu64 " points would exceed the limit "
			    "of %d; use a longer step", (to - from) / step, API_MAX_POINTS);
	b = calloc(API_MAX_POINTS + 1, sizeof(*b));
	if (b == NULL)
		return -ENOMEM;
	n = query_series(db, who, what, acc->full ? -1 : acc->uid, from, to, step, b,
			 API_MAX_POINTS + 1, &m, err, sizeof(err));
	if (n < 0) {
		free(b);
		return fail(resp, 500, "%s", err);
	}
	if (strcmp(metric, "cpu_percent") != 0 && (m == NULL || (mi = model_metric_index(m, metric)) < 0)) {
		char list[1024] = "";
		size_t used = 0;
		unsigned k;

		for (k = 0; m != NULL && k < m->n_metrics && used < sizeof(list); k++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, ", %s",
						 m->metrics[k].name);
		free(b);
		return fail(resp, 400, "parameter 'metric': unknown metric '%s' (one of: "
			    "cpu_percent%s)", metric, list);
	}
	if (out_open(&o) < 0) {
		free(b);
		return -ENOMEM;
	}
	fprintf(o.f, "{\"who\": {\"%s\": ", who_key(who));
	json_print_string(o.f, what);
	fprintf(o.f, "}, \"metric\": \"%s\", \"unit\": \"%s\", \"source\": \"intervals\","
		" \"from_ns\": %" PRIu64 ", \"to_ns\": %" PRIu64 ", \"step_ns\": %" PRIu64
		",\n \"points\": [", metric, mi >= 0 ? unit_name(m->metrics[mi].unit) : "percent",
		from, to, step);
	for (i = 0; i < n; i++) {
		double v, cov = 1.0;

		if (mi < 0) {
			v = b[i].span_ns > 0 ? (double)b[i].task_clock_ns * 100.0 /
			    (double)b[i].span_ns : NAN;
		} else {
			struct metric_value mv[MODEL_MAX_METRICS];
			struct model_context ctx = { false, NULL };

			memset(mv, 0, sizeof(mv));
			m->compute(m, b[i].sums, &ctx, mv);
			v = mv[mi].valid ? mv[mi].value : NAN;
			cov = mv[mi].valid ? mv[mi].coverage : 0;
		}
		fprintf(o.f, "%s\n  {\"t_ns\": %" PRIu64 ", \"value\": ", i ? "," : "", b[i].start_ns);
		json_double(o.f, v);
		fputs(", \"coverage\": ", o.f);
		json_double(o.f, cov);
		fputc('}', o.f);
	}
	fputs("]}\n", o.f);
	free(b);
	return out_finish(&o, 200, "application/json", true, resp);
}

/* ---- /api/v1/system ---------------------------------------------------- */

static uint64_t file_size(const char *path, const char *suffix)
{
	char p[4200];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", path, suffix);
	return stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static int api_system(const struct api_info *info, struct db *db, const char *query,
		      struct api_response *resp)
{
	static const char *const keys[] = { NULL };
	const struct model *m = info->model;
	uint64_t oldest = 0, newest = 0, now;
	struct http_query q;
	struct timespec ts;
	struct window w;
	struct out o;
	char err[1024], host[256] = "";
	unsigned g, k;
	bool have;

	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0)
		return fail(resp, 400, "%s", err);
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
	gethostname(host, sizeof(host) - 1);
	have = query_span(db, &oldest, &newest) == 0;
	memset(&w, 0, sizeof(w));
	if (have && query_health(db, DEFAULT_WINDOW_NS, &w, err, sizeof(err)) < 0)
		return fail(resp, 500, "%s", err);
	if (out_open(&o) < 0)
		return -ENOMEM;
	fputs("{\"version\": \"" STACKD_VERSION "\", \"host\": ", o.f);
	json_print_string(o.f, host);
	fprintf(o.f, ", \"started_ns\": %" PRIu64 ", \"uptime_s\": %.3f,\n \"model\": \"%s\", "
		"\"model_description\": ", info->started_ns,
		(double)(now - info->started_ns) / 1e9, m->name);
	json_print_string(o.f, m->description);
	fprintf(o.f, ", \"formula_version\": %u, \"pipeline_width\": %u,\n \"interval_ns\": %"
		PRIu64 ", \"rotate_period_ns\": %" PRIu64 ",\n \"groups\": [", m->formula_version,
		m->pipeline_width, info->interval_ns, info->rotate_period_ns);
	for (g = 0; g < m->n_groups; g++) {
		fprintf(o.f, "%s\n  {\"name\": \"%s\", \"events\": [", g ? "," : "",
			m->groups[g].name);
		for (k = 0; k < m->groups[g].n_events; k++)
			fprintf(o.f, "%s\"%s\"", k ? ", " : "", m->groups[g].events[k].column);
		fputs("], \"enabled_share_60s\": ", o.f);
		json_double(o.f, g < w.n_groups && w.ncpus > 0 && w.to_ns > w.from_ns ?
			    (double)w.groups[g].enabled_ns /
			    ((double)(w.to_ns - w.from_ns) * w.ncpus) : NAN);
		fputc('}', o.f);
	}
	fprintf(o.f, "],\n \"collector_60s\": {\"intervals\": %u, \"samples\": %" PRIu64
		", \"lost_records\": %" PRIu64 ", \"lost_samples\": %" PRIu64 ", \"throttles\": %"
		PRIu64 ", \"unattributed_spans\": %" PRIu64 ", \"dropped\": %" PRIu64
		", \"unschedulable\": %" PRIu64 ", \"max_cpu_switch_rate\": %" PRIu64 "},\n",
		w.n_intervals, w.samples, w.lost_records, w.lost_samples, w.throttles,
		w.unattributed_spans, w.dropped, w.unschedulable, w.max_cpu_switch_rate);
	fputs(" \"database\": {\"path\": ", o.f);
	json_print_string(o.f, info->database);
	fprintf(o.f, ", \"bytes\": %" PRIu64 ", \"oldest_ns\": ",
		file_size(info->database, "") + file_size(info->database, "-wal"));
	if (have)
		fprintf(o.f, "%" PRIu64 ", \"newest_ns\": %" PRIu64 "}}\n", oldest, newest);
	else
		fputs("null, \"newest_ns\": null}}\n", o.f);
	return out_finish(&o, 200, "application/json", true, resp);
}

/* ---- routing ------------------------------------------------------------ */

static int api_metrics(const struct api_info *info, const char *query,
		       const struct api_access *acc, struct api_response *resp)
{
	static const char *const keys[] = { NULL };
	struct http_query q;
	struct out o;
	char err[256];

	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0)
		return fail(resp, 400, "%s", err);
	if (out_open(&o) < 0)
		return -ENOMEM;
	prom_render(info->prom, acc->full, o.f);
	return out_finish(&o, 200, "text/plain; version=0.0.4; charset=utf-8", true, resp);
}

int api_handle(const struct api_info *info, struct db *db, const char *db_err,
	       const char *method, const char *path, const char *query,
	       const struct api_access *acc, struct api_response *resp)
{
	static const struct { const char *prefix; enum query_who who; } targets[] = {
		{ "/api/v1/processes/", WHO_PID },
		{ "/api/v1/comms/", WHO_COMM },
		{ "/api/v1/units/", WHO_UNIT },
	};
	size_t i;

	memset(resp, 0, sizeof(*resp));
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return fail(resp, 405, "method %s not allowed (GET only)", method);
	if (strcmp(path, "/metrics") == 0)
		return api_metrics(info, query, acc, resp);
	if (strncmp(path, "/api/v1/", 8) != 0)
		return fail(resp, 404, "no such endpoint: %s", path);
	if (db == NULL)
		return fail(resp, 503, "the database cannot be read: %s", db_err);
	if (strcmp(path, "/api/v1/top") == 0)
		return api_top(db, query, acc, resp);
	if (strcmp(path, "/api/v1/series") == 0)
		return api_series(db, query, acc, resp);
	if (strcmp(path, "/api/v1/system") == 0)
		return api_system(info, db, query, resp);
	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		size_t n = strlen(targets[i].prefix);

		if (strncmp(path, targets[i].prefix, n) == 0 && path[n] != '\0' &&
		    strchr(path + n, '/') == NULL)
			return api_target(db, targets[i].who, path + n, query, acc, resp);
	}
	return fail(resp, 404, "no such endpoint: %s (see docs/api.md)", path);
}
