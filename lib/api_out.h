/*
 * api_out.h - what the api_*.c endpoint files share: the request an
 * endpoint answers, a response being written to memory through the JSON
 * writer (jsonw.h), the query forms every endpoint parses the same way
 * (api_out.c), and the window's health and regression fit as every answer
 * prints them (api_health.c, api_cpifit.c).  Internal to the API; the
 * endpoints are in api_endpoints.h, the routes to them in api_routes.h.
 */
#ifndef STACKD_API_OUT_H
#define STACKD_API_OUT_H

#include "lib/api.h"
#include "lib/http_query.h"
#include "lib/jsonw.h"
#include "lib/rowset.h"
#include "lib/clock.h"

#include <stdio.h>

#define API_DEFAULT_WINDOW_NS (60ULL * NS_PER_SEC)

/* What an endpoint is asked (api_routes.c finds the endpoint, api.c fills
 * this in): who and what are the target a path such as
 * /api/v1/comms/NAME names, for api_target only. */
struct api_request {
	const struct api_info *info;
	struct db *db;
	const char *query;              /* the query string; NULL: none */
	const struct api_access *acc;
	enum query_who who;
	const char *what;
};

/* An endpoint: answers rq into resp; returns 0 or -ENOMEM (no response). */
typedef int api_endpoint_fn(const struct api_request *rq, struct api_response *resp);

/* The window of window_ns for rq: lent by rq->info->windows, else
 * computed (query_window); 0 or query_window's errors.  Hand it back with
 * api_window_put. */
int api_window_get(const struct api_request *rq, uint64_t window_ns, const struct window **out,
		   char *err, size_t errlen);
void api_window_put(const struct api_request *rq, const struct window *w);

/* An answer being written: JSON through w into memory. */
struct api_out {
	FILE *f;
	char *buf;
	size_t len;
	struct jsonw w;
};

int api_out_open(struct api_out *o);
/* Close o and hand its text to resp; returns 0 or -ENOMEM.  A document
 * left incomplete (a bug) becomes a 500 error answer, never invalid JSON. */
int api_out_finish(struct api_out *o, int status, bool cacheable, struct api_response *resp);
void api_out_abort(struct api_out *o);
const char *api_metric_unit(enum metric_unit u);

/* "1h" (that long before newest) or "@1700000000" (Unix seconds) into
 * *ret; 1 when key was not given, -EINVAL with err. */
int api_parse_time(const struct http_query *q, const char *key, uint64_t newest,
		   uint64_t *ret, char *err, size_t errlen);
/* "pid:N", "comm:NAME", "unit:NAME"; -EINVAL with err. */
int api_parse_who(const char *v, enum query_who *who, const char **what, char *err,
		  size_t errlen);
const char *api_who_key(enum query_who who);

/* The measured host's name: as the daemon recorded it, else this host's. */
void api_host(struct db *db, char *buf, size_t len);

/* "window", "groups", "collector", "attribution" and "sampling_mode":
 * what a header above any table needs (coverage of each family, losses,
 * how exact the figures are), as members of the object being written. */
void api_print_window_health(struct jsonw *j, const struct window *w);
/* "recorded_under": the window's intervals recorded under another model or
 * formula version than the answer's (query.h), each with how many, whether
 * the current formulas recomputed it and the events it lacks. */
void api_print_recorded_under(struct jsonw *j, const struct recorded_under *r, unsigned n);
/* "cpi_fit": the regression CPI stack's label and fit quality, or why it
 * has no fit (api_cpifit.c); nothing for a model without that stack. */
void api_print_cpi_fit(struct jsonw *j, const struct model *m, const struct query_cpi_fit *f);
/* "attribution": the share of the window's busy CPU time charged to a
 * process and of its switches sampled, with the warning threshold (part
 * of the window health above). */
void api_print_attribution(struct jsonw *j, const struct window *w);
/* "sampling_mode": which mode measured the split's CPU time (per-switch,
 * mixed or periodic), the periodic share of it and its text for people
 * (lib/sampling_mode.h), so that every reader says it the same way. */
void api_print_sampling_mode(struct jsonw *j, const struct cpu_split *split);

#endif
