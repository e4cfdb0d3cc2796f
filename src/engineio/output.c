/*
 * A session's output: a queue of packets, bounded (a slow reader is dropped past it, unless
 * allowed more for a while), that a held GET or the WebSocket takes as they come. A prepared
 * message is framed once for every session it goes to.
 */
#include "engineio/session.h"

#include <http_parser.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto.h"
#include "core/log.h"
#include "core/map.h"
#include "engineio/packet.h"
#include "ws/ws.h"

/* ---- output ---- */

/* What may wait for this socket's reader before it counts as too slow. */
static size_t queue_limit(const struct eio_socket *s)
{
    size_t limit = s->srv->cfg.max_queued;
    return s->allowance && uv_now(s->srv->loop) < s->allowed_until ? limit + s->allowance : limit;
}

void eio_socket_allow(struct eio_socket *s, size_t bytes, uint64_t ms)
{
    s->allowance = bytes;
    s->allowed_until = uv_now(s->srv->loop) + ms;
}

static int enqueue(struct eio_socket *s, int binary, const char *data, size_t len)
{
    if (s->queued + len > queue_limit(s))
        return -1;
    struct out_item *it = malloc(sizeof *it + len);
    if (!it)
        return -1;
    it->next = NULL;
    it->binary = binary;
    it->len = len;
    memcpy(it->data, data, len);
    if (s->tail)
        s->tail->next = it;
    else
        s->head = it;
    s->tail = it;
    s->queued += len;
    return 0;
}

/* Sends what is queued. A closed polling session sends its close packet ("1") only in a
 * response of its own: a client that finds it behind other packets closes before it has read
 * them (socket.io-client handles decoded packets on the next tick). Returns 1 when the close
 * packet went out. */
int eio__flush(struct eio_socket *s)
{
    if (s->ws) {
        for (struct out_item *it = s->head, *next; it; it = next) {
            next = it->next;
            ws_send(s->ws, it->binary, it->data, it->len);
            free(it);
        }
        s->head = s->tail = NULL;
        s->queued = 0;
        return 0;
    }
    if (!s->get || (!s->head && !s->close_pending))
        return 0;
    int closing = s->close_pending && !s->head;
    struct buf body;
    buf_init(&body, s->queued * 2 + 64);
    for (struct out_item *it = s->head, *next; it; it = next) {
        next = it->next;
        if (body.len)
            buf_append(&body, "\x1e", 1);
        struct eio_packet p = {EIO_MESSAGE, 1, it->data, it->len};
        if (it->binary)
            eio__encode_polling(&body, &p);
        else
            buf_append(&body, it->data, it->len);
        free(it);
    }
    s->head = s->tail = NULL;
    s->queued = 0;
    if (closing)
        buf_append(&body, "1", 1);
    struct http_exchange *ex = s->get;
    s->get = NULL;
    ex->on_abort = NULL;
    eio__answer(ex, 200, "text/plain; charset=UTF-8", body.data ? body.data : "", body.len);
    buf_cleanup(&body);
    return closing;
}

int eio__send_packet(struct eio_socket *s, int binary, const char *data, size_t len)
{
    if (s->closed)
        return -1;
    if (s->ws) {
        if (ws_queued(s->ws) > queue_limit(s)) {
            log_warn("engine.io: %s reads too slowly; dropping it", s->id);
            eio__finish(s, "slow reader");
            return -1;
        }
        return ws_send(s->ws, binary, data, len);
    }
    if (enqueue(s, binary, data, len)) {
        log_warn("engine.io: %s has too much waiting; dropping it", s->id);
        eio__finish(s, "slow reader");
        return -1;
    }
    eio__flush(s);
    return 0;
}

int eio_socket_send(struct eio_socket *s, int binary, const char *data, size_t len)
{
    if (binary)
        return eio__send_packet(s, 1, data, len);
    char small[512];
    char *packet = len + 1 <= sizeof small ? small : malloc(len + 1);
    if (!packet)
        return -1;
    packet[0] = '4';
    memcpy(packet + 1, data, len);
    int rc = eio__send_packet(s, 0, packet, len + 1);
    if (packet != small)
        free(packet);
    return rc;
}

int eio_prepare(struct eio_prepared *p, const char *message, size_t len)
{
    buf_init(&p->packet, len + 16);
    buf_init(&p->frame, len + 32);
    if (buf_append(&p->packet, "4", 1) || buf_append(&p->packet, message, len) ||
        ws_frame_text(&p->frame, p->packet.data, p->packet.len)) {
        eio_prepared_cleanup(p);
        return -1;
    }
    return 0;
}

void eio_prepared_cleanup(struct eio_prepared *p)
{
    buf_cleanup(&p->packet);
    buf_cleanup(&p->frame);
}

int eio_socket_send_prepared(struct eio_socket *s, const struct eio_prepared *p)
{
    if (s->closed)
        return -1;
    if (!s->ws)
        return eio__send_packet(s, 0, p->packet.data, p->packet.len);
    if (ws_queued(s->ws) > queue_limit(s)) {
        log_warn("engine.io: %s reads too slowly; dropping it", s->id);
        eio__finish(s, "slow reader");
        return -1;
    }
    return ws_send_frame(s->ws, p->frame.data, p->frame.len);
}
