/*
 * api.c - see api.h: the entry point, which checks the method and the
 * path's form and hands the request to the endpoint the route table
 * (api_routes.c) names.  Every answer is JSON; a failure is {"error":
 * "..."} with a 4xx or 5xx status (api_error, api_out.c).
 */
#include "lib/api.h"
#include "lib/api_routes.h"
#include "lib/http_query.h"

#include <string.h>

int api_handle(const struct api_info *info, struct db *db, const char *db_err,
	       const char *method, const char *path, const char *query,
	       const struct api_access *acc, struct api_response *resp)
{
	struct api_request rq = { info, db, query, acc, WHO_PID, NULL };
	const struct api_route *route;
	char name[HTTP_QUERY_MAX_VALUE];

	memset(resp, 0, sizeof(*resp));
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return api_error(resp, 405, "method %s not allowed (GET only)", method);
	if (strncmp(path, "/api/v1/", 8) != 0)
		return api_error(resp, 404, "no such endpoint: %s", path);
	if (db == NULL)
		return api_error(resp, 503, "the database cannot be read: %s", db_err);
	route = api_route_find(path);
	if (route == NULL)
		return api_error(resp, 404, "no such endpoint: %s (see docs/api.md)", path);
	if (route->named) {
		const char *segment = path + strlen(route->path);

		if (http_query_decode_segment(segment, name, sizeof(name)) <= 0)
			return api_error(resp, 400, "'%s' is not a valid name (bad %%-escape, "
					 "control character or too long)", segment);
		rq.who = route->who;
		rq.what = name;
	}
	return route->fn(&rq, resp);
}
