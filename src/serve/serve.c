/*
 * `praca serve`: the service's parts started in order (the database, the bus and the relay,
 * HTTP, the state, the API, the threads, the gateway, the periodic work), and the loop run until
 * a signal drains it (drain.c). What a commit tells the rest is news.c's.
 */
#include <limits.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "api/mail.h"
#include "api/api.h"
#include "api/due.h"
#include "api/endpoint.h"
#include "api/event_push.h"
#include "api/web_push.h"
#include "bus/bus.h"
#include "bus/relay.h"
#include "core/clock.h"
#include "core/config.h"
#include "serve/serve.h"
#include "serve/serve_private.h"
#include "core/log.h"
#include "core/workers.h"
#include "socketio/conformance.h"
#include "gateway/gateway.h"
#include "gateway/presence_carry.h"
#include "state/console.h"
#include "state/presence.h"
#include "state/reading.h"
#include "state/ratelimit.h"
#include "state/tickets.h"
#include "state/voice.h"
#include "http/server.h"
#include "ops/observe.h"
#include "web/pages.h"
#include "web/pwa.h"
#include "store/event_log.h"
#include "store/web_push.h"
#include "store/migrate.h"
#include "state/state.h"
#include "store/maintenance.h"
#include "store/writer.h"

static void on_request(void *user, struct http_exchange *ex)
{
    struct serve *s = user;
    /* Socket.IO sessions live on this thread; everything else is a worker's. */
    if (s->conformance && sio_conformance_handle(s->conformance, ex))
        return;
    if (s->gateway && gateway_owns(ex->req)) {
        ex->label = "/socket.io/";
        gateway_handle(s->gateway, ex);
        return;
    }
    ex->label = "page";
    if (!web_handle(ex)) /* pages come from memory, here */
        api_dispatch(s->svc, ex);
}

/* Before a body is read: the gateway's packets are small, pages take none, the API decides. */
static size_t body_limit_for(void *user, struct http_request *req)
{
    struct serve *s = user;
    if (gateway_owns(req))
        return GATEWAY_BODY_LIMIT;
    return s->svc ? api_body_limit(s->svc, req) : API_BODY_ANONYMOUS_MAX;
}

static void body_limit_ask(void *user, struct http_limit_ask *ask)
{
    struct serve *s = user;
    if (s->svc)
        api_body_limit_ask(s->svc, ask);
    else
        http_limit_decided(ask, API_BODY_SMALL_MAX);
}

static void on_push(uv_timer_t *t)
{
    struct serve *s = t->data;
    api_push_tick(s->svc->push);
    api_web_push_tick(s->svc->web_push);
}

static void on_due(uv_timer_t *t)
{
    struct serve *s = t->data;
    if (!s->stopping)
        api_due_tick(s->svc->due);
}

#define STATE_IDLE_MS (10 * 60 * 1000) /* a server not asked for this long leaves memory */

#define FORGET_EVERY_MS (60 * 1000)

static void on_forget(uv_timer_t *t)
{
    struct serve *s = t->data;
    size_t forgotten = state_forget_idle(s->state, clock_now_ms(), STATE_IDLE_MS);
    if (forgotten)
        log_debug("state: %zu idle servers forgotten", forgotten);
}

#define FILES_RESERVE 256 /* descriptors kept for the database, the loop and outbound calls */

/* Raises the open-files limit to its hard limit; returns the connections that fit under it
 * (or `asked`, when the operator set one that fits). */
static int connection_budget(int asked)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl))
        return asked > 0 ? asked : 1024 - FILES_RESERVE;
    if (rl.rlim_cur < rl.rlim_max) {
        rlim_t was = rl.rlim_cur;
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl))
            rl.rlim_cur = was;
    }
    long fit = rl.rlim_cur > (rlim_t)INT_MAX ? INT_MAX : (long)rl.rlim_cur - FILES_RESERVE;
    if (fit < 16)
        fit = 16;
    if (asked > 0 && asked > fit)
        log_warn("--max-connections %d is over what %ld open files allow; using %ld", asked,
                 (long)rl.rlim_cur, fit);
    return asked > 0 && asked <= fit ? asked : (int)fit;
}

/* Every state/ object the API and the gateway share; with several nodes, the limits, tickets
 * and presence are kept in Redis too. */
static int state_start(struct serve *s)
{
    s->state = state_new();
    s->limits = state_ratelimit_new(s->cfg.rate_limit_scale);
    s->console = state_console_new();
    s->presence = state_presence_new();
    s->voice = state_voice_new();
    if (!s->state || !s->limits || !s->console || !s->presence || !s->voice)
        return -1;
    state_tickets_pace(state_tickets(s->state), s->cfg.sessions_per_second);
    if (!s->cfg.redis_url[0])
        return 0;
    if (state_ratelimit_share(s->limits, s->cfg.redis_url) ||
        state_ratelimit_attach(s->limits, s->loop) ||
        state_tickets_share(state_tickets(s->state), s->cfg.redis_url) ||
        (s->relay && state_presence_share(s->presence, s->cfg.redis_url, s->log_name)))
        return -1;
    if (s->relay) /* a room read on another node sends no push from this one */
        state_reading_share(state_reading(s->state), s->presence);
    return 0;
}

/* Several nodes: the other nodes' events and changes come through Redis. */
static int relay_start(struct serve *s, struct store *db)
{
    if (!s->cfg.redis_url[0])
        return 0;
    if (store_events_name(db, s->log_name) != STORE_DONE) {
        log_error("several nodes: the event log's name cannot be read");
        return -1;
    }
    const char *streams = s->cfg.redis_streams[0] ? s->cfg.redis_streams : s->cfg.redis_url;
    if (!(s->relay = bus_relay_new(streams, s->log_name, s->bus, serve__on_change, s)))
        return -1;
    bus_set_relay(s->bus, bus_relay_event, s->relay);
    return 0;
}

/* The HTTP server, listening; origin is where it answers (http://host:port). */
static int listen_start(struct serve *s, int max_connections, char *origin, size_t origin_size)
{
    struct http_server_config hc = {
        .host = s->cfg.host,
        .port = s->cfg.port,
        .body_limit = api_body_max(&s->cfg),
        .header_timeout_ms = s->cfg.header_timeout_ms,
        .body_timeout_ms = s->cfg.body_timeout_ms,
        .idle_timeout_ms = s->cfg.idle_timeout_ms,
        .max_connections = max_connections,
        .max_connections_per_address = s->cfg.max_connections_per_address,
        .trusted_proxy = s->cfg.trusted_proxy,
        .body_budget = (size_t)s->cfg.body_budget_mb * 1024 * 1024,
        .spool_budget = (size_t)s->cfg.upload_budget_mb * 1000 * 1000,
        .on_answer = ops_observe_answer,
        .body_limit_for = body_limit_for,
        .body_limit_ask = body_limit_ask,
        .body_limit_floor = API_BODY_SMALL_MAX,
        .on_answer_user = &s->observe,
    };
    s->observe.access_log = s->cfg.access_log;
    if (s->cfg.metrics_listen[0] && !(s->observe.metrics = ops_metrics_new()))
        return -1;
    s->http = http_server_new(s->loop, &hc, on_request, s);
    int port = 0;
    int rc = s->http ? http_server_listen(s->http, &port) : UV_ENOMEM;
    if (rc) {
        log_error("cannot listen on %s:%d: %s", s->cfg.host, s->cfg.port, uv_strerror(rc));
        return -1;
    }
    snprintf(origin, origin_size, strchr(s->cfg.host, ':') ? "http://[%s]:%d" : "http://%s:%d",
             s->cfg.host, port);
    return 0;
}

/* The worker lanes (each worker's context is its own database connection, opened on its
 * thread) and the thread that calls applications' endpoints. */
static int threads_start(struct serve *s, struct api_service *api, const char *target)
{
    void *store_target = (void *)target;
    s->workers = workers_new("praca-worker", s->cfg.workers, store_worker_open, store_worker_close,
                             api_worker_run, store_target);
    s->hashing = workers_new("praca-hashing", api_hashing_threads(&s->cfg), store_worker_open,
                             store_worker_close, api_worker_run, store_target);
    s->media = workers_new("praca-media", s->cfg.media_workers, store_worker_open,
                           store_worker_close, api_worker_run, store_target);
    s->exports = workers_new("praca-export", 1, store_worker_open, store_worker_close,
                             api_worker_run, store_target);
    s->notify = workers_new("praca-notify", 1, store_worker_open, store_worker_close,
                            api_worker_run, store_target);
    if (!s->workers || !s->hashing || !s->media || !s->exports || !s->notify) {
        log_error("cannot start %d workers", s->cfg.workers);
        return -1;
    }
    api->workers = s->workers;
    api->hashing = s->hashing;
    api->media = s->media;
    api->exports = s->exports;
    api->notify = s->notify;
    int failed;
    api->mailer = s->mailer = api_mailer_new(&s->cfg, &failed);
    if (failed) {
        log_error("cannot start the e-mail thread");
        return -1;
    }
    if (!(s->endpoints = api_endpoints_new())) {
        log_error("cannot start the interactions endpoint thread");
        return -1;
    }
    api->endpoints = s->endpoints;
    return 0;
}

/* /socket.io/: the gateway, or with --conformance the protocol suites' handlers. */
static int gateway_start(struct serve *s, int max_connections, uint64_t last_position)
{
    /* A session per connection at most, polling ones included (they need no connection). */
    struct gateway_config gc = {
        .ping_interval_ms = s->cfg.ping_interval_ms,
        .ping_timeout_ms = s->cfg.ping_timeout_ms,
        .max_payload = GATEWAY_BODY_LIMIT,
        .max_queued = 1024 * 1024,
        .rate_limit_scale = s->cfg.rate_limit_scale,
        .max_sessions = (size_t)max_connections,
        .sessions_per_s = s->cfg.sessions_per_second,
        .access_log = s->cfg.access_log,
        .in_order = s->relay != NULL,
        .presence_people_max = (size_t)s->cfg.presence_people_max,
        .presence_grace_ms = s->cfg.presence_grace_ms,
        .ice = {.stun_urls = s->cfg.stun_urls,
                .turn_urls = s->cfg.turn_urls,
                .turn_secret = s->cfg.turn_secret,
                .ttl_seconds = s->cfg.turn_ttl_seconds,
                .relay_only = s->cfg.voice_relay_only},
        .sfu = {.api_url = s->cfg.sfu_url,
                .ws_url = s->cfg.sfu_ws_url,
                .secret = s->cfg.sfu_secret,
                .mesh_max = s->cfg.voice_mesh_max,
                .ttl_seconds = s->cfg.turn_ttl_seconds},
    };
    if (s->cfg.conformance) {
        if (!(s->conformance = sio_conformance_new(s->loop)))
            return -1;
        log_warn("conformance mode: /socket.io/ serves the protocol test handlers, not bots");
        return 0;
    }
    if (!(s->gateway = gateway_new(s->loop, &gc, s->state, s->workers, s->bus, s->presence,
                                   s->voice, s->console)))
        return -1;
    gateway_resume_after(s->gateway, last_position);
    if (s->relay)
        serve__share_voice(s);
    else if (s->cfg.presence_carry_ms > 0) {
        char path[1024];
        serve__carry_path(s, path, sizeof path);
        gateway_carry_load(s->gateway, path, s->cfg.presence_carry_ms);
    }
    return 0;
}

static void timer_start(struct serve *s, uv_timer_t *t, uv_timer_cb cb, uint64_t first,
                        uint64_t every)
{
    uv_timer_init(s->loop, t);
    t->data = s;
    if (every)
        uv_timer_start(t, cb, first, every);
}

/* The periodic work (the writer's own in store/maintenance.c) and the signals. */
static int loop_start(struct serve *s)
{
    struct store_maintenance_config mc = {
        .event_retention_hours = s->cfg.event_retention_hours,
        .files_grace_seconds = s->cfg.files_grace_seconds,
        .files_sweep_seconds = s->cfg.files_sweep_seconds,
        .search_index = !s->cfg.database_url[0], /* PostgreSQL's index follows its table */
    };
    if (!(s->maintenance = store_maintenance_start(s->loop, s->writer, &s->svc->files, &mc)))
        return -1;
    timer_start(s, &s->forget, on_forget, FORGET_EVERY_MS, FORGET_EVERY_MS);
    timer_start(s, &s->push, on_push, PUSH_TICK_MS, PUSH_TICK_MS);
    timer_start(s, &s->due, on_due, API_DUE_TICK_MS, API_DUE_TICK_MS);
    serve__signals_start(s);
    return 0;
}

static void web_push_counts(void *arg, struct metrics_web_push *out)
{
    struct api_web_push_stats st;
    api_web_push_stats(arg, &st);
    *out = (struct metrics_web_push){st.queued, st.dropped, st.sent, st.accepted,
                                     st.failed, st.retried, st.gone};
}

/* Metrics: what they read, and their own address (--metrics-listen). */
static int metrics_start(struct serve *s, struct api_service *api)
{
    s->observe.sources = (struct metrics_sources){s->http,
                                                  s->gateway,
                                                  s->workers,
                                                  s->hashing,
                                                  s->media,
                                                  s->writer,
                                                  s->relay,
                                                  .web_push = web_push_counts,
                                                  .web_push_arg = api->web_push};
    return s->observe.metrics && ops_observe_listen_metrics(
                                     &s->observe, s->loop, s->cfg.metrics_listen, &s->metrics_http);
}

/* What the start reads before serving: where the event log ends, the bots' identities, and Web
 * Push's key pair (made at the first start). */
static int read_at_start(struct serve *s, struct store *db, uint64_t *last_position)
{
    uint64_t first_position = 0;
    if (store_events_bounds(db, &first_position, last_position) != STORE_DONE ||
        store_vapid_ensure(db, clock_now_ms()) != STORE_DONE)
        return -1;
    int64_t preload_started = clock_now_ms();
    long bots = state_identities_preload(s->state, db);
    log_info("state: %ld bot identities loaded in %lld ms", bots,
             (long long)(clock_now_ms() - preload_started));
    return 0;
}

/* Opens the database, starts every part in order, and runs the loop until a signal. */
static int serve(struct serve *s)
{
    struct store *db = NULL;
    struct api_service api;
    int app_ready = 0;
    if (s->cfg.redis_url[0] && !s->cfg.database_url[0]) {
        log_error(
            "several nodes share one PostgreSQL: set PRACA_DATABASE_URL with PRACA_REDIS_URL");
        return 1;
    }
    if (s->cfg.smtp_url[0] && (!s->cfg.mail_from[0] || (strncmp(s->cfg.smtp_url, "smtp://", 7) &&
                                                        strncmp(s->cfg.smtp_url, "smtps://", 8)))) {
        log_error("e-mail: --smtp-url must be smtp://… or smtps://…, with --mail-from");
        return 1;
    }
    const char *ice_problem = gateway_ice_problem(&(struct voice_ice){
        s->cfg.stun_urls, s->cfg.turn_urls, s->cfg.turn_secret, 0, s->cfg.voice_relay_only});
    if (!ice_problem)
        ice_problem = gateway_sfu_problem(&(struct voice_sfu){
            .api_url = s->cfg.sfu_url, .ws_url = s->cfg.sfu_ws_url, .secret = s->cfg.sfu_secret});
    web_pwa_set_version(s->cfg.test_web_version);
    if (!ice_problem && web_pages_connect_also(s->cfg.sfu_ws_url))
        ice_problem = "--sfu-ws-url: not a URL pages can connect to";
    if (ice_problem) {
        log_error("voice: %s", ice_problem);
        return 1;
    }
    const char *target = config_store_target(&s->cfg);
    if (store_open(target, &db) != STORE_DONE || store_migrate(db) < 0)
        goto failed;
    if (!(s->writer = store_writer_new_durable(target, !strcmp(s->cfg.sync, "full"))))
        goto failed;
    s->loop = uv_default_loop();
    if (!(s->bus = bus_new(s->loop)) || relay_start(s, db))
        goto failed;
    int max_connections = connection_budget(s->cfg.max_connections);
    char origin[512];
    if (listen_start(s, max_connections, origin, sizeof origin) || state_start(s))
        goto failed;
    struct api_state st = {s->state, s->limits, s->console, s->presence, s->voice};
    if (api_service_init(&api, &s->cfg, s->writer, s->bus, &st,
                         s->cfg.site_url[0] ? s->cfg.site_url : origin))
        goto failed;
    app_ready = 1;
    s->svc = &api;
    bus_set_observer(s->bus, api_web_push_observe, api.web_push);
    state_sessions_expire(s->state, s->writer, s->cfg.session_idle_days);
    uint64_t last_position = 0;
    if (read_at_start(s, db, &last_position))
        goto failed;
    store_close(db);
    db = NULL;
    store_writer_on_change(s->writer, s->relay ? serve__on_change_shared : serve__on_change,
                           s->relay ? serve__on_changed_shared : NULL, s);
    if (threads_start(s, &api, target) || gateway_start(s, max_connections, last_position))
        goto failed;
    if (metrics_start(s, &api))
        goto failed;
    if (s->relay)
        bus_relay_follow(s->relay, s->loop);
    if (loop_start(s))
        goto failed;
    log_info("accepting up to %d connections (%d per address; 0 = no cap)", max_connections,
             s->cfg.max_connections_per_address);
    printf("listening on %s\n", origin);
    fflush(stdout);
    uv_run(s->loop, UV_RUN_DEFAULT);
    serve__stop(s, &api, app_ready, 0);
    return 0;
failed:
    store_close(db);
    serve__stop(s, &api, app_ready, 1);
    return 1;
}

int serve_run(const struct config *cfg)
{
    static struct serve s;
    s.cfg = *cfg;
    if (api_endpoint_global_init()) {
        log_error("cannot initialise libcurl");
        return 1;
    }
    int status = serve(&s);
    api_endpoint_global_cleanup();
    return status;
}
