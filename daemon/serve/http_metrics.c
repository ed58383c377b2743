/*
 * http_metrics.c - GET /metrics: what prom.h renders, in Prometheus text
 * format.
 */
#include "daemon/serve/http_server_private.h"
#include "daemon/serve/prom.h"
#include "lib/http_query.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GET /metrics: Prometheus text format; a user who may not see every
 * process gets the collector's health only. */
int http_metrics(struct http_server *s, const char *method, const char *query,
		 const struct api_access *acc, struct api_response *resp)
{
	static const char *const keys[] = { NULL };
	struct http_query q;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(resp, 0, sizeof(*resp));
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return api_error(resp, 405, "method %s not allowed (GET only)", method);
	if (http_query_parse(query, keys, &q, err, sizeof(err)) < 0)
		return api_error(resp, 400, "%s", err);
	f = open_memstream(&buf, &len);
	if (f == NULL)
		return -ENOMEM;
	prom_render(s->cfg.prom, s->cfg.info.writer, acc->full, f);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	resp->status = 200;
	resp->body = buf;
	resp->len = len;
	resp->content_type = "text/plain; version=0.0.4; charset=utf-8";
	resp->cacheable = true;
	return 0;
}
