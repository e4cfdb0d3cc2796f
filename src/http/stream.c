/*
 * Upgraded connections (WebSocket): after the 101 the connection is a raw stream both ways,
 * its writes counted so a slow reader is seen, closed gently once flushed.
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
        http__maybe_free(c);
        return;
    }
    if (status < 0)
        http__conn_close(c);
    else if (c->close_when_flushed && c->stream_writes == 0)
        http__linger_close(c);
}

struct http_stream *http_exchange_upgrade(struct http_exchange *ex,
                                          const struct http_stream_callbacks *cb, void *user,
                                          const char *head, size_t head_len)
{
    struct http_conn *c = ex->conn;
    c->busy = NULL;
    http__exchange_free(ex);
    http__stop_timer(c);
    http__reqparse_cleanup(c->parser); /* no more HTTP on this connection */
    free(c->parser);
    c->parser = NULL;
    c->stream_cb = cb;
    c->stream_user = user;
    struct http_stream *s = (struct http_stream *)c;
    /* The owner learns of a close under the 101 once it holds the stream (on_handle_closed),
     * never inside this call, whose caller has not got it yet. */
    c->upgrading = 1;
    http_stream_write(s, head, head_len);
    c->upgrading = 0;
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
    http__start_reading(c);
}

int http_stream_write(struct http_stream *s, const void *data, size_t len)
{
    struct http_conn *c = (struct http_conn *)s;
    if (c->closing || c->close_when_flushed)
        return -1;
    /* Try the socket first; queue only what it does not take now. */
    uv_buf_t b = uv_buf_init((char *)data, (unsigned)len);
    int sent = c->stream_writes ? 0 : http__try_send(c, &b, 1);
    if (sent < 0 && sent != UV_EAGAIN) {
        http__conn_close(c);
        return -1;
    }
    size_t done = sent > 0 ? (size_t)sent : 0;
    if (done == len)
        return 0;
    struct stream_write *w = malloc(sizeof *w + len - done);
    if (!w) {
        http__conn_close(c);
        return -1;
    }
    w->conn = c;
    w->len = len - done;
    memcpy(w->data, (const char *)data + done, w->len);
    uv_buf_t rest = uv_buf_init(w->data, (unsigned)w->len);
    if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &rest, 1, on_stream_written)) {
        free(w);
        http__conn_close(c);
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
        http__set_timer(c, T_LINGER); /* a peer that does not read is not waited for */
    } else {
        http__linger_close(c);
    }
}
