/*
 * WebSocket (RFC 6455) on an upgraded HTTP connection: the opening handshake, frames read with
 * wslay's frame-level API (which does no I/O of its own), fragments gathered, pings answered,
 * the close handshake. Messages are limited to max_message bytes; an idle connection holds no
 * buffer.
 */
#ifndef PRACA_WS_WS_H
#define PRACA_WS_WS_H
#include <stddef.h>
#include <stdint.h>

#include "http/server.h"

struct ws_conn;

struct ws_callbacks {
    void (*on_message)(void *user, int binary, const char *data, size_t len);
    /* The connection is gone (closed by either side): ws must not be used afterwards. */
    void (*on_close)(void *user);
};

/* 1 when the request asks for a WebSocket (Upgrade: websocket with a key, version 13). */
int ws_is_upgrade(const struct http_request *req);
/* Answers 101 and takes the connection over; NULL (and a 400 answered) when the handshake is
 * malformed. */
struct ws_conn *ws_accept(struct http_exchange *ex, const struct ws_callbacks *cb, void *user,
                          size_t max_message);
/* Starts reading frames (call once the owner is ready for on_message). */
void ws_start(struct ws_conn *ws);
int ws_send(struct ws_conn *ws, int binary, const char *data, size_t len);
/* Appends an unmasked, final text frame of payload (what a server sends) to out. */
int ws_frame_text(struct buf *out, const char *payload, size_t len);
/* Writes a frame made with ws_frame_text as is (the same bytes can go to many connections). */
int ws_send_frame(struct ws_conn *ws, const char *frame, size_t frame_len);
/* Bytes waiting to go out (for the slow-reader limit). */
size_t ws_queued(const struct ws_conn *ws);
/* Sends a close frame and closes; on_close is not called for a close asked this way. */
void ws_close(struct ws_conn *ws);

#endif
