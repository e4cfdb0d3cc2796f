/*
 * The Socket.IO test mode (`praca serve --conformance`): the handlers the official Engine.IO and
 * Socket.IO protocol test suites expect, so they can be run against this server. A bare
 * Engine.IO endpoint at /engine.io/ echoes every message; /socket.io/ serves the namespaces "/"
 * and "/custom", answering CONNECT with an `auth` event, `message` with `message-back`, and
 * acknowledging `message-with-ack`, binary attachments kept. Heartbeat 300/200 ms.
 */
#ifndef PRACA_SOCKETIO_CONFORMANCE_H
#define PRACA_SOCKETIO_CONFORMANCE_H
#include <uv.h>

#include "http/server.h"

struct conformance;

struct conformance *sio_conformance_new(uv_loop_t *loop);
/* 1 when it took the request (/engine.io/ or /socket.io/). */
int sio_conformance_handle(struct conformance *c, struct http_exchange *ex);
void sio_conformance_drain(struct conformance *c);
size_t sio_conformance_sessions(const struct conformance *c);
void sio_conformance_release(struct conformance *c);
void sio_conformance_free(struct conformance *c);

#endif
