/*
 * Gateway: see gateway.h.
 *
 * A CONNECT's token is checked on a worker thread (the loop never touches the database); the
 * answer comes back through the inbox and finds the socket by its id, which may be gone.
 * Bus events are sorted here: control events act on connections, the rest are delivered
 * (deliver.h). Every other part of the gateway is called from here and calls nothing back.
 * When the writer sees a commit by another process (praca admin), a worker lists suspended
 * applications and their connections close.
 */
#include "gateway/gateway.h"
#include "gateway/deliver.h"
#include "gateway/jobs.h"

#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "core/buf.h"
#include "core/crypto.h"
#include "core/inbox.h"
#include "core/log.h"
#include "core/map.h"
#include "core/clock.h"
#include "gateway/internal.h"
#include "state/console.h"
#include "state/presence.h"
#include "state/reading.h"
#include "gateway/member_lists.h"
#include "gateway/presence_carry.h"
#include "gateway/presence_live.h"
#include "gateway/reach.h"
#include "gateway/recovery.h"
#include "gateway/resume.h"
#include "gateway/sequence.h"
#include "gateway/voice.h"
#include "socketio/packet.h"
#include "socketio/server.h"
#include "state/state.h"
#include "state/tickets.h"
#include "store/apps.h"
#include "store/people.h"

#define TOKEN_MAX 256

/* ---- who is connected ---- */

static void attach(struct gateway *gw, struct conn *c)
{
    c->next = map_get(&gw->users, c->user_id);
    map_set(&gw->users, c->user_id, c);
    gateway__reach_moved(gw, c->user_id, c->next, c);
    if (state_presence_connected(gw->presence, c->user_id))
        gateway__presence_note(gw, c->user_id);
    gw->bots += c->is_bot;
    gw->conns++;
}

static void detach(struct gateway *gw, struct conn *c)
{
    struct conn *was = map_get(&gw->users, c->user_id), *first = was, **pp = &first;
    while (*pp && *pp != c)
        pp = &(*pp)->next;
    if (*pp)
        *pp = c->next;
    if (first)
        map_set(&gw->users, c->user_id, first);
    else
        map_remove(&gw->users, c->user_id);
    gateway__reach_moved(gw, c->user_id, was, first);
    if (state_presence_disconnected(gw->presence, c->user_id))
        gateway__presence_note(gw, c->user_id);
    gw->bots -= c->is_bot;
    gw->conns--;
}

/* ---- CONNECT: the token is checked on a worker ---- */

struct auth_job {
    struct gateway_job base;
    char socket_id[32];
    char token_hash[65];
    int recovery;                      /* auth.recovery is true */
    char pid[RECOVERY_PID_MAX];        /* auth.pid of a reconnect, or "" */
    uint64_t offset;                   /* auth.offset, or 0 */
    char ticket[CRYPTO_TOKEN_LEN + 1]; /* redeemed on the worker (tickets kept in Redis) */
    int bad_ticket;
    int found;
    struct store_token_owner owner;
};

/* Accepts an opted-in connection: recovered (missed events replayed) or with a new pid. */
static void accept_recoverable(struct gateway *gw, struct conn *c, const struct auth_job *a)
{
    uint64_t offset = a->offset;
    int64_t now = clock_now_ms();
    int recovered = a->pid[0] && gateway__recovery_claim(gw->recovery, a->pid, c->user_id,
                                                         c->token_hash, &offset, now);
    /* A session this process never saw: from its last offset, or (no event received yet) from
     * the position its pid says it began at. */
    uint64_t from = a->offset ? a->offset : a->pid[0] ? gateway__recovery_pid_position(a->pid) : 0;
    /* A session it did see resumes the same way, from the offset it claimed: the log is read
     * on a worker and judged against who may see what now (the ring would replay with the
     * audience of the moment each event was sent); the ring tops up what came meanwhile. */
    if (recovered)
        from = offset;
    if (recovered || from) {
        gateway__resume_from_log(gw, c, a->pid, from);
        return;
    }
    gateway__recovery_new_pid(c->pid, gateway__recovery_last(gw->recovery));
    c->since = gateway__recovery_last(gw->recovery);
    sio_connect_accept_pid(c->sock, c->pid);
}

static void auth_on_worker(struct gateway_job *j, void *thread_ctx)
{
    struct auth_job *a = (struct auth_job *)j;
    if (a->ticket[0] && !state_tickets_redeem(state_tickets(j->gw->state), a->ticket,
                                              clock_now_ms(), a->token_hash)) {
        a->bad_ticket = 1;
        return;
    }
    a->found = state_identity_current(j->gw->state, thread_ctx, a->token_hash, &a->owner);
}

/* Counts a CONNECT's outcome and logs it (owner NULL: refused). */
static void note_connect(struct gateway *gw, const struct store_token_owner *owner, int recovery)
{
    if (owner)
        gw->stats.connects++;
    else
        gw->stats.refused++;
    if (!gw->access_log)
        return;
    struct log_field f[] = {
        LOG_STR("event", owner ? "connect" : "refused"),
        LOG_STR("caller", owner ? owner->user_id : NULL),
        LOG_STR("as", !owner          ? NULL
                      : owner->is_bot ? "bot"
                                      : "person"),
        LOG_NUM("recovery", recovery),
    };
    log_fields(LOG_INFO, "gateway", f, sizeof f / sizeof f[0]);
}

#define TOO_MANY                                                                                   \
    "Conexões demais para esta conta neste servidor (no máximo " GATEWAY_STR(                      \
        GATEWAY_CONNECTIONS_PER_ACCOUNT) "); feche abas ou conexões antigas"

/* The account's open connections on this node, counted up to the cap. */
static int connections_of(struct gateway *gw, const char *user_id)
{
    int n = 0;
    for (struct conn *c = map_get(&gw->users, user_id); c && n < GATEWAY_CONNECTIONS_PER_ACCOUNT;
         c = c->next)
        n++;
    return n;
}

static void accept_connection(struct gateway *gw, struct sio_socket *sock, const struct auth_job *a)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c) {
        sio_connect_result(sock, 0, "Token inválido");
        return;
    }
    c->sock = sock;
    memcpy(c->user_id, a->owner.user_id, sizeof c->user_id);
    memcpy(c->token_hash, a->token_hash, sizeof c->token_hash);
    c->is_bot = a->owner.is_bot;
    c->recovery = a->recovery;
    sio_socket_set_data(sock, c);
    attach(gw, c);
    if (c->recovery)
        accept_recoverable(gw, c, a);
    else
        sio_connect_result(sock, 1, NULL);
}

static void auth_answered(struct gateway_job *j)
{
    struct auth_job *a = (struct auth_job *)j;
    struct gateway *gw = a->base.gw;
    struct sio_socket *sock = sio_server_find(gw->sio, a->socket_id);
    int valid = a->found == 1 && !(a->owner.is_bot && (a->owner.suspended || !a->owner.app_id[0]));
    if (!sock || gw->draining) {
        /* gone meanwhile, or closing with the node */
    } else if (a->found < 0 && !a->bad_ticket) {
        /* The credential could not be checked (the database is away): not a refusal, which
         * official clients take as final, but a closed transport, which they retry. */
        gw->stats.unchecked++;
        sio_socket_close_transport(sock);
    } else if (!valid) {
        note_connect(gw, NULL, a->recovery);
        sio_connect_result(sock, 0, a->bad_ticket ? "Ticket inválido" : "Token inválido");
    } else if (connections_of(gw, a->owner.user_id) >= GATEWAY_CONNECTIONS_PER_ACCOUNT) {
        gw->stats.too_many++;
        note_connect(gw, NULL, a->recovery);
        sio_connect_result(sock, 0, TOO_MANY);
    } else {
        note_connect(gw, &a->owner, a->recovery);
        accept_connection(gw, sock, a);
    }
    free(a);
}

static enum sio_connect_decision on_connect(void *user, struct sio_socket *sock, json_t *auth,
                                            const char **message)
{
    struct gateway *gw = user;
    if (gw->draining) {
        *message = "Servidor encerrando";
        return SIO_REFUSE;
    }
    json_t *token = json_object_get(auth, "token"), *ticket = json_object_get(auth, "ticket");
    char ticket_hash[CRYPTO_SHA256_HEX + 1];
    int by_ticket = !json_is_string(token) && json_is_string(ticket);
    /* Kept in Redis, a ticket is redeemed on the worker; kept here, at once. */
    int ticket_later = by_ticket && state_tickets_shared(state_tickets(gw->state)) &&
                       json_string_length(ticket) == CRYPTO_TOKEN_LEN;
    if (by_ticket && !ticket_later &&
        !state_tickets_redeem(state_tickets(gw->state), json_string_value(ticket), clock_now_ms(),
                              ticket_hash)) {
        note_connect(gw, NULL, 0);
        *message = "Ticket inválido";
        return SIO_REFUSE;
    }
    if (!by_ticket && (!json_is_string(token) || json_string_length(token) == 0)) {
        note_connect(gw, NULL, 0);
        *message = "Sem token";
        return SIO_REFUSE;
    }
    if (!by_ticket && json_string_length(token) > TOKEN_MAX) {
        note_connect(gw, NULL, 0);
        *message = "Token inválido";
        return SIO_REFUSE;
    }
    struct auth_job *a = calloc(1, sizeof *a);
    if (!a) {
        *message = "Token inválido";
        return SIO_REFUSE;
    }
    a->recovery = json_is_true(json_object_get(auth, "recovery"));
    json_t *pid = json_object_get(auth, "pid"), *offset = json_object_get(auth, "offset");
    if (json_is_string(pid) && json_string_length(pid) < sizeof a->pid)
        memcpy(a->pid, json_string_value(pid), json_string_length(pid) + 1);
    long long off;
    if (json_is_string(offset) &&
        !slice_to_i64(slice_from(json_string_value(offset)), 1, INT64_MAX / 2, &off))
        a->offset = (uint64_t)off;
    a->base.work = auth_on_worker;
    a->base.done = auth_answered;
    memcpy(a->socket_id, sio_socket_id(sock), sizeof a->socket_id);
    if (ticket_later)
        memcpy(a->ticket, json_string_value(ticket), sizeof a->ticket);
    else if (by_ticket) /* a page's session, whose token it cannot read */
        memcpy(a->token_hash, ticket_hash, sizeof a->token_hash);
    else
        crypto_sha256_hex(json_string_value(token), json_string_length(token), a->token_hash);
    if (!ticket_later && state_identity_known(gw->state, a->token_hash, &a->owner) &&
        a->owner.is_bot) {
        a->found = 1; /* a bot in memory: answered here, no worker (sessions may expire) */
        a->base.gw = gw;
        auth_answered(&a->base);
    } else {
        gateway__run(gw, &a->base);
    }
    return SIO_LATER;
}

#define CLIENT_EVENTS_MAX       300 /* a client's events per window, all kinds together */
#define CLIENT_EVENTS_WINDOW_MS 10000

/* 1 when the connection has sent more events in this window than any client needs. */
static int flooding(struct gateway *gw, struct conn *c)
{
    int64_t now = clock_now_ms();
    if (now - c->events_since >= CLIENT_EVENTS_WINDOW_MS) {
        c->events_since = now;
        c->events = 0;
    }
    return ++c->events > CLIENT_EVENTS_MAX * gw->rate_limit_scale;
}

/* channel:view {channelId: a channel or thread ID, or null}: the room this page shows, so that
 * typing there (and only there) reaches it. Acknowledged with {ok: true} or {error}. */
static void on_view(struct gateway *gw, struct sio_socket *sock, struct conn *c, json_t *payload,
                    int64_t ack_id)
{
    json_t *id = json_object_get(payload, "channelId");
    const char *cid = json_string_value(id);
    const char *error = !json_is_object(payload)    ? "payload: deve ser um objeto"
                        : !id                       ? "channelId: obrigatório"
                        : !json_is_null(id) && !cid ? "channelId: deve ser um texto ou null"
                        : cid && !uuid_valid(cid, strlen(cid)) ? "channelId: deve ser um UUID"
                                                               : NULL;
    if (!error) {
        if (cid)
            memcpy(c->viewing, cid, UUID_LEN + 1);
        else
            c->viewing[0] = '\0';
        if (!c->is_bot) /* a room read here needs no push elsewhere (state/reading.h) */
            state_reading_set(state_reading(gw->state), c->user_id, c, c->viewing);
    }
    if (ack_id >= 0) {
        json_t *answer = error ? json_pack("[{ss}]", "error", error) : json_pack("[{sb}]", "ok", 1);
        sio_socket_ack(sock, ack_id, answer, NULL, 0);
        json_decref(answer);
    }
}

static void on_event(void *user, struct sio_socket *sock, json_t *args, int64_t ack_id,
                     const struct sio_attachment *att, int natt)
{
    struct gateway *gw = user;
    struct conn *c = sio_socket_data(sock);
    (void)att;
    if (c && flooding(gw, c)) {
        log_warn("gateway: %s sent over %d events in %d s; disconnected", c->user_id,
                 CLIENT_EVENTS_MAX, CLIENT_EVENTS_WINDOW_MS / 1000);
        sio_socket_disconnect(sock);
        return;
    }
    const char *name = json_string_value(json_array_get(args, 0));
    if (c && name && !strcmp(name, "channel:view")) {
        on_view(gw, sock, c, json_array_get(args, 1), ack_id);
        return;
    }
    if (c && name && !strcmp(name, "members:subscribe")) {
        gateway__lists_subscribe(gw, c, json_array_get(args, 1), ack_id);
        return;
    }
    if (c && !gw->draining &&
        gateway__voice_on_event(gw, c, name, json_array_get(args, 1), ack_id, natt))
        return;
    /* Other events mean nothing here; acknowledge so a waiting client moves on. */
    if (ack_id >= 0) {
        json_t *empty = json_array();
        sio_socket_ack(sock, ack_id, empty, NULL, 0);
        json_decref(empty);
    }
}

static void on_disconnect(void *user, struct sio_socket *sock, const char *reason)
{
    struct gateway *gw = user;
    struct conn *c = sio_socket_data(sock);
    if (!c)
        return;
    /* A dropped transport may come back for what it missed; a kick, a client's own disconnect
     * or a shutdown does not. */
    if (c->recovery && strcmp(reason, "server namespace disconnect") &&
        strcmp(reason, "client namespace disconnect") && strcmp(reason, "server shutting down"))
        gateway__recovery_park(gw->recovery, c->pid, c->user_id, c->token_hash, c->since,
                               clock_now_ms());
    gateway__voice_on_disconnect(gw, c);
    gateway__lists_leave(gw, c);
    if (c->viewing[0])
        state_reading_set(state_reading(gw->state), c->user_id, c, NULL);
    detach(gw, c);
    free(c);
}

static const struct sio_handlers handlers = {on_connect, on_event, on_disconnect};

/* ---- delivery ---- */

static void sweep(struct gateway *gw);

/* Disconnects the user's connections (only those made with token_hash when it is given). */
/* Disconnects user_id's connections on token_hash (NULL: all of them) except those on keep. */
static void kick_except(struct gateway *gw, const char *user_id, const char *token_hash,
                        const char *keep)
{
    struct conn *c = map_get(&gw->users, user_id);
    while (c) {
        struct conn *next = c->next;
        if ((!token_hash || !strcmp(token_hash, c->token_hash)) &&
            (!keep || strcmp(keep, c->token_hash)))
            sio_socket_disconnect(c->sock); /* detaches and frees c */
        c = next;
    }
}

static void kick(struct gateway *gw, const char *user_id, const char *token_hash)
{
    kick_except(gw, user_id, token_hash, NULL);
}

struct kick_arg {
    struct gateway *gw;
    const char *hash, *keep;
};

static void kick_each(const char *user_id, void *arg)
{
    struct kick_arg *k = arg;
    kick_except(k->gw, user_id, k->hash, k->keep);
}

static void deliver(void *user, const struct bus_event *ev)
{
    struct gateway *gw = user;
    if (ev->position && gw->sequence) {
        gateway__sequence_accept(gw->sequence, ev);
        return;
    }
    switch (ev->kind) {
    case BUS_KIND_DISCONNECT: {
        const struct bus_control *c = &ev->control;
        const char *hash = c->token_hash[0] ? c->token_hash : NULL;
        struct kick_arg k = {gw, c->keep ? NULL : hash, c->keep ? hash : NULL};
        idset_each(ev->to, kick_each, &k);
        return;
    }
    case BUS_KIND_VOICE_REVIEW:
        gateway__voice_on_review(gw, &ev->control);
        return;
    case BUS_KIND_SWEEP:
        sweep(gw);
        return;
    case BUS_KIND_PRESENCE:
        gateway__lists_presence(gw, &ev->control);
        gateway__presence_chosen(gw, &ev->control);
        return;
    case BUS_KIND_CLIENT:
        break;
    }
    gateway__fan_out(gw, ev);
}

/* ---- suspensions and revocations made elsewhere ---- */

struct sweep_job {
    struct gateway_job base;
    json_t *suspended; /* bot user IDs */
    json_t *sessions;  /* [user id, token hash] of people connected: those gone are kicked */
};

static void sweep_on_worker(struct gateway_job *j, void *thread_ctx)
{
    struct sweep_job *s = (struct sweep_job *)j;
    struct store *db = thread_ctx;
    s->suspended = store_suspended_bots(db);
    size_t i = 0;
    while (i < json_array_size(s->sessions)) {
        json_t *pair = json_array_get(s->sessions, i);
        struct store_token_owner owner;
        if (store_token_find(db, json_string_value(json_array_get(pair, 1)), &owner) == 0)
            i++; /* gone: keep it in the list */
        else
            json_array_remove(s->sessions, i);
    }
    store_read_release(db);
}

static void sweep_answered(struct gateway_job *j)
{
    struct sweep_job *s = (struct sweep_job *)j;
    struct gateway *gw = j->gw;
    size_t i;
    json_t *v;
    json_array_foreach(s->suspended, i, v) kick(gw, json_string_value(v), NULL);
    json_array_foreach(s->sessions, i, v)
    {
        kick(gw, json_string_value(json_array_get(v, 0)), json_string_value(json_array_get(v, 1)));
    }
    json_decref(s->suspended);
    json_decref(s->sessions);
    gw->sweeping = 0;
    free(s);
}

static void add_people_sessions(const char *user_id, void *first, void *list)
{
    (void)user_id;
    for (struct conn *c = first; c; c = c->next)
        if (!c->is_bot)
            json_array_append_new(list, json_pack("[ss]", c->user_id, c->token_hash));
}

/* Runs when the writer has seen another process's commit, after the state dropped what it held:
 * a suspended bot or a revoked session kicked here cannot come back on a stale identity. */
static void sweep(struct gateway *gw)
{
    if (!gw->conns || gw->sweeping || gw->draining)
        return;
    struct sweep_job *s = calloc(1, sizeof *s);
    if (!s)
        return;
    s->sessions = json_array();
    if (s->sessions)
        map_each(&gw->users, add_people_sessions, s->sessions);
    s->base.work = sweep_on_worker;
    s->base.done = sweep_answered;
    gw->sweeping = 1;
    gateway__run(gw, &s->base);
}

static void on_sweep(uv_timer_t *t)
{
    struct gateway *gw = t->data;
    gateway__recovery_expire(gw->recovery, clock_now_ms());
    gateway__carry_tick(gw);
    gateway__presence_tick(gw);
}

/* ---- the gateway ---- */

void gateway_resume_after(struct gateway *gw, uint64_t last_position)
{
    gateway__recovery_start_at(gw->recovery, last_position);
    if (gw->sequence)
        gateway__sequence_start_at(gw->sequence, last_position);
}

void gateway_stats(const struct gateway *gw, struct gateway_stats *out)
{
    *out = gw->stats;
    out->connections = gw->conns;
    out->bots = gw->bots;
}

struct gateway *gateway_new(uv_loop_t *loop, const struct gateway_config *cfg, struct state *state,
                            struct workers *workers, struct bus *bus, struct presence *presence,
                            struct state_voice *voice, struct console *console)
{
    static const char *const namespaces[] = {"/", NULL};
    struct gateway *gw = calloc(1, sizeof *gw);
    if (!gw)
        return NULL;
    gw->loop = loop;
    gw->state = state;
    gw->workers = workers;
    gw->bus = bus;
    gw->presence = presence;
    gw->voice = voice;
    gw->console = console;
    gw->rate_limit_scale = cfg->rate_limit_scale > 0 ? cfg->rate_limit_scale : 1;
    gw->access_log = cfg->access_log;
    gw->presence_people_max = cfg->presence_people_max;
    gw->presence_grace_ms = cfg->presence_grace_ms;
    gw->ice = cfg->ice;
    map_init(&gw->users);
    struct eio_config eio = {
        .ping_interval_ms = cfg->ping_interval_ms,
        .ping_timeout_ms = cfg->ping_timeout_ms,
        .max_payload = cfg->max_payload,
        .upgrade_timeout_ms = 10000,
        .max_queued = cfg->max_queued,
        .max_sessions = cfg->max_sessions,
        .sessions_per_s = cfg->sessions_per_s,
    };
    struct sio_config sio = {.namespaces = namespaces, .connect_timeout_ms = 45000};
    gw->sio = sio_server_new(loop, &eio, &sio, &handlers, gw);
    gw->inbox = inbox_new(loop);
    gw->recovery = gateway__recovery_new();
    if (cfg->in_order && gw->sio && gw->inbox && gw->recovery)
        gw->sequence = gateway__sequence_new(gw, 0);
    if (!gw->sio || !gw->inbox || !gw->recovery || (cfg->in_order && !gw->sequence) ||
        gateway__presence_init(gw) || gateway__lists_init(gw) ||
        gateway__sfu_start(gw, &cfg->sfu)) {
        sio_server_free(gw->sio);
        inbox_close(gw->inbox);
        gateway__recovery_free(gw->recovery);
        gateway__sequence_free(gw->sequence);
        gateway__presence_cleanup(gw);
        gateway__lists_cleanup(gw);
        gateway__sfu_stop(gw);
        free(gw);
        return NULL;
    }
    uv_timer_init(loop, &gw->sweep);
    gw->sweep.data = gw;
    uv_timer_start(&gw->sweep, on_sweep, GATEWAY_SWEEP_MS, GATEWAY_SWEEP_MS);
    bus_subscribe(bus, deliver, gw);
    return gw;
}

int gateway_owns(const struct http_request *req)
{
    struct slice p = req->path;
    return (p.len >= 11 && memcmp(p.ptr, "/socket.io/", 11) == 0) || slice_eq(p, "/socket.io");
}

/* 1 when the request names a session (sid=…): it belongs to one that exists or existed. */
static int names_session(const struct http_request *req)
{
    struct slice q = req->query;
    for (size_t i = 0; i + 4 <= q.len; i++)
        if ((i == 0 || q.ptr[i - 1] == '&') && !memcmp(q.ptr + i, "sid=", 4))
            return 1;
    return 0;
}

void gateway_handle(struct gateway *gw, struct http_exchange *ex)
{
    /* While draining, a new session would be refused at CONNECT, which tells official clients
     * to stop; a 503 on the handshake is a transport error, after which they keep retrying. */
    if (gw->draining && !names_session(ex->req)) {
        ex->res.status = 503;
        ex->res.content_type = "application/json; charset=utf-8";
        ex->res.body = strdup("{\"error\":\"Servidor encerrando; reconecte em instantes\"}");
        ex->res.body_len = ex->res.body ? strlen(ex->res.body) : 0;
        http_response_add_header(&ex->res, "Retry-After", "1");
        http_exchange_done(ex);
        return;
    }
    sio_server_handle(gw->sio, ex);
}

static void on_sweep_closed(uv_handle_t *h)
{
    (void)h;
}

void gateway_drain(struct gateway *gw)
{
    gw->draining = 1;
    uv_timer_stop(&gw->sweep);
    /* Transports close without a Socket.IO disconnect: that would tell every official client
     * not to reconnect, and each bot would stay offline after a deploy. */
    sio_server_close_all(gw->sio);
    bus_subscribe(gw->bus, NULL, NULL);
    uv_close((uv_handle_t *)&gw->sweep, on_sweep_closed);
    gateway__presence_close(gw);
    gateway__lists_close(gw);
    gateway__sequence_stop(gw->sequence);
    if (gw->inflight == 0) {
        inbox_close(gw->inbox);
        gw->inbox = NULL;
    }
}

size_t gateway_sessions(const struct gateway *gw)
{
    return sio_server_count(gw->sio);
}

void gateway_release(struct gateway *gw)
{
    sio_server_release_all(gw->sio);
}

void gateway_free(struct gateway *gw)
{
    if (!gw)
        return;
    sio_server_free(gw->sio);
    gateway__recovery_free(gw->recovery);
    gateway__sequence_free(gw->sequence);
    map_cleanup(&gw->users);
    gateway__presence_cleanup(gw);
    gateway__carry_free(gw);
    gateway__lists_cleanup(gw);
    gateway__reach_free(gw);
    gateway__sfu_stop(gw);
    free(gw);
}
