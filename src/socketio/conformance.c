/* Conformance handlers: see conformance.h. */
#include "socketio/conformance.h"

#include <stdlib.h>
#include <string.h>

#include "engineio/server.h"
#include "socketio/server.h"

#define PING_INTERVAL_MS   300
#define PING_TIMEOUT_MS    200
#define CONNECT_TIMEOUT_MS 1000

struct conformance {
    struct eio_server *echo;
    struct sio_server *sio;
};

/* ---- /engine.io/: echo ---- */

static void echo_open(void *user, struct eio_socket *s)
{
    (void)user;
    (void)s;
}

static void echo_message(void *user, struct eio_socket *s, int binary, const char *data, size_t len)
{
    (void)user;
    eio_socket_send(s, binary, data, len);
}

static void echo_close(void *user, struct eio_socket *s, const char *reason)
{
    (void)user;
    (void)s;
    (void)reason;
}

static const struct eio_handlers echo_handlers = {echo_open, echo_message, echo_close};

/* ---- /socket.io/ ---- */

static enum sio_connect_decision on_connect(void *user, struct sio_socket *sock, json_t *auth,
                                            const char **message)
{
    (void)user;
    (void)message;
    sio_connect_result(sock, 1, NULL);
    json_t *args = json_pack("[sO]", "auth", auth ? auth : json_object());
    if (!auth) /* json_pack took a new empty object with O: drop the extra reference */
        json_decref(json_array_get(args, 1));
    sio_socket_emit(sock, args, NULL, 0);
    json_decref(args);
    return SIO_LATER; /* already answered */
}

static void on_event(void *user, struct sio_socket *sock, json_t *args, int64_t ack_id,
                     const struct sio_attachment *att, int natt)
{
    (void)user;
    if (strcmp(sio_socket_nsp(sock), "/") != 0 || !json_is_string(json_array_get(args, 0)))
        return;
    const char *name = json_string_value(json_array_get(args, 0));
    json_t *rest = json_array();
    for (size_t i = 1; i < json_array_size(args); i++)
        json_array_append(rest, json_array_get(args, i));
    if (!strcmp(name, "message")) {
        json_array_insert_new(rest, 0, json_string("message-back"));
        sio_socket_emit(sock, rest, att, natt);
    } else if (!strcmp(name, "message-with-ack") && ack_id >= 0) {
        sio_socket_ack(sock, ack_id, rest, att, natt);
    }
    json_decref(rest);
}

static void on_disconnect(void *user, struct sio_socket *sock, const char *reason)
{
    (void)user;
    (void)sock;
    (void)reason;
}

static const struct sio_handlers sio_handlers = {on_connect, on_event, on_disconnect};

struct conformance *sio_conformance_new(uv_loop_t *loop)
{
    static const char *const namespaces[] = {"/", "/custom", NULL};
    struct conformance *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    struct eio_config eio = {
        .ping_interval_ms = PING_INTERVAL_MS,
        .ping_timeout_ms = PING_TIMEOUT_MS,
        .max_payload = 1000000,
        .upgrade_timeout_ms = 10000,
        .max_queued = 1024 * 1024,
        .max_sessions = 0,
    };
    struct sio_config sio = {.namespaces = namespaces, .connect_timeout_ms = CONNECT_TIMEOUT_MS};
    c->echo = eio_server_new(loop, &eio, &echo_handlers, c);
    c->sio = sio_server_new(loop, &eio, &sio, &sio_handlers, c);
    if (!c->echo || !c->sio) {
        sio_conformance_free(c);
        return NULL;
    }
    return c;
}

static int has_prefix(struct slice path, const char *prefix)
{
    size_t n = strlen(prefix);
    return (path.len >= n && memcmp(path.ptr, prefix, n) == 0) ||
           (path.len == n - 1 && memcmp(path.ptr, prefix, n - 1) == 0);
}

int sio_conformance_handle(struct conformance *c, struct http_exchange *ex)
{
    if (has_prefix(ex->req->path, "/engine.io/")) {
        eio_server_handle(c->echo, ex);
        return 1;
    }
    if (has_prefix(ex->req->path, "/socket.io/")) {
        sio_server_handle(c->sio, ex);
        return 1;
    }
    return 0;
}

void sio_conformance_drain(struct conformance *c)
{
    eio_server_close_all(c->echo);
    sio_server_close_all(c->sio);
}

size_t sio_conformance_sessions(const struct conformance *c)
{
    return eio_server_count(c->echo) + sio_server_count(c->sio);
}

void sio_conformance_release(struct conformance *c)
{
    eio_server_release_all(c->echo);
    sio_server_release_all(c->sio);
}

void sio_conformance_free(struct conformance *c)
{
    if (!c)
        return;
    eio_server_free(c->echo);
    sio_server_free(c->sio);
    free(c);
}
