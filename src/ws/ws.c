/*
 * WebSocket glue: see ws.h.
 *
 * Frames are read with wslay's frame-level API. Its context holds a 4 KiB input buffer, so a
 * connection borrows one only while a frame is in flight: when the bytes given to wslay end on
 * a frame boundary (nearly always: clients write whole frames), the context is freed and an
 * idle connection holds no buffer at all. Messages split over frames or reads are gathered in
 * a buffer that lives as long as the message. What we send goes straight to the HTTP stream,
 * which queues only what the kernel does not take.
 */
#include "ws/ws.h"

#include <stdlib.h>
#include <string.h>
#include <wslay/wslay.h>

#include "core/crypto.h"

#define OP_CONTINUATION   0x0
#define OP_TEXT           0x1
#define OP_BINARY         0x2
#define OP_CLOSE          0x8
#define OP_PING           0x9
#define OP_PONG           0xa
#define CONTROL_MAX       125
#define CONTROL_QUEUE_MAX (256 * 1024) /* a peer that pings and never reads gets no more pongs */

enum close_code {
    CLOSE_NORMAL = 1000,
    CLOSE_PROTOCOL = 1002,
    CLOSE_POLICY = 1008,
    CLOSE_TOO_BIG = 1009,
};

struct ws_conn {
    wslay_frame_context_ptr frames; /* borrowed while a frame is in flight, else NULL */
    struct http_stream *stream;
    const struct ws_callbacks *cb;
    void *user;
    size_t max_message;
    const char *in; /* bytes being fed to wslay */
    size_t in_len;
    size_t unparsed; /* bytes given to wslay and not yet seen as frame header or payload */
    int in_frame;    /* a frame's header has been seen, not all its payload */
    uint64_t frame_seen;
    struct buf message; /* a message in pieces (opcode message_op), else empty */
    int message_op;
    unsigned char control[CONTROL_MAX]; /* a control frame in pieces */
    size_t control_len;
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

/* ---- output ---- */

static size_t frame_head(unsigned char head[10], int opcode, size_t len)
{
    size_t n = 0;
    head[n++] = (unsigned char)(0x80 | opcode); /* FIN: we never fragment */
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
    return n;
}

static int send_frame(struct ws_conn *ws, int opcode, const void *payload, size_t len)
{
    if (!ws->stream)
        return -1;
    unsigned char small[10 + 1024];
    unsigned char *frame = len <= 1024 ? small : malloc(10 + len);
    if (!frame)
        return -1;
    size_t n = frame_head(frame, opcode, len);
    if (len)
        memcpy(frame + n, payload, len);
    int rc = http_stream_write(ws->stream, frame, n + len);
    if (frame != small)
        free(frame);
    return rc;
}

static void send_close(struct ws_conn *ws, int code)
{
    unsigned char payload[2] = {(unsigned char)(code >> 8), (unsigned char)code};
    send_frame(ws, OP_CLOSE, payload, sizeof payload);
}

/* ---- ending ---- */

static void destroy(struct ws_conn *ws)
{
    wslay_frame_context_free(ws->frames);
    buf_cleanup(&ws->message);
    free(ws);
}

/* The session is over: tell the owner once, then free (after the callback in progress). */
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

static void fail(struct ws_conn *ws, int code)
{
    send_close(ws, code);
    finish(ws, 1);
}

/* ---- input ---- */

static ssize_t recv_cb(uint8_t *buf, size_t len, int flags, void *user)
{
    struct ws_conn *ws = user;
    (void)flags;
    size_t n = len < ws->in_len ? len : ws->in_len;
    memcpy(buf, ws->in, n);
    ws->in += n;
    ws->in_len -= n;
    ws->unparsed += n;
    return (ssize_t)n; /* 0: wslay answers WSLAY_ERR_WANT_READ */
}

static ssize_t send_unused(const uint8_t *data, size_t len, int flags, void *user)
{
    (void)data, (void)len, (void)flags, (void)user;
    return -1; /* we frame our own output */
}

static int genmask_unused(uint8_t *buf, size_t len, void *user)
{
    (void)buf, (void)len, (void)user;
    return -1;
}

static const struct wslay_frame_callbacks frame_callbacks = {send_unused, recv_cb, genmask_unused};

static size_t header_size(const struct wslay_frame_iocb *io)
{
    size_t ext = io->payload_length < 126 ? 0 : io->payload_length <= 0xffff ? 2 : 8;
    return 2 + ext + (io->mask ? 4 : 0);
}

static void on_control(struct ws_conn *ws, int opcode, const unsigned char *data, size_t len)
{
    if (opcode == OP_PING) {
        if (http_stream_queued(ws->stream) > CONTROL_QUEUE_MAX)
            fail(ws, CLOSE_POLICY);
        else
            send_frame(ws, OP_PONG, data, len);
    } else if (opcode == OP_CLOSE) {
        send_frame(ws, OP_CLOSE, data, len >= 2 ? 2 : 0); /* echo the status code */
        finish(ws, 1);
    } /* a pong needs nothing */
}

/* Checks a frame's header when its first piece arrives; 0 or a close code. */
static int check_header(struct ws_conn *ws, const struct wslay_frame_iocb *io)
{
    int control = io->opcode >= OP_CLOSE;
    if (io->rsv || !io->mask || (io->opcode > OP_BINARY && io->opcode < OP_CLOSE) ||
        io->opcode > OP_PONG)
        return CLOSE_PROTOCOL;
    if (control)
        return 0;
    int continues = io->opcode == OP_CONTINUATION;
    if (continues != (ws->message_op != 0))
        return CLOSE_PROTOCOL; /* a continuation of nothing, or a new message inside one */
    if (io->payload_length > ws->max_message - ws->message.len)
        return CLOSE_TOO_BIG;
    if (!continues)
        ws->message_op = io->opcode;
    return 0;
}

/* A piece of a frame's payload; returns 0 to go on, -1 once the connection has ended. */
static int on_piece(struct ws_conn *ws, const struct wslay_frame_iocb *io)
{
    if (!ws->in_frame) {
        ws->in_frame = 1;
        ws->frame_seen = 0;
        ws->control_len = 0;
        ws->unparsed -= header_size(io);
        int code = check_header(ws, io);
        if (code) {
            fail(ws, code);
            return -1;
        }
    }
    ws->unparsed -= io->data_length;
    ws->frame_seen += io->data_length;
    int complete = ws->frame_seen == io->payload_length;
    if (complete)
        ws->in_frame = 0;
    if (io->opcode >= OP_CLOSE) {
        memcpy(ws->control + ws->control_len, io->data, io->data_length);
        ws->control_len += io->data_length;
        if (complete)
            on_control(ws, io->opcode, ws->control, ws->control_len);
        return ws->closed ? -1 : 0;
    }
    int whole = complete && io->fin;
    if (whole && ws->message.len == 0 && io->data_length == io->payload_length) {
        /* The usual case: one frame, read at once; no copy. */
        int binary = ws->message_op == OP_BINARY;
        ws->message_op = 0;
        ws->cb->on_message(ws->user, binary, (const char *)io->data, io->data_length);
        return ws->closed ? -1 : 0;
    }
    if (buf_append(&ws->message, io->data, io->data_length)) {
        fail(ws, CLOSE_TOO_BIG);
        return -1;
    }
    if (whole) {
        int binary = ws->message_op == OP_BINARY;
        size_t len;
        char *text = buf_detach(&ws->message, &len);
        ws->message_op = 0;
        ws->cb->on_message(ws->user, binary, text, len);
        free(text);
    }
    return ws->closed ? -1 : 0;
}

static void read_frames(struct ws_conn *ws)
{
    if (!ws->frames && wslay_frame_context_init(&ws->frames, &frame_callbacks, ws)) {
        finish(ws, 1);
        return;
    }
    for (;;) {
        struct wslay_frame_iocb io;
        ssize_t r = wslay_frame_recv(ws->frames, &io);
        if (r == WSLAY_ERR_WANT_READ)
            break;
        if (r < 0) {
            fail(ws, CLOSE_PROTOCOL);
            return;
        }
        if (on_piece(ws, &io))
            return;
    }
    if (!ws->in_frame && ws->unparsed == 0) { /* on a boundary: wslay holds nothing */
        wslay_frame_context_free(ws->frames);
        ws->frames = NULL;
    }
}

static void on_data(void *user, const char *data, size_t len)
{
    struct ws_conn *ws = user;
    ws->in = data;
    ws->in_len = len;
    ws->in_callback = 1;
    read_frames(ws);
    ws->in_callback = 0;
    if (ws->free_after)
        destroy(ws);
}

static void on_stream_close(void *user)
{
    struct ws_conn *ws = user;
    ws->stream = NULL;
    finish(ws, 0);
}

static const struct http_stream_callbacks stream_callbacks = {on_data, on_stream_close};

/* ---- the connection ---- */

struct ws_conn *ws_accept(struct http_exchange *ex, const struct ws_callbacks *cb, void *user,
                          size_t max_message)
{
    const struct http_request *req = ex->req;
    struct slice key = http_request_header(req, "sec-websocket-key");
    struct slice version = http_request_header(req, "sec-websocket-version");
    if (!ws_is_upgrade(req) || key.len > 64 || (version.ptr && !slice_eq(version, "13")))
        return NULL;
    char material[128];
    memcpy(material, key.ptr, key.len);
    memcpy(material + key.len, GUID, sizeof GUID - 1);
    unsigned char digest[20];
    crypto_sha1(material, key.len + sizeof GUID - 1, digest);
    char accept[32];
    crypto_base64(digest, sizeof digest, accept);
    struct ws_conn *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    ws->cb = cb;
    ws->user = user;
    ws->max_message = max_message;
    buf_init(&ws->message, max_message);
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
    return send_frame(ws, binary ? OP_BINARY : OP_TEXT, data, len);
}

int ws_frame_text(struct buf *out, const char *payload, size_t len)
{
    unsigned char head[10];
    int rc = buf_append(out, head, frame_head(head, OP_TEXT, len));
    return rc ? rc : buf_append(out, payload, len);
}

int ws_send_frame(struct ws_conn *ws, const char *frame, size_t frame_len)
{
    if (ws->closed || !ws->stream)
        return -1;
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
    send_close(ws, CLOSE_NORMAL);
    ws->closed = 1; /* asked by the owner: no on_close */
    if (ws->stream)
        http_stream_close(ws->stream);
    ws->stream = NULL;
    if (ws->in_callback)
        ws->free_after = 1;
    else
        destroy(ws);
}
