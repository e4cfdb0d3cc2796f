/* One server in memory: see server.h. */
#include "state/server.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/vec.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "state/server_parts.h"
#include "store/snapshot.h"

/* [without, with people][channel + 1 (0: the whole server)][intent bit, then people only] */
size_t state__audience_slots(const struct state_server *s)
{
    return 2 * (s->shape->nchannels + 1) * (INTENT_COUNT + 1);
}

/* ---- keys and releases of what the maps hold ---- */

const char *state__member_id(const struct pmap_value *v)
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

const char *state__role_key(const void *base, uint32_t i)
{
    return ((const struct state_shape *)base)->roles[i].id;
}
const char *state__channel_key(const void *base, uint32_t i)
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

static int on_server(void *arg, const struct store_server_row *r)
{
    struct state_shape *s = ((struct state__builder *)arg)->shape;
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
    struct state_shape *s = ((struct state__builder *)arg)->shape;
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
    struct state_shape *s = ((struct state__builder *)arg)->shape;
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
    struct state_shape *s = ((struct state__builder *)arg)->shape;
    if (!s->channel_ix.slots &&
        state__index_build(&s->channel_ix, s->nchannels, state__channel_key, s))
        return STORE_ERR;
    int64_t ch = state__index_find(&s->channel_ix, r->channel_id, state__channel_key, s);
    if (ch < 0 || s->channels[ch].noverwrites >= PERM_OVERWRITES_MAX)
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
    struct state__builder *b = arg;
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
    m->bytes = (int64_t)(sizeof *m + strlen(r->username) + 1 + 2 * STATE_MAP_ENTRY);
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
    struct state__builder *b = arg;
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
    struct state__builder *b = arg;
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

const struct store_server_visitor state__server_visitor = {
    on_server, on_role, on_channel, on_overwrite, on_member, on_member_role, on_bot};

void state__builder_init(struct state__builder *b)
{
    memset(b, 0, sizeof *b);
    pmap_init(&b->members, state__member_id);
    pmap_init(&b->bots, bot_user);
    pmap_init(&b->apps, bot_app);
}

void state__builder_cleanup(struct state__builder *b)
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
        state__index_build(&sh->channel_ix, sh->nchannels, state__channel_key, sh))
        return -1;
    if (state__index_build(&sh->role_ix, sh->nroles, state__role_key, sh))
        return -1;
    sh->bytes += (int64_t)((sh->channel_ix.mask + 1 + sh->role_ix.mask + 1) * sizeof(uint32_t));
    return 0;
}

/* Reads the shape of sid alone: *found as state__server_load. */
struct state_shape *state__shape_load(struct store *db, const char *sid, int *found)
{
    struct state__builder b;
    state__builder_init(&b);
    b.shape = shape_new();
    *found = b.shape ? store_server_walk(db, sid, STORE_WALK_SHAPE, &state__server_visitor, &b)
                     : STORE_ERR;
    if (*found == 1 && shape_finish(b.shape))
        *found = STORE_ERR;
    struct state_shape *sh = *found == 1 ? b.shape : NULL;
    if (sh)
        b.shape = NULL;
    state__builder_cleanup(&b);
    return sh;
}

struct state_server *state__server_new(const char *sid, struct state_shape *shape)
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
    pmap_init(&s->members, state__member_id);
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
    struct state__builder b;
    state__builder_init(&b);
    b.shape = shape_new();
    *found = b.shape ? store_server_walk(db, sid, STORE_WALK_ALL, &state__server_visitor, &b)
                     : STORE_ERR;
    if (*found == 1 && shape_finish(b.shape))
        *found = STORE_ERR;
    struct state_server *s = NULL;
    if (*found == 1 && (s = state__server_new(sid, b.shape))) {
        b.shape = NULL;
        s->members = b.members;
        s->bots = b.bots;
        s->apps = b.apps;
        int64_t member_bytes = b.member_bytes;
        state__builder_init(&b);
        pmap_each(&s->members, add_username, s);
        if (s->bytes < 0) {
            state_server_unref(s);
            s = NULL;
        } else {
            s->bytes = (int64_t)sizeof *s + s->shape->bytes + member_bytes +
                       (int64_t)s->bots.count * STATE_BOT_BYTES;
        }
    }
    if (*found == 1 && !s)
        *found = STORE_ERR;
    state__builder_cleanup(&b);
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
        for (size_t i = 0; i < state__audience_slots(s); i++)
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
    return state__index_find(&s->shape->channel_ix, cid, state__channel_key, s->shape);
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
        int64_t r = state__index_find(&sh->role_ix, m->role_ids[i], state__role_key, sh);
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
    struct perm_overwrite ow[PERM_OVERWRITES_MAX];
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
