/*
 * What the Engine.IO files share (private to engineio/): a session, the server, and the steps
 * one file takes for another. server.c runs sessions and answers requests; output.c queues and
 * flushes a session's packets; upgrade.c takes a session from polling to WebSocket.
 */
#ifndef PRACA_ENGINEIO_SESSION_H
#define PRACA_ENGINEIO_SESSION_H
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "core/map.h"
#include "core/pace.h"
#include "engineio/server.h"
#include "http/server.h"
#include "ws/ws.h"

struct out_item {
    struct out_item *next;
    int binary;
    size_t len;
    char data[]; /* text: the whole packet ("4…", "2"); binary: the bytes */
};

struct eio_socket {
    char id[32];
    struct eio_server *srv;
    int websocket; /* the session's transport is WebSocket */
    struct ws_conn *ws;
    struct ws_conn *probe;     /* a WebSocket on its way to replace polling */
    int upgrading;             /* probe answered; waiting for the upgrade packet */
    struct http_exchange *get; /* held long-poll */
    struct out_item *head, *tail;
    size_t queued;
    size_t allowance; /* more than max_queued may wait, until allowed_until (eio_socket_allow) */
    uint64_t allowed_until;
    uv_timer_t ping_timer;
    uv_timer_t upgrade_timer;
    int awaiting_pong;
    int closed;        /* on_close delivered; waiting to be freed */
    int released;      /* out of the map, timers closing */
    int close_pending; /* polling: a "1" waits for the next GET */
    int handles;
    void *data;
};

struct eio_server {
    uv_loop_t *loop;
    struct eio_config cfg;
    struct eio_handlers h;
    void *user;
    struct map sockets;
    struct pace admit; /* new sessions (cfg.sessions_per_s) */
};

/* server.c */
/* Answers a polling request with status, type and body. */
void eio__answer(struct http_exchange *ex, int status, const char *type, const char *body,
                 size_t len);
/* Ends the session: on_close once, with reason; freed once nothing refers to it. */
void eio__finish(struct eio_socket *s, const char *reason);
/* Takes the session out of the map and closes its timers. */
void eio__release_now(struct eio_socket *s);
/* A message on the session's WebSocket. */
void eio__ws_message(void *user, int binary, const char *data, size_t len);

/* output.c */
/* Hands what is queued to the transport: the WebSocket, or a held GET. 0, or -1. */
int eio__flush(struct eio_socket *s);
/* Queues a packet (text: the whole packet; binary: the bytes) and flushes: 0, or -1. */
int eio__send_packet(struct eio_socket *s, int binary, const char *data, size_t len);

/* upgrade.c */
/* Closes a WebSocket on its way to replace polling. */
void eio__drop_probe(struct eio_socket *s);
/* A WebSocket on its way to replace a session's polling (its user is the session), and one
 * that came for a session that has one already. */
extern const struct ws_callbacks eio__probe_ws, eio__unwanted_ws;
/* The probe did not finish the upgrade in time. */
void eio__on_upgrade_timeout(uv_timer_t *t);
/* Answers and lets go of a held GET (a noop packet), before the upgrade. */
void eio__release_get(struct eio_socket *s);

#endif
