/*
 * api.c - see api.h: routing, and the helpers the endpoint files share
 * (api_out.h).  Every answer is JSON; a failure is {"error": "..."} with a
 * 4xx or 5xx status.
 */
#include "lib/api_out.h"
#include "lib/clock.h"
#include "lib/duration.h"
#include "lib/rowset.h"
#include "lib/sampling_mode.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int api_out_open(struct api_out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	if (o->f == NULL)
		return -ENOMEM;
	jsonw_init(&o->w, o->f);
	return 0;
}

int api_out_finish(struct api_out *o, int status, bool cacheable, struct api_response *resp)
{
	if (jsonw_done(&o->w) < 0) {
		api_out_abort(o);
		return api_error(resp, 500, "internal error: an incomplete JSON answer");
	}
	if (fclose(o->f) != 0) {
		free(o->buf);
		return -ENOMEM;
	}
	resp->status = status;
	resp->body = o->buf;
	resp->len = o->len;
	resp->content_type = "application/json";
	resp->cacheable = cacheable;
	return 0;
}

void api_out_abort(struct api_out *o)
{
	fclose(o->f);
	free(o->buf);
}

int api_error(struct api_response *resp, int status, const char *fmt, ...)
{
	char msg[1024];
	struct api_out o;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (api_out_open(&o) < 0)
		return -ENOMEM;
	jsonw_object_begin(&o.w);
	jsonw_field_string(&o.w, "error", msg);
	jsonw_object_end(&o.w);
	return api_out_finish(&o, status, false, resp);
}

const char *api_metric_unit(enum metric_unit u)
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

int api_parse_time(const struct http_query *q, const char *key, uint64_t newest,
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
		*ret = (uint64_t)(secs * (double)NS_PER_SEC);
		return 0;
	}
	if (duration_parse(v, &ns) < 0) {
		snprintf(err, errlen, "parameter '%s': '%s' is neither a duration back from the "
			 "newest data (e.g. 1h) nor @UNIX-SECONDS", key, v);
		return -EINVAL;
	}
	/* Further back than the data goes: from the beginning. */
	*ret = ns < newest ? newest - ns : 0;
	return 0;
}

const char *api_who_key(enum query_who who)
{
	static const char *const keys[] = {
		[WHO_PID] = "pid", [WHO_COMM] = "comm", [WHO_UNIT] = "unit", [WHO_HOST] = "host",
	};

	return keys[who];
}

int api_parse_who(const char *v, enum query_who *who, const char **what, char *err,
		  size_t errlen)
{
	static const struct { const char *prefix; enum query_who who; } kinds[] = {
		{ "pid:", WHO_PID }, { "comm:", WHO_COMM }, { "unit:", WHO_UNIT },
	};
	size_t i;

	/* the host: every process but [idle], its busy CPU */
	if (v != NULL && strcmp(v, "host") == 0) {
		*who = WHO_HOST;
		*what = "every process but [idle]";
		return 0;
	}
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
	snprintf(err, errlen, "parameter 'who': %s%s%s (expected pid:N, comm:NAME, unit:NAME or host)",
		 v ? "'" : "", v ? v : "missing", v ? "' is not valid" : "");
	return -EINVAL;
}

void api_host(struct db *db, char *buf, size_t len)
{
	if (query_meta(db, "host", buf, len) == 0)
		return;
	buf[0] = '\0';
	gethostname(buf, len - 1);
	buf[len - 1] = '\0';
}

void api_print_window_health(struct jsonw *j, const struct window *w)
{
	double cpu_span = (double)(w->to_ns - w->from_ns) * (double)(w->ncpus ? w->ncpus : 1);
	unsigned g;

	jsonw_key(j, "window");
	jsonw_object_begin(j);
	jsonw_field_uint(j, "from_ns", w->from_ns);
	jsonw_field_uint(j, "to_ns", w->to_ns);
	jsonw_field_uint(j, "intervals", w->n_intervals);
	jsonw_field_uint(j, "ncpus", w->ncpus);
	jsonw_field_uint(j, "resolution_s", w->resolution_s);
	jsonw_field_uint(j, "asked_ns", w->asked_ns);
	jsonw_object_end(j);
	jsonw_break(j, 1);
	jsonw_key(j, "groups");
	jsonw_array_begin(j);
	for (g = 0; g < w->n_groups; g++) {
		jsonw_object_begin(j);
		jsonw_field_string(j, "name", w->groups[g].name);
		jsonw_field_uint(j, "enabled_ns", w->groups[g].enabled_ns);
		jsonw_field_double(j, "coverage", cpu_span > 0 ?
				   (double)w->groups[g].enabled_ns / cpu_span : NAN);
		/* found in error state (counters taken) and benched, summed over CPUs */
		jsonw_field_uint(j, "unschedulable", w->groups[g].unschedulable);
		jsonw_object_end(j);
	}
	jsonw_array_end(j);
	jsonw_break(j, 1);
	/* every health field (lib/health_fields.h), then where the max rate was */
	jsonw_key(j, "collector");
	jsonw_object_begin(j);
#define PRINT_FIELD(name, ...) jsonw_field_uint(j, #name, w->name);
	HEALTH_FIELDS(PRINT_FIELD)
#undef PRINT_FIELD
	jsonw_field_int(j, "busiest_cpu", w->busiest_cpu);
	jsonw_object_end(j);
	api_print_attribution(j, w);
	api_print_sampling_mode(j, &w->split);
}

void api_print_attribution(struct jsonw *j, const struct window *w)
{
	const struct cpu_split *split = &w->split;
	double cpu = cpu_split_attributed_cpu(split), sw = cpu_split_attributed_switches(split);

	jsonw_break(j, 1);
	jsonw_key(j, "attribution");
	jsonw_object_begin(j);
	jsonw_field_double(j, "cpu_share", cpu);
	jsonw_field_double(j, "switch_share", sw);
	jsonw_field_uint(j, "busy_cpu_ns",
			 split->cpu_ns > split->idle_ns ? split->cpu_ns - split->idle_ns : 0);
	jsonw_field_uint(j, "idle_cpu_ns", split->idle_ns);
	jsonw_field_uint(j, "unattributed_cpu_ns", split->unattributed_ns);
	jsonw_field_double(j, "warn_below", ATTRIBUTED_WARN_BELOW);
	jsonw_field_bool(j, "low", cpu_split_low(split));
	jsonw_object_end(j);
}

void api_print_sampling_mode(struct jsonw *j, const struct cpu_split *split)
{
	double share = cpu_split_periodic_share(split);
	char text[SAMPLING_MODE_TEXT_MAX];

	jsonw_break(j, 1);
	jsonw_key(j, "sampling_mode");
	jsonw_object_begin(j);
	jsonw_field_string(j, "mode", sampling_mode_name(sampling_mode_of(share)));
	jsonw_field_double(j, "periodic_share", share);
	jsonw_field_uint(j, "periodic_ns", split->periodic_ns);
	jsonw_field_uint(j, "cpu_ns", split->cpu_ns);
	jsonw_field_string(j, "text", sampling_mode_describe(share, text, sizeof(text)));
	jsonw_object_end(j);
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
		return api_error(resp, 405, "method %s not allowed (GET only)", method);
	if (strncmp(path, "/api/v1/", 8) != 0)
		return api_error(resp, 404, "no such endpoint: %s", path);
	if (db == NULL)
		return api_error(resp, 503, "the database cannot be read: %s", db_err);
	if (strcmp(path, "/api/v1/top") == 0)
		return api_top(db, query, acc, resp);
	if (strcmp(path, "/api/v1/series") == 0)
		return api_series(db, query, acc, resp);
	if (strcmp(path, "/api/v1/export") == 0)
		return api_export(db, query, acc, resp);
	if (strcmp(path, "/api/v1/system") == 0)
		return api_system(info, db, query, resp);
	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		size_t n = strlen(targets[i].prefix);

		char name[HTTP_QUERY_MAX_VALUE];

		if (strncmp(path, targets[i].prefix, n) != 0 || path[n] == '\0' ||
		    strchr(path + n, '/') != NULL)
			continue;
		if (http_query_decode_segment(path + n, name, sizeof(name)) <= 0)
			return api_error(resp, 400, "'%s' is not a valid name (bad %%-escape, "
					 "control character or too long)", path + n);
		return api_target(db, targets[i].who, name, query, acc, resp);
	}
	return api_error(resp, 404, "no such endpoint: %s (see docs/api.md)", path);
}
