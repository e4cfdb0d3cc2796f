/* Presence: see presence.h. */
#include "state/presence.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/map.h"
#include "state/presence_shared.h"

struct entry {
    int connections;
    char status[12];
    json_t *activity;
};

struct presence {
    pthread_mutex_t lock;
    struct map users;
    struct presence_shared *shared; /* several nodes: the others' connections and the statuses */
};

struct presence *state_presence_new(void)
{
    struct presence *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    map_init(&p->users);
    return p;
}

static void free_entry(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    struct entry *e = value;
    json_decref(e->activity);
    free(e);
}

void state_presence_free(struct presence *p)
{
    if (!p)
        return;
    state__presence_shared_free(p->shared); /* its thread lists the users under the lock */
    map_each(&p->users, free_entry, NULL);
    map_cleanup(&p->users);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static struct entry *get(struct presence *p, const char *user_id, int create)
{
    struct entry *e = map_get(&p->users, user_id);
    if (!e && create) {
        e = calloc(1, sizeof *e);
        if (e && map_set(&p->users, user_id, e)) {
            free(e);
            e = NULL;
        }
        if (e)
            memcpy(e->status, "online", 7);
    }
    return e;
}

int state_presence_connected(struct presence *p, const char *user_id)
{
    pthread_mutex_lock(&p->lock);
    struct entry *e = get(p, user_id, 1);
    int first = e && !e->connections++;
    if (first && p->shared)
        state__presence_shared_changed(p->shared, user_id, 1);
    pthread_mutex_unlock(&p->lock);
    return first;
}

int state_presence_disconnected(struct presence *p, const char *user_id)
{
    pthread_mutex_lock(&p->lock);
    struct entry *e = get(p, user_id, 0);
    int last = e && e->connections > 0 && !--e->connections;
    if (last && p->shared)
        state__presence_shared_changed(p->shared, user_id, 0);
    pthread_mutex_unlock(&p->lock);
    return last;
}

void state_presence_set(struct presence *p, const char *user_id, const char *status,
                        json_t *activity)
{
    pthread_mutex_lock(&p->lock);
    struct entry *e = get(p, user_id, 1);
    if (e) {
        size_t n = strlen(status);
        if (n < sizeof e->status)
            memcpy(e->status, status, n + 1);
        json_decref(e->activity);
        e->activity = activity ? json_deep_copy(activity) : NULL;
    }
    pthread_mutex_unlock(&p->lock);
    if (p->shared) {
        json_t *o = json_pack("{ssso}", "status", status, "activity",
                              activity ? json_deep_copy(activity) : json_null());
        char *saved = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
        json_decref(o);
        if (!saved || state__presence_shared_save(p->shared, user_id, saved))
            log_error("presence: a status was kept by this node only");
        free(saved);
    }
}

/* What is shown of one user. */
struct view {
    char status[12];  /* saved: online, idle, dnd or invisible */
    json_t *activity; /* saved (owned), or NULL */
    int connected;
};

/* The views of n users: this node's connections and saved statuses, and with several nodes the
 * others' connections and the statuses saved through any node. */
/* A custom status past its expiresAt is no longer shown (nothing needs to clear it). */
static int expired(json_t *activity)
{
    const char *at = json_string_value(json_object_get(activity, "expiresAt"));
    int64_t ms;
    return at && !clock_parse(at, strlen(at), &ms) && ms <= clock_now_ms();
}

static void views(struct presence *p, const char *const *user_ids, size_t n, struct view *out)
{
    pthread_mutex_lock(&p->lock);
    for (size_t i = 0; i < n; i++) {
        const struct entry *e = get(p, user_ids[i], 0);
        snprintf(out[i].status, sizeof out[i].status, "%s", e ? e->status : "online");
        out[i].activity = e && e->activity ? json_deep_copy(e->activity) : NULL;
        out[i].connected = e && e->connections > 0;
    }
    pthread_mutex_unlock(&p->lock);
    int *elsewhere = p->shared ? calloc(n ? n : 1, sizeof *elsewhere) : NULL;
    char(*saved)[PRESENCE_STATUS_MAX] = elsewhere ? calloc(n ? n : 1, sizeof *saved) : NULL;
    if (saved && !state__presence_shared_read(p->shared, user_ids, n, elsewhere, saved))
        for (size_t i = 0; i < n; i++) {
            out[i].connected |= elsewhere[i];
            json_t *o = saved[i][0] ? json_loads(saved[i], 0, NULL) : NULL;
            const char *st = json_string_value(json_object_get(o, "status"));
            if (st && strlen(st) < sizeof out[i].status) {
                memcpy(out[i].status, st, strlen(st) + 1);
                json_t *a = json_object_get(o, "activity");
                json_decref(out[i].activity);
                out[i].activity = json_is_object(a) ? json_incref(a) : NULL;
            }
            json_decref(o);
        }
    free(elsewhere);
    free(saved);
    for (size_t i = 0; i < n; i++)
        if (out[i].activity && expired(out[i].activity)) {
            json_decref(out[i].activity);
            out[i].activity = NULL;
        }
}

static const char shown_offline[] = "offline";

/* online, idle, dnd or offline: always a static string. */
static const char *shown(const struct view *v)
{
    static const char *const shown_as[] = {"online", "idle", "dnd"};
    if (v->connected)
        for (size_t i = 0; i < sizeof shown_as / sizeof shown_as[0]; i++)
            if (!strcmp(v->status, shown_as[i]))
                return shown_as[i];
    return shown_offline;
}

int state_presence_shown_many(struct presence *p, const char *const *user_ids, size_t n,
                              const char **status, json_t **activity)
{
    struct view *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return -1;
    views(p, user_ids, n, v);
    for (size_t i = 0; i < n; i++) {
        status[i] = shown(&v[i]);
        if (activity && status[i] != shown_offline) {
            activity[i] = v[i].activity;
        } else {
            if (activity)
                activity[i] = NULL;
            json_decref(v[i].activity);
        }
    }
    free(v);
    return 0;
}

int state_presence_statuses(struct presence *p, const char *const *user_ids, size_t n,
                            const char **out)
{
    return state_presence_shown_many(p, user_ids, n, out, NULL);
}

int state_presence_online_anywhere(struct presence *p, const char *user_id)
{
    struct view v;
    views(p, &user_id, 1, &v);
    json_decref(v.activity);
    return v.connected;
}

json_t *state_presence_shown_json(struct presence *p, const char *user_id)
{
    struct view v;
    views(p, &user_id, 1, &v);
    const char *status = shown(&v);
    json_t *activity = strcmp(status, "offline") && v.activity ? v.activity : json_null();
    if (activity == json_null())
        json_decref(v.activity);
    return json_pack("{ssso}", "status", status, "activity", activity);
}

json_t *state_presence_json(struct presence *p, const char *user_id)
{
    struct view v;
    views(p, &user_id, 1, &v);
    return json_pack("{sssosb}", "status", v.status, "activity",
                     v.activity ? v.activity : json_null(), "connected", v.connected);
}

struct online_walk {
    void (*fn)(void *arg, const char *user_id);
    void *arg;
};

static void online_one(const char *user_id, void *value, void *arg)
{
    const struct online_walk *w = arg;
    if (((const struct entry *)value)->connections > 0)
        w->fn(w->arg, user_id);
}

static void each_online(void *user, void (*fn)(void *arg, const char *user_id), void *arg)
{
    struct presence *p = user;
    struct online_walk w = {fn, arg};
    pthread_mutex_lock(&p->lock);
    map_each(&p->users, online_one, &w);
    pthread_mutex_unlock(&p->lock);
}

int state_presence_share(struct presence *p, const char *redis_url, const char *log_name)
{
    p->shared = state__presence_shared_new(redis_url, log_name, each_online, p);
    return p->shared ? 0 : -1;
}

void state_presence_reading(struct presence *p, const char *user_id, const char *rooms)
{
    if (p->shared)
        state__presence_shared_reading(p->shared, user_id, rooms);
}

int state_presence_reading_elsewhere(struct presence *p, const char *user_id, const char *room)
{
    return p->shared && state__presence_shared_reading_elsewhere(p->shared, user_id, room) == 1;
}
