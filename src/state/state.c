/*
 * The state's tables: see state.h.
 *
 * A load races with commits: a reader may read the database, then a commit changes the server,
 * then the reader stores what it read. So every change is numbered and remembered in a short
 * ring; a reader notes the number before it reads and stores its copy only when no change of
 * that server (and no drop of everything) came after. A server already held keeps its changes
 * as a list of what to read again, each with its number, and a refresh clears only those it
 * has read.
 */
#include "state/state.h"
#include "state/reading.h"
#include "state/tickets.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/idset.h"
#include "core/map.h"
#include "core/vec.h"
#include "domain/intents.h"
#include "store/people.h"
#include "store/snapshot.h"
#include "store/writer.h"

#define DROPS_KEPT     256
#define PENDING_MAX    1024   /* changes waiting per server; past it, the server is read whole */
#define IDENTITIES_MAX 200000 /* beyond this the cache starts over: only valid tokens enter */

struct drop {
    uint64_t seq;
    char sid[STORE_CHANGE_MAX]; /* a server, "t:<hash>" a token, "" every identity */
};

/* A member or an application's install changed, not yet read into the server's version. */
struct pending {
    char who[UUID_LEN + 1];
    int install;
    uint64_t seq; /* the drop that named it */
};

/* A server held: its newest version and what changed since. */
struct entry {
    struct state_server *srv; /* one reference */
    struct pending *pending;
    size_t npending, cap;
    uint64_t shape_seq; /* the last drop that changed its shape and is not read yet; 0 none */
};

struct state {
    pthread_mutex_t lock;
    pthread_mutex_t refresh;         /* one refresh at a time (below) */
    struct map servers;              /* sid -> struct entry */
    struct map identities;           /* token hash -> struct store_token_owner */
    uint64_t seq;                    /* drops so far */
    _Atomic uint64_t identity_drops; /* identities dropped so far (state_identity_epoch) */
    uint64_t all_at;                 /* seq of the last drop of everything */
    struct drop drops[DROPS_KEPT];
    struct tickets *tickets; /* gateway tickets of sessions (owned) */
    struct reading *reading; /* the rooms pages show now (owned) */
    struct store_writer *sessions_writer;
    int sessions_idle_days;
};

struct state *state_new(void)
{
    struct state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (!(s->tickets = state__tickets_new()) || !(s->reading = state__reading_new())) {
        state__tickets_free(s->tickets);
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->refresh, NULL);
    map_init(&s->servers);
    map_init(&s->identities);
    return s;
}

struct reading *state_reading(struct state *s)
{
    return s->reading;
}

struct tickets *state_tickets(struct state *s)
{
    return s->tickets;
}

struct entry;
static void entry_free(struct entry *e);

static void free_entry(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    entry_free(value);
}

static void free_value(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    free(value);
}

static void clear_identities(struct state *s)
{
    atomic_fetch_add(&s->identity_drops, 1);
    map_each(&s->identities, free_value, NULL);
    map_cleanup(&s->identities);
    map_init(&s->identities);
}

void state_free(struct state *s)
{
    if (!s)
        return;
    map_each(&s->servers, free_entry, NULL);
    map_cleanup(&s->servers);
    clear_identities(s);
    state__tickets_free(s->tickets);
    state__reading_free(s->reading);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->refresh);
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

#define DAY_MS (24 * 60 * 60 * 1000LL)
/* A session's use is written at most this often: it is a write, and expiry counts in days. */
#define SESSION_TOUCH_MS (60 * 60 * 1000LL)

void state_sessions_expire(struct state *s, struct store_writer *w, int idle_days)
{
    s->sessions_writer = w;
    s->sessions_idle_days = idle_days;
}

uint64_t state_identity_epoch(struct state *s)
{
    return atomic_load(&s->identity_drops);
}

int state_session_fresh(const struct state *s, int64_t last_used)
{
    int64_t idle = clock_now_ms() - last_used;
    return idle <= SESSION_TOUCH_MS && idle <= s->sessions_idle_days * DAY_MS;
}

int state_session_expired(struct state *s, const char *token_hash, int64_t last_used)
{
    int64_t now = clock_now_ms();
    if (now - last_used > s->sessions_idle_days * DAY_MS) {
        store_token_delete(s->sessions_writer, token_hash);
        return 1;
    }
    if (now - last_used > SESSION_TOUCH_MS &&
        store_session_touch(s->sessions_writer, token_hash, now) == STORE_DONE)
        state_identity_used(s, token_hash, now);
    return 0;
}

int state_identity_current(struct state *s, struct store *db, const char *token_hash,
                           struct store_token_owner *out)
{
    int found = state_identity(s, db, token_hash, out);
    store_read_release(db);
    if (found == 1 && !out->is_bot && state_session_expired(s, token_hash, out->last_used))
        return 0;
    return found;
}

/* ---- servers ---- */

static int has_pending(const struct entry *e)
{
    return e->npending || e->shape_seq;
}

static void entry_free(struct entry *e)
{
    if (!e)
        return;
    state_server_unref(e->srv);
    free(e->pending);
    free(e);
}

/* Notes that member or install `who` of e's server changed (at drop seq). -1 when the list is
 * full or out of memory: the caller forgets the server instead. */
static int pend(struct entry *e, const char *who, int install, uint64_t seq)
{
    for (size_t i = 0; i < e->npending; i++)
        if (e->pending[i].install == install && !strcmp(e->pending[i].who, who)) {
            e->pending[i].seq = seq;
            return 0;
        }
    if (e->npending == PENDING_MAX)
        return -1;
    if (VEC_RESERVE(e->pending, e->npending, e->cap, 8))
        return -1;
    struct pending *p = &e->pending[e->npending++];
    memcpy(p->who, who, UUID_LEN + 1);
    p->install = install;
    p->seq = seq;
    return 0;
}

/* What a new version must read again: built from pending changes and the writer's marks. */
struct delta_lists {
    int shape;
    char (*members)[UUID_LEN + 1], (*apps)[UUID_LEN + 1];
    size_t nmembers, napps, cap_members, cap_apps;
    int failed;
};

static void delta_add(struct delta_lists *d, const char *who, int install)
{
    char(**ids)[UUID_LEN + 1] = install ? &d->apps : &d->members;
    size_t *n = install ? &d->napps : &d->nmembers, *cap = install ? &d->cap_apps : &d->cap_members;
    if (vec_reserve((void **)ids, cap, *n, sizeof **ids, 8)) {
        d->failed = 1;
        return;
    }
    memcpy((*ids)[(*n)++], who, UUID_LEN + 1);
}

static void delta_of_entry(struct delta_lists *d, const struct entry *e)
{
    d->shape |= e->shape_seq != 0;
    for (size_t i = 0; i < e->npending; i++)
        delta_add(d, e->pending[i].who, e->pending[i].install);
}

static struct state_server *delta_apply(struct state_server *base, struct store *db,
                                        struct delta_lists *l, int private, int *found)
{
    struct state_delta d = {l->shape, (const char(*)[UUID_LEN + 1]) l->members, l->nmembers,
                            (const char(*)[UUID_LEN + 1]) l->apps, l->napps};
    struct state_server *next =
        l->failed ? (*found = STORE_ERR, NULL) : state__server_apply(base, db, &d, private, found);
    free(l->members);
    free(l->apps);
    return next;
}

struct tx_marks {
    const char *sid;
    struct delta_lists *d;
};

static void on_tx_mark(void *arg, const char *mark)
{
    struct tx_marks *t = arg;
    char sid[UUID_LEN + 1], who[UUID_LEN + 1];
    if (store_change_parse(mark, sid, who) || strcmp(sid, t->sid))
        return;
    if (!strcmp(who, "*"))
        t->d->failed = 1; /* too much for a delta: read whole (below) */
    else if (!who[0])
        t->d->shape = 1;
    else
        delta_add(t->d, who, !strncmp(mark, STORE_CHANGE_INSTALL, 2));
}

/* Inside the writer's transaction, after a change to what the state holds: the handler must
 * read its own writes, which the shared version does not have yet (it follows at the commit).
 * A private version: the shared one with what this transaction (and any change still pending)
 * touched read again from the writer's connection; kept by no one else. */
static struct state_server *private_version(struct state *s, struct store *db, const char *sid,
                                            int *found)
{
    pthread_mutex_lock(&s->lock);
    struct entry *e = map_get(&s->servers, sid);
    struct state_server *base = e ? state__server_ref(e->srv) : NULL;
    struct delta_lists d = {0};
    if (e)
        delta_of_entry(&d, e);
    pthread_mutex_unlock(&s->lock);
    if (!base)
        return state__server_load(db, sid, found);
    struct tx_marks t = {sid, &d};
    if (store_changes_peek(db, on_tx_mark, &t) != STORE_DONE)
        d.failed = 1;
    if (d.failed) { /* too many changes in this transaction: a private copy read whole */
        free(d.members);
        free(d.apps);
        state_server_unref(base);
        return state__server_load(db, sid, found);
    }
    struct state_server *next = delta_apply(base, db, &d, 1, found);
    state_server_unref(base);
    return next;
}

static struct state_server *load(struct state *s, struct store *db, const char *sid, int *found);

/* A known server with changes pending: one thread at a time reads them and files the new
 * version, so a version never goes back to older rows than the one it replaces. */
static struct state_server *refresh(struct state *s, struct store *db, const char *sid, int *found)
{
    pthread_mutex_lock(&s->refresh);
    pthread_mutex_lock(&s->lock);
    struct entry *e = map_get(&s->servers, sid);
    if (!e || !has_pending(e)) {
        struct state_server *known = e ? state__server_ref(e->srv) : NULL;
        pthread_mutex_unlock(&s->lock);
        pthread_mutex_unlock(&s->refresh);
        *found = 1;
        return known ? known : load(s, db, sid, found);
    }
    struct delta_lists d = {0};
    delta_of_entry(&d, e);
    uint64_t seen = s->seq;
    struct state_server *base = state__server_ref(e->srv);
    pthread_mutex_unlock(&s->lock);
    /* A fresh read transaction: it begins after every commit whose mark we have seen. */
    store_read_release(db);
    struct state_server *next = delta_apply(base, db, &d, 0, found);
    pthread_mutex_lock(&s->lock);
    e = map_get(&s->servers, sid);
    if (e && e->srv == base && (next || *found == 0)) {
        if (!next) {
            entry_free(map_remove(&s->servers, sid));
        } else {
            state_server_unref(e->srv);
            e->srv = state__server_ref(next);
            next->used_at = clock_now_ms();
            size_t kept = 0;
            for (size_t i = 0; i < e->npending; i++)
                if (e->pending[i].seq > seen)
                    e->pending[kept++] = e->pending[i];
            e->npending = kept;
            if (e->shape_seq <= seen)
                e->shape_seq = 0;
        }
    }
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_unlock(&s->refresh);
    state_server_unref(base);
    return next;
}

/* A server not in memory: read whole, and kept unless it changed while it was read. */
static struct state_server *load(struct state *s, struct store *db, const char *sid, int *found)
{
    pthread_mutex_lock(&s->lock);
    uint64_t seen = s->seq;
    pthread_mutex_unlock(&s->lock);
    /* A fresh read transaction: it begins after every commit whose drop we have seen. */
    store_read_release(db);
    struct state_server *loaded = state__server_load(db, sid, found);
    if (!loaded)
        return NULL;
    /* Member events go to everyone in the server: that set is worked out here, with the load's
     * own pass over the members, rather than on the writer at the server's first member event
     * (15-20 ms there at 100,000 members). The versions changes make carry it over. */
    idset_unref(state_server_audience_with_people(loaded, -1, INTENT_MEMBERS_READ, clock_now_ms()));
    struct entry *e = calloc(1, sizeof *e);
    pthread_mutex_lock(&s->lock);
    loaded->used_at = clock_now_ms();
    if (e && !changed_since(s, seen, sid) && !map_get(&s->servers, sid) &&
        !map_set(&s->servers, sid, e)) {
        e->srv = state__server_ref(loaded);
        e = NULL;
    }
    pthread_mutex_unlock(&s->lock);
    free(e);
    return loaded;
}

struct state_server *state_server(struct state *s, struct store *db, const char *sid, int *found)
{
    if (store_tracks_changes(db) && store_wrote(db) && store_changes_pending(db))
        return private_version(s, db, sid, found);
    pthread_mutex_lock(&s->lock);
    struct entry *e = map_get(&s->servers, sid);
    int pending = e && has_pending(e);
    struct state_server *known = e && !pending ? state__server_ref(e->srv) : NULL;
    if (known)
        known->used_at = clock_now_ms();
    pthread_mutex_unlock(&s->lock);
    if (known) {
        *found = 1;
        return known;
    }
    return pending ? refresh(s, db, sid, found) : load(s, db, sid, found);
}

static void drop(struct state *s, const char *sid)
{
    struct drop *d = &s->drops[++s->seq % DROPS_KEPT];
    d->seq = s->seq;
    if (slice_copy(slice_from(sid), d->sid, sizeof d->sid))
        d->sid[0] = '\0';
}

int state_server_changed(struct state *s, const char *sid, uint64_t *seen)
{
    pthread_mutex_lock(&s->lock);
    int changed = !*seen || changed_since(s, *seen, sid);
    *seen = s->seq;
    pthread_mutex_unlock(&s->lock);
    return changed;
}

void state__changed(struct state *s, const char *mark)
{
    char sid[UUID_LEN + 1], who[UUID_LEN + 1];
    pthread_mutex_lock(&s->lock);
    if (!*mark) {
        drop(s, "");
        clear_identities(s);
    } else if (!strncmp(mark, STORE_CHANGE_TOKEN, 2)) {
        drop(s, mark);
        atomic_fetch_add(&s->identity_drops, 1);
        free(map_remove(&s->identities, mark + 2));
    } else if (!store_change_parse(mark, sid, who)) {
        drop(s, sid);
        struct entry *e = map_get(&s->servers, sid);
        if (e && !strcmp(who, "*"))
            entry_free(map_remove(&s->servers, sid));
        else if (e && !who[0])
            e->shape_seq = s->seq;
        else if (e && pend(e, who, !strncmp(mark, STORE_CHANGE_INSTALL, 2), s->seq))
            entry_free(map_remove(&s->servers, sid)); /* too much at once: read it again whole */
    }
    pthread_mutex_unlock(&s->lock);
}

void state__forget(struct state *s, const char *sid)
{
    pthread_mutex_lock(&s->lock);
    drop(s, sid);
    entry_free(map_remove(&s->servers, sid));
    pthread_mutex_unlock(&s->lock);
}

void state__changed_all(struct state *s)
{
    pthread_mutex_lock(&s->lock);
    drop(s, "");
    s->all_at = s->seq;
    clear_identities(s);
    map_each(&s->servers, free_entry, NULL);
    map_cleanup(&s->servers);
    map_init(&s->servers);
    pthread_mutex_unlock(&s->lock);
}

static int idle_before(void *value, void *arg)
{
    return ((struct entry *)value)->srv->used_at < *(const int64_t *)arg;
}

static void release_entry(void *value)
{
    entry_free(value);
}

size_t state_forget_idle(struct state *s, int64_t now, int64_t idle_ms)
{
    int64_t before = now - idle_ms;
    pthread_mutex_lock(&s->lock);
    size_t n = map_remove_if(&s->servers, idle_before, &before, release_entry);
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
    *(int64_t *)arg += ((struct entry *)value)->srv->bytes;
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
