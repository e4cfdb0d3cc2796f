/* What the front door (dispatch.c) and the body's limits (body_limits.c) share. */
#ifndef PRACA_API_DISPATCH_PARTS_H
#define PRACA_API_DISPATCH_PARTS_H

#include "api/api.h"

#define TOKEN_MAX 256 /* a credential longer than this is no credential */

/* Whether the path is under /api. */
int api__is_api_path(struct slice path);
/* The route of a request (HEAD as GET), its parameters filled. */
enum http_route_result api__route_of(struct api_service *a, struct http_request *req,
                                     const struct http_route **route);
/* The caller's credential: the bearer token, else the session cookie (*via_cookie 1; may be
 * NULL). An empty slice when there is neither. */
struct slice api__request_token(const struct http_request *req, int *via_cookie);

#endif
