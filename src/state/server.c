/* One server in memory: see server.h. */
#include "state/server.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/vec.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "store/snapshot.h"

#define OVERWRITES_MAX 100 /* per channel, as the API enforces */
#define MAP_ENTRY      40  /* about what one entry costs a persistent map, for the footprint */
#define BOT_BYTES      ((int64_t)(sizeof(struct state_bot) + 2 * MAP_ENTRY)) /* bots and apps */

struct state_audience {
    struct idset *set;   /* a persistent map's keys: member records by user ID */
    int64_t valid_until; /* the first bot timeout that ends after it was computed; 0 = never */
};

/* [without, with people][channel + 1 (0: the whole server)][intent bit, then people only] */
static size_t audience_slots(const struct state_server *s)
{
    return 2 * (s->shape->nchannels + 1) * (INTENT_COUNT + 1);
}

/* ---- keys and releases of what the maps hold ---- */

static const char *member_id(const struct pmap_value *v)
{
    return ((const struct state_member *)v)->user_id;
}
static const char *member_name(const struct pmap_value *v)
{
    return ((const struct state_member *)v)->username;
}
static const char *bot_user(const struct pmap_value *v)
{
    return ((const struct state_bot *)v)->user_id;
}
static const char *bot_app(const struct pmap_value *v)
{
    return ((const struct state_bot *)v)->app_id;
}

static void member_release(struct pmap_value *v)
{
    struct state_member *m = (struct state_member *)v;
    if (m->name != m->username)
        free(m->name);
    free(m->username);
    free(m->role_ids);
    free(m);
}

static void bot_release(struct pmap_value *v)
{
    free(v);
}

static const char *role_key(const void *base, uint32_t i)
{
    return ((const struct state_shape *)base)->roles[i].id;
}
static const char *channel_key(const void *base, uint32_t i)
{
    return ((const struct state_shape *)base)->channels[i].id;
}

static void shape_unref(struct state_shape *sh)
{
    if (!sh || atomic_fetch_sub_explicit(&sh->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (size_t i = 0; i < sh->nroles; i++)
        free(sh->roles[i].name);
    free(sh->roles);
    free(sh->channels);
    free(sh->overwrites);
    state__index_cleanup(&sh->role_ix);
    state__index_cleanup(&sh->channel_ix);
    json_decref(sh->automod_words);
    free(sh);
}

/* ---- building from rows ---- */

/* Makes room for one more element of an array, counting what it costs. */
static int grow(void **items, size_t *cap, size_t n, size_t size, int64_t *bytes)
{
    size_t was = *cap;
    if (vec_reserve(items, cap, n, size, 8))
        return -1;
    *bytes += (int64_t)((*cap - was) * size);
    return 0;
}
#define GROW(s, arr, n, cap)                                                                       \
    grow((void **)&(s)->arr, &(s)->cap, (s)->n, sizeof *(s)->arr, &(s)->bytes)

static int copy_id(char out[UUID_LEN + 1], const char *id)
{
    return slice_copy(slice_from(id ? id : ""), out, UUID_LEN + 1) ? STORE_ERR : 0;
}

/* What a walk fills: a shape, and members and bots into maps built in place. */
struct builder {
    struct state_shape *shape;
    struct pmap members, bots, apps;
    int64_t member_bytes;
};

static int on_server(void *arg, const struct store_server_row *r)
{
    struct state_shape *s = ((struct builder *)arg)->shape;
    s->verification_level = r->verification_level;
    s->requires_2fa = r->requires_2fa;
    s->requires_rules = r->requires_rules;
    s->automod_max = r->automod_max;
    s->everyone = r->everyone;
    s->automod_words = json_loads(r->automod_words, 0, NULL);
    if (!json_is_array(s->automod_words)) {
        json_decref(s->automod_words);
        s->automod_words = json_array();
    }
    s->automod_on = json_array_size(s->automod_words) > 0 || r->automod_max >= 0;
    return copy_id(s->owner_id, r->owner_id);
}

static int on_role(void *arg, const struct store_role_row *r)
{
    struct state_shape *s = ((struct builder *)arg)->shape;
    if (GROW(s, roles, nroles, cap_roles))
        return STORE_ERR;
    struct state_role *x = &s->roles[s->nroles];
    if (copy_id(x->id, r->id) || !(x->name = strdup(r->name)))
        return STORE_ERR;
    s->bytes += (int64_t)strlen(r->name) + 1;
    x->perms = r->perms;
    x->key = r->position;
    x->mentionable = r->mentionable;
    x->hoist = r->hoist;
    s->nroles++;
    return 0;
}

static int on_channel(void *arg, const struct store_channel_row *r)
{
    struct state_shape *s = ((struct builder *)arg)->shape;
    if (GROW(s, channels, nchannels, cap_channels))
        return STORE_ERR;
    struct state_channel *x = &s->channels[s->nchannels];
    memset(x, 0, sizeof *x);
    if (copy_id(x->id, r->id) || copy_id(x->parent_id, r->parent_id) ||
        slice_copy(slice_from(r->type), x->type, sizeof x->type))
        return STORE_ERR;
    s->nchannels++;
    return 0;
}

/* Overwrites arrive sorted by channel ID, as the channels are: one merge pass places them. */
static int on_overwrite(void *arg, const struct store_overwrite_row *r)
{
    struct state_shape *s = ((struct builder *)arg)->shape;
    if (!s->channel_ix.slots && state__index_build(&s->channel_ix, s->nchannels, channel_key, s))
        return STORE_ERR;
    int64_t ch = state__index_find(&s->channel_ix, r->channel_id, channel_key, s);
    if (ch < 0 || s->channels[ch].noverwrites >= OVERWRITES_MAX)
        return 0;
    if (GROW(s, overwrites, noverwrites, cap_overwrites))
        return STORE_ERR;
    struct state_channel *c = &s->channels[ch];
    if (!c->noverwrites)
        c->first_overwrite = (uint32_t)s->noverwrites;
    else if (c->first_overwrite + c->noverwrites != s->noverwrites)
        return STORE_ERR; /* not grouped by channel: the query's order is broken */
    struct state_overwrite *o = &s->overwrites[s->noverwrites++];
    c->noverwrites++;
    o->is_member = r->is_member;
    o->allow = r->allow;
    o->deny = r->deny;
    return copy_id(o->target_id, r->target_id);
}

static int on_member(void *arg, const struct store_member_row *r)
{
    struct builder *b = arg;
    struct state_member *m = calloc(1, sizeof *m);
    if (!m)
        return STORE_ERR;
    atomic_init(&m->v.refs, 1);
    m->v.release = member_release;
    /* The shown name shares the username's bytes when they are the same. */
    if (copy_id(m->user_id, r->user_id) || !(m->username = strdup(r->username)) ||
        !(m->name = strcmp(r->name, r->username) ? strdup(r->name) : m->username)) {
        member_release(&m->v);
        return STORE_ERR;
    }
    m->bytes = (int64_t)(sizeof *m + strlen(r->username) + 1 + 2 * MAP_ENTRY);
    if (m->name != m->username)
        m->bytes += (int64_t)strlen(m->name) + 1;
    m->is_bot = r->is_bot;
    m->mfa_enabled = r->mfa_enabled;
    m->account_created_at = r->account_created_at;
    m->joined_at = r->joined_at;
    m->timeout_until = r->timeout_until;
    m->rules_accepted_at = r->rules_accepted_at;
    int rc = pmap_put(&b->members, &m->v);
    pmap_value_unref(&m->v);
    if (rc)
        return STORE_ERR;
    b->member_bytes += m->bytes;
    return 0;
}

/* The member's record is still the builder's alone, so its roles are added in place. */
static int on_member_role(void *arg, const char *user_id, const char *role_id)
{
    struct builder *b = arg;
    struct state_member *m = (struct state_member *)pmap_get(&b->members, user_id);
    if (!m)
        return 0;
    int64_t before = m->bytes;
    if (GROW(m, role_ids, nroles, cap_roles))
        return STORE_ERR;
    b->member_bytes += m->bytes - before;
    return copy_id(m->role_ids[m->nroles++], role_id);
}

static int on_bot(void *arg, const struct store_bot_row *r)
{
    struct builder *b = arg;
    struct state_bot *x = calloc(1, sizeof *x);
    if (!x)
        return STORE_ERR;
    atomic_init(&x->v.refs, 1);
    x->v.release = bot_release;
    x->intents = r->intents;
    x->suspended = r->suspended;
    x->role.perms = r->role_perms;
    x->role.key = r->role_key;
    int rc = copy_id(x->user_id, r->user_id) || copy_id(x->app_id, r->app_id) ||
             copy_id(x->role.id, r->role_id) || pmap_put(&b->bots, &x->v) ||
             pmap_put(&b->apps, &x->v);
    pmap_value_unref(&x->v);
    return rc ? STORE_ERR : 0;
}

static const struct store_server_visitor VISITOR = {
    on_server, on_role, on_channel, on_overwrite, on_member, on_member_role, on_bot};

static void builder_init(struct builder *b)
{
    memset(b, 0, sizeof *b);
    pmap_init(&b->members, member_id);
    pmap_init(&b->bots, bot_user);
    pmap_init(&b->apps, bot_app);
}

static void builder_cleanup(struct builder *b)
{
    shape_unref(b->shape);
    pmap_cleanup(&b->members);
    pmap_cleanup(&b->bots);
    pmap_cleanup(&b->apps);
}

static struct state_shape *shape_new(void)
{
    struct state_shape *sh = calloc(1, sizeof *sh);
    if (sh) {
        atomic_init(&sh->refs, 1);
        sh->bytes = sizeof *sh;
    }
    return sh;
}

static int shape_finish(struct state_shape *sh)
{
    if (!sh->channel_ix.slots &&
        state__index_build(&sh->channel_ix, sh->nchannels, channel_key, sh))
        return -1;
    if (state__index_build(&sh->role_ix, sh->nroles, role_key, sh))
        return -1;
    sh->bytes += (int64_t)((sh->channel_ix.mask + 1 + sh->role_ix.mask + 1) * sizeof(uint32_t));
    return 0;
}

/* Reads the shape of sid alone: *found as state__server_load. */
static struct state_shape *shape_load(struct store *db, const char *sid, int *found)
{
    struct builder b;
    builder_init(&b);
    b.shape = shape_new();
    *found = b.shape ? store_server_walk(db, sid, STORE_WALK_SHAPE, &VISITOR, &b) : STORE_ERR;
    if (*found == 1 && shape_finish(b.shape))
        *found = STORE_ERR;
    struct state_shape *sh = *found == 1 ? b.shape : NULL;
    if (sh)
        b.shape = NULL;
    builder_cleanup(&b);
    return sh;
}

static struct state_server *server_new(const char *sid, struct state_shape *shape)
{
    struct state_server *s = calloc(1, sizeof *s);
    if (!s || copy_id(s->id, sid)) {
        free(s);
        shape_unref(shape);
        return NULL;
    }
    atomic_init(&s->refs, 1);
    pthread_mutex_init(&s->lock, NULL);
    s->shape = shape;
    pmap_init(&s->members, member_id);
    pmap_init(&s->usernames, member_name);
    pmap_init(&s->bots, bot_user);
    pmap_init(&s->apps, bot_app);
    return s;
}

static void add_username(struct pmap_value *v, void *arg)
{
    struct state_server *s = arg;
    if (pmap_put(&s->usernames, v))
        s->bytes = -1; /* marks the failure */
}

struct state_server *state__server_load(struct store *db, const char *sid, int *found)
{
    struct builder b;
    builder_init(&b);
    b.shape = shape_new();
    *found = b.shape ? store_server_walk(db, sid, STORE_WALK_ALL, &VISITOR, &b) : STORE_ERR;
    if (*found == 1 && shape_finish(b.shape))
        *found = STORE_ERR;
    struct state_server *s = NULL;
    if (*found == 1 && (s = server_new(sid, b.shape))) {
        b.shape = NULL;
        s->members = b.members;
        s->bots = b.bots;
        s->apps = b.apps;
        int64_t member_bytes = b.member_bytes;
        builder_init(&b);
        pmap_each(&s->members, add_username, s);
        if (s->bytes < 0) {
            state_server_unref(s);
            s = NULL;
        } else {
            s->bytes = (int64_t)sizeof *s + s->shape->bytes + member_bytes +
                       (int64_t)s->bots.count * BOT_BYTES;
        }
    }
    if (*found == 1 && !s)
        *found = STORE_ERR;
    builder_cleanup(&b);
    return s;
}

struct state_server *state__server_ref(struct state_server *s)
{
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    return s;
}

void state_server_unref(struct state_server *s)
{
    if (!s || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    if (s->audiences)
        for (size_t i = 0; i < audience_slots(s); i++)
            idset_unref(s->audiences[i].set);
    free(s->audiences);
    state_server_unref(s->parent);
    free(s->touched);
    pmap_cleanup(&s->members);
    pmap_cleanup(&s->usernames);
    pmap_cleanup(&s->bots);
    pmap_cleanup(&s->apps);
    shape_unref(s->shape);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* ---- reading ---- */

int64_t state_server_channel(const struct state_server *s, const char *cid)
{
    return state__index_find(&s->shape->channel_ix, cid, channel_key, s->shape);
}

const struct state_member *state_server_member(const struct state_server *s, const char *uid)
{
    return (const struct state_member *)pmap_get(&s->members, uid);
}

const struct state_member *state_server_member_by_username(const struct state_server *s,
                                                           const char *username)
{
    return (const struct state_member *)pmap_get(&s->usernames, username);
}

size_t state_server_member_count(const struct state_server *s)
{
    return s->members.count;
}

size_t state_server_install_count(const struct state_server *s)
{
    return s->apps.count;
}

int state_server_installed(const struct state_server *s, const char *app_id)
{
    return pmap_get(&s->apps, app_id) != NULL;
}

static int by_index(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The member's roles that exist, as indexes into the shape's roles: highest first, at most
 * ACCESS_MAX_ROLES, as SQL orders them. */
static size_t member_roles(const struct state_shape *sh, const struct state_member *m,
                           uint32_t out[ACCESS_MAX_ROLES])
{
    uint32_t found[ACCESS_MAX_ROLES];
    size_t n = 0, more = 0;
    uint32_t *all = m->nroles > ACCESS_MAX_ROLES ? malloc(m->nroles * sizeof *all) : found;
    if (!all)
        return 0;
    for (size_t i = 0; i < m->nroles; i++) {
        int64_t r = state__index_find(&sh->role_ix, m->role_ids[i], role_key, sh);
        if (r >= 0)
            all[more++] = (uint32_t)r;
    }
    if (more > 1)
        qsort(all, more, sizeof *all, by_index);
    n = more < ACCESS_MAX_ROLES ? more : ACCESS_MAX_ROLES;
    memcpy(out, all, n * sizeof *out);
    if (all != found)
        free(all);
    return n;
}

/* A bot's managed role, when m is that bot and holds it (as the database joins it), else NULL. */
static const struct state_role *managed_role(const struct state_server *s,
                                             const struct state_member *m)
{
    const struct state_bot *b =
        m->is_bot ? (const struct state_bot *)pmap_get(&s->bots, m->user_id) : NULL;
    if (!b || !b->role.id[0])
        return NULL;
    for (size_t i = 0; i < m->nroles; i++)
        if (!strcmp(m->role_ids[i], b->role.id))
            return &b->role;
    return NULL;
}

/* The member's roles: the shape's (member_roles), then a bot's own, at most ACCESS_MAX_ROLES. */
static size_t member_role_list(const struct state_server *s, const struct state_member *m,
                               const struct state_role *out[ACCESS_MAX_ROLES])
{
    uint32_t roles[ACCESS_MAX_ROLES];
    size_t n = member_roles(s->shape, m, roles);
    for (size_t r = 0; r < n; r++)
        out[r] = &s->shape->roles[roles[r]];
    const struct state_role *own = n < ACCESS_MAX_ROLES ? managed_role(s, m) : NULL;
    if (own)
        out[n++] = own;
    return n;
}

void state_server_access(const struct state_server *s, const char *uid, struct store_access *a)
{
    const struct state_shape *sh = s->shape;
    memset(a, 0, offsetof(struct store_access, role_ids));
    a->top_key = ROLE_KEY_EVERYONE; /* after the role arrays, filled only up to nroles */
    a->server_found = 1;
    memcpy(a->owner_id, sh->owner_id, sizeof a->owner_id);
    a->verification_level = sh->verification_level;
    a->requires_2fa = sh->requires_2fa;
    a->requires_rules = sh->requires_rules;
    a->everyone = sh->everyone;
    a->automod_on = sh->automod_on;
    const struct state_member *m = state_server_member(s, uid);
    if (!m)
        return;
    a->is_member = 1;
    a->mfa_enabled = m->mfa_enabled;
    a->is_bot = m->is_bot;
    a->account_created_at = m->account_created_at;
    a->joined_at = m->joined_at;
    a->timeout_until = m->timeout_until;
    a->rules_accepted_at = m->rules_accepted_at;
    const struct state_role *roles[ACCESS_MAX_ROLES];
    size_t n = member_role_list(s, m, roles);
    for (size_t r = 0; r < n; r++) {
        memcpy(a->role_ids[a->nroles], roles[r]->id, UUID_LEN + 1);
        a->role_perms[a->nroles++] = roles[r]->perms;
        if (roles[r]->key > a->top_key)
            a->top_key = roles[r]->key;
    }
}

uint64_t state_server_channel_perms(const struct state_server *s, const struct state_member *m,
                                    size_t channel, int64_t now)
{
    const struct state_shape *sh = s->shape;
    const struct state_channel *c = &sh->channels[channel];
    const struct state_role *roles[ACCESS_MAX_ROLES];
    size_t nroles = member_role_list(s, m, roles);
    const char *role_ids[ACCESS_MAX_ROLES];
    uint64_t role_perms[ACCESS_MAX_ROLES];
    for (size_t r = 0; r < nroles; r++) {
        role_ids[r] = roles[r]->id;
        role_perms[r] = roles[r]->perms;
    }
    struct perm_overwrite ow[OVERWRITES_MAX];
    for (uint32_t i = 0; i < c->noverwrites; i++) {
        const struct state_overwrite *o = &sh->overwrites[c->first_overwrite + i];
        ow[i] = (struct perm_overwrite){o->target_id, o->is_member, o->allow, o->deny};
    }
    struct perm_overwrites folded;
    rule_perm_overwrites_fold(ow, c->noverwrites, s->id, role_ids, nroles, m->user_id, &folded);
    struct perm_member pm = {.is_owner = !strcmp(sh->owner_id, m->user_id),
                             .timed_out = m->timeout_until > now,
                             .everyone = sh->everyone,
                             .roles = role_perms,
                             .nroles = nroles};
    return rule_perm_channel(&pm, &folded);
}

/* ---- audiences ---- */

static int intent_index(uint32_t intent)
{
    for (int i = 0; i < INTENT_COUNT; i++)
        if (intent == (1u << i))
            return i;
    return -1;
}

/* Whether member m belongs in the audience (people?, channel, intent): people who may see the
 * channel when people are asked for, and bots installed, not suspended, with the intent, that
 * may see it. A bot's timeout moves *valid_until (0 = none yet) to when it ends. */
static int belongs(const struct state_server *s, const struct state_member *m, int people,
                   int64_t channel, uint32_t intent, int64_t now, int64_t *valid_until)
{
    /* Only bots are filed in s->bots: a person is not looked up there. */
    const struct state_bot *b =
        m->is_bot ? (const struct state_bot *)pmap_get(&s->bots, m->user_id) : NULL;
    if (!b && (m->is_bot || !people))
        return 0;
    if (b && (b->suspended || !(b->intents & intent)))
        return 0;
    if (channel < 0)
        return 1;
    if (b && m->timeout_until > now && (!*valid_until || m->timeout_until < *valid_until))
        *valid_until = m->timeout_until;
    return (state_server_channel_perms(s, m, (size_t)channel, now) & PERM_VER_CANAL) != 0;
}

/* An audience worked out member by member: those in it and those left out, in turn. */
struct compute {
    const struct state_server *s;
    int people;
    int64_t channel, now, valid_until;
    uint32_t intent;
    struct pmap_value **in, **out;
    size_t nin, nout, cap_in, cap_out;
    int failed;
};

static void consider_member(struct pmap_value *v, void *arg)
{
    struct compute *c = arg;
    const struct state_member *m = (const struct state_member *)v;
    int in = belongs(c->s, m, c->people, c->channel, c->intent, c->now, &c->valid_until);
    if (in ? VEC_RESERVE(c->in, c->nin, c->cap_in, 256)
           : VEC_RESERVE(c->out, c->nout, c->cap_out, 256))
        c->failed = 1;
    else if (in)
        c->in[c->nin++] = v;
    else
        c->out[c->nout++] = v;
}

static void consider_bot(struct pmap_value *v, void *arg)
{
    struct compute *c = arg;
    struct pmap_value *m = pmap_get(&c->s->members, ((struct state_bot *)v)->user_id);
    if (m) /* installed but no longer a member: not a recipient */
        consider_member(m, arg);
}

static struct idset *compute_audience(const struct state_server *s, int64_t channel,
                                      uint32_t intent, int people, int64_t now,
                                      int64_t *valid_until)
{
    struct compute c = {.s = s, .people = people, .channel = channel, .now = now, .intent = intent};
    pmap_each(people ? &s->members : &s->bots, people ? consider_member : consider_bot, &c);
    *valid_until = c.valid_until;
    /* People's audiences hold most members: the members' own map, shared, less those left out,
     * costs what they cost; otherwise those in are filed one by one. */
    struct pmap set;
    if (people && c.nout < c.nin) {
        set = pmap_copy(&s->members);
        for (size_t i = 0; i < c.nout && !c.failed; i++)
            if (pmap_del(&set, member_id(c.out[i])) < 0)
                c.failed = 1;
    } else {
        pmap_init(&set, member_id);
        for (size_t i = 0; i < c.nin && !c.failed; i++)
            if (pmap_put(&set, c.in[i]))
                c.failed = 1;
    }
    free(c.in);
    free(c.out);
    if (c.failed) {
        pmap_cleanup(&set);
        return NULL;
    }
    return idset_of_pmap(&set);
}

static struct idset *derive(const struct state_server *s, const struct idset *from,
                            int64_t *valid_until, const char (*touched)[UUID_LEN + 1],
                            size_t ntouched, size_t slot, int64_t now);

static struct idset *audience(struct state_server *s, int64_t channel, uint32_t intent, int people,
                              int64_t now)
{
    int bit = intent ? intent_index(intent) : INTENT_COUNT; /* 0: people only */
    if (bit < 0 || channel >= (int64_t)s->shape->nchannels)
        return idset_new(0);
    size_t per = audience_slots(s) / 2;
    size_t slot = (size_t)people * per + (size_t)(channel + 1) * (INTENT_COUNT + 1) + (size_t)bit;
    pthread_mutex_lock(&s->lock);
    if (!s->audiences)
        s->audiences = calloc(audience_slots(s), sizeof *s->audiences);
    struct state_audience *a = s->audiences ? &s->audiences[slot] : NULL;
    if (a && a->set && (!a->valid_until || now < a->valid_until)) {
        struct idset *set = idset_ref(a->set);
        pthread_mutex_unlock(&s->lock);
        return set;
    }
    int64_t valid_until = 0;
    struct idset *set = NULL;
    if (s->parent) { /* asked of the shared version, which keeps it for the next change */
        struct idset *was = audience(s->parent, channel, intent, people, now);
        set = was ? derive(s, was, &valid_until, (const char(*)[UUID_LEN + 1]) s->touched,
                           s->ntouched, slot, now)
                  : NULL;
        idset_unref(was);
    } else {
        set = compute_audience(s, channel, intent, people, now, &valid_until);
    }
    if (a && set) {
        idset_unref(a->set);
        a->set = idset_ref(set);
        a->valid_until = valid_until;
    }
    pthread_mutex_unlock(&s->lock);
    return set;
}

struct idset *state_server_audience(struct state_server *s, int64_t channel, uint32_t intent,
                                    int64_t now)
{
    return audience(s, channel, intent, 0, now);
}

struct idset *state_server_audience_with_people(struct state_server *s, int64_t channel,
                                                uint32_t intent, int64_t now)
{
    return audience(s, channel, intent, 1, now);
}

struct idset *state_server_people(struct state_server *s, int64_t channel, int64_t now)
{
    return audience(s, channel, 0, 1, now);
}

/* ---- a new version from changes ---- */

/* The users whose place in an audience may have moved. */
struct touched {
    char (*ids)[UUID_LEN + 1];
    size_t n, cap;
};

static int touch(struct touched *t, const char *uid)
{
    if (VEC_RESERVE(t->ids, t->n, t->cap, 8))
        return -1;
    memcpy(t->ids[t->n++], uid, UUID_LEN + 1);
    return 0;
}

/* Member uid as the database has it now, in place of the old one. */
static int apply_member(struct state_server *s, struct store *db, const char *uid)
{
    struct builder b;
    builder_init(&b);
    int rc = store_server_member_walk(db, s->id, uid, &VISITOR, &b);
    struct state_member *now = rc == 1 ? (struct state_member *)pmap_get(&b.members, uid) : NULL;
    const struct state_member *old = state_server_member(s, uid);
    if (rc >= 0 && old) {
        s->bytes -= old->bytes;
        if (pmap_del(&s->usernames, old->username) < 0 || pmap_del(&s->members, uid) < 0)
            rc = STORE_ERR;
    }
    if (rc >= 0 && now) {
        s->bytes += now->bytes;
        if (pmap_put(&s->members, &now->v) || pmap_put(&s->usernames, &now->v))
            rc = STORE_ERR;
    }
    builder_cleanup(&b);
    return rc < 0 ? rc : 0;
}

/* Application app_id's install as the database has it now; *old_user and *new_user get its bot
 * user before and after ("" for none). */
static int apply_install(struct state_server *s, struct store *db, const char *app_id,
                         struct touched *t)
{
    struct builder b;
    builder_init(&b);
    int rc = store_server_install_walk(db, s->id, app_id, &VISITOR, &b);

    struct pmap_value *now = rc == 1 ? pmap_get(&b.apps, app_id) : NULL;
    const struct state_bot *old = (const struct state_bot *)pmap_get(&s->apps, app_id);
    if (rc >= 0 && old) {
        s->bytes -= BOT_BYTES;
        if (touch(t, old->user_id) || pmap_del(&s->bots, old->user_id) < 0 ||
            pmap_del(&s->apps, app_id) < 0)
            rc = STORE_ERR;
    }
    if (rc >= 0 && now) {
        s->bytes += BOT_BYTES;
        if (touch(t, ((struct state_bot *)now)->user_id) || pmap_put(&s->bots, now) ||
            pmap_put(&s->apps, now))
            rc = STORE_ERR;
    }
    builder_cleanup(&b);
    return rc < 0 ? rc : 0;
}

/* An audience of base's carried over to s: the touched users' places worked out again, each
 * O(log n). NULL when out of memory. */
static struct idset *derive(const struct state_server *s, const struct idset *from,
                            int64_t *valid_until, const char (*touched)[UUID_LEN + 1],
                            size_t ntouched, size_t slot, int64_t now)
{
    size_t per = audience_slots(s) / 2;
    int people = slot >= per;
    int64_t channel = (int64_t)((slot % per) / (INTENT_COUNT + 1)) - 1;
    size_t bit = slot % (INTENT_COUNT + 1);
    uint32_t intent = bit < INTENT_COUNT ? 1u << bit : 0;
    struct pmap set = pmap_copy(idset_pmap(from));
    int rc = 0;
    for (size_t k = 0; k < ntouched && !rc; k++) {
        const struct state_member *m = state_server_member(s, touched[k]);
        int want = m && belongs(s, m, people, channel, intent, now, valid_until);
        int have = pmap_get(&set, touched[k]) != NULL;
        if (want && !have)
            rc = pmap_put(&set, (struct pmap_value *)&m->v);
        else if (!want && have)
            rc = pmap_del(&set, touched[k]) < 0;
    }
    struct idset *out = rc ? NULL : idset_of_pmap(&set);
    pmap_cleanup(&set);
    return out;
}

/* Each audience base had computed, carried over to s: for a channel of s, from the old channel
 * map names (-1: none; map NULL: the same index), server-wide ones always. */
static int carry_audiences(struct state_server *s, struct state_server *base,
                           const struct touched *t, const int32_t *map, int64_t now)
{
    const size_t k = INTENT_COUNT + 1;
    size_t n = audience_slots(s), per = n / 2, per_old = audience_slots(base) / 2;
    struct state_audience *to = calloc(n, sizeof *to);
    if (!to)
        return -1;
    pthread_mutex_lock(&base->lock);
    for (size_t i = 0; base->audiences && i < n; i++) {
        int64_t channel = (int64_t)((i % per) / k) - 1;
        int64_t old = channel < 0 ? -1 : map ? map[channel] : channel;
        if (channel >= 0 && old < 0)
            continue;
        to[i] = base->audiences[(i >= per ? per_old : 0) + (size_t)(old + 1) * k + i % k];
        idset_ref(to[i].set);
    }
    pthread_mutex_unlock(&base->lock);
    for (size_t i = 0; i < n; i++) {
        struct state_audience *a = &to[i];
        struct idset *was = a->set;
        a->set = was && idset_pmap(was) && (!a->valid_until || now < a->valid_until)
                     ? derive(s, was, &a->valid_until, (const char(*)[UUID_LEN + 1]) t->ids, t->n,
                              i, now)
                     : NULL;
        idset_unref(was);
    }
    s->audiences = to;
    return 0;
}

/* Whether channel y (new) has x's (old) overwrites but for ones naming members, whom it touches:
 * 0 yes, 1 no (a role's overwrite changed), -1 out of memory. Both lists are sorted by target. */
static int member_overwrites_only(const struct state_shape *a, const struct state_channel *x,
                                  const struct state_shape *b, const struct state_channel *y,
                                  struct touched *t)
{
    uint32_t i = 0, j = 0;
    while (i < x->noverwrites || j < y->noverwrites) {
        const struct state_overwrite *o =
            i < x->noverwrites ? &a->overwrites[x->first_overwrite + i] : NULL;
        const struct state_overwrite *p =
            j < y->noverwrites ? &b->overwrites[y->first_overwrite + j] : NULL;
        int order = !o ? 1 : !p ? -1 : strcmp(o->target_id, p->target_id);
        const struct state_overwrite *only = order < 0 ? o : order > 0 ? p : NULL;
        int differs =
            only || o->is_member != p->is_member || o->allow != p->allow || o->deny != p->deny;
        if (differs) {
            /* A member's own overwrite touches that member; anything about a role, everyone
             * holding it. */
            int member = only ? only->is_member : o->is_member && p->is_member;
            if (!member)
                return 1;
            if (touch(t, (only ? only : o)->target_id))
                return -1;
        }
        i += order <= 0;
        j += order >= 0;
    }
    return 0;
}

/* For each channel of the new shape b, the channel of a whose audiences carry over to it, or -1:
 * the same channel and parent, with the same overwrites but for members' (those members are
 * touched), while the owner, @everyone and every role both shapes have read the same. Returns
 * 1 when every channel carries from its own index and nothing was touched, 0 otherwise, -1 out
 * of memory. */
static int plan_carry(const struct state_shape *a, const struct state_shape *b, int32_t *map,
                      struct touched *t)
{
    size_t touched_before = t->n;
    int same = !strcmp(a->owner_id, b->owner_id) && a->everyone == b->everyone;
    for (size_t i = 0; same && i < a->nroles; i++) {
        int64_t r = state__index_find(&b->role_ix, a->roles[i].id, role_key, b);
        same = r < 0 || b->roles[r].perms == a->roles[i].perms;
    }
    int identical = same && a->nchannels == b->nchannels;
    for (size_t i = 0; i < b->nchannels; i++) {
        const struct state_channel *y = &b->channels[i];
        int64_t j = same ? state__index_find(&a->channel_ix, y->id, channel_key, a) : -1;
        int rc = j >= 0 && !strcmp(a->channels[j].parent_id, y->parent_id)
                     ? member_overwrites_only(a, &a->channels[j], b, y, t)
                     : 1;
        if (rc < 0)
            return -1;
        map[i] = rc ? -1 : (int32_t)j;
        identical = identical && map[i] == (int32_t)i;
    }
    return identical && t->n == touched_before;
}

struct state_server *state__server_apply(struct state_server *base, struct store *db,
                                         const struct state_delta *d, int private, int *found)
{
    struct state_shape *shape = NULL;
    if (d->shape) {
        if (!(shape = shape_load(db, base->id, found)))
            return NULL;
    } else {
        shape = base->shape;
        atomic_fetch_add_explicit(&shape->refs, 1, memory_order_relaxed);
    }
    struct state_server *s = server_new(base->id, shape);
    if (!s) {
        *found = STORE_ERR;
        return NULL;
    }
    s->members = pmap_copy(&base->members);
    s->usernames = pmap_copy(&base->usernames);
    s->bots = pmap_copy(&base->bots);
    s->apps = pmap_copy(&base->apps);
    s->bytes = base->bytes - base->shape->bytes + shape->bytes;
    struct touched t = {0};
    int rc = 0;
    for (size_t i = 0; i < d->nmembers && !rc; i++)
        rc = apply_member(s, db, d->members[i]) || touch(&t, d->members[i]);
    for (size_t i = 0; i < d->napps && !rc; i++)
        rc = apply_install(s, db, d->apps[i], &t);
    /* A new shape carries what it can (plan_carry); a version asks its parent for the rest only
     * when the two read every right the same. */
    int32_t *map = d->shape ? malloc((shape->nchannels + 1) * sizeof *map) : NULL;
    int same = !d->shape ? 1 : map ? plan_carry(base->shape, shape, map, &t) : -1;
    if (!rc && same < 0)
        rc = -1;
    if (!rc)
        rc = carry_audiences(s, base, &t, d->shape ? map : NULL, clock_now_ms());
    free(map);
    if (!rc && same == 1 && private) {
        s->parent = state__server_ref(base);
        s->touched = t.ids;
        s->ntouched = t.n;
        t.ids = NULL;
    }
    free(t.ids);
    if (rc) {
        state_server_unref(s);
        *found = STORE_ERR;
        return NULL;
    }
    *found = 1;
    return s;
}
