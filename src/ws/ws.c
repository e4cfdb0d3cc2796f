/*
 * WebSocket glue: see ws.h. wslay's recv callback reads from the bytes the socket just gave us;
 * its send callback hands frames to the HTTP stream, which queues what the kernel does not take.
 */
#include "ws/ws.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wslay/wslay.h>

#include "core/crypto.h"

struct ws_conn {
    wslay_event_context_ptr ctx;
    struct http_stream *stream;
    const struct ws_callbacks *cb;
    void *user;
    const char *in; /* bytes being fed to wslay */
    size_t in_len;
    int closed;
    int in_callback;
    int free_after;
};

static const char GUID[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

int ws_is_upgrade(const struct http_request *req)
{
    struct slice up = http_request_header(req, "upgrade");
    struct slice key = http_request_header(req, "sec-websocket-key");
    return up.ptr && slice_eq_nocase(up, "websocket") && key.ptr && key.len > 0;
}

static ssize_t recv_cb(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags, void *user)
{
    struct ws_conn *ws = user;
    (void)flags;
    if (ws->in_len == 0) {
        wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        return -1;
    }
    size_t n = len < ws->in_len ? len : ws->in_len;
    memcpy(buf, ws->in, n);
    ws->in += n;
    ws->in_len -= n;
    return (ssize_t)n;
}

static ssize_t send_cb(wslay_event_context_ptr ctx, const uint8_t *data, size_t len, int flags,
                       void *user)
{
    struct ws_conn *ws = user;
    (void)flags;
    if (!ws->stream || http_stream_write(ws->stream, data, len)) {
        wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE);
        return -1;
    }
    return (ssize_t)len;
}

static void on_msg(wslay_event_context_ptr ctx, const struct wslay_event_on_msg_recv_arg *arg,
                   void *user)
{
    struct ws_conn *ws = user;
    (void)ctx;
    if (ws->closed)
        return;
    if (arg->opcode == WSLAY_TEXT_FRAME || arg->opcode == WSLAY_BINARY_FRAME)
        ws->cb->on_message(ws->user, arg->opcode == WSLAY_BINARY_FRAME, (const char *)arg->msg,
                           arg->msg_length);
}

static const struct wslay_event_callbacks callbacks = {
    .recv_callback = recv_cb,
    .send_callback = send_cb,
    .on_msg_recv_callback = on_msg,
};

static void destroy(struct ws_conn *ws)
{
    wslay_event_context_free(ws->ctx);
    free(ws);
}

/* The peer is gone (or wslay says the session is over): tell the owner once, then free. */
static void finish(struct ws_conn *ws, int close_stream)
{
    if (!ws->closed) {
        ws->closed = 1;
        if (close_stream && ws->stream)
            http_stream_close(ws->stream);
        ws->stream = NULL;
        ws->cb->on_close(ws->user);
    }
    if (ws->in_callback)
        ws->free_after = 1;
    else
        destroy(ws);
}

static void on_data(void *user, const char *data, size_t len)
{
    struct ws_conn *ws = user;
    ws->in = data;
    ws->in_len = len;
    ws->in_callback = 1;
    int rc = wslay_event_recv(ws->ctx);
    if (rc == 0 && !ws->closed)
        rc = wslay_event_send(ws->ctx);
    ws->in_callback = 0;
    if (ws->free_after) {
        destroy(ws);
        return;
    }
    if (ws->closed)
        return;
    if (rc != 0 || (!wslay_event_want_read(ws->ctx) && !wslay_event_want_write(ws->ctx)))
        finish(ws, 1);
}

static void on_stream_close(void *user)
{
    struct ws_conn *ws = user;
    ws->stream = NULL;
    finish(ws, 0);
}

static const struct http_stream_callbacks stream_callbacks = {on_data, on_stream_close};

struct ws_conn *ws_accept(struct http_exchange *ex, const struct ws_callbacks *cb, void *user,
                          size_t max_message)
{
    const struct http_request *req = ex->req;
    struct slice key = http_request_header(req, "sec-websocket-key");
    struct slice version = http_request_header(req, "sec-websocket-version");
    if (!ws_is_upgrade(req) || key.len > 64 || (version.ptr && !slice_eq(version, "13"))) {
        return NULL;
    }
    char material[128];
    memcpy(material, key.ptr, key.len);
    memcpy(material + key.len, GUID, sizeof GUID - 1);
    unsigned char digest[20];
    crypto_sha1(material, key.len + sizeof GUID - 1, digest);
    char accept[32];
    crypto_base64(digest, sizeof digest, accept);
    struct ws_conn *ws = calloc(1, sizeof *ws);
    if (!ws || wslay_event_context_server_init(&ws->ctx, &callbacks, ws)) {
        free(ws);
        return NULL;
    }
    wslay_event_config_set_max_recv_msg_length(ws->ctx, max_message);
    ws->cb = cb;
    ws->user = user;
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
                     accept);
    ws->stream = http_exchange_upgrade(ex, &stream_callbacks, ws, head, (size_t)n);
    return ws;
}

void ws_start(struct ws_conn *ws)
{
    if (ws->stream)
        http_stream_start(ws->stream);
}

int ws_send(struct ws_conn *ws, int binary, const char *data, size_t len)
{
    if (ws->closed)
        return -1;
    struct wslay_event_msg msg = {binary ? WSLAY_BINARY_FRAME : WSLAY_TEXT_FRAME,
                                  (const uint8_t *)data, len};
    if (wslay_event_queue_msg(ws->ctx, &msg) || wslay_event_send(ws->ctx))
        return -1;
    return 0;
}

int ws_frame_text(struct buf *out, const char *payload, size_t len)
{
    unsigned char head[10];
    size_t n = 0;
    head[n++] = 0x81; /* FIN, text */
    if (len < 126) {
        head[n++] = (unsigned char)len;
    } else if (len <= 0xffff) {
        head[n++] = 126;
        head[n++] = (unsigned char)(len >> 8);
        head[n++] = (unsigned char)len;
    } else {
        head[n++] = 127;
        for (int i = 7; i >= 0; i--)
            head[n++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    int rc = buf_append(out, head, n);
    return rc ? rc : buf_append(out, payload, len);
}

int ws_send_frame(struct ws_conn *ws, const char *frame, size_t frame_len, const char *payload,
                  size_t len)
{
    if (ws->closed)
        return -1;
    /* Raw bytes only when wslay holds nothing: frames must not interleave. */
    if (wslay_event_want_write(ws->ctx))
        return ws_send(ws, 0, payload, len);
    return http_stream_write(ws->stream, frame, frame_len);
}

size_t ws_queued(const struct ws_conn *ws)
{
    return ws->stream ? http_stream_queued(ws->stream) : 0;
}

void ws_close(struct ws_conn *ws)
{
    if (ws->closed)
        return;
    wslay_event_queue_close(ws->ctx, WSLAY_CODE_NORMAL_CLOSURE, NULL, 0);
    wslay_event_send(ws->ctx);
    ws->closed = 1; /* asked by the owner: no on_close */
    if (ws->stream)
        http_stream_close(ws->stream);
    ws->stream = NULL;
    if (ws->in_callback)
        ws->free_after = 1;
    else
        destroy(ws);
}
