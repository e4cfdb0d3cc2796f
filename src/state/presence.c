/* Presence: see presence.h. */
#include "state/presence.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/map.h"

struct entry {
    int connections;
    char status[12];
    json_t *activity;
};

struct presence {
    pthread_mutex_t lock;
    struct map users;
};

struct presence *presence_new(void)
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

void presence_free(struct presence *p)
{
    if (!p)
        return;
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

void presence_connected(struct presence *p, const char *user_id)
{
    pthread_mutex_lock(&p->lock);
    struct entry *e = get(p, user_id, 1);
    if (e)
        e->connections++;
    pthread_mutex_unlock(&p->lock);
}

void presence_disconnected(struct presence *p, const char *user_id)
{
    pthread_mutex_lock(&p->lock);
    struct entry *e = get(p, user_id, 0);
    if (e && e->connections > 0)
        e->connections--;
    pthread_mutex_unlock(&p->lock);
}

void presence_set(struct presence *p, const char *user_id, const char *status, json_t *activity)
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
}

static const char *shown(const struct entry *e)
{
    if (!e || e->connections == 0 || !strcmp(e->status, "invisible"))
        return "offline";
    return e->status;
}

const char *presence_status(struct presence *p, const char *user_id)
{
    static const char *const shown_as[] = {"online", "idle", "dnd"};
    const char *out = "offline"; /* always a static string: safe after the unlock */
    pthread_mutex_lock(&p->lock);
    const char *s = shown(get(p, user_id, 0));
    for (size_t i = 0; i < sizeof shown_as / sizeof shown_as[0]; i++)
        if (!strcmp(s, shown_as[i]))
            out = shown_as[i];
    pthread_mutex_unlock(&p->lock);
    return out;
}

json_t *presence_json(struct presence *p, const char *user_id)
{
    pthread_mutex_lock(&p->lock);
    struct entry *e = get(p, user_id, 0);
    json_t *o = json_pack("{sssosb}", "status", e ? e->status : "online", "activity",
                          e && e->activity ? json_deep_copy(e->activity) : json_null(), "connected",
                          e && e->connections > 0);
    pthread_mutex_unlock(&p->lock);
    return o;
}
