/*
 * The upgrade from polling to WebSocket: the probe's ping is answered, the held GET is let go
 * with a noop, and the upgrade packet moves the session to the WebSocket; a probe that does not
 * finish in time is dropped. A WebSocket that was not wanted is closed.
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

/* ---- the upgrade ---- */

void eio__drop_probe(struct eio_socket *s)
{
    uv_timer_stop(&s->upgrade_timer);
    if (s->probe)
        ws_close(s->probe);
    s->probe = NULL;
    s->upgrading = 0;
}

void eio__on_upgrade_timeout(uv_timer_t *t)
{
    struct eio_socket *s = t->data;
    eio__drop_probe(s);
    if (s->closed && !s->get)
        eio__release_now(s);
}

void eio__release_get(struct eio_socket *s)
{
    if (!s->get)
        return;
    struct http_exchange *ex = s->get;
    s->get = NULL;
    ex->on_abort = NULL;
    eio__answer(ex, 200, "text/plain; charset=UTF-8", "6", 1);
}

static void probe_message(void *user, int binary, const char *data, size_t len)
{
    struct eio_socket *s = user;
    if (s->websocket) { /* the probe became the transport */
        eio__ws_message(user, binary, data, len);
        return;
    }
    if (!binary && len == 6 && memcmp(data, "2probe", 6) == 0 && !s->upgrading) {
        s->upgrading = 1;
        ws_send(s->probe, 0, "3probe", 6);
        eio__release_get(s); /* lets the client's poll loop end */
    } else if (!binary && len == 1 && data[0] == '5' && s->upgrading) {
        uv_timer_stop(&s->upgrade_timer);
        s->ws = s->probe;
        s->probe = NULL;
        s->upgrading = 0;
        s->websocket = 1;
        /* From here the main WebSocket callbacks apply. */
        eio__release_get(s);
        eio__flush(s);
        if (s->closed) { /* closed while upgrading: the last packets went out; now close */
            ws_close(s->ws);
            s->ws = NULL;
            eio__release_now(s);
        }
    } else {
        eio__drop_probe(s);
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
        eio__finish(s, "transport close");
    }
}

const struct ws_callbacks eio__probe_ws = {probe_message, probe_closed};

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

const struct ws_callbacks eio__unwanted_ws = {unwanted_message, unwanted_closed};
