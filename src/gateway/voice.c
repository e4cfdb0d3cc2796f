/*
 * Voice signaling: see voice.h.
 *
 * Sessions change only on the I/O thread (voice.h lets the API read them). A join is
 * decided on a worker and applied when the answer comes back, if its connection is still
 * there. Every participants_update is sent after a worker has listed the bots watching the
 * channel, with the participants as they are at that moment, so the last update a client gets
 * is always the current list.
 */
#include "gateway/voice.h"
#include "gateway/jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "domain/ratewindow.h"
#include "domain/voice_rules.h"
#include "gateway/internal.h"
#include "state/watchers.h"
#include "state/voice.h"
#include "socketio/server.h"

typedef char user_id_t[UUID_LEN + 1];

/* Client voice events allowed per connection: joins and leaves cost a database check and an
 * update to the whole channel; signals go to one peer, in bursts while a call is set up. */
#define MOVES_PER_WINDOW   10 /* voice:join and voice:leave */
#define MOVES_WINDOW_MS    10000
#define SIGNALS_PER_WINDOW 100 /* channel_voice:signal */
#define SIGNALS_WINDOW_MS  5000
#define LIMIT_MAX          100000 /* however far the operator scales them */

struct voice_limits {
    struct ratewindow moves;
    struct ratewindow signals;
};

/* ---- answers (through the client's acknowledgement) ---- */

static void answer(struct sio_socket *sock, int64_t ack_id, json_t *body)
{
    if (!body)
        log_error("voice: could not build an acknowledgement");
    if (ack_id < 0 || !body) {
        json_decref(body);
        return;
    }
    json_t *args = json_pack("[o]", body);
    sio_socket_ack(sock, ack_id, args, NULL, 0);
    json_decref(args);
}

static void refuse(struct sio_socket *sock, int64_t ack_id, int status, const char *message)
{
    answer(sock, ack_id, json_pack("{sbsiss}", "ok", 0, "status", status, "error", message));
}

/* Refuses a payload that broke a rule (status 400 or 413). */
static void refuse_rule(struct sio_socket *sock, int64_t ack_id, int status,
                        const struct rule_error *err)
{
    char msg[sizeof err->path + sizeof err->reason + 2];
    snprintf(msg, sizeof msg, "%s: %s", err->path, err->reason);
    refuse(sock, ack_id, status, msg);
}

/* ---- events to users ---- */

static void to_user(struct gateway *gw, const char *name, json_t *payload, const char *user_id)
{
    user_id_t to[1];
    memcpy(to[0], user_id, sizeof to[0]);
    gateway__publish(gw, name, payload, (const user_id_t *)to, 1, 1);
}

static void session_ended(struct gateway *gw, const struct voice_session *s, const char *reason)
{
    to_user(gw, "voice:session_ended",
            json_pack("{ssssss}", "serverId", s->server_id, "channelId", s->channel_id, "reason",
                      reason),
            s->user_id);
}

static void permission_changed(struct gateway *gw, const struct voice_session *s, int can_connect,
                               int can_speak)
{
    to_user(gw, "voice:permission_changed",
            json_pack("{sssssbsb}", "serverId", s->server_id, "channelId", s->channel_id,
                      "canConnect", can_connect, "canSpeak", can_speak),
            s->user_id);
}

/* ---- channel_voice:participants_update ---- */

struct announce_job {
    struct gateway_job base;
    char server_id[UUID_LEN + 1];
    char channel_id[UUID_LEN + 1];
    user_id_t *observers; /* bots with voice.connect that see the channel */
    size_t nobservers;
    int failed;
    unsigned long reviews; /* gw->voice_reviews when the observers were asked for */
};

static void announce(struct gateway *gw, const char *server_id, const char *channel_id);

static void announce_on_worker(struct gateway_job *j, void *thread_ctx)
{
    struct announce_job *a = (struct announce_job *)j;
    a->failed = state_voice_observers(j->gw->state, thread_ctx, a->server_id, a->channel_id,
                                      &a->observers, &a->nobservers);
}

static int among(const struct voice_session *list, size_t n, const char *user_id)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i].user_id, user_id))
            return 1;
    return 0;
}

/* The people in a call on the SFU hear whose stream each feed is (to: room for n). */
static void media_update(struct gateway *gw, const struct announce_job *a,
                         const struct voice_session *list, long n, user_id_t *to)
{
    if (n < 0 || !gateway__sfu_on(gw, a->channel_id, (size_t)n))
        return;
    size_t k = 0;
    for (long i = 0; i < n; i++)
        if (!list[i].is_bot)
            memcpy(to[k++], list[i].user_id, sizeof to[0]);
    json_t *media = gateway__sfu_media_json(gw, list, (size_t)n);
    if (media && k &&
        !json_object_update_new(
            media, json_pack("{ssss}", "serverId", a->server_id, "channelId", a->channel_id)))
        gateway__publish(gw, "voice:media", media, (const user_id_t *)to, k, 0);
    else
        json_decref(media);
}

static void announce_answered(struct gateway_job *j)
{
    struct announce_job *a = (struct announce_job *)j;
    struct gateway *gw = j->gw;
    if (a->reviews != gw->voice_reviews) {
        /* Rights changed while the observers were listed (an intent off, a role gone): ask
         * again rather than tell a bot that may no longer watch. */
        announce(gw, a->server_id, a->channel_id);
        free(a->observers);
        free(a);
        return;
    }
    struct voice_session *list = NULL;
    long n =
        gw->draining ? -1 : state_voice_list(gw->voice, VOICE_BY_CHANNEL, a->channel_id, &list);
    if (a->failed)
        log_error("voice: cannot list the bots watching channel %s", a->channel_id);
    size_t cap = n > 0 ? (size_t)n + a->nobservers : a->nobservers;
    user_id_t *to = n >= 0 && cap ? malloc(cap * sizeof *to) : NULL;
    if (to) {
        size_t k = 0;
        for (long i = 0; i < n; i++)
            memcpy(to[k++], list[i].user_id, sizeof to[0]);
        for (size_t i = 0; i < a->nobservers; i++)
            if (!among(list, (size_t)n, a->observers[i]))
                memcpy(to[k++], a->observers[i], sizeof to[0]);
        json_t *participants = state_voice_participants_json(list, (size_t)n, 0);
        gateway__publish(gw, "channel_voice:participants_update",
                         json_pack("{ssssso}", "serverId", a->server_id, "channelId", a->channel_id,
                                   "participants", participants),
                         (const user_id_t *)to, k, 0);
        media_update(gw, a, list, n, to);
    }
    free(to);
    free(list);
    free(a->observers);
    free(a);
}

static void announce(struct gateway *gw, const char *server_id, const char *channel_id)
{
    if (gw->draining)
        return;
    struct announce_job *a = calloc(1, sizeof *a);
    if (!a) {
        log_error("voice: out of memory announcing channel %s", channel_id);
        return;
    }
    memcpy(a->server_id, server_id, sizeof a->server_id);
    memcpy(a->channel_id, channel_id, sizeof a->channel_id);
    a->reviews = gw->voice_reviews;
    a->base.work = announce_on_worker;
    a->base.done = announce_answered;
    gateway__run(gw, &a->base);
}

/* ---- voice:join ---- */

struct join_job {
    struct gateway_job base;
    char socket_id[VOICE_SOCKET_ID_MAX];
    char user_id[UUID_LEN + 1];
    int is_bot;
    struct voice_join_req req;
    int64_t ack_id;
    struct voice_standing standing;
};

static void join_on_worker(struct gateway_job *j, void *thread_ctx)
{
    struct join_job *jj = (struct join_job *)j;
    state_voice_standing(j->gw->state, thread_ctx, jj->user_id, jj->is_bot, jj->req.channel_id,
                         &jj->standing);
}

/* An answer waiting for the SFU to admit its participant. */
struct join_wait {
    char socket_id[VOICE_SOCKET_ID_MAX];
    int64_t ack_id;
    struct voice_session session;
    int is_new; /* the session began with this join (an admission refused ends it) */
    json_t *body;
};

static void join_admitted(struct gateway *gw, void *arg, int ok)
{
    struct join_wait *w = arg;
    struct sio_socket *sock = sio_server_find(gw->sio, w->socket_id);
    struct voice_session now;
    int still = state_voice_find(gw->voice, w->session.user_id, w->session.channel_id, &now) &&
                now.joined_at == w->session.joined_at && !strcmp(now.socket_id, w->socket_id);
    if (ok && sock && still)
        json_object_set_new(w->body, "sfu", gateway__sfu_join_json(gw, &now, clock_now_ms()));
    if (!ok && still && w->is_new &&
        state_voice_remove(gw->voice, now.user_id, now.server_id, &now)) {
        gateway__sfu_gone(gw, &now);
        announce(gw, now.server_id, now.channel_id);
    }
    if (sock && ok)
        answer(sock, w->ack_id, w->body);
    else {
        json_decref(w->body);
        if (sock)
            refuse(sock, w->ack_id, 503, "O servidor de mídia não respondeu; tente entrar de novo");
    }
    free(w);
}

/* The answer waits for the SFU when s's call is on it (s is a person's); else it goes now. */
static void join_answer(struct gateway *gw, struct sio_socket *sock, int64_t ack_id,
                        const struct voice_session *s, const struct voice_session *before,
                        int replaced, json_t *body)
{
    struct voice_session *list;
    long n = state_voice_list(gw->voice, VOICE_BY_CHANNEL, s->channel_id, &list);
    int on_sfu = n > 0 && gateway__sfu_on(gw, s->channel_id, (size_t)n);
    if (on_sfu && body)
        json_object_update_new(body, gateway__sfu_media_json(gw, list, (size_t)n));
    free(list);
    if (!on_sfu || s->is_bot || !body) {
        answer(sock, ack_id, body);
        return;
    }
    int same = replaced && !strcmp(before->channel_id, s->channel_id);
    struct join_wait *w = calloc(1, sizeof *w);
    struct sfu_ids was;
    if (!w) {
        json_decref(body);
        refuse(sock, ack_id, 500, "Erro interno; tente novamente em instantes");
        return;
    }
    slice_copy(slice_from(sio_socket_id(sock)), w->socket_id, sizeof w->socket_id);
    w->ack_id = ack_id;
    w->session = *s;
    w->is_new = !same;
    w->body = body;
    /* Another page of the same person took the session over: its feed leaves the room first. */
    uint64_t kicked = same && strcmp(before->socket_id, s->socket_id) &&
                              !gateway__sfu_ids(gw->sfu.secret, s->channel_id, s->user_id, &was)
                          ? was.feed
                          : 0;
    gateway__sfu_admit(gw, s, kicked, join_admitted, w);
}

static void join_apply(struct gateway *gw, struct sio_socket *sock, const struct join_job *jj)
{
    const char *message;
    int status = rule_voice_refusal(jj->standing.verdict, &message);
    if (status != 200) {
        refuse(sock, jj->ack_id, status, message);
        return;
    }
    struct voice_session s = {.is_bot = jj->is_bot,
                              .self_muted = jj->req.muted,
                              .self_deafened = jj->req.deafened,
                              .can_speak = jj->standing.can_speak,
                              .joined_at = clock_now_ms()},
                         before;
    memcpy(s.server_id, jj->standing.server_id, sizeof s.server_id);
    memcpy(s.channel_id, jj->req.channel_id, sizeof s.channel_id);
    memcpy(s.user_id, jj->user_id, sizeof s.user_id);
    memcpy(s.socket_id, jj->socket_id, sizeof s.socket_id);
    int rc = state_voice_put(gw->voice, &s, &before);
    if (rc < 0) {
        refuse(sock, jj->ack_id, 500, "Erro interno; tente novamente em instantes");
        return;
    }
    if (rc == 1 && strcmp(before.channel_id, s.channel_id)) {
        session_ended(gw, &before, "moved");
        gateway__sfu_gone(gw, &before);
        announce(gw, before.server_id, before.channel_id);
    }
    state_voice_find(gw->voice, s.user_id, s.channel_id, &s); /* a rejoin keeps its joined_at */
    struct voice_session *list;
    long n = state_voice_list(gw->voice, VOICE_BY_CHANNEL, s.channel_id, &list);
    json_t *participants = state_voice_participants_json(list, n > 0 ? (size_t)n : 0, 0);
    free(list);
    json_t *body = json_pack("{sbsssssbso}", "ok", 1, "serverId", s.server_id, "channelId",
                             s.channel_id, "canSpeak", s.can_speak, "participants", participants);
    if (body &&
        json_object_update_new(body, gateway__ice_json(&gw->ice, s.user_id, clock_now_ms())))
        log_error("voice: the ICE servers could not be added to an answer");
    join_answer(gw, sock, jj->ack_id, &s, &before, rc == 1, body);
    announce(gw, s.server_id, s.channel_id);
}

static void join_answered(struct gateway_job *j)
{
    struct join_job *jj = (struct join_job *)j;
    struct gateway *gw = j->gw;
    struct sio_socket *sock = sio_server_find(gw->sio, jj->socket_id);
    if (sock && sio_socket_data(sock) && !gw->draining)
        join_apply(gw, sock, jj);
    free(jj);
}

static void join(struct gateway *gw, struct conn *c, json_t *payload, int64_t ack_id)
{
    struct rule_error err;
    struct voice_join_req req;
    int status = rule_voice_read_join(payload, &req, &err);
    if (status) {
        refuse_rule(c->sock, ack_id, status, &err);
        return;
    }
    struct join_job *jj = calloc(1, sizeof *jj);
    if (!jj) {
        refuse(c->sock, ack_id, 500, "Erro interno; tente novamente em instantes");
        return;
    }
    jj->req = req;
    slice_copy(slice_from(sio_socket_id(c->sock)), jj->socket_id, sizeof jj->socket_id);
    memcpy(jj->user_id, c->user_id, sizeof jj->user_id);
    jj->is_bot = c->is_bot;
    jj->ack_id = ack_id;
    jj->base.work = join_on_worker;
    jj->base.done = join_answered;
    gateway__run(gw, &jj->base);
}

/* ---- voice:leave ---- */

static void leave(struct gateway *gw, struct conn *c, json_t *payload, int64_t ack_id)
{
    struct rule_error err;
    struct voice_leave_req req;
    int status = rule_voice_read_leave(payload, &req, &err);
    if (status) {
        refuse_rule(c->sock, ack_id, status, &err);
        return;
    }
    const char *channel_id = req.channel_id;
    struct voice_session *list;
    long n = state_voice_list(gw->voice, VOICE_BY_USER, c->user_id, &list);
    if (n < 0) {
        refuse(c->sock, ack_id, 500, "Erro interno; tente novamente em instantes");
        return;
    }
    long left = 0;
    for (long i = 0; i < n; i++) {
        struct voice_session s;
        if ((channel_id[0] && strcmp(list[i].channel_id, channel_id)) ||
            !state_voice_remove(gw->voice, list[i].user_id, list[i].server_id, &s))
            continue;
        left++;
        session_ended(gw, &s, "left");
        gateway__sfu_gone(gw, &s);
        announce(gw, s.server_id, s.channel_id);
    }
    free(list);
    if (channel_id[0] && !left)
        refuse(c->sock, ack_id, 404, "Você não está neste canal de voz");
    else
        answer(c->sock, ack_id, json_pack("{sb}", "ok", 1));
}

/* ---- channel_voice:signal ---- */

static void signal_relay(struct gateway *gw, struct conn *c, json_t *payload, int64_t ack_id,
                         int natt)
{
    struct rule_error err;
    struct voice_signal_req req;
    int status = rule_voice_read_signal(payload, natt, &req, &err);
    if (status) {
        refuse_rule(c->sock, ack_id, status, &err);
        return;
    }
    const char *channel_id = req.channel_id, *to_user_id = req.to_user_id;
    if (!strcmp(to_user_id, c->user_id)) {
        refuse(c->sock, ack_id, 400, "toUserId: não pode ser você");
        return;
    }
    struct voice_session from, to;
    if (!state_voice_find(gw->voice, c->user_id, channel_id, &from)) {
        refuse(c->sock, ack_id, 403, "Você não está neste canal de voz");
        return;
    }
    if (!state_voice_find(gw->voice, to_user_id, channel_id, &to)) {
        refuse(c->sock, ack_id, 404, "Destinatário não está neste canal de voz");
        return;
    }
    to_user(gw, "channel_voice:signal",
            json_pack("{sssssssO}", "serverId", from.server_id, "channelId", channel_id,
                      "fromUserId", c->user_id, "data", req.data),
            to_user_id);
    answer(c->sock, ack_id, json_pack("{sb}", "ok", 1));
}

static uint32_t scaled(const struct gateway *gw, uint32_t count)
{
    double n = count * gw->rate_limit_scale;
    return n < 1 ? 1 : n > LIMIT_MAX ? LIMIT_MAX : (uint32_t)n;
}

/* Counts one event of the connection: 0, or the milliseconds to wait (-1: no memory). */
static int64_t over_limit(struct gateway *gw, struct conn *c, int is_signal)
{
    if (!c->voice_limits) {
        struct voice_limits *l = calloc(1, sizeof *l);
        if (!l || rule_ratewindow_init(&l->moves, scaled(gw, MOVES_PER_WINDOW), MOVES_WINDOW_MS) ||
            rule_ratewindow_init(&l->signals, scaled(gw, SIGNALS_PER_WINDOW), SIGNALS_WINDOW_MS)) {
            if (l) {
                rule_ratewindow_cleanup(&l->moves);
                free(l);
            }
            return -1;
        }
        c->voice_limits = l;
    }
    return rule_ratewindow_hit(is_signal ? &c->voice_limits->signals : &c->voice_limits->moves,
                               clock_now_ms());
}

int gateway__voice_on_event(struct gateway *gw, struct conn *c, const char *name, json_t *payload,
                            int64_t ack_id, int natt)
{
    int is_join = name && !strcmp(name, "voice:join");
    int is_leave = name && !strcmp(name, "voice:leave");
    int is_signal = name && !strcmp(name, "channel_voice:signal");
    if (!is_join && !is_leave && !is_signal)
        return 0;
    int64_t wait = over_limit(gw, c, is_signal);
    if (wait < 0) {
        refuse(c->sock, ack_id, 500, "Erro interno; tente novamente em instantes");
        return 1;
    }
    if (wait > 0) {
        answer(c->sock, ack_id,
               json_pack("{sbsisssI}", "ok", 0, "status", 429, "error",
                         "Muitas requisições; aguarde antes de tentar de novo", "retryAfterMs",
                         (json_int_t)wait));
        return 1;
    }
    if (is_join)
        join(gw, c, payload, ack_id);
    else if (is_leave)
        leave(gw, c, payload, ack_id);
    else
        signal_relay(gw, c, payload, ack_id, natt);
    return 1;
}

/* ---- a connection closes ---- */

void gateway__voice_on_disconnect(struct gateway *gw, struct conn *c)
{
    if (c->voice_limits) {
        rule_ratewindow_cleanup(&c->voice_limits->moves);
        rule_ratewindow_cleanup(&c->voice_limits->signals);
        free(c->voice_limits);
        c->voice_limits = NULL;
    }
    struct voice_session *list;
    long n = state_voice_list(gw->voice, VOICE_BY_SOCKET, sio_socket_id(c->sock), &list);
    for (long i = 0; i < n; i++) {
        struct voice_session s;
        if (list[i].node[0] || /* another node's socket of the same name */
            !state_voice_remove(gw->voice, list[i].user_id, list[i].server_id, &s) || gw->draining)
            continue;
        session_ended(gw, &s, "disconnected"); /* the user's other connections */
        gateway__sfu_gone(gw, &s);
        announce(gw, s.server_id, s.channel_id);
    }
    free(list);
}

/* ---- rights changed: check every session concerned again ---- */

struct review_entry {
    struct voice_session session; /* as it was when the review began */
    struct voice_standing standing;
    int changed; /* the channel's participants changed */
};

struct review_job {
    struct gateway_job base;
    long n;
    struct review_entry *entries;
};

static void review_on_worker(struct gateway_job *j, void *thread_ctx)
{
    struct review_job *r = (struct review_job *)j;
    for (long i = 0; i < r->n; i++) {
        struct review_entry *e = &r->entries[i];
        state_voice_standing(j->gw->state, thread_ctx, e->session.user_id, e->session.is_bot,
                             e->session.channel_id, &e->standing);
    }
}

static const char *end_reason(enum voice_verdict v)
{
    switch (v) {
    case VOICE_NO_CHANNEL:
    case VOICE_NOT_VOICE:
        return "channel_deleted";
    case VOICE_NOT_MEMBER:
        return "removed_from_server";
    default:
        return "permission_revoked";
    }
}

/* Applies one verdict: 1 when the channel's participants changed. */
static int review_one(struct gateway *gw, const struct voice_session *was,
                      const struct voice_standing *st)
{
    struct voice_session s;
    /* Skip sessions that ended or moved while the worker looked, and storage failures. */
    if (st->verdict == VOICE_FAILED ||
        !state_voice_find(gw->voice, was->user_id, was->channel_id, &s) ||
        s.joined_at != was->joined_at)
        return 0;
    if (st->verdict == VOICE_ALLOWED) {
        if (!state_voice_set_can_speak(gw->voice, s.user_id, s.channel_id, st->can_speak))
            return 0;
        permission_changed(gw, &s, 1, st->can_speak);
        return 1;
    }
    state_voice_remove(gw->voice, s.user_id, s.server_id, &s);
    gateway__sfu_gone(gw, &s);
    if (st->verdict == VOICE_NO_INTENT)
        return 1; /* a bot without voice.connect gets no voice events */
    if (st->verdict == VOICE_HIDDEN || st->verdict == VOICE_NO_PERMISSION)
        permission_changed(gw, &s, 0, 0);
    session_ended(gw, &s, end_reason(st->verdict));
    return 1;
}

static void review_answered(struct gateway_job *j)
{
    struct review_job *r = (struct review_job *)j;
    struct gateway *gw = j->gw;
    for (long i = 0; i < r->n && !gw->draining; i++) {
        struct review_entry *e = &r->entries[i];
        e->changed = review_one(gw, &e->session, &e->standing);
        int first = e->changed; /* one update per channel */
        for (long k = 0; k < i && first; k++)
            first = !r->entries[k].changed ||
                    strcmp(r->entries[k].session.channel_id, e->session.channel_id);
        if (first)
            announce(gw, e->session.server_id, e->session.channel_id);
    }
    free(r->entries);
    free(r);
}

void gateway__voice_on_review(struct gateway *gw, const struct bus_control *c)
{
    gw->voice_reviews++;
    char in_server[UUID_LEN + 1] = ""; /* with a user: that user's sessions in it only */
    if (c->server[0] && c->user[0])
        memcpy(in_server, c->server, sizeof in_server);
    struct voice_session *list = NULL;
    long n = c->user[0]     ? state_voice_list(gw->voice, VOICE_BY_USER, c->user, &list)
             : c->server[0] ? state_voice_list(gw->voice, VOICE_BY_SERVER, c->server, &list)
             : c->all       ? state_voice_list(gw->voice, VOICE_ALL, "", &list)
                            : 0;
    if (n <= 0 || gw->draining) {
        free(list);
        return;
    }
    struct review_job *r = calloc(1, sizeof *r);
    struct review_entry *entries = calloc((size_t)n, sizeof *entries);
    if (!r || !entries) {
        log_error("voice: out of memory reviewing %ld sessions", n);
        free(r);
        free(entries);
        free(list);
        return;
    }
    long k = 0;
    for (long i = 0; i < n; i++)
        if (!list[i].node[0] && /* each node reviews the sessions of its own sockets */
            (!in_server[0] || !strcmp(list[i].server_id, in_server)))
            entries[k++].session = list[i];
    free(list);
    if (!k) {
        free(entries);
        free(r);
        return;
    }
    r->n = k;
    r->entries = entries;
    r->base.work = review_on_worker;
    r->base.done = review_answered;
    gateway__run(gw, &r->base);
}

/* ---- other nodes' sessions ---- */

/* Each node tells its own connections of a channel's participants, whichever node changed them. */
void gateway_voice_remote(struct gateway *gw, const char *text, size_t len, int removed,
                          const char *self)
{
    struct voice_session s, before;
    if (state_voice_session_parse(text, len, &s)) {
        log_error("voice: another node's session could not be read");
        return;
    }
    if (!strcmp(s.node, self))
        s.node[0] = '\0';
    int rc = state_voice_apply(gw->voice, &s, removed, &before);
    if (rc < 0 || gw->draining)
        return;
    announce(gw, s.server_id, s.channel_id);
    if (rc == 1 && strcmp(before.channel_id, s.channel_id))
        announce(gw, before.server_id, before.channel_id);
}

void gateway_voice_remote_drop(struct gateway *gw, const char *node)
{
    struct voice_session *list;
    long n = state_voice_drop_node(gw->voice, node, &list);
    for (long i = 0; i < n && !gw->draining; i++) {
        int first = 1; /* one update per channel */
        for (long k = 0; k < i && first; k++)
            first = strcmp(list[k].channel_id, list[i].channel_id);
        if (first)
            announce(gw, list[i].server_id, list[i].channel_id);
    }
    free(list);
}
