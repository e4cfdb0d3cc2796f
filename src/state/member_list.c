/* A channel's member list by ranges: see member_list.h. */
#include "state/member_list.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/map.h"
#include "core/vec.h"
#include "domain/permissions.h"

#define CHUNK 128 /* members per chunk: a change moves at most this many pointers */

enum status { ONLINE, IDLE, DND, OFFLINE };
static const char *const STATUS_NAMES[] = {"online", "idle", "dnd", "offline"};

struct entry {
    const struct state_member *m; /* one reference */
    uint64_t key[2];              /* the name's first 16 bytes, lower case, big-endian */
    uint32_t group;
    enum status status;
};

/* Names mostly differ in their first 16 bytes: compared as two integers, with strcasecmp only
 * on a tie, they sort as strcasecmp sorts them (bytes after a NUL count as 0, as the end). */
static void name_key(const char *name, uint64_t key[2])
{
    unsigned char b[16] = {0};
    for (size_t i = 0; i < 16 && name[i]; i++)
        b[i] = (unsigned char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
    for (int w = 0; w < 2; w++) {
        key[w] = 0;
        for (int i = 0; i < 8; i++)
            key[w] = key[w] << 8 | b[w * 8 + i];
    }
}

struct chunk {
    uint32_t n;
    struct entry *e[CHUNK];
};

struct group {
    struct chunk **chunks;
    size_t nchunks, cap, count;
};

struct state_member_list {
    struct state_server *srv; /* one reference */
    int64_t channel;          /* -1: the whole server */
    uint32_t nhoisted;        /* groups 0..nhoisted-1: hoisted roles, then online, offline */
    uint32_t ngroups;
    struct group *groups;
    struct map users;      /* user ID → struct entry */
    struct map activities; /* user ID → json_t: a listed member's custom status, while set */
    size_t online;
    int open_to_all; /* everyone may see the channel (open_to_all) */
};

static enum status status_of(const char *name)
{
    for (enum status s = ONLINE; s < OFFLINE; s++)
        if (name && !strcmp(name, STATUS_NAMES[s]))
            return s;
    return OFFLINE;
}

static uint32_t online_group(const struct state_member_list *l)
{
    return l->nhoisted;
}

/* The member's group: offline, else its highest hoisted role's, else online. */
static uint32_t group_of(const struct state_member_list *l, const struct state_member *m,
                         enum status status)
{
    if (status == OFFLINE)
        return l->nhoisted + 1;
    const struct state_shape *sh = l->srv->shape;
    uint32_t best = online_group(l);
    for (size_t i = 0; i < m->nroles; i++) {
        uint32_t g = 0;
        for (size_t r = 0; r < sh->nroles && g < best; r++) {
            if (!sh->roles[r].hoist)
                continue;
            if (!strcmp(sh->roles[r].id, m->role_ids[i]))
                best = g;
            g++;
        }
    }
    return best;
}

/* Whether everyone in the server may see the list's channel, whatever their roles: @everyone
 * may see (or administer) and no overwrite on the channel says otherwise. Then nobody's rights
 * need working out, which at 100,000 members is most of a list's building. */
static int open_to_all(const struct state_member_list *l)
{
    const struct state_shape *sh = l->srv->shape;
    return l->channel < 0 || ((sh->everyone & (PERM_VER_CANAL | PERM_ADMINISTRADOR)) &&
                              !sh->channels[l->channel].noverwrites);
}

static int listed(const struct state_member_list *l, const struct state_member *m)
{
    return l->open_to_all ||
           (state_server_channel_perms(l->srv, m, (size_t)l->channel, 0) & PERM_VER_CANAL);
}

static int compare(const struct entry *a, const struct entry *b)
{
    for (int w = 0; w < 2; w++)
        if (a->key[w] != b->key[w])
            return a->key[w] < b->key[w] ? -1 : 1;
    int c = strcasecmp(a->m->name, b->m->name);
    return c ? c : strcmp(a->m->user_id, b->m->user_id);
}

/* ---- one group: sorted chunks ---- */

/* The chunk where e belongs: the first whose last member sorts at or after it, else the last. */
static size_t chunk_for(const struct group *g, const struct entry *e)
{
    size_t lo = 0, hi = g->nchunks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const struct chunk *c = g->chunks[mid];
        if (compare(c->e[c->n - 1], e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->nchunks ? lo : g->nchunks - 1;
}

static uint32_t place_in(const struct chunk *c, const struct entry *e)
{
    uint32_t lo = 0, hi = c->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (compare(c->e[mid], e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int chunk_insert_at(struct group *g, size_t at, struct chunk *c)
{
    if (VEC_RESERVE(g->chunks, g->nchunks, g->cap, 8))
        return -1;
    memmove(&g->chunks[at + 1], &g->chunks[at], (g->nchunks - at) * sizeof g->chunks[0]);
    g->chunks[at] = c;
    g->nchunks++;
    return 0;
}

static int group_insert(struct group *g, struct entry *e)
{
    if (!g->nchunks) { /* chunks are never empty: the first comes with its first member */
        struct chunk *c = calloc(1, sizeof *c);
        if (!c || chunk_insert_at(g, 0, c)) {
            free(c);
            return -1;
        }
        c->e[c->n++] = e;
        g->count++;
        return 0;
    }
    size_t ci = chunk_for(g, e);
    struct chunk *c = g->chunks[ci];
    if (c->n == CHUNK) { /* split in two halves */
        struct chunk *right = calloc(1, sizeof *right);
        if (!right || chunk_insert_at(g, ci + 1, right)) {
            free(right);
            return -1;
        }
        right->n = CHUNK / 2;
        memcpy(right->e, &c->e[CHUNK / 2], (CHUNK / 2) * sizeof c->e[0]);
        c->n = CHUNK / 2;
        if (compare(c->e[c->n - 1], e) < 0)
            c = right;
    }
    uint32_t at = place_in(c, e);
    memmove(&c->e[at + 1], &c->e[at], (c->n - at) * sizeof c->e[0]);
    c->e[at] = e;
    c->n++;
    g->count++;
    return 0;
}

static void group_remove(struct group *g, const struct entry *e)
{
    if (!g->nchunks)
        return;
    size_t ci = chunk_for(g, e);
    struct chunk *c = g->chunks[ci];
    uint32_t at = place_in(c, e);
    if (at == c->n || c->e[at] != e)
        return;
    memmove(&c->e[at], &c->e[at + 1], (c->n - at - 1) * sizeof c->e[0]);
    c->n--;
    g->count--;
    if (!c->n) {
        free(c);
        memmove(&g->chunks[ci], &g->chunks[ci + 1], (g->nchunks - ci - 1) * sizeof g->chunks[0]);
        g->nchunks--;
    }
}

/* ---- the list ---- */

static void entry_free(struct entry *e)
{
    if (e) {
        pmap_value_unref((struct pmap_value *)&e->m->v);
        free(e);
    }
}

/* Files m with that status; 0, or -1 when out of memory. */
static int add(struct state_member_list *l, const struct state_member *m, enum status status)
{
    struct entry *e = malloc(sizeof *e);
    if (!e)
        return -1;
    e->m = (const struct state_member *)pmap_value_ref((struct pmap_value *)&m->v);
    name_key(m->name, e->key);
    e->status = status;
    e->group = group_of(l, m, status);
    if (map_set(&l->users, m->user_id, e)) {
        entry_free(e);
        return -1;
    }
    if (group_insert(&l->groups[e->group], e)) {
        map_remove(&l->users, m->user_id);
        entry_free(e);
        return -1;
    }
    l->online += status != OFFLINE;
    return 0;
}

static void drop(struct state_member_list *l, struct entry *e)
{
    group_remove(&l->groups[e->group], e);
    map_remove(&l->users, e->m->user_id);
    l->online -= e->status != OFFLINE;
    entry_free(e);
}

struct build {
    struct state_member_list *l;
    state_member_list_status_fn status;
    void *arg;
    int failed;
};

static void build_one(struct pmap_value *v, void *arg)
{
    struct build *b = arg;
    const struct state_member *m = (const struct state_member *)v;
    if (!b->failed && listed(b->l, m) && add(b->l, m, status_of(b->status(b->arg, m->user_id))))
        b->failed = 1;
}

struct state_member_list *state_member_list_build(struct state_server *srv, const char *cid,
                                                  state_member_list_status_fn status, void *arg)
{
    int64_t channel = cid && *cid ? state_server_channel(srv, cid) : -1;
    if (cid && *cid && channel < 0)
        return NULL;
    struct state_member_list *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->srv = state__server_ref(srv);
    l->channel = channel;
    l->open_to_all = open_to_all(l);
    map_init(&l->users);
    map_init(&l->activities);
    for (size_t r = 0; r < srv->shape->nroles; r++)
        l->nhoisted += srv->shape->roles[r].hoist != 0;
    l->ngroups = l->nhoisted + 2;
    l->groups = calloc(l->ngroups, sizeof *l->groups);
    struct build b = {l, status, arg, !l->groups};
    if (!b.failed)
        pmap_each(&srv->members, build_one, &b);
    if (b.failed) {
        state_member_list_free(l);
        return NULL;
    }
    return l;
}

static void free_entry(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    entry_free(value);
}

static void free_activity(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    json_decref(value);
}

void state_member_list_free(struct state_member_list *l)
{
    if (!l)
        return;
    map_each(&l->users, free_entry, NULL);
    map_cleanup(&l->users);
    map_each(&l->activities, free_activity, NULL);
    map_cleanup(&l->activities);
    for (uint32_t g = 0; l->groups && g < l->ngroups; g++) {
        for (size_t c = 0; c < l->groups[g].nchunks; c++)
            free(l->groups[g].chunks[c]);
        free(l->groups[g].chunks);
    }
    free(l->groups);
    state_server_unref(l->srv);
    free(l);
}

struct state_server *state_member_list_version(const struct state_member_list *l)
{
    return state__server_ref(l->srv);
}

/* ---- following versions and presence ---- */

struct change {
    const struct state_member *old, *now; /* one reference each (NULL: absent) */
    enum status status;                   /* now's, for when it was not listed before */
};

struct state_member_list_delta {
    struct state_server *to; /* one reference */
    struct change *changes;
    size_t n, cap;
    int failed;
    state_member_list_status_fn status;
    void *arg;
};

static void note_change(struct pmap_value *old, struct pmap_value *now, void *arg)
{
    struct state_member_list_delta *d = arg;
    if (d->failed || VEC_RESERVE(d->changes, d->n, d->cap, 8)) {
        d->failed = 1;
        return;
    }
    struct change *c = &d->changes[d->n++];
    c->old = old ? (const struct state_member *)pmap_value_ref(old) : NULL;
    c->now = now ? (const struct state_member *)pmap_value_ref(now) : NULL;
    /* Read for anyone still a member: one not listed so far (out of sight) may be now. */
    c->status = c->now ? status_of(d->status(d->arg, c->now->user_id)) : OFFLINE;
}

/* A bot's install changed (its managed role's bits may let it see the channel or not): its
 * place is worked out again like a member's that changed. */
static void note_bot_change(struct pmap_value *old, struct pmap_value *now, void *arg)
{
    struct state_member_list_delta *d = arg;
    const char *uid = ((const struct state_bot *)(now ? now : old))->user_id;
    const struct state_member *m = state_server_member(d->to, uid);
    if (m)
        note_change((struct pmap_value *)&m->v, (struct pmap_value *)&m->v, arg);
}

struct state_member_list_delta *state_member_list_delta(struct state_server *from,
                                                        struct state_server *newer,
                                                        state_member_list_status_fn status,
                                                        void *arg)
{
    if (newer->shape != from->shape)
        return NULL;
    struct state_member_list_delta *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->to = state__server_ref(newer);
    d->status = status;
    d->arg = arg;
    if (pmap_diff(&from->members, &newer->members, note_change, d) ||
        pmap_diff(&from->bots, &newer->bots, note_bot_change, d) || d->failed) {
        state_member_list_delta_free(d);
        return NULL;
    }
    return d;
}

void state_member_list_delta_free(struct state_member_list_delta *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        if (d->changes[i].old)
            pmap_value_unref((struct pmap_value *)&d->changes[i].old->v);
        if (d->changes[i].now)
            pmap_value_unref((struct pmap_value *)&d->changes[i].now->v);
    }
    free(d->changes);
    state_server_unref(d->to);
    free(d);
}

int state_member_list_apply(struct state_member_list *l, struct state_member_list_delta *d)
{
    int changed = 0, rc = 0;
    state_server_unref(l->srv);
    l->srv = state__server_ref(d->to);
    for (size_t i = 0; i < d->n && !rc; i++) {
        const struct change *c = &d->changes[i];
        const char *uid = c->old ? c->old->user_id : c->now->user_id;
        struct entry *e = map_get(&l->users, uid);
        enum status status = e ? e->status : c->status;
        if (e) {
            drop(l, e);
            changed = 1;
        }
        if (c->now && listed(l, c->now)) {
            rc = add(l, c->now, status);
            changed = 1;
        } else {
            json_decref(map_remove(&l->activities, uid)); /* out of the list: forgotten */
        }
    }
    state_member_list_delta_free(d);
    return rc ? -1 : changed;
}

int state_member_list_presence(struct state_member_list *l, const char *user_id, const char *status)
{
    struct entry *e = map_get(&l->users, user_id);
    enum status s = status_of(status);
    if (!e || e->status == s)
        return 0;
    const struct state_member *m = e->m;
    pmap_value_ref((struct pmap_value *)&m->v);
    drop(l, e);
    int rc = add(l, m, s);
    pmap_value_unref((struct pmap_value *)&m->v);
    return rc ? -1 : 1;
}

int state_member_list_activity(struct state_member_list *l, const char *user_id, json_t *activity)
{
    const struct entry *e = map_get(&l->users, user_id);
    json_t *old = map_get(&l->activities, user_id);
    if (!e || (!old && !activity) || (old && activity && json_equal(old, activity)))
        return 0;
    if (!activity) {
        json_decref(map_remove(&l->activities, user_id));
    } else {
        if (map_set(&l->activities, user_id, json_incref(activity))) {
            json_decref(activity);
            return -1;
        }
        json_decref(old);
    }
    return e->status != OFFLINE; /* an offline member's row shows none */
}

/* ---- reading ---- */

size_t state_member_list_members(const struct state_member_list *l)
{
    return l->users.count;
}

size_t state_member_list_rows(const struct state_member_list *l)
{
    size_t rows = 0;
    for (uint32_t g = 0; g < l->ngroups; g++)
        rows += l->groups[g].count ? 1 + l->groups[g].count : 0;
    return rows;
}

static const char *group_id(const struct state_member_list *l, uint32_t g)
{
    if (g == l->nhoisted)
        return "online";
    if (g == l->nhoisted + 1)
        return "offline";
    const struct state_shape *sh = l->srv->shape;
    for (size_t r = 0; r < sh->nroles; r++)
        if (sh->roles[r].hoist && !g--)
            return sh->roles[r].id;
    return "";
}

json_t *state_member_list_summary(const struct state_member_list *l)
{
    json_t *groups = json_array();
    for (uint32_t g = 0; groups && g < l->ngroups; g++)
        if (l->groups[g].count &&
            json_array_append_new(groups, json_pack("{sssI}", "id", group_id(l, g), "count",
                                                    (json_int_t)l->groups[g].count))) {
            json_decref(groups);
            return NULL;
        }
    return groups ? json_pack("{sIsIso}", "memberCount", (json_int_t)l->users.count, "onlineCount",
                              (json_int_t)l->online, "groups", groups)
                  : NULL;
}

static json_t *member_row(const struct state_member_list *l, const struct entry *e)
{
    const struct state_member *m = e->m;
    json_t *roles = json_array();
    for (size_t i = 0; roles && i < m->nroles; i++)
        json_array_append_new(roles, json_string(m->role_ids[i]));
    json_t *activity = e->status == OFFLINE ? NULL : map_get(&l->activities, m->user_id);
    return json_pack("{s{sssssssbsssosO}}", "member", "userId", m->user_id, "name", m->name,
                     "username", m->username, "isBot", m->is_bot, "status", STATUS_NAMES[e->status],
                     "roleIds", roles, "activity", activity ? activity : json_null());
}

json_t *state_member_list_range(const struct state_member_list *l, size_t start, size_t end)
{
    json_t *rows = json_array();
    size_t row = 0; /* the number of the group's header */
    for (uint32_t g = 0; rows && g < l->ngroups && row <= end; g++) {
        const struct group *gr = &l->groups[g];
        if (!gr->count)
            continue;
        if (row + gr->count < start) { /* the whole group is before the range */
            row += 1 + gr->count;
            continue;
        }
        if (row >= start &&
            json_array_append_new(rows, json_pack("{s{ss}}", "group", "id", group_id(l, g))))
            break;
        /* member k of the group is row + 1 + k */
        size_t k = start > row + 1 ? start - row - 1 : 0, seen = 0;
        for (size_t c = 0; c < gr->nchunks && row + 1 + k <= end && k < gr->count; c++) {
            const struct chunk *ch = gr->chunks[c];
            if (seen + ch->n <= k) {
                seen += ch->n;
                continue;
            }
            for (uint32_t i = (uint32_t)(k - seen); i < ch->n && row + 1 + k <= end; i++, k++)
                if (json_array_append_new(rows, member_row(l, ch->e[i]))) {
                    json_decref(rows);
                    return NULL;
                }
            seen += ch->n;
        }
        row += 1 + gr->count;
    }
    return rows;
}
