/*
 * HTTP server: see server.h.
 *
 * Life of a connection: reading → (request complete) the exchange goes to the handler → response
 * written → parsing resumes on any pipelined bytes kept in `pending`. Reading goes on while the
 * handler runs (stopping and restarting it costs two epoll_ctl calls per request): bytes that
 * arrive meanwhile wait in `pending`, and reading pauses only when it holds READ_CHUNK bytes, the
 * peer has finished sending, or the request is an upgrade (the stream takes what follows). One
 * timer per connection enforces the idle, header and body deadlines. A connection is freed only
 * when both its handles are closed and no exchange refers to it (mark, then reap).
 */
#include "core/jsonout.h"
#include "http/server.h"
#include "http/client_address.h"

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/map.h"
#include "http/reqparse.h"

#define READ_CHUNK    65536
#define PENDING_MAX   (READ_CHUNK * 2)
#define LINGER_MS     2000
#define DRAIN_READ_MS 5000 /* the longest a drain waits for a request still arriving */
/* The longest a drain waits in all: a request still arriving, then its answer leaving. Past it
 * every connection left is closed, whatever its client does. */
#define DRAIN_MAX_MS         (DRAIN_READ_MS + 5000)
#define BODY_BUDGET_DEFAULT  ((size_t)256 * 1024 * 1024)
#define SPOOL_BUDGET_DEFAULT ((size_t)4 * 1024 * 1024 * 1024)
#define BODY_MIN_RATE        (64 * 1024) /* bytes per second a body must keep up, on average */

enum timer_kind { T_NONE, T_IDLE, T_HEAD, T_BODY, T_WRITE, T_LINGER };

struct http_conn {
    uv_tcp_t tcp;
    uv_timer_t timer;
    struct http_server *srv;
    struct http_reqparse *parser; /* freed when the connection is upgraded */
    struct buf pending;
    struct http_exchange *busy; /* in the handler or being written */
    enum timer_kind timer_kind;
    int open_handles;
    int closing;
    int reading;
    int writing;
    int lingering;
    int continue_sent;
    int peer_done; /* EOF while busy: answer, then close */
    int asking;    /* a body limit is being decided elsewhere (an http_limit_ask is out) */
    /* After an upgrade: */
    const struct http_stream_callbacks *stream_cb;
    void *stream_user;
    size_t stream_queued;
    int stream_writes;
    int close_when_flushed;
    size_t body_reserved;        /* of the server's body budget, for the request in hand */
    size_t spool_reserved;       /* of the server's spool budget, for an upload in hand */
    size_t answer_held;          /* of the answer being written, bytes the kernel has not taken */
    size_t write_left;           /* the socket's write queue when the write deadline was set */
    char peer[INET6_ADDRSTRLEN]; /* the peer's address as text */
    int counted;                 /* in the server's per-address map */
    struct http_conn *prev, *next;
};

struct http_server {
    uv_loop_t *loop;
    uv_tcp_t listener;
    struct inbox *done; /* answers coming back from the handlers' threads */
    struct http_server_config cfg;
    http_handler_fn handler;
    void *user;
    struct http_conn *conns;
    size_t nconns;
    int draining;
    int drain_finished;
    struct map per_address; /* peer address → connections (a count in the pointer) */
    size_t body_bytes;      /* request bodies held now, all connections */
    size_t answer_bytes;    /* answers queued and not yet taken by the kernel, all connections */
    size_t spool_bytes;     /* uploads' files on disk, in flight, all connections */
    unsigned long refused;
    unsigned long write_timeouts; /* connections closed for an answer that made no progress */
    uv_timer_t drain_timer;       /* the drain's outer bound (initialised by the drain) */
    void (*drained)(void *);
    void *drained_arg;
    char read_buf[READ_CHUNK];
    int read_buf_busy;
};

struct write_ctx {
    uv_write_t req;
    struct http_conn *conn;
    struct buf head;
    struct http_exchange *ex; /* NULL for responses made by this layer */
    char *body;               /* for those */
    int close;
    /* A body from a file: read a chunk, write it, repeat (one of the two in flight). */
    int file_fd; /* -1: none */
    size_t file_off, file_left;
    char *chunk;
    uv_fs_t fs;
};

#define FILE_CHUNK (256 * 1024)

static void conn_close(struct http_conn *c);
static void send_error(struct http_conn *c, int status);
static void conn_feed(struct http_conn *c, const char *data, size_t len);
static void start_reading(struct http_conn *c);
static void stop_reading(struct http_conn *c);
static void write_deadline(struct http_conn *c);
static void release_answer(struct http_conn *c);

static void release_body(struct http_conn *c)
{
    c->srv->body_bytes -= c->body_reserved;
    c->body_reserved = 0;
    c->srv->spool_bytes -= c->spool_reserved;
    c->spool_reserved = 0;
}

/* An upload's files count against the spool's budget from its first byte until its handler is
 * done with them: as large as declared, or as its limit when chunked. -1 past the budget. */
static int reserve_spool(struct http_conn *c)
{
    struct http_reqparse *p = c->parser;
    if (c->spool_reserved || !p->req || !p->req->upload)
        return 0;
    size_t want = p->body_declared ? p->body_declared : p->req->body.max;
    struct http_server *s = c->srv;
    if (s->spool_bytes + want > s->cfg.spool_budget)
        return -1;
    s->spool_bytes += want;
    c->spool_reserved = want;
    return 0;
}

/* Counts the body of the request being read against the server's budget; -1 past it. */
static int reserve_body(struct http_conn *c)
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
    if (s->body_bytes + more > s->cfg.body_budget)
        return -1;
    s->body_bytes += more;
    c->body_reserved = want;
    return 0;
}

static void exchange_free(struct http_exchange *ex)
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

static const char *error_message(int status)
{
    switch (status) {
    case 400:
        return "Requisição HTTP inválida";
    case 408:
        return "Tempo esgotado esperando a requisição";
    case 413:
        return "Corpo da requisição grande demais";
    case 431:
        return "Cabeçalhos grandes demais (máximo 16 KiB)";
    case 503:
        return "Servidor ocupado; tente de novo em instantes";
    default:
        return "Erro interno";
    }
}

/* A size as people read it: 64 KiB, 1 MiB, 20 MB, 1 MB. */
static void size_text(size_t n, char *out, size_t cap)
{
    if (n >= 1024 * 1024 && n % (1024 * 1024) == 0)
        snprintf(out, cap, "%zu MiB", n / (1024 * 1024));
    else if (n >= 1000000 && n % 1000000 == 0)
        snprintf(out, cap, "%zu MB", n / 1000000);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(out, cap, "%zu KiB", n / 1024);
    else
        snprintf(out, cap, "%zu bytes", n);
}

char *http__error_json(int status, size_t limit, size_t *len)
{
    return http__error_json_text(status, error_message(status), limit, len);
}

char *http__error_json_text(int status, const char *message, size_t limit, size_t *len)
{
    char text[200], size[32];
    snprintf(text, sizeof text, "%s", message);
    if (status == 413 && limit) {
        size_text(limit, size, sizeof size);
        snprintf(text, sizeof text, "%s (máximo %s)", message, size);
    }
    json_t *o = json_pack("{ss}", "error", text);
    char *s = jsonout_dump(o, NULL);
    json_decref(o);
    *len = s ? strlen(s) : 0;
    return s;
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

static void maybe_free(struct http_conn *c)
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
    release_answer(c);
    if (c->counted)
        count_address(s, c->peer, -1);
    free(c);
    s->nconns--;
    if (s->draining && s->nconns == 0)
        finish_drain(s);
}

static void on_handle_closed(uv_handle_t *h)
{
    struct http_conn *c = h->data;
    c->open_handles--;
    maybe_free(c);
}

static void conn_close(struct http_conn *c)
{
    if (c->closing)
        return;
    c->closing = 1;
    if (c->stream_cb) {
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

static void on_timer(uv_timer_t *t)
{
    struct http_conn *c = t->data;
    enum timer_kind kind = c->timer_kind;
    c->timer_kind = T_NONE;
    if (kind == T_HEAD || kind == T_BODY) {
        send_error(c, 408);
    } else if (kind == T_WRITE && c->writing && c->tcp.write_queue_size < c->write_left) {
        write_deadline(c); /* the client is reading, however slowly: it gets another period */
    } else {
        if (kind == T_WRITE)
            c->srv->write_timeouts++;
        conn_close(c);
    }
}

/* The whole body must arrive within the body timeout plus a second per BODY_MIN_RATE bytes
 * declared (a chunked body: as if it were as large as its request may send). */
static int body_deadline_ms(const struct http_conn *c)
{
    const struct http_reqparse *p = c->parser;
    size_t size = p && p->body_declared ? p->body_declared : c->srv->cfg.body_limit;
    if (p && !p->body_declared && p->req && p->req->body.max && p->req->body.max < size)
        size = p->req->body.max; /* a chunked body: as if as large as its own limit */
    /* While its limit is asked about, a body's declared length is known but not yet taken. */
    if (p && !p->body_declared && p->asking && !(p->parser.flags & F_CHUNKED) &&
        p->parser.content_length != ULLONG_MAX && p->parser.content_length < size)
        size = (size_t)p->parser.content_length;
    return c->srv->cfg.body_timeout_ms + (int)(size / BODY_MIN_RATE * 1000);
}

static void set_timer(struct http_conn *c, enum timer_kind kind)
{
    const struct http_server_config *cfg = &c->srv->cfg;
    int ms = kind == T_IDLE || kind == T_WRITE ? cfg->idle_timeout_ms
             : kind == T_HEAD                  ? cfg->header_timeout_ms
             : kind == T_BODY                  ? body_deadline_ms(c)
                                               : LINGER_MS;
    c->timer_kind = kind;
    uv_timer_start(&c->timer, on_timer, (uint64_t)ms, 0);
}

static void stop_timer(struct http_conn *c)
{
    c->timer_kind = T_NONE;
    uv_timer_stop(&c->timer);
}

/* An answer the kernel did not take at once must make progress each idle period, or the
 * connection closes: a client that never reads holds neither a connection nor the answer's
 * bytes for long. */
static void write_deadline(struct http_conn *c)
{
    c->write_left = c->tcp.write_queue_size;
    set_timer(c, T_WRITE);
}

static void release_answer(struct http_conn *c)
{
    c->srv->answer_bytes -= c->answer_held;
    c->answer_held = 0;
}

/* ---- writing ---- */

static void on_shutdown(uv_shutdown_t *req, int status)
{
    (void)status;
    free(req);
}

/* Ends a connection gently: no more bytes from us, and what the peer still sends is read and
 * dropped for a moment, since closing with unread bytes resets the connection and the peer
 * would lose our last answer or frames. */
static void linger_close(struct http_conn *c)
{
    uv_shutdown_t *sd = malloc(sizeof *sd);
    if (!sd || uv_shutdown(sd, (uv_stream_t *)&c->tcp, on_shutdown)) {
        free(sd);
        conn_close(c);
        return;
    }
    c->lingering = 1;
    set_timer(c, T_LINGER);
    start_reading(c);
}

static void on_written(uv_write_t *req, int status);

static void on_file_read(uv_fs_t *fs)
{
    struct write_ctx *w = (struct write_ctx *)((char *)fs - offsetof(struct write_ctx, fs));
    struct http_conn *c = w->conn;
    ssize_t n = fs->result;
    uv_fs_req_cleanup(fs);
    if (c->closing || n <= 0) {
        on_written(&w->req, n <= 0 ? UV_EIO : UV_ECANCELED);
        return;
    }
    w->file_off += (size_t)n;
    w->file_left -= (size_t)n < w->file_left ? (size_t)n : w->file_left;
    uv_buf_t b = uv_buf_init(w->chunk, (unsigned)n);
    if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, on_written)) {
        on_written(&w->req, UV_EPIPE);
        return;
    }
    c->srv->answer_bytes += (size_t)n;
    c->answer_held = (size_t)n;
    write_deadline(c);
}

/* The next chunk of a file body: 0, or -1 when it cannot be read. */
static int file_next(struct write_ctx *w)
{
    if (!w->chunk && !(w->chunk = malloc(FILE_CHUNK)))
        return -1;
    size_t n = w->file_left < FILE_CHUNK ? w->file_left : FILE_CHUNK;
    uv_buf_t b = uv_buf_init(w->chunk, (unsigned)n);
    return uv_fs_read(w->conn->srv->loop, &w->fs, w->file_fd, &b, 1, (int64_t)w->file_off,
                      on_file_read)
               ? -1
               : 0;
}

static void on_written(uv_write_t *req, int status)
{
    struct write_ctx *w = (struct write_ctx *)req;
    struct http_conn *c = w->conn;
    if (w->file_fd >= 0 && status >= 0 && w->file_left && !c->closing) {
        release_answer(c);
        if (file_next(w) == 0)
            return; /* still writing */
        status = UV_EIO;
    }
    if (w->file_fd >= 0)
        close(w->file_fd); /* read-only: nothing waits on the disk */
    free(w->chunk);
    c->writing = 0;
    release_answer(c);
    if (c->timer_kind == T_WRITE)
        stop_timer(c);
    buf_cleanup(&w->head);
    free(w->body);
    if (w->ex) {
        exchange_free(w->ex);
        c->busy = NULL;
    }
    int close = w->close;
    free(w);
    if (c->closing) {
        maybe_free(c);
        return;
    }
    if (status < 0) {
        conn_close(c);
        return;
    }
    if (close && c->srv->draining) {
        conn_close(c);
        return;
    }
    if (close) {
        linger_close(c);
        return;
    }
    if (c->srv->draining) {
        conn_close(c);
        return;
    }
    /* Pipelined bytes first, then the socket. */
    if (c->pending.len) {
        struct buf held = c->pending;
        buf_init(&c->pending, PENDING_MAX);
        conn_feed(c, held.data, held.len);
        buf_cleanup(&held);
    }
    if (!c->parser)
        return; /* a pipelined request upgraded the connection: the stream reads from now on */
    if (!c->busy && !c->closing && !c->writing && c->peer_done) {
        conn_close(c);
        return;
    }
    if (!c->busy && !c->closing && !c->writing) {
        if (c->parser->phase == HTTP_PHASE_IDLE)
            set_timer(c, T_IDLE);
        start_reading(c);
    }
}

static void tell_answer(struct http_conn *c, const struct http_response *res,
                        const struct http_exchange *ex)
{
    const struct http_server_config *cfg = &c->srv->cfg;
    if (!cfg->on_answer)
        return;
    struct http_answer a = {.peer = c->peer, .status = res->status};
    if (ex) {
        a.peer = ex->req->peer; /* the client a trusted proxy named, if any */
        a.req = ex->req;
        a.label = ex->label;
        a.caller = ex->caller[0] ? ex->caller : NULL;
        a.duration_ns = uv_hrtime() - ex->started_ns;
    }
    cfg->on_answer(cfg->on_answer_user, &a);
}

static void write_response(struct http_conn *c, struct http_response *res, struct http_exchange *ex,
                           char *own_body)
{
    tell_answer(c, res, ex);
    struct write_ctx *w = calloc(1, sizeof *w);
    if (!w) {
        exchange_free(ex);
        free(own_body);
        if (ex)
            c->busy = NULL;
        conn_close(c);
        return;
    }
    w->conn = c;
    w->ex = ex;
    w->body = own_body;
    w->close = res->close;
    w->file_fd = -1;
    if (res->has_file) {
        w->file_fd = res->file_fd;
        w->file_off = res->file_offset;
        w->file_left = res->body_len;
        res->has_file = 0;
    }
    buf_init(&w->head, 64 * 1024);
    if (http__response_head(res, &w->head)) {
        on_written(&w->req, UV_ENOBUFS);
        return;
    }
    uv_buf_t bufs[2] = {uv_buf_init(w->head.data, (unsigned)w->head.len),
                        uv_buf_init(res->body ? res->body : "", (unsigned)res->body_len)};
    unsigned nbufs = res->body_len && w->file_fd < 0 ? 2 : 1;
    c->writing = 1;
    /* Most answers fit the socket buffer: a direct write spares the loop a watcher change. */
    int sent = uv_try_write((uv_stream_t *)&c->tcp, bufs, nbufs);
    if (sent < 0 && sent != UV_EAGAIN) {
        on_written(&w->req, sent);
        return;
    }
    size_t done = sent > 0 ? (size_t)sent : 0;
    uv_buf_t *rest = bufs;
    while (nbufs && done >= rest->len) {
        done -= rest->len;
        rest++;
        nbufs--;
    }
    if (!nbufs) {
        on_written(&w->req, 0);
        return;
    }
    rest->base += done;
    rest->len -= done;
    size_t left = 0;
    for (unsigned i = 0; i < nbufs; i++)
        left += rest[i].len;
    struct http_server *s = c->srv;
    if (s->answer_bytes + left > s->cfg.answer_budget) {
        s->write_timeouts++; /* too much is waiting on slow readers: this one is not kept */
        on_written(&w->req, UV_ENOBUFS);
        return;
    }
    if (uv_write(&w->req, (uv_stream_t *)&c->tcp, rest, nbufs, on_written)) {
        on_written(&w->req, UV_EPIPE);
        return;
    }
    s->answer_bytes += left;
    c->answer_held = left;
    write_deadline(c);
}

static void send_error(struct http_conn *c, int status)
{
    if (c->closing || c->writing || c->busy) {
        conn_close(c);
        return;
    }
    stop_reading(c);
    stop_timer(c);
    struct http_response res;
    http_response_init(&res);
    size_t len;
    size_t limit = c->parser ? http__reqparse_limit(c->parser) : c->srv->cfg.body_limit;
    const struct http_upload *up = c->parser && c->parser->req ? c->parser->req->upload : NULL;
    char *body = up && up->refusal && up->status == status
                     ? http__error_json_text(status, up->refusal, limit, &len)
                     : http__error_json(status, limit, &len);
    res.status = status;
    res.content_type = "application/json; charset=utf-8";
    res.body = body;
    res.body_len = len;
    res.close = 1;
    res.cache_control = "no-store";
    write_response(c, &res, NULL, body);
    res.body = NULL; /* owned by the write now */
    http_response_cleanup(&res);
}

/* ---- reading and parsing ---- */

static void dispatch(struct http_conn *c, struct http_request *req)
{
    struct http_exchange *ex = calloc(1, sizeof *ex);
    if (!ex) {
        http__request_cleanup(req);
        free(req);
        conn_close(c);
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
    c->continue_sent = 0;
    stop_timer(c);
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
        conn_feed(c, held.data ? held.data : "", held.len);
        buf_cleanup(&held);
    }
    if (!c->busy && !c->closing && !c->writing && !c->asking && c->parser && !c->parser->waiting)
        start_reading(c);
}

/* An upload's files caught up with the body (or its last writes are done). */
static void upload_woke(void *arg)
{
    struct http_conn *c = arg;
    if (c->closing || !c->parser || !c->parser->waiting)
        return;
    http__reqparse_resume(c->parser);
    if (c->parser->error_status) {
        send_error(c, c->parser->error_status);
        return;
    }
    feed_pending(c);
}

static void limit_decided(struct inbox_item *item)
{
    struct http_limit_ask *ask =
        (struct http_limit_ask *)((char *)item - offsetof(struct http_limit_ask, back));
    struct http_conn *c = ask->conn;
    size_t limit = ask->limit;
    free(ask);
    c->asking = 0;
    if (c->closing) {
        maybe_free(c);
        return;
    }
    if (http__reqparse_decide(c->parser, limit)) {
        send_error(c, c->parser->error_status ? c->parser->error_status : 413);
        return;
    }
    if (c->parser->expect_continue && !c->continue_sent)
        send_continue(c);
    set_timer(c, T_BODY); /* the deadline of the limit decided (a chunked body's depends on it) */
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
        send_error(c, 503);
        return;
    }
    ask->req = c->parser->req;
    ask->conn = c;
    c->asking = 1;
    stop_reading(c);
    if (s->cfg.body_limit_ask)
        s->cfg.body_limit_ask(s->user, ask);
    else
        http_limit_decided(ask, s->cfg.body_limit_floor);
}

static void conn_feed(struct http_conn *c, const char *data, size_t len)
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
            send_error(c, c->parser->error_status);
            return;
        }
        if (rc == HTTP_REQPARSE_WAIT) {
            if (len && buf_append(&c->pending, data, len)) {
                send_error(c, 431);
                return;
            }
            stop_reading(c);
            return;
        }
        if (rc == HTTP_REQPARSE_ASK) {
            if (len && buf_append(&c->pending, data, len)) {
                send_error(c, 431);
                return;
            }
            if (before != HTTP_PHASE_BODY)
                set_timer(c, T_BODY); /* the lookup counts against the body's deadline */
            if (!c->asking)
                ask_limit(c);
            return;
        }
        if ((rc == HTTP_REQPARSE_REQUEST || c->parser->phase == HTTP_PHASE_BODY) &&
            reserve_body(c)) {
            send_error(c, 503);
            return;
        }
        if (rc == HTTP_REQPARSE_REQUEST) {
            if (len && buf_append(&c->pending, data, len)) {
                send_error(c, 431);
                return;
            }
            struct http_request *req = http__reqparse_take(c->parser);
            if (req->upgrade || c->pending.len >= READ_CHUNK)
                stop_reading(c);
            dispatch(c, req);
            return;
        }
        enum http_reqparse_phase now = c->parser->phase;
        if (now == HTTP_PHASE_HEAD && before != HTTP_PHASE_HEAD)
            set_timer(c, T_HEAD);
        else if (now == HTTP_PHASE_BODY) {
            if (before != HTTP_PHASE_BODY)
                set_timer(c, T_BODY); /* once: trickling bytes do not move the deadline */
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
        stop_reading(c);
        c->peer_done = 1;
        return;
    }
    if (nread < 0) {
        conn_close(c);
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
            conn_close(c);
        else if (c->pending.len >= READ_CHUNK)
            stop_reading(c);
        return;
    }
    conn_feed(c, b->base, (size_t)nread);
}

static void stop_reading(struct http_conn *c)
{
    if (c->reading)
        uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = 0;
}

static void start_reading(struct http_conn *c)
{
    if (c->reading || c->closing || c->peer_done || c->asking || (c->parser && c->parser->waiting))
        return;
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0)
        c->reading = 1;
    else
        conn_close(c);
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
    s->refused++;
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
        s->refused++;
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
    if (s->nconns >= (size_t)s->cfg.max_connections || !(c = calloc(1, sizeof *c))) {
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
        c->parser->upload_wake = upload_woke;
        c->parser->upload_wake_arg = c;
    }
    buf_init(&c->pending, PENDING_MAX);
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    s->nconns++;
    if (uv_accept(listener, (uv_stream_t *)&c->tcp) || !c->parser) {
        conn_close(c);
        return;
    }
    read_peer(c);
    if (admit_address(c)) {
        conn_close(c);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    set_timer(c, T_IDLE);
    start_reading(c);
}

/* ---- responses coming back from handlers ---- */

static void answered(struct inbox_item *item)
{
    struct http_exchange *ex =
        (struct http_exchange *)((char *)item - offsetof(struct http_exchange, answered));
    struct http_conn *c = ex->conn;
    if (c->closing) {
        c->busy = NULL;
        exchange_free(ex);
        maybe_free(c);
    } else {
        if (!ex->req->keep_alive || ex->req->upgrade || c->srv->draining)
            ex->res.close = 1;
        write_response(c, &ex->res, ex, NULL);
    }
}

void http_exchange_done(struct http_exchange *ex)
{
    ex->answered.run = answered;
    inbox_post(ex->conn->srv->done, &ex->answered);
}

/* ---- upgraded connections ---- */

struct stream_write {
    uv_write_t req;
    struct http_conn *conn;
    size_t len;
    char data[];
};

static void on_stream_written(uv_write_t *req, int status)
{
    struct stream_write *w = (struct stream_write *)req;
    struct http_conn *c = w->conn;
    c->stream_writes--;
    c->stream_queued -= w->len;
    free(w);
    if (c->closing) {
        maybe_free(c);
        return;
    }
    if (status < 0)
        conn_close(c);
    else if (c->close_when_flushed && c->stream_writes == 0)
        linger_close(c);
}

struct http_stream *http_exchange_upgrade(struct http_exchange *ex,
                                          const struct http_stream_callbacks *cb, void *user,
                                          const char *head, size_t head_len)
{
    struct http_conn *c = ex->conn;
    c->busy = NULL;
    exchange_free(ex);
    stop_timer(c);
    http__reqparse_cleanup(c->parser); /* no more HTTP on this connection */
    free(c->parser);
    c->parser = NULL;
    c->stream_cb = cb;
    c->stream_user = user;
    struct http_stream *s = (struct http_stream *)c;
    http_stream_write(s, head, head_len);
    return s;
}

void http_stream_start(struct http_stream *s)
{
    struct http_conn *c = (struct http_conn *)s;
    if (c->closing)
        return;
    if (c->pending.len && c->stream_cb) {
        struct buf held = c->pending;
        buf_init(&c->pending, PENDING_MAX);
        c->stream_cb->on_data(c->stream_user, held.data, held.len);
        buf_cleanup(&held);
    }
    start_reading(c);
}

int http_stream_write(struct http_stream *s, const void *data, size_t len)
{
    struct http_conn *c = (struct http_conn *)s;
    if (c->closing || c->close_when_flushed)
        return -1;
    /* Try the socket first; queue only what it does not take now. */
    uv_buf_t b = uv_buf_init((char *)data, (unsigned)len);
    int sent = c->stream_writes ? 0 : uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
    if (sent < 0 && sent != UV_EAGAIN) {
        conn_close(c);
        return -1;
    }
    size_t done = sent > 0 ? (size_t)sent : 0;
    if (done == len)
        return 0;
    struct stream_write *w = malloc(sizeof *w + len - done);
    if (!w) {
        conn_close(c);
        return -1;
    }
    w->conn = c;
    w->len = len - done;
    memcpy(w->data, (const char *)data + done, w->len);
    uv_buf_t rest = uv_buf_init(w->data, (unsigned)w->len);
    if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &rest, 1, on_stream_written)) {
        free(w);
        conn_close(c);
        return -1;
    }
    c->stream_writes++;
    c->stream_queued += w->len;
    return 0;
}

size_t http_stream_queued(const struct http_stream *s)
{
    return ((const struct http_conn *)s)->stream_queued;
}

void http_stream_close(struct http_stream *s)
{
    struct http_conn *c = (struct http_conn *)s;
    c->stream_cb = NULL; /* the owner is done with it: no on_close */
    if (c->stream_writes) {
        c->close_when_flushed = 1;
        set_timer(c, T_LINGER); /* a peer that does not read is not waited for */
    } else {
        linger_close(c);
    }
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
        conn_close(c);
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
            conn_close(c);
        }
    }
    if (s->nconns == 0)
        finish_drain(s);
}

void http_server_stats(const struct http_server *s, struct http_server_stats *out)
{
    out->connections = s->nconns;
    out->body_bytes = s->body_bytes;
    out->answer_bytes = s->answer_bytes;
    out->spool_bytes = s->spool_bytes;
    out->refused = s->refused;
    out->write_timeouts = s->write_timeouts;
}

void http_server_free(struct http_server *s)
{
    if (!s)
        return;
    map_cleanup(&s->per_address);
    free(s);
}
