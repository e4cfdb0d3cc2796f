/* Web Push, the queue and who is told: see web_push.h. */
#include "api/web_push.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/web_push_private.h"
#include "core/clock.h"
#include "core/jsonout.h"
#include "core/log.h"
#include "core/workers.h"
#include "state/presence.h"
#include "state/reading.h"
#include "state/server.h"
#include "state/state.h"

#define COUNT_EVERY_MS                                                                             \
    (5 * 1000) /* devices registered by `praca admin` or a restore: this late                      \
                */
#define KEYS_EVERY_MS (60 * 1000)

/* --- the observer, on the publishing thread --- */

void api_web_push_observe(void *user, const struct bus_event *ev)
{
    struct api_web_push *wp = user;
    /* A new message in a room, or a reminder whose time came (its person's own stream). */
    int reminder = !strcmp(ev->name, "REMINDER_DUE") && ev->where.user[0];
    int message =
        !strcmp(ev->name, "MESSAGE_CREATE") && !ev->where.user[0] && ev->where.channel[0] && ev->to;
    if ((!reminder && !message) || !atomic_load(&wp->devices) || !wp->svc->notify)
        return;
    struct wp_message *m = malloc(sizeof *m + ev->payload_len + 1);
    if (!m)
        return;
    *m = (struct wp_message){.where = ev->where, .len = ev->payload_len, .reminder = reminder};
    memcpy(m->payload, ev->payload, ev->payload_len);
    m->payload[ev->payload_len] = '\0';
    pthread_mutex_lock(&wp->mu);
    int room = !wp->stopping && wp->queued < WEB_PUSH_QUEUE_MAX;
    if (room) {
        m->to = ev->to ? idset_ref(ev->to) : NULL;
        if (wp->tail)
            wp->tail->next = m;
        else
            wp->head = m;
        wp->tail = m;
        wp->queued++;
    }
    int start = room && !wp->draining;
    wp->draining |= start;
    pthread_mutex_unlock(&wp->mu);
    if (!room) {
        free(m);
        atomic_fetch_add(&wp->n.dropped, 1);
        return;
    }
    atomic_fetch_add(&wp->n.queued, 1);
    if (start)
        workers_submit(wp->svc->notify, &wp->drain);
}

void api__web_push_device_added(struct api_web_push *wp)
{
    atomic_fetch_add(&wp->added, 1);
    atomic_store(&wp->devices, 1);
}

/* --- who is told, on the notify lane --- */

/* One person a message may concern, and how. */
struct candidate {
    int mentioned, everyone, maybe_role;
};

struct candidates {
    struct map by_user; /* user ID -> struct candidate */
    int everyone, roles;
};

static struct candidate *candidate(struct candidates *cs, const char *uid)
{
    struct candidate *c = map_get(&cs->by_user, uid);
    if (c || strlen(uid) != UUID_LEN || !(c = calloc(1, sizeof *c)))
        return c;
    if (map_set(&cs->by_user, uid, c)) {
        free(c);
        return NULL;
    }
    return c;
}

static void add_reader(const char *uid, void *arg)
{
    candidate(arg, uid);
}

static void add_member(void *arg, const char *uid)
{
    struct candidates *cs = arg;
    struct candidate *c = candidate(cs, uid);
    if (c) {
        c->everyone |= cs->everyone;
        c->maybe_role |= cs->roles;
    }
}

static void add_listener(void *arg, const char *uid)
{
    candidate(arg, uid);
}

/* Who the message may concern: everyone else in a DM; in a server, those it mentions, the
 * members with a device when it mentions everyone or roles, and those who hear everything. */
static int gather(struct store *db, const struct wp_message *m, json_t *msg, struct candidates *cs)
{
    if (!m->where.server[0]) {
        idset_each(m->to, add_reader, cs);
        return 0;
    }
    size_t i;
    json_t *id;
    json_array_foreach(json_object_get(msg, "mentions"), i, id)
    {
        struct candidate *c = json_is_string(id) ? candidate(cs, json_string_value(id)) : NULL;
        if (c)
            c->mentioned = 1;
    }
    cs->everyone = json_is_true(json_object_get(msg, "mentionsEveryone"));
    cs->roles = json_array_size(json_object_get(msg, "mentionedRoleIds")) > 0;
    if ((cs->everyone || cs->roles) &&
        store_push_people_in(db, m->where.server, NULL, 1, add_member, cs) < 0)
        return -1;
    return store_push_people_in(db, m->where.server, m->where.channel, 0, add_listener, cs) < 0 ? -1
                                                                                                : 0;
}

/* 1 when member m holds one of the roles the message mentions. */
static int holds_mentioned_role(const struct state_member *m, json_t *roles)
{
    size_t i;
    json_t *id;
    json_array_foreach(roles, i, id)
    {
        for (size_t r = 0; m && r < m->nroles; r++)
            if (json_is_string(id) && !strcmp(m->role_ids[r], json_string_value(id)))
                return 1;
    }
    return 0;
}

/* What a device is told (docs/api.md, "Web Push"). */
static char *notification(const struct wp_message *m, json_t *msg, const char *kind,
                          const struct store_push_names *names, size_t *len)
{
    const char *content = json_string_value(json_object_get(msg, "content"));
    size_t cut = 0;
    for (; content && content[cut] && content[cut] != '\n' && cut < WEB_PUSH_TEXT_MAX; cut++)
        ;
    if (content && content[cut] && content[cut] != '\n') /* cut at a character's start */
        while (cut && ((unsigned char)content[cut] & 0xc0) == 0x80)
            cut--;
    const char *from = json_string_value(json_object_get(msg, "fromId"));
    json_t *thread = json_object_get(msg, "threadId");
    json_t *n = json_object();
    json_object_set_new(n, "v", json_integer(1));
    json_object_set_new(n, "kind", json_string(kind));
    json_object_set_new(n, "messageId", json_string(m->where.message));
    json_object_set_new(n, "serverId",
                        m->where.server[0] ? json_string(m->where.server) : json_null());
    json_object_set_new(n, "channelId", json_string(m->where.channel));
    json_object_set_new(n, "threadId", json_is_string(thread) ? json_incref(thread) : json_null());
    json_object_set_new(n, "author",
                        json_pack("{ssss}", "id", from ? from : "", "name", names->author));
    json_object_set_new(n, "serverName",
                        names->server[0] ? json_string(names->server) : json_null());
    json_object_set_new(n, "roomName", names->room[0] ? json_string(names->room) : json_null());
    json_object_set_new(n, "text", json_stringn(content ? content : "", cut));
    json_object_set_new(
        n, "attachments",
        json_integer((json_int_t)json_array_size(json_object_get(msg, "attachments"))));
    char *text = jsonout_dump(n, len);
    json_decref(n);
    return text;
}

struct devices {
    struct api_web_push *wp;
    const char *text, *urgency;
    size_t len;
};

static void to_device(void *arg, const struct store_push_sub *sub)
{
    struct devices *d = arg;
    api__web_push_send(d->wp, sub, d->text, d->len, d->urgency);
}

/* Decides for uid, and pushes to their devices when it is yes. */
static void tell(struct api_web_push *wp, struct store *db, const struct wp_message *m, json_t *msg,
                 const struct state_server *srv, const char *uid, const struct candidate *c)
{
    const char *from = json_string_value(json_object_get(msg, "fromId"));
    const struct state_member *member = srv ? state_server_member(srv, uid) : NULL;
    struct notify_facts f = {
        .is_dm = !m->where.server[0],
        .author = from && !strcmp(from, uid),
        .mentioned = c->mentioned,
        .everyone = c->everyone,
        .role_mentioned =
            c->maybe_role && holds_mentioned_role(member, json_object_get(msg, "mentionedRoleIds")),
    };
    if (f.author || !idset_has(m->to, uid) || (srv && (!member || member->is_bot)))
        return; /* a person who cannot read it hears nothing of it */
    f.reading = state_reading_has(state_reading(wp->svc->state), uid, m->where.room);
    json_t *presence = state_presence_json(wp->svc->presence, uid);
    const char *status = json_string_value(json_object_get(presence, "status"));
    f.do_not_disturb = status && !strcmp(status, "dnd");
    json_decref(presence);
    if (!f.is_dm && (store_notify_setting(db, uid, m->where.server, &f.server) != STORE_DONE ||
                     store_notify_setting(db, uid, m->where.channel, &f.channel) != STORE_DONE))
        return;
    if (!rule_notify_decide(&f, clock_now_ms()))
        return;
    struct store_push_names names;
    if (store_push_names(db, from ? from : "", m->where.server[0] ? m->where.server : NULL,
                         m->where.room, &names) != STORE_DONE)
        return;
    const char *kind = f.is_dm                                         ? "dm"
                       : f.mentioned || f.role_mentioned || f.everyone ? "mention"
                                                                       : "message";
    struct devices d = {wp, NULL, f.is_dm || strcmp(kind, "message") ? "high" : "normal", 0};
    char *text = notification(m, msg, kind, &names, &d.len);
    if (!(d.text = text))
        return;
    store_push_subs_of(db, uid, to_device, &d);
    free(text);
}

struct telling {
    struct api_web_push *wp;
    struct store *db;
    const struct wp_message *m;
    json_t *msg;
    const struct state_server *srv;
};

static void tell_each(const char *uid, void *value, void *arg)
{
    struct telling *t = arg;
    tell(t->wp, t->db, t->m, t->msg, t->srv, uid, value);
}

static void free_candidate(const char *uid, void *value, void *arg)
{
    (void)uid, (void)arg;
    free(value);
}

static json_t *or_null(json_t *v)
{
    return v ? v : json_null();
}

/* A reminder due: its person's devices are told, whatever they read or muted (they asked). */
static void remind(struct api_web_push *wp, struct store *db, const struct wp_message *m)
{
    json_t *due = json_loadb(m->payload, m->len, 0, NULL);
    json_t *msg = json_object_get(due, "message");
    const char *note = json_string_value(json_object_get(json_object_get(due, "reminder"), "note"));
    const char *preview = json_string_value(json_object_get(msg, "preview"));
    json_t *n = json_pack("{s:i,s:s,s:O,s:O,s:O,s:O,s:{s:s,s:s},s:n,s:n,s:s,s:i}", "v", 1, "kind",
                          "reminder", "messageId", or_null(json_object_get(msg, "id")), "serverId",
                          or_null(json_object_get(msg, "serverId")), "channelId",
                          or_null(json_object_get(msg, "channelId")), "threadId",
                          or_null(json_object_get(msg, "threadId")), "author", "id", "", "name", "",
                          "serverName", "roomName", "text",
                          note && *note ? note
                          : preview     ? preview
                                        : "",
                          "attachments", 0);
    struct devices d = {wp, NULL, "high", 0};
    char *text = n ? jsonout_dump(n, &d.len) : NULL;
    if ((d.text = text))
        store_push_subs_of(db, m->where.user, to_device, &d);
    free(text);
    json_decref(n);
    json_decref(due);
}

static void look_at(struct api_web_push *wp, struct store *db, struct wp_message *m)
{
    if (m->reminder) {
        remind(wp, db, m);
        idset_unref(m->to);
        free(m);
        return;
    }
    json_t *msg = json_loadb(m->payload, m->len, 0, NULL);
    struct candidates cs = {0};
    map_init(&cs.by_user);
    struct state_server *srv = NULL;
    int found = 0;
    if (msg && !gather(db, m, msg, &cs) && cs.by_user.count &&
        (!m->where.server[0] ||
         (srv = state_server(wp->svc->state, db, m->where.server, &found)))) {
        struct telling t = {wp, db, m, msg, srv};
        map_each(&cs.by_user, tell_each, &t);
    }
    if (srv)
        state_server_unref(srv);
    map_each(&cs.by_user, free_candidate, NULL);
    map_cleanup(&cs.by_user);
    json_decref(msg);
    idset_unref(m->to);
    free(m);
}

static int keys_ready(struct api_web_push *wp, struct store *db)
{
    int64_t now = clock_mono_ms();
    if (wp->keys_at && now - wp->keys_at < KEYS_EVERY_MS)
        return 1;
    if (store_vapid_read(db, &wp->keys) != STORE_DONE)
        return 0;
    wp->keys_at = now;
    return 1;
}

static void drain_run(struct job *job, void *thread_ctx)
{
    struct api_web_push *wp = JOB_OF(job, struct api_web_push, drain);
    struct store *db = thread_ctx;
    for (;;) {
        pthread_mutex_lock(&wp->mu);
        struct wp_message *m = wp->head;
        wp->head = wp->tail = NULL;
        wp->queued = 0;
        wp->draining = m != NULL;
        pthread_mutex_unlock(&wp->mu);
        if (!m)
            break;
        int ready = keys_ready(wp, db);
        for (struct wp_message *next; m; m = next) {
            next = m->next;
            if (ready)
                look_at(wp, db, m);
            else {
                idset_unref(m->to);
                free(m);
            }
        }
        store_read_release(db);
    }
}

static void count_run(struct job *job, void *thread_ctx)
{
    struct api_web_push *wp = JOB_OF(job, struct api_web_push, count);
    unsigned long added = atomic_load(&wp->added);
    int64_t n = store_push_subs_total(thread_ctx);
    store_read_release(thread_ctx);
    /* A device registered while this counted may not be in the count: it stays 1 until the next. */
    if (n >= 0 && atomic_load(&wp->added) == added)
        atomic_store(&wp->devices, (long)n);
    pthread_mutex_lock(&wp->mu);
    wp->counting = 0;
    pthread_mutex_unlock(&wp->mu);
}

void api_web_push_tick(struct api_web_push *wp)
{
    int64_t now = clock_mono_ms();
    api__web_push_retry_due(wp, now);
    pthread_mutex_lock(&wp->mu);
    /* Several nodes: a device registered on another is not told here; every message is looked
     * at (web_push.h). */
    int count = !wp->stopping && !wp->counting && now - wp->counted_at >= COUNT_EVERY_MS &&
                !wp->svc->cfg->redis_url[0];
    if (count) {
        wp->counting = 1;
        wp->counted_at = now;
    }
    pthread_mutex_unlock(&wp->mu);
    if (count)
        workers_submit(wp->svc->notify, &wp->count);
}

struct api_web_push *api_web_push_new(struct api_service *svc)
{
    struct api_web_push *wp = calloc(1, sizeof *wp);
    if (!wp)
        return NULL;
    wp->svc = svc;
    pthread_mutex_init(&wp->mu, NULL);
    map_init(&wp->vapid);
    atomic_init(&wp->devices, svc->cfg->redis_url[0] ? 1 : -1);
    wp->drain = (struct job){.run = drain_run};
    wp->count = (struct job){.run = count_run};
    wp->counted_at = clock_mono_ms() - COUNT_EVERY_MS;
    return wp;
}

void api_web_push_stop(struct api_web_push *wp)
{
    if (!wp)
        return;
    pthread_mutex_lock(&wp->mu);
    wp->stopping = 1;
    pthread_mutex_unlock(&wp->mu);
}

void api_web_push_free(struct api_web_push *wp)
{
    if (!wp)
        return;
    for (struct wp_message *m = wp->head, *next; m; m = next) {
        next = m->next;
        idset_unref(m->to);
        free(m);
    }
    struct wp_send *lists[] = {wp->retries, wp->waiting};
    for (size_t i = 0; i < 2; i++)
        for (struct wp_send *s = lists[i], *next; s; s = next) {
            next = s->next;
            free(s);
        }
    api__web_push_vapid_free(wp);
    map_cleanup(&wp->vapid);
    pthread_mutex_destroy(&wp->mu);
    free(wp);
}

void api_web_push_stats(struct api_web_push *wp, struct api_web_push_stats *out)
{
    *out = (struct api_web_push_stats){
        .queued = atomic_load(&wp->n.queued),
        .dropped = atomic_load(&wp->n.dropped),
        .sent = atomic_load(&wp->n.sent),
        .accepted = atomic_load(&wp->n.accepted),
        .failed = atomic_load(&wp->n.failed),
        .gone = atomic_load(&wp->n.gone),
        .retried = atomic_load(&wp->n.retried),
    };
}
