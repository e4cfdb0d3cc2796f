/* HTTP request parsing glue: pipelining, limits, chunked bodies, malformed input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/reqparse.h"

static struct http_reqparse p;

static void setup(void)
{
    http__reqparse_init(&p, 1000);
}

static void teardown(void)
{
    http__reqparse_cleanup(&p);
}

static void free_req(struct http_request *r)
{
    http__request_cleanup(r);
    free(r);
}

TestSuite(reqparse, .init = setup, .fini = teardown);

Test(reqparse, pipelined_requests_come_out_one_at_a_time)
{
    const char *in = "GET /api/a?x=1 HTTP/1.1\r\nHost: h\r\n\r\n"
                     "POST /api/b HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}";
    size_t len = strlen(in), used;
    cr_assert_eq(http__reqparse_feed(&p, in, len, &used), HTTP_REQPARSE_REQUEST);
    struct http_request *r = http__reqparse_take(&p);
    cr_assert(slice_eq(r->path, "/api/a"));
    cr_assert(slice_eq(r->query, "x=1"));
    cr_assert(slice_eq(http_request_header(r, "HOST"), "h"));
    cr_assert(r->keep_alive);
    free_req(r);
    size_t rest;
    cr_assert_eq(http__reqparse_feed(&p, in + used, len - used, &rest), HTTP_REQPARSE_REQUEST);
    cr_assert_eq(used + rest, len);
    r = http__reqparse_take(&p);
    cr_assert(slice_eq(r->path, "/api/b"));
    cr_assert_eq(r->body.len, 2);
    free_req(r);
}

Test(reqparse, byte_by_byte)
{
    const char *in = "PUT /x HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nContent-Length: 3\r\n\r\nabc";
    size_t len = strlen(in), used;
    for (size_t i = 0; i + 1 < len; i++)
        cr_assert_eq(http__reqparse_feed(&p, in + i, 1, &used), HTTP_REQPARSE_MORE);
    cr_assert_eq(http__reqparse_feed(&p, in + len - 1, 1, &used), HTTP_REQPARSE_REQUEST);
    struct http_request *r = http__reqparse_take(&p);
    cr_assert_eq(r->nheaders, 4);
    cr_assert(slice_eq(http_request_header(r, "b"), "2"));
    cr_assert_eq(strncmp(r->body.data, "abc", 3), 0);
    free_req(r);
}

Test(reqparse, content_length_over_limit_is_413_before_the_body)
{
    const char *in = "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1001\r\n\r\n";
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, in, strlen(in), &used), HTTP_REQPARSE_ERROR);
    cr_assert_eq(p.error_status, 413);
}

Test(reqparse, chunked_body_over_limit_is_413)
{
    const char *head = "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n";
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, head, strlen(head), &used), HTTP_REQPARSE_MORE);
    char chunk[700];
    memcpy(chunk, "258\r\n", 5); /* 600 bytes */
    memset(chunk + 5, 'a', 600);
    memcpy(chunk + 605, "\r\n", 2);
    cr_assert_eq(http__reqparse_feed(&p, chunk, 607, &used), HTTP_REQPARSE_MORE);
    cr_assert_eq(http__reqparse_feed(&p, chunk, 607, &used), HTTP_REQPARSE_ERROR);
    cr_assert_eq(p.error_status, 413);
}

Test(reqparse, chunked_body_is_joined)
{
    const char *in = "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "3\r\n{\"a\r\n4\r\n\":1}\r\n0\r\n\r\n";
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, in, strlen(in), &used), HTTP_REQPARSE_REQUEST);
    struct http_request *r = http__reqparse_take(&p);
    cr_assert_str_eq(r->body.data, "{\"a\":1}");
    free_req(r);
}

Test(reqparse, headers_over_16k_are_431)
{
    size_t n = 17 * 1024;
    char *in = malloc(n + 64);
    int k = snprintf(in, 64, "GET / HTTP/1.1\r\nX: ");
    memset(in + k, 'a', n);
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, in, (size_t)k + n, &used), HTTP_REQPARSE_ERROR);
    cr_assert_eq(p.error_status, 431);
    free(in);
}

Test(reqparse, too_many_headers_are_431)
{
    char in[4096];
    size_t o = (size_t)snprintf(in, sizeof in, "GET / HTTP/1.1\r\n");
    for (int i = 0; i < 101; i++)
        o += (size_t)snprintf(in + o, sizeof in - o, "h%d: v\r\n", i);
    o += (size_t)snprintf(in + o, sizeof in - o, "\r\n");
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, in, o, &used), HTTP_REQPARSE_ERROR);
    cr_assert_eq(p.error_status, 431);
}

Test(reqparse, garbage_is_400)
{
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, "HELLO\r\n\r\n", 9, &used), HTTP_REQPARSE_ERROR);
    cr_assert_eq(p.error_status, 400);
}

Test(reqparse, expect_continue_is_noticed)
{
    const char *in =
        "POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n";
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, in, strlen(in), &used), HTTP_REQPARSE_MORE);
    cr_assert(p.expect_continue);
    cr_assert_eq(p.phase, HTTP_PHASE_BODY);
}

Test(reqparse, query_and_decoding_helpers)
{
    struct slice q = SLICE_LIT("a=1&limit=50&empty&x=%C3%A7+b");
    struct slice v;
    cr_assert(http_query_param(q, "limit", &v));
    cr_assert(slice_eq(v, "50"));
    cr_assert(http_query_param(q, "empty", &v));
    cr_assert_eq(v.len, 0);
    cr_assert(!http_query_param(q, "lim", &v));
    cr_assert(http_query_param(q, "x", &v));
    char out[16];
    cr_assert_eq(http_url_decode(v, out, sizeof out, NULL), 0);
    cr_assert_str_eq(out, "ç b");
    cr_assert_neq(http_url_decode(SLICE_LIT("%4"), out, sizeof out, NULL), 0);
    cr_assert_neq(http_url_decode(SLICE_LIT("%zz"), out, sizeof out, NULL), 0);
}

Test(reqparse, http11_needs_exactly_one_host)
{
    const char *missing = "GET / HTTP/1.1\r\n\r\n";
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, missing, strlen(missing), &used), HTTP_REQPARSE_ERROR);
    cr_assert_eq(p.error_status, 400);
}

Test(reqparse, two_hosts_are_refused)
{
    const char *two = "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n";
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, two, strlen(two), &used), HTTP_REQPARSE_ERROR);
    cr_assert_eq(p.error_status, 400);
}

Test(reqparse, http10_predates_host)
{
    const char *old = "GET / HTTP/1.0\r\n\r\n";
    size_t used;
    cr_assert_eq(http__reqparse_feed(&p, old, strlen(old), &used), HTTP_REQPARSE_REQUEST);
    free_req(http__reqparse_take(&p));
}

static size_t ask_always(void *user, struct http_request *req)
{
    (void)user;
    (void)req;
    return HTTP_BODY_LIMIT_ASK;
}

/* Feeds the whole input, deciding `limit` when asked; returns the last result. */
static enum http_reqparse_result feed_deciding(const char *in, size_t limit, int *asked)
{
    size_t len = strlen(in), used;
    *asked = 0;
    enum http_reqparse_result rc = http__reqparse_feed(&p, in, len, &used);
    if (rc == HTTP_REQPARSE_ASK) {
        *asked = 1;
        size_t again;
        cr_assert_eq(http__reqparse_feed(&p, in + used, len - used, &again), HTTP_REQPARSE_ASK,
                     "nothing more is taken until the limit is decided");
        cr_assert_eq(again, 0);
        if (http__reqparse_decide(&p, limit))
            return HTTP_REQPARSE_ERROR;
        rc = http__reqparse_feed(&p, in + used, len - used, &again);
    }
    return rc;
}

Test(reqparse, an_asked_limit_is_decided_before_the_body_and_applied)
{
    p.limit_for = ask_always;
    p.limit_floor = 10;
    int asked;
    /* Small enough for the floor: no asking. */
    cr_assert_eq(
        feed_deciding("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}", 0, &asked),
        HTTP_REQPARSE_REQUEST);
    cr_assert_eq(asked, 0);
    free_req(http__reqparse_take(&p));
    /* Over the floor: asked, then read whole under the decided limit. */
    cr_assert_eq(feed_deciding("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 12\r\n\r\n"
                               "{\"a\":\"1234\"}",
                               500, &asked),
                 HTTP_REQPARSE_REQUEST);
    cr_assert_eq(asked, 1);
    struct http_request *r = http__reqparse_take(&p);
    cr_assert_eq(r->body.len, 12);
    free_req(r);
    /* Over the decided limit: 413, and the limit that applied is known for the answer. */
    cr_assert_eq(
        feed_deciding("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 600\r\n\r\n", 500, &asked),
        HTTP_REQPARSE_ERROR);
    cr_assert_eq(p.error_status, 413);
    cr_assert_eq(http__reqparse_limit(&p), 500);
}

Test(reqparse, a_decided_limit_never_passes_the_parser_s_own)
{
    p.limit_for = ask_always;
    int asked;
    cr_assert_eq(feed_deciding("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1001\r\n\r\n",
                               1000000, &asked),
                 HTTP_REQPARSE_ERROR);
    cr_assert_eq(http__reqparse_limit(&p), 1000);
}
