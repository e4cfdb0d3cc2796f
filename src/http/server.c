/*
 * HTTP server: see server.h. This file accepts connections, keeps their deadlines and budgets,
 * frees them, takes answers back from the handlers and drains; the rest is read.c, write.c and
 * stream.c (conn.h).
 *
 * Life of a connection: reading → (request complete) the exchange goes to the handler → response
 * written → parsing resumes on any pipelined bytes kept in `pending`. Reading goes on while the
 * handler runs (stopping and restarting it costs two epoll_ctl calls per request): bytes that
 * arrive meanwhile wait in `pending`, and reading pauses only when it holds READ_CHUNK bytes, the
 * peer has finished sending, or the request is an upgrade (the stream takes what follows). One
 * timer per connection enforces the idle, header and body deadlines. A connection is freed only
 * when both its handles are closed and no exchange refers to it (mark, then reap).
 */
#include "http/server.h"

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
#include "http/conn.h"

static void release_body(struct http_conn *c)
{
    c->srv->stats.body_bytes -= c->body_reserved;
    c->body_reserved = 0;
    c->srv->stats.spool_bytes -= c->spool_reserved;
    c->spool_reserved = 0;
}

/* An upload's files count against the spool's budget by the bytes received, until its handler
 * is done with them: an upload that stalls holds only what it sent. One that declares more than
 * is free now is refused at its first byte. -1 past the budget. */
static int reserve_spool(struct http_conn *c)
{
    struct http_reqparse *p = c->parser;
    if (!p->req || !p->req->upload)
        return 0;
    struct http_server *s = c->srv;
    size_t free_now = s->cfg.spool_budget - s->stats.spool_bytes;
    if (!c->spool_reserved && p->body_declared > free_now)
        return -1;
    size_t want = p->upload_bytes ? p->upload_bytes : 1; /* 1: counted from its first byte */
    if (want <= c->spool_reserved)
        return 0;
    if (want - c->spool_reserved > free_now)
        return -1;
    s->stats.spool_bytes += want - c->spool_reserved;
    c->spool_reserved = want;
    return 0;
}

/* Counts the body of the request being read against the server's budget; -1 past it. */
int http__reserve_body(struct http_conn *c)
{
    struct http_reqparse *p = c->parser;
    size_t have = p->req ? p->req->body.len : 0;
    size_t want = p->body_declared > have ? p->body_declared : have;
    if (p->req && p->req->upload) {
        want = HTTP_UPLOAD_STAGED; /* its files are on disk: only the staged bytes are held */
        if (reserve_spool(c))
            return -1;
    }
    if (want <= c->body_reserved)
        return 0;
    struct http_server *s = c->srv;
    size_t more = want - c->body_reserved;
    if (s->stats.body_bytes + more > s->cfg.body_budget)
        return -1;
    s->stats.body_bytes += more;
    c->body_reserved = want;
    return 0;
}

void http__exchange_free(struct http_exchange *ex)
{
    if (!ex)
        return;
    if (ex->conn)
        release_body(ex->conn);
    if (ex->req) {
        http__request_cleanup(ex->req);
        free(ex->req);
    }
    http_response_cleanup(&ex->res);
    free(ex);
}

/* ---- freeing: mark, then reap ---- */

static void on_async_closed(uv_handle_t *h)
{
    (void)h;
}

static void finish_drain(struct http_server *s)
{
    if (s->drain_finished)
        return;
    s->drain_finished = 1;
    uv_close((uv_handle_t *)&s->drain_timer, on_async_closed);
    inbox_close(s->done); /* the loop can end now */
    s->done = NULL;
    if (s->drained)
        s->drained(s->drained_arg);
}

/* Adds delta to the connections from addr; returns the count now. */
static uintptr_t count_address(struct http_server *s, const char *addr, int delta)
{
    uintptr_t now = (uintptr_t)map_get(&s->per_address, addr);
    if (delta < 0 && now == 0)
        return 0; /* never counted (its map_set failed) */
    uintptr_t n = now + (uintptr_t)(intptr_t)delta;
    if (n == 0)
        map_remove(&s->per_address, addr);
    else if (map_set(&s->per_address, addr, (void *)n))
        return UINTPTR_MAX; /* no memory: treated as over the cap */
    return n;
}

void http__maybe_free(struct http_conn *c)
{
    if (c->open_handles || c->busy || c->writing || c->stream_writes || c->asking)
        return;
    struct http_server *s = c->srv;
    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (c->parser) {
        http__reqparse_cleanup(c->parser);
        free(c->parser);
    }
    buf_cleanup(&c->pending);
    release_body(c);
    http__release_answer(c);
    if (c->counted)
        count_address(s, c->peer, -1);
    free(c);
    s->stats.connections--;
    if (s->draining && s->stats.connections == 0)
        finish_drain(s);
}

static void on_handle_closed(uv_handle_t *h)
{
    struct http_conn *c = h->data;
    if (c->stream_cb) { /* closed while upgrading: the owner has its stream by now */
        const struct http_stream_callbacks *cb = c->stream_cb;
        c->stream_cb = NULL;
        cb->on_close(c->stream_user);
    }
    c->open_handles--;
    http__maybe_free(c);
}

void http__conn_close(struct http_conn *c)
{
    if (c->closing)
        return;
    c->closing = 1;
    if (c->stream_cb && !c->upgrading) {
        const struct http_stream_callbacks *cb = c->stream_cb;
        c->stream_cb = NULL;
        cb->on_close(c->stream_user);
    }
    if (c->busy && !c->writing && c->busy->on_abort) {
        void (*abort_fn)(struct http_exchange *) = c->busy->on_abort;
        c->busy->on_abort = NULL;
        abort_fn(c->busy);
    }
    uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
    uv_close((uv_handle_t *)&c->timer, on_handle_closed);
}

/* ---- timers ---- */

static int body_due_ms(struct http_conn *c);

static void on_timer(uv_timer_t *t)
{
    struct http_conn *c = t->data;
    enum timer_kind kind = c->timer_kind;
    c->timer_kind = T_NONE;
    if (kind == T_BODY && !c->srv->draining && body_due_ms(c) > 0) {
        http__set_timer(c, T_BODY); /* bytes came since it was set: not due yet */
    } else if (kind == T_HEAD || kind == T_BODY) {
        http__send_error(c, 408);
    } else if (kind == T_WRITE && c->writing && c->tcp.write_queue_size < c->write_left) {
        http__write_deadline(c); /* the client is reading, however slowly: it gets another period */
    } else {
        if (kind == T_WRITE)
            c->srv->stats.write_timeouts++;
        http__conn_close(c);
    }
}

/* Milliseconds until the body is late (0 or less: it is). A body is late when no byte came for
 * the body timeout, or, once the first timeout has passed, when fewer bytes came than
 * BODY_MIN_RATE a second since then: whatever it declares, a client that stalls or trickles
 * holds its connection and budget for at most a timeout. The server's own pauses (the disk
 * catching up, a credential looked up) are not the client's: they push both marks on. */
static int body_due_ms(struct http_conn *c)
{
    uint64_t now = uv_now(c->srv->loop), timeout = (uint64_t)c->srv->cfg.body_timeout_ms;
    if (c->asking || (c->parser && c->parser->waiting)) {
        c->body_start_ms += now - c->body_last_ms;
        c->body_last_ms = now;
    }
    uint64_t pause_due = c->body_last_ms + timeout;
    uint64_t rate_due = c->body_start_ms + timeout + (uint64_t)c->body_in * 1000 / BODY_MIN_RATE;
    uint64_t due = pause_due < rate_due ? pause_due : rate_due;
    return due > now ? (int)(due - now < INT_MAX ? due - now : INT_MAX) : 0;
}

void http__set_timer(struct http_conn *c, enum timer_kind kind)
{
    const struct http_server_config *cfg = &c->srv->cfg;
    if (kind == T_BODY && !c->body_start_ms) {
        c->body_start_ms = c->body_last_ms = uv_now(c->srv->loop);
        c->body_in = 0;
    } else if (kind == T_HEAD) {
        c->body_start_ms = 0; /* the next body starts its own clock */
    }
    int ms = kind == T_IDLE || kind == T_WRITE ? cfg->idle_timeout_ms
             : kind == T_HEAD                  ? cfg->header_timeout_ms
             : kind == T_BODY                  ? body_due_ms(c) + 1
                                               : LINGER_MS;
    c->timer_kind = kind;
    uv_timer_start(&c->timer, on_timer, (uint64_t)ms, 0);
}

void http__stop_timer(struct http_conn *c)
{
    c->timer_kind = T_NONE;
    uv_timer_stop(&c->timer);
}

/* An answer the kernel did not take at once must make progress each idle period, or the
 * connection closes: a client that never reads holds neither a connection nor the answer's
 * bytes for long. */
void http__write_deadline(struct http_conn *c)
{
    c->write_left = c->tcp.write_queue_size;
    http__set_timer(c, T_WRITE);
}

void http__release_answer(struct http_conn *c)
{
    c->srv->stats.answer_bytes -= c->answer_held;
    c->answer_held = 0;
}

static void on_refused_closed(uv_handle_t *h)
{
    free(h);
}

/* Takes a connection off the backlog and closes it at once (libuv would otherwise keep
 * reporting it). */
static void refuse(struct http_server *s, uv_stream_t *listener)
{
    uv_tcp_t *t = malloc(sizeof *t);
    if (!t)
        return;
    uv_tcp_init(s->loop, t);
    uv_accept(listener, (uv_stream_t *)t);
    uv_close((uv_handle_t *)t, on_refused_closed);
    s->stats.refused++;
}

static void read_peer(struct http_conn *c)
{
    struct sockaddr_storage addr;
    int len = sizeof addr;
    if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&addr, &len))
        return;
    if (addr.ss_family == AF_INET6)
        uv_ip6_name((struct sockaddr_in6 *)&addr, c->peer, sizeof c->peer);
    else
        uv_ip4_name((struct sockaddr_in *)&addr, c->peer, sizeof c->peer);
}

/* Counts the peer's address against its cap; -1 when over it. */
static int admit_address(struct http_conn *c)
{
    struct http_server *s = c->srv;
    if (s->cfg.max_connections_per_address <= 0)
        return 0;
    /* A trusted proxy carries many clients; it limits them itself. */
    if (s->cfg.trusted_proxy && s->cfg.trusted_proxy[0] && !strcmp(c->peer, s->cfg.trusted_proxy))
        return 0;
    if (!c->peer[0])
        return -1;
    c->counted = 1;
    if (count_address(s, c->peer, 1) > (uintptr_t)s->cfg.max_connections_per_address) {
        s->stats.refused++;
        return -1;
    }
    return 0;
}

static void on_connection(uv_stream_t *listener, int status)
{
    struct http_server *s = listener->data;
    if (status < 0)
        return;
    struct http_conn *c = NULL;
    if (s->stats.connections >= (size_t)s->cfg.max_connections || !(c = calloc(1, sizeof *c))) {
        refuse(s, listener);
        return;
    }
    c->srv = s;
    uv_tcp_init(s->loop, &c->tcp);
    uv_timer_init(s->loop, &c->timer);
    c->tcp.data = c;
    c->timer.data = c;
    c->open_handles = 2;
    c->parser = malloc(sizeof *c->parser);
    if (c->parser) {
        http__reqparse_init(c->parser, s->cfg.body_limit);
        c->parser->limit_for = s->cfg.body_limit_for;
        c->parser->limit_user = s->user;
        c->parser->limit_floor = s->cfg.body_limit_floor;
        c->parser->loop = s->loop;
        c->parser->upload_wake = http__upload_woke;
        c->parser->upload_wake_arg = c;
    }
    buf_init(&c->pending, PENDING_MAX);
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    s->stats.connections++;
    if (uv_accept(listener, (uv_stream_t *)&c->tcp) || !c->parser) {
        http__conn_close(c);
        return;
    }
    read_peer(c);
    if (admit_address(c)) {
        http__conn_close(c);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    http__set_timer(c, T_IDLE);
    http__start_reading(c);
}

/* ---- responses coming back from handlers ---- */

static void answered(struct job *item, void *ctx)
{
    (void)ctx;
    struct http_exchange *ex = JOB_OF(item, struct http_exchange, answered);
    struct http_conn *c = ex->conn;
    if (c->closing) {
        c->busy = NULL;
        http__exchange_free(ex);
        http__maybe_free(c);
    } else {
        if (!ex->req->keep_alive || ex->req->upgrade || c->srv->draining)
            ex->res.close = 1;
        http__write_response(c, &ex->res, ex, NULL);
    }
}

void http_exchange_done(struct http_exchange *ex)
{
    ex->answered.run = answered;
    inbox_post(ex->conn->srv->done, &ex->answered);
}

struct http_server *http_server_new(uv_loop_t *loop, const struct http_server_config *cfg,
                                    http_handler_fn handler, void *user)
{
    struct http_server *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->loop = loop;
    s->cfg = *cfg;
    if (s->cfg.max_connections <= 0)
        s->cfg.max_connections = INT_MAX;
    if (!s->cfg.body_budget)
        s->cfg.body_budget = BODY_BUDGET_DEFAULT;
    if (!s->cfg.answer_budget)
        s->cfg.answer_budget = BODY_BUDGET_DEFAULT;
    if (!s->cfg.spool_budget)
        s->cfg.spool_budget = SPOOL_BUDGET_DEFAULT;
    map_init(&s->per_address);
    s->handler = handler;
    s->user = user;
    if (!(s->done = inbox_new(loop))) {
        free(s);
        return NULL;
    }
    uv_tcp_init(loop, &s->listener);
    s->listener.data = s;
    return s;
}

int http_server_listen(struct http_server *s, int *port)
{
    struct sockaddr_storage addr;
    int rc = uv_ip4_addr(s->cfg.host, s->cfg.port, (struct sockaddr_in *)&addr);
    if (rc)
        rc = uv_ip6_addr(s->cfg.host, s->cfg.port, (struct sockaddr_in6 *)&addr);
    if (rc)
        return rc;
    if ((rc = uv_tcp_bind(&s->listener, (struct sockaddr *)&addr, 0)) ||
        (rc = uv_listen((uv_stream_t *)&s->listener, 1024, on_connection)))
        return rc;
    struct sockaddr_storage bound;
    int len = sizeof bound;
    uv_tcp_getsockname(&s->listener, (struct sockaddr *)&bound, &len);
    *port = bound.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&bound)->sin6_port)
                                        : ntohs(((struct sockaddr_in *)&bound)->sin_port);
    return 0;
}

/* The drain's outer bound: whatever is left now closes (a handler still holding an exchange
 * frees its connection when it answers). */
static void on_drain_deadline(uv_timer_t *t)
{
    struct http_server *s = t->data;
    for (struct http_conn *c = s->conns, *next; c; c = next) {
        next = c->next;
        http__conn_close(c);
    }
}

void http_server_drain(struct http_server *s, void (*done)(void *arg), void *arg)
{
    if (s->draining)
        return;
    s->draining = 1;
    s->drained = done;
    s->drained_arg = arg;
    uv_timer_init(s->loop, &s->drain_timer);
    s->drain_timer.data = s;
    uv_timer_start(&s->drain_timer, on_drain_deadline, DRAIN_MAX_MS, 0);
    uv_close((uv_handle_t *)&s->listener, on_async_closed);
    for (struct http_conn *c = s->conns, *next; c; c = next) {
        next = c->next;
        /* A request partly read is finished and answered (a client mid-upload is not cut
         * off by a deploy), within its deadline and at most DRAIN_READ_MS more. An upgraded
         * connection still flushing its last frames closes itself when they are out. */
        if (c->timer_kind == T_HEAD || c->timer_kind == T_BODY) {
            if (uv_timer_get_due_in(&c->timer) > DRAIN_READ_MS)
                uv_timer_start(&c->timer, on_timer, DRAIN_READ_MS, 0);
        } else if (!c->busy && !c->writing && !c->stream_writes && !c->close_when_flushed) {
            http__conn_close(c);
        }
    }
    if (s->stats.connections == 0)
        finish_drain(s);
}

void http_server_stats(const struct http_server *s, struct http_server_stats *out)
{
    *out = s->stats;
}

void http_server_free(struct http_server *s)
{
    if (!s)
        return;
    map_cleanup(&s->per_address);
    free(s);
}
