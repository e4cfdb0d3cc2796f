/* Member and message events: see events.h. */
#include "core/jsonout.h"
#include "api/events.h"

#include "api/access.h"
#include "api/voice.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "core/log.h"
#include "core/clock.h"
#include "domain/intents.h"
#include "state/state.h"
#include "store/event_log.h"
#include "store/members.h"
#include "store/servers.h"
#include "store/writer.h"

/* Where an event happened (its header, bus.h) and whether the event log keeps it: a logged
 * event goes to the bots with `intent` (0: none needed) and is replayed; the others are live. */
struct event_scope {
    struct bus_where where;
    uint32_t intent;
    int logged;
};

/* A worker's event: logged by the writer in a job of its own, then published from the writer
 * thread after that commit, so events reach the bus in the order of their positions. */
struct log_job {
    struct job base; /* first */
    struct bus *bus;
    struct idset *to;
    char *text;
    size_t len;
    uint64_t position;
    char name[48];
    struct event_scope scope;
    int64_t at;
};

static const char *or_null(const char *s)
{
    return *s ? s : NULL;
}

/* The log's row of an event: its columns are the header's. */
static struct store_event logged_as(const char *name, const struct event_scope *scope,
                                    const char *text, size_t len, int64_t at)
{
    const struct bus_where *w = &scope->where;
    /* An event for one user is in that user's stream, wherever it happened. */
    return (struct store_event){.type = name,
                                .stream = w->user[0] ? NULL : or_null(w->server),
                                .channel_id = or_null(w->channel),
                                .intent = scope->intent,
                                .user_id = or_null(w->user),
                                .payload = text,
                                .len = len,
                                .at = at,
                                .message_id = or_null(w->message)};
}

static void log_job_run(struct job *job, void *db)
{
    struct log_job *j = (struct log_job *)job;
    struct store_event e = logged_as(j->name, &j->scope, j->text, j->len, j->at);
    if (store_event_append(db, &e, &j->position) != STORE_DONE)
        j->position = 0;
}

static void log_job_done(struct job *job, int committed)
{
    struct log_job *j = (struct log_job *)job;
    if (committed && j->position)
        bus_publish_at(j->bus, j->name, j->text, j->len, j->to, j->position, &j->scope.where);
    else {
        log_error("events: %s could not be logged; not delivered", j->name);
        free(j->text);
        idset_unref(j->to);
    }
    free(j);
}

static void copy_or_empty(char *out, size_t cap, const char *s)
{
    if (!s || slice_copy(slice_from(s), out, cap))
        out[0] = '\0';
}

/* Logs and hands to the bus (after the commit on the writer lane); takes text and the
 * reference to `to`. scope NULL: a control event, nowhere in particular. */
static void send_text(struct api_call *c, const char *name, char *text, size_t len,
                      struct idset *to, const struct event_scope *scope)
{
    const struct bus_where *where = scope ? &scope->where : NULL;
    if (!scope || !scope->logged) { /* on the writer lane, after the commit too */
        if (c->held)
            bus_hold(c->held, name, text, len, to, 0, where);
        else
            bus_publish_at(c->svc->bus, name, text, len, to, 0, where);
        return;
    }
    if (c->held) { /* on the writer, in the transaction of the change it reports */
        struct store_event e = logged_as(name, scope, text, len, clock_now_ms());
        /* The held event's position is filled by the append, or at the commit. */
        uint64_t *position = bus_hold(c->held, name, text, len, to, 0, where);
        if (position && store_event_append(c->db, &e, position) != STORE_DONE)
            bus_held_drop_last(c->held);
        return;
    }
    struct log_job *j = calloc(1, sizeof *j);
    if (!j) {
        free(text);
        idset_unref(to);
        return;
    }
    j->base = (struct job){.run = log_job_run, .done = log_job_done};
    j->bus = c->svc->bus;
    j->to = to;
    j->text = text;
    j->len = len;
    j->scope = *scope;
    j->at = clock_now_ms();
    copy_or_empty(j->name, sizeof j->name, name);
    store_writer_submit(c->svc->writer, &j->base);
}

/* Serializes, then as send_text; takes payload and the reference to `to`. */
static void send_to(struct api_call *c, const char *name, json_t *payload, struct idset *to,
                    const struct event_scope *scope)
{
    size_t len = 0;
    char *text = jsonout_dump(payload, &len);
    json_decref(payload);
    if (text)
        send_text(c, name, text, len, to, scope);
    else
        idset_unref(to);
}

/* Server sid's bots with that intent and every person in it (intent 0: the people only); NULL
 * when the server is gone (*found 0) or on error. */
static struct idset *server_wide(struct api_call *c, const char *sid, uint32_t intent, int *found)
{
    struct state_server *srv = state_server(c->svc->state, c->db, sid, found);
    if (!srv)
        return NULL;
    struct idset *to = state_server_audience_with_people(srv, -1, intent, clock_now_ms());
    state_server_unref(srv);
    return to;
}

/* A member event: to the bots with members.read and to every person in the server. */
static void publish(struct api_call *c, const char *name, const char *sid, json_t *payload)
{
    int found;
    struct idset *to = server_wide(c, sid, INTENT_MEMBERS_READ, &found);
    if (!to) {
        if (found)
            log_error("events: cannot resolve recipients of %s in %s", name, sid);
        json_decref(payload);
        return;
    }
    struct event_scope scope = {bus_where_of(sid, NULL, NULL, NULL, NULL), INTENT_MEMBERS_READ, 1};
    send_to(c, name, payload, to, &scope);
}

void api__event_member_add(struct api_call *c, const char *sid, const char *uid)
{
    int rc;
    json_t *member = store_member_json(c->db, sid, uid, &rc);
    if (!member)
        return;
    json_t *ev = json_pack("{ss}", "serverId", sid);
    json_object_update(ev, member);
    json_decref(member);
    publish(c, "GUILD_MEMBER_ADD", sid, ev);
}

void api__event_profile_changed(struct api_call *c)
{
    json_t *servers = store_servers_of_user(c->db, c->me.user_id);
    size_t i;
    json_t *s;
    json_array_foreach(servers, i, s)
    {
        const char *sid = json_string_value(json_object_get(s, "id"));
        if (sid)
            api__event_server_changed(c, sid, "members");
    }
    json_decref(servers);
}

static void to_user(struct api_call *c, const char *name, const struct bus_where *at,
                    json_t *payload, int logged);

static json_t *string_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

json_t *api__reaction_change(const char *sid, const char *cid, const char *mid, const char *emoji,
                             const char *custom, const char *user_id, int64_t count, int added)
{
    return json_pack("{sosssssosososIsb}", "serverId", string_or_null(sid), "channelId", cid,
                     "messageId", mid, "emoji", string_or_null(emoji), "customEmojiId",
                     string_or_null(custom), "userId", json_string(user_id), "count",
                     (json_int_t)count, "added", added);
}

json_t *api__pin_change(const char *sid, const char *cid, const char *mid, int pinned)
{
    return json_pack("{sosssssb}", "serverId", string_or_null(sid), "channelId", cid, "messageId",
                     mid, "pinned", pinned);
}

static json_t *member_removed(const char *sid, const char *uid, const char *reason)
{
    json_t *ev = json_pack("{ssss}", "serverId", sid, "userId", uid);
    if (reason)
        json_object_set_new(ev, "reason", json_string(reason));
    return ev;
}

void api__event_member_remove(struct api_call *c, const char *sid, const char *uid,
                              const char *reason)
{
    publish(c, "GUILD_MEMBER_REMOVE", sid, member_removed(sid, uid, reason));
}

void api__event_person_removed(struct api_call *c, const char *sid, const char *uid,
                               const char *reason)
{
    api__event_member_remove(c, sid, uid, reason);
    struct bus_where at = bus_where_of(sid, NULL, NULL, NULL, uid);
    to_user(c, "GUILD_MEMBER_REMOVE", &at, member_removed(sid, uid, reason), 0);
}

struct bus_where api__where(const struct place *p, const char *mid)
{
    const char *channel = p->perm_channel >= 0 ? p->srv->shape->channels[p->perm_channel].id : NULL;
    return bus_where_of(p->srv->id, channel, p->cid, mid, NULL);
}

void api__event_message_text(struct api_call *c, const char *name, const struct place *p,
                             const char *mid, char *text, size_t len)
{
    struct idset *to = state_server_audience_with_people(p->srv, p->perm_channel,
                                                         INTENT_MESSAGES_READ, clock_now_ms());
    if (!to) {
        log_error("events: cannot resolve recipients of %s", name);
        free(text);
        return;
    }
    struct event_scope scope = {api__where(p, mid), INTENT_MESSAGES_READ, 1};
    send_text(c, name, text, len, to, &scope);
}

void api__event_message(struct api_call *c, const char *name, const struct place *p,
                        const char *mid, json_t *payload)
{
    size_t len = 0;
    char *text = jsonout_dump(payload, &len);
    json_decref(payload);
    if (text)
        api__event_message_text(c, name, p, mid, text, len);
}

void api__event_people(struct api_call *c, const char *name, const struct place *p, const char *mid,
                       json_t *payload)
{
    struct idset *to = state_server_people(p->srv, p->perm_channel, clock_now_ms());
    struct event_scope scope = {api__where(p, mid), 0, 0};
    if (to)
        send_to(c, name, payload, to, &scope);
    else
        json_decref(payload);
}

void api__event_to_people(struct api_call *c, const char *name, struct idset *to, json_t *payload)
{
    struct event_scope scope = {bus_where_of(NULL, NULL, NULL, NULL, NULL), 0, 0};
    send_to(c, name, payload, to, &scope);
}

void api__event_dm(struct api_call *c, const char *name, const char *cid, const char *mid,
                   struct idset *to, json_t *payload)
{
    struct event_scope scope = {bus_where_of(NULL, cid, cid, mid, NULL), 0, 0};
    send_to(c, name, payload, to, &scope);
}

/* A control event to the users in `to` (NULL: none), held until the commit on the writer lane. */
static void control(struct api_call *c, enum bus_kind kind, struct bus_control *ctl,
                    struct idset *to)
{
    if (c->held)
        bus_hold_control(c->held, kind, ctl, to);
    else
        bus_publish_control(c->svc->bus, kind, ctl, to, 0);
}

void api__event_control(struct api_call *c, enum bus_kind kind, struct bus_control *ctl)
{
    control(c, kind, ctl, NULL);
}

void api__event_server_changed(struct api_call *c, const char *sid, const char *what)
{
    int found;
    struct idset *to = server_wide(c, sid, 0, &found);
    struct event_scope scope = {bus_where_of(sid, NULL, NULL, NULL, NULL), 0, 0};
    if (to)
        send_to(c, "SERVER_UPDATE", json_pack("{ssss}", "serverId", sid, "changed", what), to,
                &scope);
}

static void to_user(struct api_call *c, const char *name, const struct bus_where *at,
                    json_t *payload, int logged)
{
    struct idset *to = idset_new(1);
    if (!to || idset_add(to, at->user)) {
        idset_unref(to);
        json_decref(payload);
        return;
    }
    struct event_scope scope = {*at, 0, logged};
    send_to(c, name, payload, to, &scope);
}

void api__event_to_user(struct api_call *c, const char *name, const struct bus_where *at,
                        json_t *payload)
{
    to_user(c, name, at, payload, 1);
}

/* A write and the event it produces, in one writer transaction; the worker waits for it. */
struct write_event {
    struct log_job log; /* first */
    struct store_writer *writer;
    store_write_fn fn;
    void *arg;
    int result, done;
    pthread_mutex_t lock;
    pthread_cond_t cond;
};

static void write_event_run(struct job *job, void *db)
{
    struct write_event *we = (struct write_event *)job;
    we->result = store_write(we->writer, we->fn, we->arg); /* inline: we are on the writer */
    if (we->result >= 0)
        log_job_run(job, db);
}

static void write_event_done(struct job *job, int committed)
{
    struct write_event *we = (struct write_event *)job;
    struct log_job *j = &we->log;
    if (committed && we->result >= 0 && j->position) {
        bus_publish_at(j->bus, j->name, j->text, j->len, j->to, j->position, &j->scope.where);
    } else {
        free(j->text);
        idset_unref(j->to);
        if (!committed)
            we->result = STORE_ERR;
    }
    pthread_mutex_lock(&we->lock);
    we->done = 1;
    pthread_cond_signal(&we->cond);
    pthread_mutex_unlock(&we->lock);
}

int api__write_with_event(struct api_call *c, store_write_fn fn, void *arg, const char *name,
                          const struct bus_where *at, json_t *payload)
{
    size_t len = 0;
    char *text = jsonout_dump(payload, &len);
    json_decref(payload);
    struct idset *to = idset_new(1);
    struct write_event *we = calloc(1, sizeof *we);
    if (!text || !to || idset_add(to, at->user) || !we) {
        free(text);
        idset_unref(to);
        free(we);
        return STORE_ERR;
    }
    we->log = (struct log_job){.base = {.run = write_event_run, .done = write_event_done},
                               .bus = c->svc->bus,
                               .to = to,
                               .text = text,
                               .len = len,
                               .scope = {*at, 0, 1},
                               .at = clock_now_ms()};
    copy_or_empty(we->log.name, sizeof we->log.name, name);
    we->writer = c->svc->writer;
    we->fn = fn;
    we->arg = arg;
    pthread_mutex_init(&we->lock, NULL);
    pthread_cond_init(&we->cond, NULL);
    store_read_release(c->db); /* reads after it must see it */
    store_writer_submit(c->svc->writer, &we->log.base);
    pthread_mutex_lock(&we->lock);
    while (!we->done)
        pthread_cond_wait(&we->cond, &we->lock);
    pthread_mutex_unlock(&we->lock);
    int result = we->result;
    pthread_mutex_destroy(&we->lock);
    pthread_cond_destroy(&we->cond);
    free(we);
    return result;
}

/* A DISCONNECT of user_id's connections: on token_hash only (NULL: all), or with keep all but. */
static void disconnect(struct api_call *c, const char *user_id, const char *token_hash, int keep)
{
    struct idset *to = idset_new(1);
    struct bus_control ctl = {.keep = keep};
    if (!to || idset_add(to, user_id)) {
        idset_unref(to);
        return;
    }
    if (token_hash)
        slice_copy(slice_from(token_hash), ctl.token_hash, sizeof ctl.token_hash);
    control(c, BUS_KIND_DISCONNECT, &ctl, to);
}

void api__event_disconnect(struct api_call *c, const char *user_id, const char *token_hash)
{
    disconnect(c, user_id, token_hash, 0);
}

void api__event_disconnect_others(struct api_call *c, const char *user_id, const char *keep_hash)
{
    disconnect(c, user_id, keep_hash, 1);
}
