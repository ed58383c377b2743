/*
 * api_routes.c - the table of the API's paths and their endpoints (see
 * api_routes.h).  The only file besides the endpoints' own that names them.
 */
#include "lib/api_routes.h"
#include "lib/api_endpoints.h"

#include <string.h>

static const struct api_route routes[] = {
	{ "/api/v1/top", false, WHO_PID, api_top },
	{ "/api/v1/series", false, WHO_PID, api_series },
	{ "/api/v1/export", false, WHO_PID, api_export },
	{ "/api/v1/system", false, WHO_PID, api_system },
	{ "/api/v1/processes/", true, WHO_PID, api_target },
	{ "/api/v1/comms/", true, WHO_COMM, api_target },
	{ "/api/v1/units/", true, WHO_UNIT, api_target },
};

static bool route_matches(const struct api_route *r, const char *path)
{
	size_t n = strlen(r->path);

	if (!r->named)
		return strcmp(path, r->path) == 0;
	return strncmp(path, r->path, n) == 0 && path[n] != '\0' && strchr(path + n, '/') == NULL;
}

const struct api_route *api_route_find(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		if (route_matches(&routes[i], path))
			return &routes[i];
	return NULL;
}
