/*
 * api_out.c - what the endpoint files share (api_out.h): an answer written
 * as JSON into memory, the error answer, and the query forms every
 * endpoint parses the same way.  Below the endpoints: it calls none of
 * them, so the files that route (api.c, api_routes.c) sit on top.
 */
#include "lib/api_out.h"
#include "lib/clock.h"
#include "lib/duration.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
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

int api_window_get(const struct api_request *rq, uint64_t window_ns, const struct window **out,
		   char *err, size_t errlen)
{
	const struct api_windows *ws = rq->info != NULL ? rq->info->windows : NULL;
	struct window *w;
	int r;

	if (ws != NULL)
		return ws->get(ws->ctx, rq->db, window_ns, out, err, errlen);
	w = malloc(sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	r = query_window(rq->db, window_ns, w, err, errlen);
	if (r < 0) {
		free(w);
		return r;
	}
	*out = w;
	return 0;
}

void api_window_put(const struct api_request *rq, const struct window *w)
{
	const struct api_windows *ws = rq->info != NULL ? rq->info->windows : NULL;
	struct window *own;

	if (w == NULL)
		return;
	if (ws != NULL) {
		ws->put(ws->ctx, w);
		return;
	}
	own = (struct window *)(uintptr_t)w;   /* ours: made by api_window_get above */
	window_done(own);
	free(own);
}
