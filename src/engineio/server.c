/*
 * Engine.IO sessions: see server.h.
 *
 * Output is a queue of packets; a held GET or the WebSocket takes them as they come. A session
 * is freed only when it is closed, its timers are closed and no GET refers to it.
 */
#include "engineio/server.h"

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
};

static void socket_release(struct eio_socket *s);
static int flush(struct eio_socket *s);
static void release_now(struct eio_socket *s);

/* ---- answers ---- */

static void answer(struct http_exchange *ex, int status, const char *type, const char *body,
                   size_t len)
{
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, body, len);
        copy[len] = '\0';
    }
    http_response_set(&ex->res, status, type, copy, copy ? len : 0);
    ex->res.cache_control = "no-store";
    http_exchange_done(ex);
}

/* Engine.IO's error codes for a request it cannot take, as its servers answer them. */
enum eio_http_error {
    EIO_TRANSPORT_UNKNOWN = 0,
    EIO_SESSION_UNKNOWN = 1,
    EIO_BAD_HANDSHAKE_METHOD = 2,
    EIO_BAD_REQUEST = 3,
    EIO_FORBIDDEN = 4,
    EIO_UNSUPPORTED_PROTOCOL = 5,
};

static void answer_error(struct http_exchange *ex, enum eio_http_error code)
{
    static const char *const messages[] = {[EIO_TRANSPORT_UNKNOWN] = "Transport unknown",
                                           [EIO_SESSION_UNKNOWN] = "Session ID unknown",
                                           [EIO_BAD_HANDSHAKE_METHOD] = "Bad handshake method",
                                           [EIO_BAD_REQUEST] = "Bad request",
                                           [EIO_FORBIDDEN] = "Forbidden",
                                           [EIO_UNSUPPORTED_PROTOCOL] =
                                               "Unsupported protocol version"};
    char body[96];
    int n =
        snprintf(body, sizeof body, "{\"code\":%d,\"message\":\"%s\"}", (int)code, messages[code]);
    ex->res.close = 1;
    answer(ex, code == EIO_FORBIDDEN ? 403 : 400, "application/json", body, (size_t)n);
}

/* ---- the life of a session ---- */

static void on_timer_closed(uv_handle_t *h)
{
    struct eio_socket *s = h->data;
    s->handles--;
    socket_release(s);
}

static void socket_release(struct eio_socket *s)
{
    if (!s->closed || s->handles || s->get)
        return;
    for (struct out_item *it = s->head, *next; it; it = next) {
        next = it->next;
        free(it);
    }
    free(s);
}

/* Forgets the session: out of the map, timers closed, freed when nothing refers to it. */
static void release_now(struct eio_socket *s)
{
    if (s->released)
        return;
    s->released = 1;
    if (s->probe) { /* it points at this session: it goes too */
        ws_close(s->probe);
        s->probe = NULL;
    }
    if (map_get(&s->srv->sockets, s->id) == s)
        map_remove(&s->srv->sockets, s->id);
    uv_close((uv_handle_t *)&s->ping_timer, on_timer_closed);
    uv_close((uv_handle_t *)&s->upgrade_timer, on_timer_closed);
}

static void on_linger_end(uv_timer_t *t)
{
    release_now(t->data);
}

/* Marks the session closed and tells the layer above. Queued packets still go out: at once
 * on a WebSocket or a held GET, else with the close packet to the next GET, which a polling
 * client sends within its ping window (the session lingers that long for it). */
static void finish(struct eio_socket *s, const char *reason)
{
    if (s->closed)
        return;
    log_debug("engine.io: %s closes (%s): websocket %d, probe %d, upgrading %d, held GET %d", s->id,
              reason, s->websocket, s->probe != NULL, s->upgrading, s->get != NULL);
    s->closed = 1;
    s->close_pending = 1;
    uv_timer_stop(&s->ping_timer);
    /* A probe the client is about to switch to stays: its polling is paused until then, so the
     * last packets must go out on the probe (see probe_message). */
    if (s->probe && !s->upgrading) {
        uv_timer_stop(&s->upgrade_timer);
        ws_close(s->probe);
        s->probe = NULL;
    }
    s->srv->h.on_close(s->srv->user, s, reason);
    if (s->ws) {
        flush(s);
        ws_close(s->ws);
        s->ws = NULL;
        release_now(s);
    } else if (s->websocket || (s->get && flush(s))) {
        release_now(s);
    } else {
        uv_timer_start(&s->ping_timer, on_linger_end,
                       (uint64_t)(s->srv->cfg.ping_interval_ms + s->srv->cfg.ping_timeout_ms), 0);
    }
}

void eio_socket_close(struct eio_socket *s, const char *reason)
{
    finish(s, reason);
}

/* Ends the client chose or caused (its close packet, a packet that cannot be decoded, a missed
 * pong): the session is forgotten at once, so its sid answers 400 from now on, as the reference
 * server does; a held GET gets get_reply ("6" when the client closed, else "1"). */
static void finish_now(struct eio_socket *s, const char *reason, const char *get_reply)
{
    if (s->closed)
        return;
    s->closed = 1;
    uv_timer_stop(&s->ping_timer);
    s->srv->h.on_close(s->srv->user, s, reason);
    if (s->ws) {
        ws_close(s->ws);
        s->ws = NULL;
    }
    if (s->get) {
        struct http_exchange *ex = s->get;
        s->get = NULL;
        ex->on_abort = NULL;
        answer(ex, 200, "text/plain; charset=UTF-8", get_reply, strlen(get_reply));
    }
    release_now(s);
}

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
static int flush(struct eio_socket *s)
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
    answer(ex, 200, "text/plain; charset=UTF-8", body.data ? body.data : "", body.len);
    buf_cleanup(&body);
    return closing;
}

static int send_packet(struct eio_socket *s, int binary, const char *data, size_t len)
{
    if (s->closed)
        return -1;
    if (s->ws) {
        if (ws_queued(s->ws) > queue_limit(s)) {
            log_warn("engine.io: %s reads too slowly; dropping it", s->id);
            finish(s, "slow reader");
            return -1;
        }
        return ws_send(s->ws, binary, data, len);
    }
    if (enqueue(s, binary, data, len)) {
        log_warn("engine.io: %s has too much waiting; dropping it", s->id);
        finish(s, "slow reader");
        return -1;
    }
    flush(s);
    return 0;
}

int eio_socket_send(struct eio_socket *s, int binary, const char *data, size_t len)
{
    if (binary)
        return send_packet(s, 1, data, len);
    char small[512];
    char *packet = len + 1 <= sizeof small ? small : malloc(len + 1);
    if (!packet)
        return -1;
    packet[0] = '4';
    memcpy(packet + 1, data, len);
    int rc = send_packet(s, 0, packet, len + 1);
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
        return send_packet(s, 0, p->packet.data, p->packet.len);
    if (ws_queued(s->ws) > queue_limit(s)) {
        log_warn("engine.io: %s reads too slowly; dropping it", s->id);
        finish(s, "slow reader");
        return -1;
    }
    return ws_send_frame(s->ws, p->frame.data, p->frame.len);
}

/* ---- heartbeat ---- */

static void on_ping_timer(uv_timer_t *t)
{
    struct eio_socket *s = t->data;
    if (s->awaiting_pong) {
        finish_now(s, "ping timeout", "1");
        return;
    }
    s->awaiting_pong = 1;
    send_packet(s, 0, "2", 1);
    if (!s->closed)
        uv_timer_start(&s->ping_timer, on_ping_timer, (uint64_t)s->srv->cfg.ping_timeout_ms, 0);
}

static void schedule_ping(struct eio_socket *s)
{
    s->awaiting_pong = 0;
    uv_timer_start(&s->ping_timer, on_ping_timer, (uint64_t)s->srv->cfg.ping_interval_ms, 0);
}

/* ---- input ---- */

/* One packet from the session's own transport. Returns -1 when the session was closed. */
static int on_packet(void *user, const struct eio_packet *p)
{
    struct eio_socket *s = user;
    if (s->closed)
        return -1;
    switch (p->type) {
    case EIO_PONG:
        schedule_ping(s);
        return 0;
    case EIO_MESSAGE:
        s->srv->h.on_message(s->srv->user, s, p->binary, p->data, p->len);
        return s->closed ? -1 : 0;
    case EIO_CLOSE:
        finish_now(s, "transport close", "6");
        return -1;
    case EIO_NOOP:
        return 0;
    default:
        /* A v4 client never pings, opens or upgrades on an open transport. */
        finish_now(s, "protocol error", "1");
        return -1;
    }
}

static void ws_message(void *user, int binary, const char *data, size_t len)
{
    struct eio_socket *s = user;
    struct eio_packet p;
    if (binary) {
        p = (struct eio_packet){EIO_MESSAGE, 1, data, len};
        on_packet(s, &p);
    } else if (eio__decode_text(data, len, &p)) {
        finish_now(s, "parse error", "1");
    } else {
        on_packet(s, &p);
    }
}

static void ws_closed(void *user)
{
    struct eio_socket *s = user;
    s->ws = NULL;
    finish(s, "transport close");
}

static const struct ws_callbacks main_ws = {ws_message, ws_closed};

/* ---- the upgrade ---- */

static void drop_probe(struct eio_socket *s)
{
    uv_timer_stop(&s->upgrade_timer);
    if (s->probe)
        ws_close(s->probe);
    s->probe = NULL;
    s->upgrading = 0;
}

static void on_upgrade_timeout(uv_timer_t *t)
{
    struct eio_socket *s = t->data;
    drop_probe(s);
    if (s->closed && !s->get)
        release_now(s);
}

static void release_get(struct eio_socket *s)
{
    if (!s->get)
        return;
    struct http_exchange *ex = s->get;
    s->get = NULL;
    ex->on_abort = NULL;
    answer(ex, 200, "text/plain; charset=UTF-8", "6", 1);
}

static void ws_message(void *user, int binary, const char *data, size_t len);

static void probe_message(void *user, int binary, const char *data, size_t len)
{
    struct eio_socket *s = user;
    if (s->websocket) { /* the probe became the transport */
        ws_message(user, binary, data, len);
        return;
    }
    if (!binary && len == 6 && memcmp(data, "2probe", 6) == 0 && !s->upgrading) {
        s->upgrading = 1;
        ws_send(s->probe, 0, "3probe", 6);
        release_get(s); /* lets the client's poll loop end */
    } else if (!binary && len == 1 && data[0] == '5' && s->upgrading) {
        uv_timer_stop(&s->upgrade_timer);
        s->ws = s->probe;
        s->probe = NULL;
        s->upgrading = 0;
        s->websocket = 1;
        /* From here the main WebSocket callbacks apply. */
        release_get(s);
        flush(s);
        if (s->closed) { /* closed while upgrading: the last packets went out; now close */
            ws_close(s->ws);
            s->ws = NULL;
            release_now(s);
        }
    } else {
        drop_probe(s);
    }
}

static void probe_closed(void *user)
{
    struct eio_socket *s = user;
    if (s->ws == NULL && s->probe) {
        s->probe = NULL;
        s->upgrading = 0;
        uv_timer_stop(&s->upgrade_timer);
    } else if (s->websocket) {
        /* The probe had become the session's transport. */
        s->ws = NULL;
        finish(s, "transport close");
    }
}

static const struct ws_callbacks probe_ws = {probe_message, probe_closed};

static void unwanted_message(void *user, int binary, const char *data, size_t len)
{
    (void)user;
    (void)binary;
    (void)data;
    (void)len;
}

static void unwanted_closed(void *user)
{
    (void)user;
}

static const struct ws_callbacks unwanted_ws = {unwanted_message, unwanted_closed};

/* ---- requests ---- */

static struct eio_socket *socket_new(struct eio_server *srv)
{
    struct eio_socket *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    unsigned char raw[15];
    crypto_random(raw, sizeof raw);
    crypto_base64url(raw, sizeof raw, s->id);
    s->srv = srv;
    uv_timer_init(srv->loop, &s->ping_timer);
    uv_timer_init(srv->loop, &s->upgrade_timer);
    s->ping_timer.data = s->upgrade_timer.data = s;
    s->handles = 2;
    if (map_set(&srv->sockets, s->id, s)) {
        s->closed = 1;
        release_now(s);
        return NULL;
    }
    return s;
}

static int open_packet(struct eio_socket *s, int upgrades, char *out, size_t cap)
{
    return snprintf(out, cap,
                    "0{\"sid\":\"%s\",\"upgrades\":[%s],\"pingInterval\":%d,\"pingTimeout\":%d,"
                    "\"maxPayload\":%zu}",
                    s->id, upgrades ? "\"websocket\"" : "", s->srv->cfg.ping_interval_ms,
                    s->srv->cfg.ping_timeout_ms, s->srv->cfg.max_payload);
}

static void on_get_abort(struct http_exchange *ex)
{
    struct eio_socket *s = ex->user;
    s->get = NULL;
    http_exchange_done(ex); /* the connection is gone: nothing is written */
    /* As the reference server: a dropped poll is a transport error. */
    if (!s->closed)
        finish(s, "transport error");
    else
        release_now(s);
}

static void handle_poll_get(struct eio_socket *s, struct http_exchange *ex)
{
    if (s->get) {
        /* A second concurrent GET: the first is told the session closed, this one fails. */
        finish(s, "multiple polls");
        answer_error(ex, EIO_BAD_REQUEST);
        return;
    }
    s->get = ex;
    ex->user = s;
    ex->on_abort = on_get_abort;
    if (s->closed) { /* a lingering session: its last packets, then the close */
        if (flush(s))
            release_now(s);
    } else if (s->upgrading) {
        release_get(s);
    } else {
        flush(s);
    }
}

struct post_ctx {
    struct eio_socket *s;
};

static void handle_poll_post(struct eio_socket *s, struct http_exchange *ex)
{
    struct slice type = http_request_header(ex->req, "content-type");
    if (type.ptr && slice_eq_nocase(type, "application/octet-stream")) {
        finish(s, "binary post");
        answer_error(ex, EIO_BAD_REQUEST);
        return;
    }
    const struct buf *body = &ex->req->body;
    if (body->len > s->srv->cfg.max_payload) {
        finish(s, "payload too large");
        answer(ex, 413, "application/json", "{\"code\":3,\"message\":\"Bad request\"}", 35);
        return;
    }
    unsigned char *scratch = malloc(body->len + 1);
    int rc = scratch ? eio__decode_payload(body->data ? body->data : "", body->len, scratch,
                                           on_packet, s)
                     : EIO_EDECODE;
    free(scratch);
    if (rc != EIO_OK && !s->closed)
        finish_now(s, "parse error", "1");
    answer(ex, 200, "text/html", "ok", 2);
}

static int query_param(const struct http_request *req, const char *name, char *out, size_t cap)
{
    struct slice v;
    if (!http_query_param(req->query, name, &v))
        return 0;
    return slice_copy(v, out, cap) == 0;
}

void eio_server_handle(struct eio_server *srv, struct http_exchange *ex)
{
    const struct http_request *req = ex->req;
    char eio[8] = "", transport[16] = "", sid[40] = "";
    query_param(req, "EIO", eio, sizeof eio);
    if (strcmp(eio, "4") != 0) {
        answer_error(ex, EIO_UNSUPPORTED_PROTOCOL);
        return;
    }
    query_param(req, "transport", transport, sizeof transport);
    int websocket = !strcmp(transport, "websocket");
    if (!websocket && strcmp(transport, "polling") != 0) {
        answer_error(ex, EIO_TRANSPORT_UNKNOWN);
        return;
    }
    if (!query_param(req, "sid", sid, sizeof sid)) {
        if (websocket && !ws_is_upgrade(req)) {
            answer_error(ex, EIO_BAD_REQUEST);
            return;
        }
        if (!websocket && req->method != HTTP_GET) {
            answer_error(ex, EIO_BAD_HANDSHAKE_METHOD);
            return;
        }
        if (srv->cfg.max_sessions && srv->sockets.count >= srv->cfg.max_sessions) {
            static const char busy[] = "{\"code\":3,\"message\":\"Too many sessions\"}";
            ex->res.close = 1;
            http_response_add_header(&ex->res, "Retry-After", "1");
            answer(ex, 503, "application/json", busy, sizeof busy - 1);
            return;
        }
        struct eio_socket *s = socket_new(srv);
        if (!s) {
            answer_error(ex, EIO_BAD_REQUEST);
            return;
        }
        char open[256];
        int n = open_packet(s, !websocket, open, sizeof open);
        if (websocket) {
            s->websocket = 1;
            s->ws = ws_accept(ex, &main_ws, s, srv->cfg.max_payload);
            if (!s->ws) {
                answer_error(ex, EIO_BAD_REQUEST);
                s->closed = 1; /* never opened: nothing to tell above */
                release_now(s);
                return;
            }
            ws_send(s->ws, 0, open, (size_t)n);
        } else {
            answer(ex, 200, "text/plain; charset=UTF-8", open, (size_t)n);
        }
        if (s->closed)
            return; /* the transport failed under the open packet: never opened above */
        schedule_ping(s);
        srv->h.on_open(srv->user, s);
        if (websocket && s->ws && !s->closed)
            ws_start(s->ws);
        return;
    }
    struct eio_socket *s = map_get(&srv->sockets, sid);
    if (!s || (s->closed && (websocket || req->method != HTTP_GET))) {
        answer_error(ex, EIO_SESSION_UNKNOWN);
        return;
    }
    if (websocket) {
        if (s->websocket && ws_is_upgrade(req)) {
            /* A second upgrade of a session already on WebSocket: accepted, then closed, as the
             * reference server does (a refused handshake is an error its clients throw). */
            struct ws_conn *extra = ws_accept(ex, &unwanted_ws, NULL, srv->cfg.max_payload);
            if (extra)
                ws_close(extra);
            else
                answer_error(ex, EIO_BAD_REQUEST);
            return;
        }
        if (s->websocket || s->probe || !ws_is_upgrade(req)) {
            answer_error(ex, EIO_BAD_REQUEST);
            return;
        }
        s->probe = ws_accept(ex, &probe_ws, s, srv->cfg.max_payload);
        if (!s->probe) {
            answer_error(ex, EIO_BAD_REQUEST);
            return;
        }
        uv_timer_start(&s->upgrade_timer, on_upgrade_timeout, (uint64_t)srv->cfg.upgrade_timeout_ms,
                       0);
        ws_start(s->probe);
        return;
    }
    if (s->websocket) {
        answer_error(ex, EIO_BAD_REQUEST);
        return;
    }
    if (req->method == HTTP_GET)
        handle_poll_get(s, ex);
    else if (req->method == HTTP_POST)
        handle_poll_post(s, ex);
    else
        answer_error(ex, EIO_BAD_REQUEST);
}

/* ---- the server ---- */

struct eio_server *eio_server_new(uv_loop_t *loop, const struct eio_config *cfg,
                                  const struct eio_handlers *h, void *user)
{
    struct eio_server *srv = calloc(1, sizeof *srv);
    if (!srv)
        return NULL;
    srv->loop = loop;
    srv->cfg = *cfg;
    srv->h = *h;
    srv->user = user;
    map_init(&srv->sockets);
    return srv;
}

static void collect(const char *key, void *value, void *arg)
{
    (void)key;
    struct eio_socket ***cursor = arg;
    *(*cursor)++ = value;
}

void eio_server_close_all(struct eio_server *srv)
{
    size_t n = srv->sockets.count;
    if (!n)
        return;
    struct eio_socket **all = malloc(n * sizeof *all), **cursor = all;
    if (!all)
        return;
    map_each(&srv->sockets, collect, &cursor);
    for (size_t i = 0; i < n; i++)
        finish(all[i], "server shutting down");
    free(all);
}

void eio_server_release_all(struct eio_server *srv)
{
    size_t n = srv->sockets.count;
    struct eio_socket **all = n ? malloc(n * sizeof *all) : NULL, **cursor = all;
    if (!all)
        return;
    map_each(&srv->sockets, collect, &cursor);
    for (size_t i = 0; i < n; i++) {
        finish(all[i], "server shutting down");
        drop_probe(all[i]);
        if (!all[i]->get)
            release_now(all[i]);
    }
    free(all);
}

size_t eio_server_count(const struct eio_server *srv)
{
    return srv->sockets.count;
}

void eio_server_free(struct eio_server *srv)
{
    if (!srv)
        return;
    map_cleanup(&srv->sockets);
    free(srv);
}

const char *eio__socket_id(const struct eio_socket *s)
{
    return s->id;
}

void *eio_socket_data(const struct eio_socket *s)
{
    return s->data;
}

void eio_socket_set_data(struct eio_socket *s, void *data)
{
    s->data = data;
}
