/*
 * Reading and parsing: bytes are read into the server's one buffer and parsed at once; a
 * complete request goes to the handler while reading goes on (bytes that arrive meanwhile wait
 * in `pending`); a body limit that depends on a credential pauses reading until it is decided.
 */
#include "http/conn.h"

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/jsonout.h"
#include "core/log.h"
#include "http/client_address.h"

/* ---- reading and parsing ---- */

static void dispatch(struct http_conn *c, struct http_request *req)
{
    struct http_exchange *ex = calloc(1, sizeof *ex);
    if (!ex) {
        http__request_cleanup(req);
        free(req);
        http__conn_close(c);
        return;
    }
    ex->req = req;
    ex->conn = c;
    ex->started_ns = uv_hrtime();
    const char *proxy = c->srv->cfg.trusted_proxy;
    struct slice forwarded =
        proxy && proxy[0] ? http_request_header(req, "x-forwarded-for") : (struct slice){NULL, 0};
    http__client_address(c->peer, proxy, forwarded, req->peer, sizeof req->peer);
    http_response_init(&ex->res);
    c->busy = ex;
    c->body_start_ms = 0;
    c->continue_sent = 0;
    http__stop_timer(c);
    c->srv->handler(c->srv->user, ex);
}

static void send_continue(struct http_conn *c)
{
    static char line[] = "HTTP/1.1 100 Continue\r\n\r\n";
    uv_buf_t b = uv_buf_init(line, sizeof line - 1);
    uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
    c->continue_sent = 1;
}

/* Feeds what arrived while reading was paused, then reads on. */
static void feed_pending(struct http_conn *c)
{
    if (c->pending.len || (c->parser && c->parser->complete)) {
        struct buf held = c->pending;
        buf_init(&c->pending, PENDING_MAX);
        http__conn_feed(c, held.data ? held.data : "", held.len);
        buf_cleanup(&held);
    }
    if (!c->busy && !c->closing && !c->writing && !c->asking && c->parser && !c->parser->waiting)
        http__start_reading(c);
}

/* An upload's files caught up with the body (or its last writes are done). */
void http__upload_woke(void *arg)
{
    struct http_conn *c = arg;
    if (c->closing || !c->parser || !c->parser->waiting)
        return;
    http__reqparse_resume(c->parser);
    if (c->parser->error_status) {
        http__send_error(c, c->parser->error_status);
        return;
    }
    feed_pending(c);
}

static void limit_decided(struct job *item, void *ctx)
{
    (void)ctx;
    struct http_limit_ask *ask = JOB_OF(item, struct http_limit_ask, back);
    struct http_conn *c = ask->conn;
    size_t limit = ask->limit;
    free(ask);
    c->asking = 0;
    if (c->closing) {
        http__maybe_free(c);
        return;
    }
    if (http__reqparse_decide(c->parser, limit)) {
        http__send_error(c, c->parser->error_status ? c->parser->error_status : 413);
        return;
    }
    if (c->parser->expect_continue && !c->continue_sent)
        send_continue(c);
    http__set_timer(
        c, T_BODY); /* the deadline of the limit decided (a chunked body's depends on it) */
    feed_pending(c);
}

void http_limit_decided(struct http_limit_ask *ask, size_t limit)
{
    ask->limit = limit;
    ask->back.run = limit_decided;
    inbox_post(ask->conn->srv->done, &ask->back);
}

/* Reading pauses while the body's limit is decided elsewhere (a credential to look up). */
static void ask_limit(struct http_conn *c)
{
    struct http_server *s = c->srv;
    struct http_limit_ask *ask = calloc(1, sizeof *ask);
    if (!ask) {
        http__send_error(c, 503);
        return;
    }
    ask->req = c->parser->req;
    ask->conn = c;
    c->asking = 1;
    http__stop_reading(c);
    if (s->cfg.body_limit_ask)
        s->cfg.body_limit_ask(s->user, ask);
    else
        http_limit_decided(ask, s->cfg.body_limit_floor);
}

void http__conn_feed(struct http_conn *c, const char *data, size_t len)
{
    if (c->lingering || !c->parser) /* no HTTP after an upgrade */
        return;
    for (;;) {
        size_t used = 0;
        enum http_reqparse_phase before = c->parser->phase;
        enum http_reqparse_result rc = http__reqparse_feed(c->parser, data, len, &used);
        data += used;
        len -= used;
        if (rc == HTTP_REQPARSE_ERROR) {
            http__send_error(c, c->parser->error_status);
            return;
        }
        if (rc == HTTP_REQPARSE_WAIT) {
            if (len && buf_append(&c->pending, data, len)) {
                http__send_error(c, 431);
                return;
            }
            http__stop_reading(c);
            return;
        }
        if (rc == HTTP_REQPARSE_ASK) {
            if (len && buf_append(&c->pending, data, len)) {
                http__send_error(c, 431);
                return;
            }
            if (before != HTTP_PHASE_BODY)
                http__set_timer(c, T_BODY); /* the lookup counts against the body's deadline */
            if (!c->asking)
                ask_limit(c);
            return;
        }
        if ((rc == HTTP_REQPARSE_REQUEST || c->parser->phase == HTTP_PHASE_BODY) &&
            http__reserve_body(c)) {
            http__send_error(c, 503);
            return;
        }
        if (rc == HTTP_REQPARSE_REQUEST) {
            if (len && buf_append(&c->pending, data, len)) {
                http__send_error(c, 431);
                return;
            }
            struct http_request *req = http__reqparse_take(c->parser);
            if (req->upgrade || c->pending.len >= READ_CHUNK)
                http__stop_reading(c);
            dispatch(c, req);
            return;
        }
        enum http_reqparse_phase now = c->parser->phase;
        if (now == HTTP_PHASE_HEAD && before != HTTP_PHASE_HEAD)
            http__set_timer(c, T_HEAD);
        else if (now == HTTP_PHASE_BODY) {
            if (before != HTTP_PHASE_BODY)
                http__set_timer(c, T_BODY); /* once: trickling bytes do not move the deadline */
            if (c->parser->expect_continue && !c->continue_sent)
                send_continue(c);
        }
        if (!len)
            return;
    }
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    struct http_conn *c = h->data;
    (void)suggested;
    /* One shared read buffer: data is consumed (parsed or copied) before the next read. */
    b->base = c->srv->read_buf;
    b->len = READ_CHUNK;
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *b)
{
    struct http_conn *c = stream->data;
    int busy = !c->stream_cb && (c->busy || c->writing);
    if (nread == UV_EOF && busy) {
        http__stop_reading(c);
        c->peer_done = 1;
        return;
    }
    if (nread < 0) {
        http__conn_close(c);
        return;
    }
    if (nread == 0 || c->closing)
        return;
    if (c->stream_cb) {
        c->stream_cb->on_data(c->stream_user, b->base, (size_t)nread);
        return;
    }
    if (busy) { /* parsed once the answer is out */
        if (buf_append(&c->pending, b->base, (size_t)nread))
            http__conn_close(c);
        else if (c->pending.len >= READ_CHUNK)
            http__stop_reading(c);
        return;
    }
    c->body_in += (size_t)nread; /* what a body's deadline counts (body_due_ms) */
    c->body_last_ms = uv_now(c->srv->loop);
    http__conn_feed(c, b->base, (size_t)nread);
}

void http__stop_reading(struct http_conn *c)
{
    if (c->reading)
        uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
}

void http__start_reading(struct http_conn *c)
{
    if (c->reading || c->closing || c->peer_done || c->asking || (c->parser && c->parser->waiting))
        return;
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0)
        c->reading = 1;
    else
        http__conn_close(c);
}
