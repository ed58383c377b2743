/*
 * api_routes.h - which endpoint answers which path: the table api.c
 * dispatches through, so that the router calls the endpoints only through
 * it and never the other way round.  Internal to the API.
 */
#ifndef STACKD_API_ROUTES_H
#define STACKD_API_ROUTES_H

#include "lib/api_out.h"

#include <stdbool.h>

struct api_route {
	const char *path;
	/* path is a prefix, followed by one %-escaped NAME of kind who (no
	 * further '/'): the target endpoint's paths */
	bool named;
	enum query_who who;
	api_endpoint_fn *fn;
};

/* The route whose path is path (or, for a named route, a prefix of it with
 * a non-empty NAME after it); NULL when none. */
const struct api_route *api_route_find(const char *path);

#endif
