/*
 * Engine.IO sessions: see server.h. This file runs a session's life, its heartbeat and input,
 * and answers requests; output.c and upgrade.c are the rest (session.h).
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
#include "engineio/session.h"
#include "ws/ws.h"

static void socket_release(struct eio_socket *s);

/* ---- answers ---- */

void eio__answer(struct http_exchange *ex, int status, const char *type, const char *body,
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

/* Engine.IO's error codes for a request it cannot take, as its servers eio__answer them. */
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
    eio__answer(ex, code == EIO_FORBIDDEN ? 403 : 400, "application/json", body, (size_t)n);
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
void eio__release_now(struct eio_socket *s)
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
    eio__release_now(t->data);
}

/* Marks the session closed and tells the layer above. Queued packets still go out: at once
 * on a WebSocket or a held GET, else with the close packet to the next GET, which a polling
 * client sends within its ping window (the session lingers that long for it). */
void eio__finish(struct eio_socket *s, const char *reason)
{
    if (s->closed)
        return;
    log_debug("engine.io: %s closes (%s): websocket %d, probe %d, upgrading %d, held GET %d", s->id,
              reason, s->websocket, s->probe != NULL, s->upgrading, s->get != NULL);
    s->closed = 1;
    s->close_pending = 1;
    uv_timer_stop(&s->ping_timer);
    /* A probe the client is about to switch to stays: its polling is paused until then, so the
     * last packets must go out on the probe (see upgrade.c). */
    if (s->probe && !s->upgrading) {
        uv_timer_stop(&s->upgrade_timer);
        ws_close(s->probe);
        s->probe = NULL;
    }
    s->srv->h.on_close(s->srv->user, s, reason);
    if (s->ws) {
        eio__flush(s);
        ws_close(s->ws);
        s->ws = NULL;
        eio__release_now(s);
    } else if (s->websocket || (s->get && eio__flush(s))) {
        eio__release_now(s);
    } else {
        uv_timer_start(&s->ping_timer, on_linger_end,
                       (uint64_t)(s->srv->cfg.ping_interval_ms + s->srv->cfg.ping_timeout_ms), 0);
    }
}

void eio_socket_close(struct eio_socket *s, const char *reason)
{
    eio__finish(s, reason);
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
        eio__answer(ex, 200, "text/plain; charset=UTF-8", get_reply, strlen(get_reply));
    }
    eio__release_now(s);
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
    eio__send_packet(s, 0, "2", 1);
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

void eio__ws_message(void *user, int binary, const char *data, size_t len)
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
    eio__finish(s, "transport close");
}

static const struct ws_callbacks main_ws = {eio__ws_message, ws_closed};

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
        eio__release_now(s);
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
        eio__finish(s, "transport error");
    else
        eio__release_now(s);
}

static void handle_poll_get(struct eio_socket *s, struct http_exchange *ex)
{
    if (s->get) {
        /* A second concurrent GET: the first is told the session closed, this one fails. */
        eio__finish(s, "multiple polls");
        answer_error(ex, EIO_BAD_REQUEST);
        return;
    }
    s->get = ex;
    ex->user = s;
    ex->on_abort = on_get_abort;
    if (s->closed) { /* a lingering session: its last packets, then the close */
        if (eio__flush(s))
            eio__release_now(s);
    } else if (s->upgrading) {
        eio__release_get(s);
    } else {
        eio__flush(s);
    }
    if (s->get == ex) /* nothing to send: held until something is (what a test waits for) */
        log_debug("engine.io: session %s's poll is held", s->id);
}

struct post_ctx {
    struct eio_socket *s;
};

static void handle_poll_post(struct eio_socket *s, struct http_exchange *ex)
{
    struct slice type = http_request_header(ex->req, "content-type");
    if (type.ptr && slice_eq_nocase(type, "application/octet-stream")) {
        eio__finish(s, "binary post");
        answer_error(ex, EIO_BAD_REQUEST);
        return;
    }
    const struct buf *body = &ex->req->body;
    if (body->len > s->srv->cfg.max_payload) {
        eio__finish(s, "payload too large");
        eio__answer(ex, 413, "application/json", "{\"code\":3,\"message\":\"Bad request\"}", 35);
        return;
    }
    unsigned char *scratch = malloc(body->len + 1);
    int rc = scratch ? eio__decode_payload(body->data ? body->data : "", body->len, scratch,
                                           on_packet, s)
                     : EIO_EDECODE;
    free(scratch);
    if (rc != EIO_OK && !s->closed)
        finish_now(s, "parse error", "1");
    eio__answer(ex, 200, "text/html", "ok", 2);
}

static int query_param(const struct http_request *req, const char *name, char *out, size_t cap)
{
    struct slice v;
    if (!http_query_param(req->query, name, &v))
        return 0;
    return slice_copy(v, out, cap) == 0;
}

/* 503 with Retry-After: 1, which the official clients take as a failed try. */
static void answer_busy(struct http_exchange *ex, const char *body, size_t len)
{
    ex->res.close = 1;
    http_response_add_header(&ex->res, "Retry-After", "1");
    eio__answer(ex, 503, "application/json", body, len);
}

/* A request without a session: a new one opens, on polling or straight on WebSocket. */
static void handshake(struct eio_server *srv, struct http_exchange *ex, int websocket)
{
    const struct http_request *req = ex->req;
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
        answer_busy(ex, busy, sizeof busy - 1);
        return;
    }
    /* A storm of reconnects (a restart) comes in at the pace the node keeps up with; the
     * clients try again after their backoff. */
    if (!pace_take(&srv->admit, (int64_t)uv_now(srv->loop))) {
        static const char busy[] = "{\"code\":3,\"message\":\"Too many new sessions\"}";
        answer_busy(ex, busy, sizeof busy - 1);
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
            eio__release_now(s);
            return;
        }
        ws_send(s->ws, 0, open, (size_t)n);
    } else {
        eio__answer(ex, 200, "text/plain; charset=UTF-8", open, (size_t)n);
    }
    if (s->closed)
        return; /* the transport failed under the open packet: never opened above */
    schedule_ping(s);
    srv->h.on_open(srv->user, s);
    if (websocket && s->ws && !s->closed)
        ws_start(s->ws);
}

/* A WebSocket request for a polling session: the upgrade's probe. */
static void upgrade(struct eio_server *srv, struct eio_socket *s, struct http_exchange *ex)
{
    const struct http_request *req = ex->req;
    if (s->websocket && ws_is_upgrade(req)) {
        /* A second upgrade of a session already on WebSocket: accepted, then closed, as the
         * reference server does (a refused handshake is an error its clients throw). */
        struct ws_conn *extra = ws_accept(ex, &eio__unwanted_ws, NULL, srv->cfg.max_payload);
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
    s->probe = ws_accept(ex, &eio__probe_ws, s, srv->cfg.max_payload);
    if (!s->probe) {
        answer_error(ex, EIO_BAD_REQUEST);
        return;
    }
    uv_timer_start(&s->upgrade_timer, eio__on_upgrade_timeout,
                   (uint64_t)srv->cfg.upgrade_timeout_ms, 0);
    ws_start(s->probe);
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
        handshake(srv, ex, websocket);
        return;
    }
    struct eio_socket *s = map_get(&srv->sockets, sid);
    if (!s || (s->closed && (websocket || req->method != HTTP_GET)))
        answer_error(ex, EIO_SESSION_UNKNOWN);
    else if (websocket)
        upgrade(srv, s, ex);
    else if (s->websocket)
        answer_error(ex, EIO_BAD_REQUEST);
    else if (req->method == HTTP_GET)
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
    srv->admit.per_s = cfg->sessions_per_s;
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
        eio__finish(all[i], "server shutting down");
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
        eio__finish(all[i], "server shutting down");
        eio__drop_probe(all[i]);
        if (!all[i]->get)
            eio__release_now(all[i]);
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
