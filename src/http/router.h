/*
 * Method + path-pattern routing. Patterns are literal segments and `:name` parameters
 * ("/api/servers/:sid/channels/:cid"). Routes are tried in the order added; the first whose
 * pattern and method match wins, so literal routes ("members/@me") go before parameter ones.
 */
#ifndef PRACA_HTTP_ROUTER_H
#define PRACA_HTTP_ROUTER_H
#include <stddef.h>

#include "core/buf.h"
#include "http/request.h"

#define HTTP_ROUTE_SEGMENTS 12

struct http_route {
    int method; /* enum http_method */
    const char *pattern;
    const void *handler; /* opaque to the router */
    size_t nsegments;
    struct slice segments[HTTP_ROUTE_SEGMENTS]; /* ptr[0] == ':' marks a parameter */
};

struct http_router {
    struct http_route *routes; /* owned */
    size_t n, cap;
};

enum http_route_result {
    HTTP_ROUTE_FOUND = 0,
    HTTP_ROUTE_NOT_FOUND = -1,  /* 404 */
    HTTP_ROUTE_BAD_METHOD = -2, /* the path exists with other methods: 405 */
};

void http_router_init(struct http_router *r);
void http_router_cleanup(struct http_router *r);
/* Returns 0, or -1 for a malformed pattern or no memory. The pattern must outlive the router. */
int http_router_add(struct http_router *r, int method, const char *pattern, const void *handler);
/* On HTTP_ROUTE_FOUND, *route is set and params[0..nparams) hold the parameter values in the
 * pattern's order (slices into path). */
enum http_route_result http_router_match(const struct http_router *r, int method, struct slice path,
                                         const struct http_route **route,
                                         struct slice params[HTTP_MAX_PARAMS], size_t *nparams);
/* Index of the parameter called name (without ':') in route, or -1. */
int http_route_param_index(const struct http_route *route, const char *name);

#endif
