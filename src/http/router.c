/* Router: see router.h. A linear scan over pre-split patterns: a hundred routes cost well under
 * a microsecond per request, less than any tree's bookkeeping at this size. */
#include "http/router.h"

#include <stdlib.h>
#include <string.h>

#include "core/vec.h"

void http_router_init(struct http_router *r)
{
    memset(r, 0, sizeof *r);
}

void http_router_cleanup(struct http_router *r)
{
    free(r->routes);
    memset(r, 0, sizeof *r);
}

/* Splits "/a/b/:c" into segments; returns the count or -1. */
static int split(struct slice path, struct slice *out, size_t max)
{
    if (path.len == 0 || path.ptr[0] != '/')
        return -1;
    size_t n = 0, i = 1;
    if (path.len == 1)
        return 0;
    while (i <= path.len) {
        size_t start = i;
        while (i < path.len && path.ptr[i] != '/')
            i++;
        if (i == start || n == max)
            return -1; /* empty segment ("//" or a trailing "/") or too deep */
        out[n++] = (struct slice){path.ptr + start, i - start};
        i++;
    }
    return (int)n;
}

int http_router_add(struct http_router *r, int method, const char *pattern, const void *handler)
{
    struct http_route route = {.method = method, .pattern = pattern, .handler = handler};
    int n = split(slice_from(pattern), route.segments, HTTP_ROUTE_SEGMENTS);
    if (n < 0)
        return -1;
    route.nsegments = (size_t)n;
    size_t params = 0;
    for (size_t i = 0; i < route.nsegments; i++)
        params += route.segments[i].ptr[0] == ':';
    if (params > HTTP_MAX_PARAMS)
        return -1;
    if (VEC_RESERVE(r->routes, r->n, r->cap, 64))
        return -1;
    r->routes[r->n++] = route;
    return 0;
}

static int matches(const struct http_route *route, const struct slice *segs, size_t n,
                   struct slice *params, size_t *nparams)
{
    if (route->nsegments != n)
        return 0;
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        struct slice pat = route->segments[i];
        if (pat.ptr[0] == ':') {
            params[np++] = segs[i];
        } else if (pat.len != segs[i].len || memcmp(pat.ptr, segs[i].ptr, pat.len) != 0) {
            return 0;
        }
    }
    *nparams = np;
    return 1;
}

enum http_route_result http_router_match(const struct http_router *r, int method, struct slice path,
                                         const struct http_route **route,
                                         struct slice params[HTTP_MAX_PARAMS], size_t *nparams)
{
    struct slice segs[HTTP_ROUTE_SEGMENTS];
    int n = split(path, segs, HTTP_ROUTE_SEGMENTS);
    if (n < 0)
        return HTTP_ROUTE_NOT_FOUND;
    int path_found = 0;
    for (size_t i = 0; i < r->n; i++) {
        struct slice tmp[HTTP_MAX_PARAMS];
        size_t ntmp = 0;
        if (!matches(&r->routes[i], segs, (size_t)n, tmp, &ntmp))
            continue;
        if (r->routes[i].method != method) {
            path_found = 1;
            continue;
        }
        memcpy(params, tmp, ntmp * sizeof *tmp);
        *nparams = ntmp;
        *route = &r->routes[i];
        return HTTP_ROUTE_FOUND;
    }
    return path_found ? HTTP_ROUTE_BAD_METHOD : HTTP_ROUTE_NOT_FOUND;
}

int http_route_param_index(const struct http_route *route, const char *name)
{
    int idx = 0;
    size_t nlen = strlen(name);
    for (size_t i = 0; i < route->nsegments; i++) {
        struct slice s = route->segments[i];
        if (s.ptr[0] != ':')
            continue;
        if (s.len == nlen + 1 && memcmp(s.ptr + 1, name, nlen) == 0)
            return idx;
        idx++;
    }
    return -1;
}
