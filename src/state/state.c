/*
 * The state's tables: see state.h.
 *
 * A load races with commits: a reader may read the database, then a commit changes the server,
 * then the reader stores what it read. So every drop is numbered and remembered in a short
 * ring; a reader notes the number before it reads and stores its copy only when no drop of
 * that server (and no drop of everything) came after.
 */
#include "state/state.h"
#include "state/tickets.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/map.h"
#include "store/snapshot.h"

#define DROPS_KEPT     256
#define IDENTITIES_MAX 200000 /* beyond this the cache starts over: only valid tokens enter */

struct drop {
    uint64_t seq;
    char sid[STORE_CHANGE_MAX]; /* a server, "t:<hash>" a token, "" every identity */
};

struct state {
    pthread_mutex_t lock;
    struct map servers;    /* sid -> struct state_server */
    struct map identities; /* token hash -> struct store_token_owner */
    uint64_t seq;          /* drops so far */
    uint64_t all_at;       /* seq of the last drop of everything */
    struct drop drops[DROPS_KEPT];
    struct tickets *tickets; /* gateway tickets of sessions (owned) */
};

struct state *state_new(void)
{
    struct state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (!(s->tickets = state__tickets_new())) {
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    map_init(&s->servers);
    map_init(&s->identities);
    return s;
}

struct tickets *state_tickets(struct state *s)
{
    return s->tickets;
}

static void unref_server(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    state_server_unref(value);
}

static void free_value(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    free(value);
}

static void clear_identities(struct state *s)
{
    map_each(&s->identities, free_value, NULL);
    map_cleanup(&s->identities);
    map_init(&s->identities);
}

void state_free(struct state *s)
{
    if (!s)
        return;
    map_each(&s->servers, unref_server, NULL);
    map_cleanup(&s->servers);
    clear_identities(s);
    state__tickets_free(s->tickets);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Whether sid ("" for identities) may have changed since drop number seen. Under the lock. */
static int changed_since(const struct state *s, uint64_t seen, const char *sid)
{
    if (s->all_at > seen || s->seq - seen >= DROPS_KEPT)
        return s->seq != seen;
    for (uint64_t n = seen + 1; n <= s->seq; n++)
        if (!strcmp(s->drops[n % DROPS_KEPT].sid, sid))
            return 1;
    return 0;
}

int state_identity_known(struct state *s, const char *token_hash, struct store_token_owner *out)
{
    pthread_mutex_lock(&s->lock);
    struct store_token_owner *known = map_get(&s->identities, token_hash);
    if (known)
        *out = *known;
    pthread_mutex_unlock(&s->lock);
    return known != NULL;
}

void state_identity_used(struct state *s, const char *token_hash, int64_t now)
{
    pthread_mutex_lock(&s->lock);
    struct store_token_owner *known = map_get(&s->identities, token_hash);
    if (known && known->last_used < now)
        known->last_used = now;
    pthread_mutex_unlock(&s->lock);
}

static void preload_one(void *arg, const char *hash, const struct store_token_owner *owner)
{
    struct state *s = arg;
    struct store_token_owner *copy = malloc(sizeof *copy);
    if (!copy)
        return;
    *copy = *owner;
    pthread_mutex_lock(&s->lock);
    if (map_get(&s->identities, hash) || map_set(&s->identities, hash, copy))
        free(copy);
    pthread_mutex_unlock(&s->lock);
}

long state_identities_preload(struct state *s, struct store *db)
{
    long n = store_bot_tokens_each(db, IDENTITIES_MAX / 2, preload_one, s);
    store_read_release(db);
    return n;
}

int state_identity(struct state *s, struct store *db, const char *token_hash,
                   struct store_token_owner *out)
{
    pthread_mutex_lock(&s->lock);
    struct store_token_owner *known = map_get(&s->identities, token_hash);
    if (known)
        *out = *known;
    uint64_t seen = s->seq;
    pthread_mutex_unlock(&s->lock);
    if (known)
        return 1;
    store_read_release(db);
    int found = store_token_find(db, token_hash, out);
    if (found != 1)
        return found;
    struct store_token_owner *copy = malloc(sizeof *copy);
    if (!copy)
        return found;
    *copy = *out;
    pthread_mutex_lock(&s->lock);
    if (s->identities.count >= IDENTITIES_MAX)
        clear_identities(s);
    char mark[STORE_CHANGE_MAX];
    snprintf(mark, sizeof mark, STORE_CHANGE_TOKEN "%s", token_hash);
    if (changed_since(s, seen, "") || changed_since(s, seen, mark) ||
        map_get(&s->identities, token_hash) || map_set(&s->identities, token_hash, copy))
        free(copy);
    pthread_mutex_unlock(&s->lock);
    return found;
}

struct state_server *state_server(struct state *s, struct store *db, const char *sid, int *found)
{
    /* Inside the writer's transaction, after a change to what the state holds: the handler must
     * read its own writes, which the shared copy does not have yet (dropped at the commit). A
     * private copy from the writer's connection, not kept. */
    if (store_tracks_changes(db) && store_wrote(db) && store_changes_pending(db))
        return state__server_load(db, sid, found);
    pthread_mutex_lock(&s->lock);
    struct state_server *known = map_get(&s->servers, sid);
    if (known) {
        state__server_ref(known);
        known->used_at = clock_now_ms();
    }
    uint64_t seen = s->seq;
    pthread_mutex_unlock(&s->lock);
    if (known) {
        *found = 1;
        return known;
    }
    /* A fresh read transaction: it begins after every commit whose drop we have seen. */
    store_read_release(db);
    struct state_server *loaded = state__server_load(db, sid, found);
    if (!loaded)
        return NULL;
    pthread_mutex_lock(&s->lock);
    loaded->used_at = clock_now_ms();
    if (!changed_since(s, seen, sid) && !map_get(&s->servers, sid) &&
        !map_set(&s->servers, sid, loaded))
        state__server_ref(loaded);
    pthread_mutex_unlock(&s->lock);
    return loaded;
}

static void drop(struct state *s, const char *sid)
{
    struct drop *d = &s->drops[++s->seq % DROPS_KEPT];
    d->seq = s->seq;
    if (slice_copy(slice_from(sid), d->sid, sizeof d->sid))
        d->sid[0] = '\0';
}

void state__changed(struct state *s, const char *sid)
{
    pthread_mutex_lock(&s->lock);
    drop(s, sid);
    if (!*sid)
        clear_identities(s);
    else if (!strncmp(sid, STORE_CHANGE_TOKEN, 2))
        free(map_remove(&s->identities, sid + 2));
    else
        state_server_unref(map_remove(&s->servers, sid));
    pthread_mutex_unlock(&s->lock);
}

void state__changed_all(struct state *s)
{
    pthread_mutex_lock(&s->lock);
    drop(s, "");
    s->all_at = s->seq;
    clear_identities(s);
    map_each(&s->servers, unref_server, NULL);
    map_cleanup(&s->servers);
    map_init(&s->servers);
    pthread_mutex_unlock(&s->lock);
}

static int idle_before(void *value, void *arg)
{
    return ((struct state_server *)value)->used_at < *(const int64_t *)arg;
}

static void release_server(void *value)
{
    state_server_unref(value);
}

size_t state_forget_idle(struct state *s, int64_t now, int64_t idle_ms)
{
    int64_t before = now - idle_ms;
    pthread_mutex_lock(&s->lock);
    size_t n = map_remove_if(&s->servers, idle_before, &before, release_server);
    pthread_mutex_unlock(&s->lock);
    return n;
}

void state_on_change(void *state, const char *sid)
{
    if (sid)
        state__changed(state, sid);
    else
        state__changed_all(state);
}

static void add_bytes(const char *key, void *value, void *arg)
{
    (void)key;
    *(int64_t *)arg += ((struct state_server *)value)->bytes;
}

void state__stats(struct state *s, struct state_stats *out)
{
    pthread_mutex_lock(&s->lock);
    out->servers = s->servers.count;
    out->identities = s->identities.count;
    out->bytes = 0;
    map_each(&s->servers, add_bytes, &out->bytes);
    pthread_mutex_unlock(&s->lock);
}
