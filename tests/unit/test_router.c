#include <criterion/criterion.h>
#include <http_parser.h>

#include "http/router.h"

static struct http_router r;
static int h_list, h_get, h_me, h_kick;

static void setup(void)
{
    http_router_init(&r);
    cr_assert_eq(http_router_add(&r, HTTP_GET, "/api/servers", &h_list), 0);
    cr_assert_eq(http_router_add(&r, HTTP_GET, "/api/servers/:sid", &h_get), 0);
    cr_assert_eq(http_router_add(&r, HTTP_DELETE, "/api/servers/:sid/members/@me", &h_me), 0);
    cr_assert_eq(http_router_add(&r, HTTP_DELETE, "/api/servers/:sid/members/:uid", &h_kick), 0);
}

static void teardown(void)
{
    http_router_cleanup(&r);
}

TestSuite(router, .init = setup, .fini = teardown);

Test(router, matches_params_in_order)
{
    const struct http_route *route;
    struct slice params[HTTP_MAX_PARAMS];
    size_t n;
    cr_assert_eq(http_router_match(&r, HTTP_DELETE, SLICE_LIT("/api/servers/S1/members/U2"), &route,
                                   params, &n),
                 HTTP_ROUTE_FOUND);
    cr_assert_eq(route->handler, &h_kick);
    cr_assert_eq(n, 2);
    cr_assert(slice_eq(params[0], "S1"));
    cr_assert(slice_eq(params[1], "U2"));
    cr_assert_eq(http_route_param_index(route, "uid"), 1);
    cr_assert_eq(http_route_param_index(route, "nope"), -1);
}

Test(router, literal_before_param)
{
    const struct http_route *route;
    struct slice params[HTTP_MAX_PARAMS];
    size_t n;
    http_router_match(&r, HTTP_DELETE, SLICE_LIT("/api/servers/S/members/@me"), &route, params, &n);
    cr_assert_eq(route->handler, &h_me);
}

Test(router, not_found_and_wrong_method)
{
    const struct http_route *route;
    struct slice params[HTTP_MAX_PARAMS];
    size_t n;
    cr_assert_eq(http_router_match(&r, HTTP_GET, SLICE_LIT("/api/nope"), &route, params, &n),
                 HTTP_ROUTE_NOT_FOUND);
    cr_assert_eq(http_router_match(&r, HTTP_POST, SLICE_LIT("/api/servers/x"), &route, params, &n),
                 HTTP_ROUTE_BAD_METHOD);
    cr_assert_eq(http_router_match(&r, HTTP_GET, SLICE_LIT("/api/servers/"), &route, params, &n),
                 HTTP_ROUTE_NOT_FOUND);
    cr_assert_eq(http_router_match(&r, HTTP_GET, SLICE_LIT("/api//servers"), &route, params, &n),
                 HTTP_ROUTE_NOT_FOUND);
    cr_assert_eq(http_router_match(&r, HTTP_GET, SLICE_LIT(""), &route, params, &n),
                 HTTP_ROUTE_NOT_FOUND);
}

Test(router, refuses_bad_patterns)
{
    cr_assert_neq(http_router_add(&r, HTTP_GET, "no-slash", &h_get), 0);
    cr_assert_neq(http_router_add(&r, HTTP_GET, "/a//b", &h_get), 0);
}
