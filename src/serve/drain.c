/* Stopping: a signal drains the gateway (clients reconnect elsewhere and resume), then HTTP,
 * then the bus and the relay; after the loop, the threads stop before what they used. */
#include <signal.h>
#include <stdio.h>

#include "api/endpoint.h"
#include "api/event_push.h"
#include "api/web_push.h"
#include "api/mail.h"
#include "bus/bus.h"
#include "bus/relay.h"
#include "core/log.h"
#include "gateway/gateway.h"
#include "gateway/presence_carry.h"
#include "http/server.h"
#include "media/probe.h"
#include "ops/metrics.h"
#include "serve/serve_private.h"
#include "socketio/conformance.h"
#include "state/console.h"
#include "state/presence.h"
#include "state/ratelimit.h"
#include "state/state.h"
#include "state/voice.h"
#include "store/maintenance.h"
#include "store/writer.h"

static void on_signal_closed(uv_handle_t *h)
{
    (void)h;
}

static void on_drained(void *arg)
{
    struct serve *s = arg;
    uv_close((uv_handle_t *)&s->sigterm, on_signal_closed);
    uv_close((uv_handle_t *)&s->sigint, on_signal_closed);
    uv_close((uv_handle_t *)&s->forget, on_signal_closed);
    uv_close((uv_handle_t *)&s->push, on_signal_closed);
    uv_close((uv_handle_t *)&s->due, on_signal_closed);
    api_push_stop(s->svc->push);
    api_web_push_stop(s->svc->web_push);
    store_maintenance_stop(s->maintenance);
    bus_close(s->bus);
    bus_relay_stop(s->relay);
    state_ratelimit_detach(s->limits); /* every request is answered: no take waits */
    log_info("drained; stopping");
}

static void on_grace(uv_timer_t *t)
{
    struct serve *s = t->data;
    size_t left =
        s->gateway ? gateway_sessions(s->gateway) : sio_conformance_sessions(s->conformance);
    if (left > 0 && ++s->grace_ticks < 20)
        return; /* up to a second */
    uv_timer_stop(t);
    uv_close((uv_handle_t *)t, on_signal_closed);
    if (s->gateway)
        gateway_release(s->gateway);
    else
        sio_conformance_release(s->conformance);
    http_server_drain(s->http, on_drained, s);
}

void serve__carry_path(const struct serve *s, char *out, size_t cap)
{
    snprintf(out, cap, "%s/presence-carry", s->svc->files.root);
}

static void on_signal(uv_signal_t *sig, int signum)
{
    struct serve *s = sig->data;
    if (s->stopping)
        return;
    s->stopping = 1;
    log_info("signal %d: draining connections", signum);
    if (s->metrics_http)
        http_server_drain(s->metrics_http, NULL, NULL);
    if (s->gateway && !s->relay && s->cfg.presence_carry_ms > 0) {
        char path[1024];
        serve__carry_path(s, path, sizeof path);
        gateway_carry_save(s->gateway, path); /* the next start shows them online meanwhile */
    }
    if (s->gateway)
        gateway_drain(s->gateway); /* transports close; clients reconnect and resume */
    else
        sio_conformance_drain(s->conformance);
    uv_timer_init(s->loop, &s->grace);
    s->grace.data = s;
    uv_timer_start(&s->grace, on_grace, 0, 50);
}

static void state_stop(struct serve *s)
{
    state_presence_free(s->presence);
    state_voice_free(s->voice);
    state_console_free(s->console);
    state_ratelimit_free(s->limits);
    state_free(s->state);
}

/* After the loop (or a failed start): threads first, then what they used. */
void serve__stop(struct serve *s, struct api_service *api, int app_ready, int failed)
{
    if (app_ready) {
        api_push_stop(api->push);         /* no batch is sent once the endpoints thread stops */
        api_web_push_stop(api->web_push); /* nor a push: its lane stops sending first */
    }
    workers_free(s->notify);
    api_endpoints_free(s->endpoints); /* its calls resume on the workers: before them */
    workers_free(s->hashing);
    workers_free(s->media);
    workers_free(s->exports);
    api_mailer_free(s->mailer); /* what the workers queued is sent first */
    workers_free(s->workers);
    store_writer_free(s->writer);
    store_maintenance_free(s->maintenance); /* its jobs ran on the writer, which has stopped */
    if (app_ready)
        api_service_cleanup(api);
    if (s->loop) {
        if (failed) {
            /* Failed start: close what was opened so the loop can be closed. */
            if (s->gateway)
                gateway_drain(s->gateway);
            if (s->conformance) {
                sio_conformance_drain(s->conformance);
                sio_conformance_release(s->conformance);
            }
            if (s->http)
                http_server_drain(s->http, NULL, NULL);
            if (s->metrics_http)
                http_server_drain(s->metrics_http, NULL, NULL);
            if (s->bus)
                bus_close(s->bus);
            bus_relay_stop(s->relay);
            state_ratelimit_detach(s->limits);
            uv_run(s->loop, UV_RUN_DEFAULT);
        }
        uv_loop_close(s->loop);
    }
    bus_free(s->bus); /* after the writer and the workers: they publish */
    if (s->voice)
        state_voice_on_change(s->voice, NULL, NULL); /* the gateway's last closes tell no one */
    bus_relay_free(s->relay);
    http_server_free(s->http);
    http_server_free(s->metrics_http);
    ops_metrics_free(s->observe.metrics);
    gateway_free(s->gateway);
    sio_conformance_free(s->conformance);
    state_stop(s);
    media_shutdown();
}

void serve__signals_start(struct serve *s)
{
    uv_signal_init(s->loop, &s->sigterm);
    uv_signal_init(s->loop, &s->sigint);
    s->sigterm.data = s->sigint.data = s;
    uv_signal_start(&s->sigterm, on_signal, SIGTERM);
    uv_signal_start(&s->sigint, on_signal, SIGINT);
}
