/*
 * libFuzzer driver for the HTTP request path: bytes → request parser (with its limits) →
 * router over the real route table → JSON body checks of the API's input readers.
 */
#include <http_parser.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/input.h"
#include "http/reqparse.h"
#include "http/router.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct http_router router;
static int ready;

static void setup(void)
{
    http_router_init(&router);
    for (size_t t = 0; api_route_tables[t]; t++)
        for (const struct api_route *r = api_route_tables[t]; r->pattern; r++)
            http_router_add(&router, r->method, r->pattern, r);
    ready = 1;
}

static void check_body(struct http_request *req, const struct http_route *route)
{
    struct http_response res;
    http_response_init(&res);
    struct api_call c = {.req = req, .res = &res, .route = route};
    json_t *body = api__body(&c);
    if (body) {
        const char *s;
        int64_t i;
        int b;
        uint64_t perms;
        /* Each reader either accepts or answers 400 once; reset between them. */
        api__in_str(&c, body, "name", 1, 100, API_IN_TRIM, &s);
        c.answered = 0;
        api__in_str(&c, body, "username", 0, 64, API_IN_REQUIRED, &s);
        c.answered = 0;
        api__in_int(&c, body, "verificationLevel", 0, 3, API_IN_NULLABLE, &i);
        c.answered = 0;
        api__in_bool(&c, body, "discoverable", 0, &b);
        c.answered = 0;
        api__in_perms(&c, body, "permissions", 0, &perms);
        c.answered = 0;
        api__in_id(&c, body, "userId", 0, &s);
        c.answered = 0;
        api__in_time(&c, body, "timeoutUntil", &i);
    }
    json_decref(c.body);
    http_response_cleanup(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        setup();
    struct http_reqparse p;
    http__reqparse_init(&p, 1 << 20);
    const char *in = (const char *)data;
    for (int rounds = 0; rounds < 16 && size; rounds++) {
        size_t used = 0;
        enum http_reqparse_result rc = http__reqparse_feed(&p, in, size, &used);
        in += used;
        size -= used;
        if (rc != HTTP_REQPARSE_REQUEST)
            break;
        struct http_request *req = http__reqparse_take(&p);
        const struct http_route *route = NULL;
        struct slice params[HTTP_MAX_PARAMS];
        size_t n = 0;
        if (http_router_match(&router, req->method, req->path, &route, params, &n) ==
            HTTP_ROUTE_FOUND)
            check_body(req, route);
        struct slice v;
        http_query_param(req->query, "limit", &v);
        http__request_cleanup(req);
        free(req);
        if (p.parser.upgrade)
            break;
    }
    http__reqparse_cleanup(&p);
    return 0;
}
