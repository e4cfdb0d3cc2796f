/*
 * Engine.IO protocol 4 sessions on the I/O thread: handshake, HTTP long-polling (one held GET,
 * record-separated bodies), WebSocket, the polling → WebSocket upgrade (probe, upgrade packet,
 * noop to release a held poll), server-sent pings with a timeout, and close.
 *
 * The layer above sees sessions (eio_socket) that open, carry messages both ways and close.
 */
#ifndef PRACA_ENGINEIO_SERVER_H
#define PRACA_ENGINEIO_SERVER_H
#include <stddef.h>
#include <uv.h>

#include "http/server.h"

struct eio_server;
struct eio_socket;

struct eio_config {
    int ping_interval_ms;
    int ping_timeout_ms;
    size_t max_payload; /* bytes in one POST body or WebSocket message */
    int upgrade_timeout_ms;
    size_t max_queued;     /* output waiting for a slow reader before the session is dropped */
    size_t max_sessions;   /* open at once (a polling one needs no connection); 0 = no cap */
    double sessions_per_s; /* new ones a second, a second's worth at once; 0 = no limit */
};

struct eio_handlers {
    void (*on_open)(void *user, struct eio_socket *s);
    void (*on_message)(void *user, struct eio_socket *s, int binary, const char *data, size_t len);
    /* Called once; the socket is freed after it returns. */
    void (*on_close)(void *user, struct eio_socket *s, const char *reason);
};

struct eio_server *eio_server_new(uv_loop_t *loop, const struct eio_config *cfg,
                                  const struct eio_handlers *h, void *user);
/* Handles a request to the Engine.IO path (I/O thread); answers it or keeps it (long-poll). */
void eio_server_handle(struct eio_server *srv, struct http_exchange *ex);
/* Closes every session (drain); polling sessions linger until their client collects the
 * last packets. */
void eio_server_close_all(struct eio_server *srv);
/* Forgets every session that is left, lingering or not (end of a drain). */
void eio_server_release_all(struct eio_server *srv);
size_t eio_server_count(const struct eio_server *srv);
/* Frees the server once no session is left (after close_all and the loop ran). */
void eio_server_free(struct eio_server *srv);

/* Sends a message packet: text (without the "4"), or binary bytes. Returns 0 or -1 (closed,
 * or over max_queued: the session is then closed). */
int eio_socket_send(struct eio_socket *s, int binary, const char *data, size_t len);
/* Lets bytes more than max_queued wait for s's reader for the next ms: a burst the server
 * already holds in memory (a replay) is handed over whole instead of counting as a slow
 * reader. The usual limit applies again afterwards. */
void eio_socket_allow(struct eio_socket *s, size_t bytes, uint64_t ms);
/* A message prepared once for many sessions: the text packet and its WebSocket frame. */
struct eio_prepared {
    struct buf packet; /* "4" + message */
    struct buf frame;  /* the packet as a WebSocket text frame */
};
int eio_prepare(struct eio_prepared *p, const char *message, size_t len);
void eio_prepared_cleanup(struct eio_prepared *p);
int eio_socket_send_prepared(struct eio_socket *s, const struct eio_prepared *p);
/* Ends the session: queued packets are still delivered, then the transport closes. */
void eio_socket_close(struct eio_socket *s, const char *reason);
const char *eio__socket_id(const struct eio_socket *s);
void *eio_socket_data(const struct eio_socket *s);
void eio_socket_set_data(struct eio_socket *s, void *data);

#endif
