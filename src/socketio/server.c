/*
 * Socket.IO server: see server.h. A client (one Engine.IO session) holds up to a few namespace
 * sockets; binary packets are assembled from the attachments that follow them.
 */
#include "core/jsonout.h"
#include "socketio/server.h"

#include <stdlib.h>
#include <string.h>

#include "core/crypto.h"
#include "core/log.h"
#include "core/map.h"
#include "socketio/packet.h"

#define MAX_NAMESPACES 4

struct sio_client {
    struct sio_server *srv;
    struct eio_socket *eio;
    struct sio_socket *sockets[MAX_NAMESPACES];
    uv_timer_t connect_timer;
    int connected_once;
    /* A binary packet waiting for its attachments. */
    struct sio_packet pending;
    int pending_active;
    struct sio_attachment att[SIO_MAX_ATTACHMENTS];
    char *att_data[SIO_MAX_ATTACHMENTS];
    int natt;
    int closing;
};

enum sock_state { SOCK_CONNECTING, SOCK_CONNECTED };

struct sio_socket {
    char id[32];
    char nsp[64];
    struct sio_client *client;
    enum sock_state state;
    void *data;
};

struct sio_server {
    struct eio_server *eio;
    struct sio_config cfg;
    struct sio_handlers h;
    void *user;
    struct map sockets;
    uv_loop_t *loop;
};

static int known_namespace(struct sio_server *srv, struct slice nsp)
{
    for (const char *const *n = srv->cfg.namespaces; *n; n++)
        if (slice_eq(nsp, *n))
            return 1;
    return 0;
}

static int send_encoded(struct sio_client *c, enum sio_type type, const char *nsp, int64_t id,
                        int natt, const char *json, size_t len)
{
    struct buf b;
    buf_init(&b, len + 128);
    int rc = sio__encode(&b, type, nsp, id, natt, json, len);
    if (!rc)
        rc = eio_socket_send(c->eio, 0, b.data, b.len);
    buf_cleanup(&b);
    return rc;
}

static struct sio_socket **slot_of(struct sio_client *c, struct slice nsp)
{
    for (int i = 0; i < MAX_NAMESPACES; i++)
        if (c->sockets[i] && slice_eq(nsp, c->sockets[i]->nsp))
            return &c->sockets[i];
    return NULL;
}

static void socket_drop(struct sio_socket *sock, const char *reason)
{
    struct sio_client *c = sock->client;
    for (int i = 0; i < MAX_NAMESPACES; i++)
        if (c->sockets[i] == sock)
            c->sockets[i] = NULL;
    map_remove(&c->srv->sockets, sock->id);
    if (sock->state == SOCK_CONNECTED)
        c->srv->h.on_disconnect(c->srv->user, sock, reason);
    free(sock);
}

static void clear_pending(struct sio_client *c)
{
    if (c->pending_active)
        sio__packet_cleanup(&c->pending);
    c->pending_active = 0;
    for (int i = 0; i < c->natt; i++)
        free(c->att_data[i]);
    c->natt = 0;
}

/* ---- inbound ---- */

static void on_connect_timeout(uv_timer_t *t)
{
    struct sio_client *c = t->data;
    eio_socket_close(c->eio, "connect timeout");
}

static void handle_connect(struct sio_client *c, struct sio_packet *p)
{
    struct sio_server *srv = c->srv;
    char nsp[64];
    if (slice_copy(p->nsp, nsp, sizeof nsp) || !known_namespace(srv, p->nsp)) {
        slice_copy(p->nsp.len < sizeof nsp ? p->nsp : SLICE_LIT("/?"), nsp, sizeof nsp);
        const char *err = "{\"message\":\"Invalid namespace\"}";
        send_encoded(c, SIO_CONNECT_ERROR, nsp, -1, 0, err, strlen(err));
        return;
    }
    if (slot_of(c, p->nsp)) { /* already joined (or joining): a state error */
        eio_socket_close(c->eio, "duplicate connect");
        return;
    }
    struct sio_socket **free_slot = NULL;
    for (int i = 0; i < MAX_NAMESPACES && !free_slot; i++)
        if (!c->sockets[i])
            free_slot = &c->sockets[i];
    struct sio_socket *sock = free_slot ? calloc(1, sizeof *sock) : NULL;
    if (!sock) {
        eio_socket_close(c->eio, "too many namespaces");
        return;
    }
    unsigned char raw[15];
    crypto_random(raw, sizeof raw);
    crypto_base64url(raw, sizeof raw, sock->id);
    memcpy(sock->nsp, nsp, sizeof nsp);
    sock->client = c;
    *free_slot = sock;
    map_set(&srv->sockets, sock->id, sock);
    const char *message = "Não autorizado";
    enum sio_connect_decision d = srv->h.on_connect(srv->user, sock, p->data, &message);
    if (d != SIO_LATER)
        sio_connect_result(sock, d == SIO_ACCEPT, message);
}

static void deliver(struct sio_client *c, struct sio_packet *p)
{
    struct sio_socket **slot = slot_of(c, p->nsp);
    struct sio_socket *sock = slot ? *slot : NULL;
    if (!sock || sock->state != SOCK_CONNECTED) {
        /* A packet for a namespace not joined is a state error, as in the reference server. */
        eio_socket_close(c->eio, "packet for a namespace not joined");
        return;
    }
    switch (p->type) {
    case SIO_EVENT:
    case SIO_BINARY_EVENT:
        c->srv->h.on_event(c->srv->user, sock, p->data, p->id, c->att, c->natt);
        break;
    case SIO_DISCONNECT:
        socket_drop(sock, "client namespace disconnect");
        break;
    default:
        break; /* acks of server emits: none are asked for */
    }
}

static void on_open(void *user, struct eio_socket *s)
{
    struct sio_server *srv = user;
    struct sio_client *c = calloc(1, sizeof *c);
    if (!c) {
        eio_socket_close(s, "out of memory");
        return;
    }
    c->srv = srv;
    c->eio = s;
    uv_timer_init(srv->loop, &c->connect_timer);
    c->connect_timer.data = c;
    uv_timer_start(&c->connect_timer, on_connect_timeout, (uint64_t)srv->cfg.connect_timeout_ms, 0);
    eio_socket_set_data(s, c);
}

static void on_message(void *user, struct eio_socket *s, int binary, const char *data, size_t len)
{
    (void)user;
    struct sio_client *c = eio_socket_data(s);
    if (!c)
        return;
    if (binary) {
        if (!c->pending_active || c->natt >= c->pending.attachments) {
            eio_socket_close(s, "unexpected attachment");
            return;
        }
        char *copy = malloc(len ? len : 1);
        if (!copy) {
            eio_socket_close(s, "out of memory");
            return;
        }
        memcpy(copy, data, len);
        c->att_data[c->natt] = copy;
        c->att[c->natt] = (struct sio_attachment){copy, len};
        if (++c->natt == c->pending.attachments) {
            deliver(c, &c->pending);
            if (eio_socket_data(s) == c)
                clear_pending(c);
        }
        return;
    }
    if (c->pending_active) {
        eio_socket_close(s, "attachments missing");
        return;
    }
    struct sio_packet p;
    if (sio__decode(data, len, &p) != SIO_OK) {
        eio_socket_close(s, "parse error");
        return;
    }
    if (p.type == SIO_CONNECT) {
        handle_connect(c, &p);
    } else if (p.type == SIO_CONNECT_ERROR) {
        eio_socket_close(s, "unexpected packet");
    } else if ((p.type == SIO_BINARY_EVENT || p.type == SIO_BINARY_ACK) && p.attachments > 0) {
        struct sio_socket **slot = slot_of(c, p.nsp);
        if (!slot || !*slot || (*slot)->state != SOCK_CONNECTED) {
            /* Refused before its attachments are held: nothing buffers before a CONNECT. */
            sio__packet_cleanup(&p);
            eio_socket_close(s, "packet for a namespace not joined");
            return;
        }
        c->pending = p;
        c->pending_active = 1;
        return; /* kept until its attachments arrive */
    } else {
        deliver(c, &p);
    }
    sio__packet_cleanup(&p);
}

static void on_timer_closed(uv_handle_t *h)
{
    free(h->data);
}

static void on_close(void *user, struct eio_socket *s, const char *reason)
{
    (void)user;
    struct sio_client *c = eio_socket_data(s);
    if (!c)
        return;
    eio_socket_set_data(s, NULL);
    c->closing = 1;
    for (int i = 0; i < MAX_NAMESPACES; i++)
        if (c->sockets[i])
            socket_drop(c->sockets[i], reason);
    clear_pending(c);
    uv_close((uv_handle_t *)&c->connect_timer, on_timer_closed);
}

static const struct eio_handlers eio_handlers = {on_open, on_message, on_close};

/* ---- outbound ---- */

static void accept_with(struct sio_socket *sock, const char *pid)
{
    struct sio_client *c = sock->client;
    sock->state = SOCK_CONNECTED;
    char json[128];
    int n = pid ? snprintf(json, sizeof json, "{\"sid\":\"%s\",\"pid\":\"%s\"}", sock->id, pid)
                : snprintf(json, sizeof json, "{\"sid\":\"%s\"}", sock->id);
    uv_timer_stop(&c->connect_timer);
    c->connected_once = 1;
    send_encoded(c, SIO_CONNECT, sock->nsp, -1, 0, json, (size_t)n);
}

void sio_connect_accept_pid(struct sio_socket *sock, const char *pid)
{
    accept_with(sock, pid);
}

void sio_connect_result(struct sio_socket *sock, int accept, const char *message)
{
    struct sio_client *c = sock->client;
    if (accept) {
        accept_with(sock, NULL);
        return;
    }
    json_t *err = json_pack("{ss}", "message", message);
    char *text = jsonout_dump(err, NULL);
    json_decref(err);
    if (text)
        send_encoded(c, SIO_CONNECT_ERROR, sock->nsp, -1, 0, text, strlen(text));
    free(text);
    /* The connection stays open: clients close it themselves (closing it here makes some
     * clients reconnect in a loop); the connect timeout cleans up the rest. */
    socket_drop(sock, "refused");
}

int sio_socket_send_packet(struct sio_socket *sock, const char *packet, size_t len)
{
    return eio_socket_send(sock->client->eio, 0, packet, len);
}

void sio_socket_allow(struct sio_socket *sock, size_t bytes, uint64_t ms)
{
    eio_socket_allow(sock->client->eio, bytes, ms);
}

int sio_prepare(struct sio_prepared *p, const char *packet, size_t len)
{
    return eio_prepare(&p->eio, packet, len);
}

void sio_prepared_cleanup(struct sio_prepared *p)
{
    eio_prepared_cleanup(&p->eio);
}

int sio_socket_send_prepared(struct sio_socket *sock, const struct sio_prepared *p)
{
    return eio_socket_send_prepared(sock->client->eio, &p->eio);
}

static int send_with_attachments(struct sio_socket *sock, enum sio_type plain, enum sio_type bin,
                                 int64_t id, json_t *args, const struct sio_attachment *att,
                                 int natt)
{
    char *json = jsonout_dump(args, NULL);
    if (!json)
        return -1;
    struct sio_client *c = sock->client;
    int rc = send_encoded(c, natt ? bin : plain, sock->nsp, id, natt, json, strlen(json));
    free(json);
    for (int i = 0; i < natt && !rc; i++)
        rc = eio_socket_send(c->eio, 1, att[i].data, att[i].len);
    return rc;
}

int sio_socket_emit(struct sio_socket *sock, json_t *args, const struct sio_attachment *att,
                    int natt)
{
    return send_with_attachments(sock, SIO_EVENT, SIO_BINARY_EVENT, -1, args, att, natt);
}

int sio_socket_ack(struct sio_socket *sock, int64_t id, json_t *args,
                   const struct sio_attachment *att, int natt)
{
    return send_with_attachments(sock, SIO_ACK, SIO_BINARY_ACK, id, args, att, natt);
}

void sio_socket_disconnect(struct sio_socket *sock)
{
    struct sio_client *c = sock->client;
    send_encoded(c, SIO_DISCONNECT, sock->nsp, -1, 0, "", 0);
    socket_drop(sock, "server namespace disconnect");
    int left = 0;
    for (int i = 0; i < MAX_NAMESPACES; i++)
        left += c->sockets[i] != NULL;
    if (!left && !c->closing)
        eio_socket_close(c->eio, "server disconnect");
}

void sio_socket_close_transport(struct sio_socket *sock)
{
    if (!sock->client->closing)
        eio_socket_close(sock->client->eio, "transport close");
}

/* ---- the server ---- */

struct sio_server *sio_server_new(uv_loop_t *loop, const struct eio_config *eio,
                                  const struct sio_config *cfg, const struct sio_handlers *h,
                                  void *user)
{
    struct sio_server *srv = calloc(1, sizeof *srv);
    if (!srv)
        return NULL;
    srv->cfg = *cfg;
    srv->h = *h;
    srv->user = user;
    srv->loop = loop;
    map_init(&srv->sockets);
    srv->eio = eio_server_new(loop, eio, &eio_handlers, srv);
    if (!srv->eio) {
        free(srv);
        return NULL;
    }
    return srv;
}

void sio_server_handle(struct sio_server *srv, struct http_exchange *ex)
{
    eio_server_handle(srv->eio, ex);
}

void sio_server_close_all(struct sio_server *srv)
{
    eio_server_close_all(srv->eio);
}

size_t sio_server_count(const struct sio_server *srv)
{
    return eio_server_count(srv->eio);
}

void sio_server_release_all(struct sio_server *srv)
{
    eio_server_release_all(srv->eio);
}

void sio_server_free(struct sio_server *srv)
{
    if (!srv)
        return;
    eio_server_free(srv->eio);
    map_cleanup(&srv->sockets);
    free(srv);
}

struct sio_socket *sio_server_find(struct sio_server *srv, const char *id)
{
    return map_get(&srv->sockets, id);
}

const char *sio_socket_id(const struct sio_socket *sock)
{
    return sock->id;
}

const char *sio_socket_nsp(const struct sio_socket *sock)
{
    return sock->nsp;
}

void *sio_socket_data(const struct sio_socket *sock)
{
    return sock->data;
}

void sio_socket_set_data(struct sio_socket *sock, void *data)
{
    sock->data = data;
}
