/*
 * Writing answers: a head and a body in one write when the socket takes it at once (most
 * answers), else queued with a deadline for progress; a body from a file in chunks; errors of
 * this layer as JSON. After an answer, pipelined bytes are parsed, then reading resumes.
 */
#include "http/conn.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/jsonout.h"
#include "core/log.h"
#include "http/client_address.h"

#define FILE_CHUNK (256 * 1024)

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

/* ---- writing ---- */

static void on_shutdown(uv_shutdown_t *req, int status)
{
    (void)status;
    free(req);
}

/* Ends a connection gently: no more bytes from us, and what the peer still sends is read and
 * dropped for a moment, since closing with unread bytes resets the connection and the peer
 * would lose our last answer or frames. */
void http__linger_close(struct http_conn *c)
{
    uv_shutdown_t *sd = malloc(sizeof *sd);
    if (!sd || uv_shutdown(sd, (uv_stream_t *)&c->tcp, on_shutdown)) {
        free(sd);
        http__conn_close(c);
        return;
    }
    c->lingering = 1;
    http__set_timer(c, T_LINGER);
    http__start_reading(c);
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
    c->srv->stats.answer_bytes += (size_t)n;
    c->answer_held = (size_t)n;
    http__write_deadline(c);
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
        http__release_answer(c);
        if (file_next(w) == 0)
            return; /* still writing */
        status = UV_EIO;
    }
    if (w->file_fd >= 0)
        close(w->file_fd); /* read-only: nothing waits on the disk */
    free(w->chunk);
    c->writing = 0;
    http__release_answer(c);
    if (c->timer_kind == T_WRITE)
        http__stop_timer(c);
    buf_cleanup(&w->head);
    free(w->body);
    if (w->ex) {
        http__exchange_free(w->ex);
        c->busy = NULL;
    }
    int close = w->close;
    free(w);
    if (c->closing) {
        http__maybe_free(c);
        return;
    }
    if (status < 0) {
        http__conn_close(c);
        return;
    }
    if (close && c->srv->draining) {
        http__conn_close(c);
        return;
    }
    if (close) {
        http__linger_close(c);
        return;
    }
    if (c->srv->draining) {
        http__conn_close(c);
        return;
    }
    /* Pipelined bytes first, then the socket. */
    if (c->pending.len) {
        struct buf held = c->pending;
        buf_init(&c->pending, PENDING_MAX);
        http__conn_feed(c, held.data, held.len);
        buf_cleanup(&held);
    }
    if (!c->parser)
        return; /* a pipelined request upgraded the connection: the stream reads from now on */
    if (!c->busy && !c->closing && !c->writing && c->peer_done) {
        http__conn_close(c);
        return;
    }
    if (!c->busy && !c->closing && !c->writing) {
        if (c->parser->phase == HTTP_PHASE_IDLE)
            http__set_timer(c, T_IDLE);
        http__start_reading(c);
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

/* libuv lays uv_buf_t out as struct iovec on Unix: bufs go to sendmsg(2) as they are. */
_Static_assert(sizeof(uv_buf_t) == sizeof(struct iovec) &&
                   offsetof(uv_buf_t, base) == offsetof(struct iovec, iov_base) &&
                   offsetof(uv_buf_t, len) == offsetof(struct iovec, iov_len),
               "uv_buf_t is not an iovec");

int http__try_send(struct http_conn *c, const uv_buf_t *bufs, unsigned nbufs)
{
    uv_os_fd_t fd;
    if (c->tcp.write_queue_size) /* bytes queued by libuv go first */
        return UV_EAGAIN;
    if (uv_fileno((uv_handle_t *)&c->tcp, &fd))
        return UV_EBADF;
    ssize_t n;
    do {
        if (nbufs == 1) {
            n = send(fd, bufs[0].base, bufs[0].len, MSG_DONTWAIT | MSG_NOSIGNAL);
        } else {
            struct msghdr m = {.msg_iov = (struct iovec *)bufs, .msg_iovlen = nbufs};
            n = sendmsg(fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL);
        }
    } while (n < 0 && errno == EINTR);
    if (n >= 0)
        return n > INT_MAX ? INT_MAX : (int)n;
    return errno == EAGAIN || errno == EWOULDBLOCK ? UV_EAGAIN : -errno;
}

void http__write_response(struct http_conn *c, struct http_response *res, struct http_exchange *ex,
                          char *own_body)
{
    tell_answer(c, res, ex);
    struct write_ctx *w = calloc(1, sizeof *w);
    if (!w) {
        http__exchange_free(ex);
        free(own_body);
        if (ex)
            c->busy = NULL;
        http__conn_close(c);
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
    if (http__response_head(res, c->srv->cfg.idle_timeout_ms, &w->head)) {
        on_written(&w->req, UV_ENOBUFS);
        return;
    }
    uv_buf_t bufs[2] = {uv_buf_init(w->head.data, (unsigned)w->head.len),
                        uv_buf_init(res->body ? res->body : "", (unsigned)res->body_len)};
    unsigned nbufs = res->body_len && w->file_fd < 0 ? 2 : 1;
    c->writing = 1;
    /* Most answers fit the socket buffer: a direct write spares the loop a watcher change. */
    int sent = http__try_send(c, bufs, nbufs);
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
    if (s->stats.answer_bytes + left > s->cfg.answer_budget) {
        s->stats.write_timeouts++; /* too much is waiting on slow readers: this one is not kept */
        on_written(&w->req, UV_ENOBUFS);
        return;
    }
    if (uv_write(&w->req, (uv_stream_t *)&c->tcp, rest, nbufs, on_written)) {
        on_written(&w->req, UV_EPIPE);
        return;
    }
    s->stats.answer_bytes += left;
    c->answer_held = left;
    http__write_deadline(c);
}

void http__send_error(struct http_conn *c, int status)
{
    if (c->closing || c->writing || c->busy) {
        http__conn_close(c);
        return;
    }
    http__stop_reading(c);
    http__stop_timer(c);
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
    http__write_response(c, &res, NULL, body);
    res.body = NULL; /* owned by the write now */
    http_response_cleanup(&res);
}
