/*
 * Request parsing glue: see reqparse.h.
 *
 * The request line and header bytes are appended to one bounded buffer and remembered as
 * offsets (the buffer may move as it grows); slices are made once the headers are complete.
 */
#include "http/reqparse.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

static struct http_reqparse *self(http_parser *hp)
{
    return hp->data;
}

static int ensure_req(struct http_reqparse *p)
{
    if (p->req)
        return 0;
    p->req = malloc(sizeof *p->req);
    if (!p->req)
        return -1;
    http__request_init(p->req);
    p->req->body.max = p->body_limit;
    return 0;
}

static int fail(struct http_reqparse *p, int status)
{
    p->error_status = status;
    return -1;
}

static int count_head(struct http_reqparse *p, size_t n)
{
    p->head_bytes += n;
    return p->head_bytes > HTTP_HEAD_LIMIT ? fail(p, 431) : 0;
}

static int on_message_begin(http_parser *hp)
{
    struct http_reqparse *p = self(hp);
    if (ensure_req(p))
        return fail(p, 500);
    p->phase = HTTP_PHASE_HEAD;
    return 0;
}

static int on_url(http_parser *hp, const char *at, size_t len)
{
    struct http_reqparse *p = self(hp);
    if (count_head(p, len))
        return -1;
    if (buf_append(&p->req->head, at, len))
        return fail(p, 431);
    p->url_len += len;
    return 0;
}

static int end_header(struct http_reqparse *p)
{
    if (!p->in_value)
        return 0;
    struct http_request *r = p->req;
    if (r->nheaders == HTTP_MAX_HEADERS)
        return fail(p, 431);
    p->spans[r->nheaders].name_off = p->name_off;
    p->spans[r->nheaders].name_len = p->name_len;
    p->spans[r->nheaders].value_off = p->value_off;
    p->spans[r->nheaders].value_len = p->value_len;
    r->nheaders++;
    p->in_value = 0;
    p->name_len = p->value_len = 0;
    return 0;
}

static int on_header_field(http_parser *hp, const char *at, size_t len)
{
    struct http_reqparse *p = self(hp);
    if (count_head(p, len))
        return -1;
    if (p->phase != HTTP_PHASE_HEAD)
        return 0; /* trailers of a chunked body: counted, not kept */
    if (end_header(p))
        return -1;
    if (p->name_len == 0)
        p->name_off = p->req->head.len;
    p->name_len += len;
    return buf_append(&p->req->head, at, len) ? fail(p, 431) : 0;
}

static int on_header_value(http_parser *hp, const char *at, size_t len)
{
    struct http_reqparse *p = self(hp);
    if (count_head(p, len))
        return -1;
    if (p->phase != HTTP_PHASE_HEAD)
        return 0;
    if (!p->in_value) {
        p->in_value = 1;
        p->value_off = p->req->head.len;
        p->value_len = 0;
    }
    p->value_len += len;
    return buf_append(&p->req->head, at, len) ? fail(p, 431) : 0;
}

/* A body the limit's decision asked to take as an upload, when it is multipart/form-data. */
static int start_upload(struct http_reqparse *p)
{
    struct http_request *r = p->req;
    struct slice type = http_request_header(r, "content-type");
    if (!r->upload_limits.dir || !r->upload_limits.dir[0] || !p->loop ||
        !(type.len >= 10 && slice_eq_nocase((struct slice){type.ptr, 10}, "multipart/")))
        return 0;
    int status;
    r->upload = http_upload_new(p->loop, &r->upload_limits, type, &status);
    if (!r->upload)
        return fail(p, status);
    if (p->upload_wake)
        http_upload_on_wake(r->upload, p->upload_wake, p->upload_wake_arg);
    return 0;
}

/* The body's limit is known: the declared length must fit it (413 before any body byte). */
static int apply_limit(struct http_reqparse *p, size_t limit)
{
    http_parser *hp = &p->parser;
    struct http_request *r = p->req;
    int chunked = (hp->flags & F_CHUNKED) != 0;
    r->body.max = limit;
    if (!chunked && hp->content_length != ULLONG_MAX && hp->content_length > limit)
        return fail(p, 413);
    p->body_declared =
        !chunked && hp->content_length != ULLONG_MAX ? (size_t)hp->content_length : 0;
    p->expect_continue = slice_eq_nocase(http_request_header(r, "expect"), "100-continue");
    return start_upload(p);
}

static int on_headers_complete(http_parser *hp)
{
    struct http_reqparse *p = self(hp);
    struct http_request *r = p->req;
    if (end_header(p))
        return -1;
    const char *base = r->head.data ? r->head.data : "";
    for (size_t i = 0; i < r->nheaders; i++) {
        r->headers[i].name = (struct slice){base + p->spans[i].name_off, p->spans[i].name_len};
        r->headers[i].value = (struct slice){base + p->spans[i].value_off, p->spans[i].value_len};
    }
    r->target = (struct slice){base, p->url_len};
    const char *q = memchr(base, '?', p->url_len);
    r->path = (struct slice){base, q ? (size_t)(q - base) : p->url_len};
    r->query = q ? (struct slice){q + 1, p->url_len - (size_t)(q - base) - 1}
                 : (struct slice){base + p->url_len, 0};
    size_t hosts = 0;
    for (size_t i = 0; i < r->nheaders; i++)
        hosts += slice_eq_nocase(r->headers[i].name, "host");
    if (hosts > 1 || (hosts == 0 && hp->http_major == 1 && hp->http_minor >= 1))
        return fail(p, 400); /* RFC 9112 §3.2: exactly one Host in HTTP/1.1 */
    r->method = hp->method;
    r->keep_alive = http_should_keep_alive(hp);
    r->upgrade = hp->upgrade;
    p->phase = HTTP_PHASE_BODY;
    size_t limit = p->body_limit;
    if (p->limit_for) {
        size_t asked = p->limit_for(p->limit_user, r);
        r->nparams = 0; /* a router may have looked; the handler routes again */
        if (asked == HTTP_BODY_LIMIT_ASK) {
            int chunked = (hp->flags & F_CHUNKED) != 0;
            if (chunked || hp->content_length == ULLONG_MAX ||
                hp->content_length > p->limit_floor || r->upload_limits.dir) {
                p->asking = 1;
                http_parser_pause(hp, 1);
                return 0;
            }
            asked = p->limit_floor;
        }
        limit = asked < limit ? asked : limit;
    }
    return apply_limit(p, limit);
}

static int on_body(http_parser *hp, const char *at, size_t len)
{
    struct http_reqparse *p = self(hp);
    if (p->req->upload) {
        /* Counted here, as the buffer would: the upload itself only bounds each file. */
        if ((p->upload_bytes += len) > p->req->body.max)
            return fail(p, 413);
        int rc = http_upload_feed(p->req->upload, at, len);
        if (rc == 1) {
            p->waiting = 1;
            http_parser_pause(hp, 1);
            return 0;
        }
        return rc ? fail(p, rc) : 0;
    }
    int rc = buf_append(&p->req->body, at, len);
    if (rc == BUF_ETOOBIG)
        return fail(p, 413);
    return rc ? fail(p, 500) : 0;
}

static int on_message_complete(http_parser *hp)
{
    struct http_reqparse *p = self(hp);
    p->complete = 1;
    http_parser_pause(hp, 1);
    if (p->req->upload) {
        int rc = http_upload_end(p->req->upload);
        if (rc > 1)
            return fail(p, rc);
        p->waiting = rc == 1;
    }
    return 0;
}

static const http_parser_settings settings = {
    .on_message_begin = on_message_begin,
    .on_url = on_url,
    .on_header_field = on_header_field,
    .on_header_value = on_header_value,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

static void reset(struct http_reqparse *p)
{
    p->head_bytes = 0;
    p->complete = 0;
    p->expect_continue = 0;
    p->body_declared = 0;
    p->asking = 0;
    p->waiting = 0;
    p->upload_bytes = 0;
    p->phase = HTTP_PHASE_IDLE;
    p->in_value = 0;
    p->name_len = p->value_len = 0;
    p->url_len = 0;
}

void http__reqparse_init(struct http_reqparse *p, size_t body_limit)
{
    memset(p, 0, sizeof *p);
    http_parser_init(&p->parser, HTTP_REQUEST);
    p->parser.data = p;
    p->body_limit = body_limit;
    reset(p);
}

void http__reqparse_cleanup(struct http_reqparse *p)
{
    if (p->req) {
        http__request_cleanup(p->req);
        free(p->req);
        p->req = NULL;
    }
}

/* 1 when the parser holds where it is (*out says why): an error to answer, an upload's writes
 * to wait for, a request to take, or a body limit being decided elsewhere. */
static int stopped(const struct http_reqparse *p, enum http_reqparse_result *out)
{
    *out = p->error_status ? HTTP_REQPARSE_ERROR
           : p->waiting    ? HTTP_REQPARSE_WAIT
           : p->complete   ? HTTP_REQPARSE_REQUEST
           : p->asking     ? HTTP_REQPARSE_ASK
                           : HTTP_REQPARSE_MORE;
    return *out != HTTP_REQPARSE_MORE;
}

enum http_reqparse_result http__reqparse_feed(struct http_reqparse *p, const char *data, size_t len,
                                              size_t *consumed)
{
    *consumed = 0;
    enum http_reqparse_result held;
    if (stopped(p, &held))
        return held;
    size_t n = http_parser_execute(&p->parser, &settings, data, len);
    *consumed = n;
    enum http_errno err = HTTP_PARSER_ERRNO(&p->parser);
    if (stopped(p, &held))
        return held;
    if (err != HPE_OK || p->parser.upgrade) {
        if (!p->error_status)
            p->error_status = err == HPE_HEADER_OVERFLOW ? 431 : 400;
        return HTTP_REQPARSE_ERROR;
    }
    return HTTP_REQPARSE_MORE;
}

int http__reqparse_decide(struct http_reqparse *p, size_t limit)
{
    if (!p->asking)
        return -1;
    p->asking = 0;
    http_parser_pause(&p->parser, 0);
    return apply_limit(p, limit < p->body_limit ? limit : p->body_limit) ? -1 : 0;
}

void http__reqparse_resume(struct http_reqparse *p)
{
    if (!p->waiting)
        return;
    p->waiting = 0;
    if (p->complete) {
        int rc = p->req && p->req->upload ? http_upload_state(p->req->upload) : 0;
        if (rc == 1)
            p->waiting = 1; /* not done yet after all */
        else if (rc)
            p->error_status = rc;
        return;
    }
    http_parser_pause(&p->parser, 0);
}

size_t http__reqparse_limit(const struct http_reqparse *p)
{
    if (p->req && p->req->upload && p->req->upload->refused_limit)
        return p->req->upload->refused_limit;
    return p->req ? p->req->body.max : p->body_limit;
}

struct http_request *http__reqparse_take(struct http_reqparse *p)
{
    if (!p->complete)
        return NULL;
    struct http_request *r = p->req;
    p->req = NULL;
    reset(p);
    http_parser_pause(&p->parser, 0);
    return r;
}
