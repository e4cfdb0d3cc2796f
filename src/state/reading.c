/* Who reads which room now: see reading.h. */
#include "state/reading.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/map.h"
#include "core/uuid.h"
#include "state/presence.h"

/* A person's pages that show a room (a person has a few at most). */
struct pages {
    size_t n;
    struct page {
        const void *conn;
        char room[UUID_LEN + 1];
    } v[];
};

struct reading {
    pthread_mutex_t lock;
    struct map users;          /* user ID -> struct pages */
    struct presence *presence; /* several nodes: where the other nodes learn of them */
};

void state_reading_share(struct reading *r, struct presence *p)
{
    r->presence = p;
}

/* The rooms of p, comma-separated, into out (room for PAGES_TOLD of them). */
#define PAGES_TOLD 16
static void rooms_of(const struct pages *p, char out[PAGES_TOLD * (UUID_LEN + 1) + 1])
{
    size_t len = 0;
    for (size_t i = 0; p && i < p->n && i < PAGES_TOLD; i++) {
        if (len)
            out[len++] = ',';
        memcpy(out + len, p->v[i].room, UUID_LEN);
        len += UUID_LEN;
    }
    out[len] = '\0';
}

struct reading *state__reading_new(void)
{
    struct reading *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    pthread_mutex_init(&r->lock, NULL);
    map_init(&r->users);
    return r;
}

static void free_pages(const char *key, void *value, void *arg)
{
    (void)key, (void)arg;
    free(value);
}

void state__reading_free(struct reading *r)
{
    if (!r)
        return;
    map_each(&r->users, free_pages, NULL);
    map_cleanup(&r->users);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

/* p with conn's entry gone (or NULL when none is left); under the lock. */
static struct pages *without(struct pages *p, const void *conn)
{
    for (size_t i = 0; p && i < p->n; i++)
        if (p->v[i].conn == conn) {
            p->v[i] = p->v[--p->n];
            break;
        }
    if (p && !p->n) {
        free(p);
        return NULL;
    }
    return p;
}

void state_reading_set(struct reading *r, const char *user, const void *conn, const char *room)
{
    int showing = room && strlen(room) == UUID_LEN;
    pthread_mutex_lock(&r->lock);
    struct pages *p = without(map_remove(&r->users, user), conn);
    if (showing) {
        size_t n = p ? p->n : 0;
        struct pages *grown = realloc(p, sizeof *p + (n + 1) * sizeof p->v[0]);
        if (grown) {
            p = grown;
            p->n = n + 1;
            p->v[n].conn = conn;
            memcpy(p->v[n].room, room, UUID_LEN + 1);
        }
    }
    if (p && map_set(&r->users, user, p)) {
        free(p); /* out of memory: the person looks away, and gets a push more */
        p = NULL;
    }
    char rooms[PAGES_TOLD * (UUID_LEN + 1) + 1];
    if (r->presence)
        rooms_of(p, rooms);
    pthread_mutex_unlock(&r->lock);
    if (r->presence)
        state_presence_reading(r->presence, user, rooms);
}

int state_reading_has(struct reading *r, const char *user, const char *room)
{
    int found = 0;
    pthread_mutex_lock(&r->lock);
    const struct pages *p = map_get(&r->users, user);
    for (size_t i = 0; p && i < p->n && !found; i++)
        found = !strcmp(p->v[i].room, room);
    pthread_mutex_unlock(&r->lock);
    return found || (r->presence && state_presence_reading_elsewhere(r->presence, user, room));
}
