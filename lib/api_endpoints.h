/*
 * api_endpoints.h - the API's endpoints (docs/api.md), one function and
 * one file each (api_top.c, api_target.c, ...), all of the one type
 * api_endpoint_fn (api_out.h) so that api_routes.c can list them in a
 * table.  Internal to the API.
 */
#ifndef STACKD_API_ENDPOINTS_H
#define STACKD_API_ENDPOINTS_H

#include "lib/api_out.h"

int api_top(const struct api_request *rq, struct api_response *resp);      /* /api/v1/top */
/* /api/v1/{processes,comms,units}/NAME: rq->who and rq->what */
int api_target(const struct api_request *rq, struct api_response *resp);
int api_series(const struct api_request *rq, struct api_response *resp);   /* /api/v1/series */
int api_export(const struct api_request *rq, struct api_response *resp);   /* /api/v1/export */
int api_system(const struct api_request *rq, struct api_response *resp);   /* /api/v1/system */

#endif
