/* One server in memory: see server.h. */
#include "state/server.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "store/snapshot.h"

#define OVERWRITES_MAX 100 /* per channel, as the API enforces */

struct state_audience {
    struct idset *bots;
    int64_t valid_until; /* the first bot timeout that ends after it was computed; 0 = never */
};

/* [without, with people][channel + 1 (0: the whole server)][intent bit, then people only] */
static size_t audience_slots(const struct state_server *s)
{
    return 2 * (s->nchannels + 1) * (INTENT_COUNT + 1);
}

/* ---- building ---- */

static const char *role_key(const void *base, uint32_t i)
{
    return ((const struct state_server *)base)->roles[i].id;
}
static const char *channel_key(const void *base, uint32_t i)
{
    return ((const struct state_server *)base)->channels[i].id;
}
static const char *member_key(const void *base, uint32_t i)
{
    return ((const struct state_server *)base)->members[i].user_id;
}
static const char *username_key(const void *base, uint32_t i)
{
    return ((const struct state_server *)base)->members[i].username;
}

/* Makes room for one more element of an array of the snapshot. */
static int grow(void **items, size_t *cap, size_t n, size_t size, int64_t *bytes)
{
    if (n < *cap)
        return 0;
    size_t next = *cap ? *cap * 2 : 8;
    void *p = realloc(*items, next * size);
    if (!p)
        return -1;
    *bytes += (int64_t)((next - *cap) * size);
    *items = p;
    *cap = next;
    return 0;
}
#define GROW(s, arr, n, cap)                                                                       \
    grow((void **)&(s)->arr, &(s)->cap, (s)->n, sizeof *(s)->arr, &(s)->bytes)

static int copy_id(char out[UUID_LEN + 1], const char *id)
{
    return slice_copy(slice_from(id ? id : ""), out, UUID_LEN + 1) ? STORE_ERR : 0;
}

/* Member-role pairs are collected as (member, role) and grouped once all are in. */
struct pair {
    uint32_t member, role;
};

struct builder {
    struct state_server *s;
    struct pair *pairs;
    size_t npairs, cap_pairs;
};

static int on_server(void *arg, const struct store_server_row *r)
{
    struct state_server *s = ((struct builder *)arg)->s;
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
    struct state_server *s = ((struct builder *)arg)->s;
    if (GROW(s, roles, nroles, cap_roles))
        return STORE_ERR;
    struct state_role *x = &s->roles[s->nroles];
    if (copy_id(x->id, r->id) || !(x->name = strdup(r->name)))
        return STORE_ERR;
    s->bytes += (int64_t)strlen(r->name) + 1;
    x->perms = r->perms;
    x->position = r->position;
    x->mentionable = r->mentionable;
    s->nroles++;
    return 0;
}

static int on_channel(void *arg, const struct store_channel_row *r)
{
    struct state_server *s = ((struct builder *)arg)->s;
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
    struct state_server *s = ((struct builder *)arg)->s;
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
    struct state_server *s = ((struct builder *)arg)->s;
    if (GROW(s, members, nmembers, cap_members))
        return STORE_ERR;
    struct state_member *m = &s->members[s->nmembers];
    memset(m, 0, sizeof *m);
    m->bot = -1;
    if (copy_id(m->user_id, r->user_id) || !(m->username = strdup(r->username)))
        return STORE_ERR;
    s->bytes += (int64_t)strlen(r->username) + 1;
    m->is_bot = r->is_bot;
    m->mfa_enabled = r->mfa_enabled;
    m->account_created_at = r->account_created_at;
    m->joined_at = r->joined_at;
    m->timeout_until = r->timeout_until;
    m->rules_accepted_at = r->rules_accepted_at;
    s->nmembers++;
    return 0;
}

static int ensure_member_indexes(struct state_server *s)
{
    if (s->member_ix.slots)
        return 0;
    if (!s->channel_ix.slots && state__index_build(&s->channel_ix, s->nchannels, channel_key, s))
        return -1;
    return state__index_build(&s->member_ix, s->nmembers, member_key, s) ||
           state__index_build(&s->username_ix, s->nmembers, username_key, s) ||
           state__index_build(&s->role_ix, s->nroles, role_key, s);
}

static int on_member_role(void *arg, const char *user_id, const char *role_id)
{
    struct builder *b = arg;
    struct state_server *s = b->s;
    if (ensure_member_indexes(s))
        return STORE_ERR;
    int64_t m = state__index_find(&s->member_ix, user_id, member_key, s);
    int64_t r = state__index_find(&s->role_ix, role_id, role_key, s);
    if (m < 0 || r < 0)
        return 0;
    int64_t unused = 0;
    if (grow((void **)&b->pairs, &b->cap_pairs, b->npairs, sizeof *b->pairs, &unused))
        return STORE_ERR;
    b->pairs[b->npairs++] = (struct pair){(uint32_t)m, (uint32_t)r};
    return 0;
}

static int on_bot(void *arg, const struct store_bot_row *r)
{
    struct state_server *s = ((struct builder *)arg)->s;
    if (ensure_member_indexes(s))
        return STORE_ERR;
    int64_t m = state__index_find(&s->member_ix, r->user_id, member_key, s);
    if (m < 0) /* installed but no longer a member: not a recipient, as before */
        return 0;
    if (GROW(s, bots, nbots, cap_bots))
        return STORE_ERR;
    struct state_bot *b = &s->bots[s->nbots];
    b->member = (uint32_t)m;
    b->intents = r->intents;
    b->suspended = r->suspended;
    s->members[m].bot = (int32_t)s->nbots++;
    return copy_id(b->app_id, r->app_id);
}

static const struct store_server_visitor VISITOR = {
    on_server, on_role, on_channel, on_overwrite, on_member, on_member_role, on_bot};

static int by_member_then_role(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->member != y->member)
        return x->member < y->member ? -1 : 1;
    return x->role < y->role ? -1 : x->role > y->role;
}

/* Roles are sorted highest first, so each member's list comes out in that order. */
static int group_member_roles(struct state_server *s, struct builder *b)
{
    if (b->npairs)
        qsort(b->pairs, b->npairs, sizeof *b->pairs, by_member_then_role);
    s->member_roles = malloc((b->npairs ? b->npairs : 1) * sizeof *s->member_roles);
    if (!s->member_roles)
        return -1;
    s->bytes += (int64_t)(b->npairs * sizeof *s->member_roles);
    for (size_t i = 0; i < b->npairs; i++) {
        struct state_member *m = &s->members[b->pairs[i].member];
        if (!m->nroles)
            m->first_role = (uint32_t)i;
        m->nroles++;
        s->member_roles[i] = b->pairs[i].role;
    }
    s->nmember_roles = b->npairs;
    return 0;
}

struct state_server *state__server_load(struct store *db, const char *sid, int *found)
{
    struct state_server *s = calloc(1, sizeof *s);
    if (!s) {
        *found = STORE_ERR;
        return NULL;
    }
    atomic_init(&s->refs, 1);
    pthread_mutex_init(&s->lock, NULL);
    s->bytes = sizeof *s;
    struct builder b = {.s = s};
    *found = copy_id(s->id, sid) ? 0 : store_server_walk(db, sid, &VISITOR, &b);
    if (*found == 1 && (ensure_member_indexes(s) || group_member_roles(s, &b)))
        *found = STORE_ERR;
    free(b.pairs);
    if (*found != 1) {
        state_server_unref(s);
        return NULL;
    }
    s->bytes += (int64_t)((s->channel_ix.mask + 1 + s->member_ix.mask + 1 + s->username_ix.mask +
                           1 + s->role_ix.mask + 1) *
                          sizeof(uint32_t));
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
    for (size_t i = 0; i < s->nroles; i++)
        free(s->roles[i].name);
    for (size_t i = 0; i < s->nmembers; i++)
        free(s->members[i].username);
    if (s->audiences)
        for (size_t i = 0; i < audience_slots(s); i++)
            idset_unref(s->audiences[i].bots);
    free(s->audiences);
    free(s->roles);
    free(s->channels);
    free(s->overwrites);
    free(s->members);
    free(s->member_roles);
    free(s->bots);
    state__index_cleanup(&s->role_ix);
    state__index_cleanup(&s->channel_ix);
    state__index_cleanup(&s->member_ix);
    state__index_cleanup(&s->username_ix);
    json_decref(s->automod_words);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* ---- reading ---- */

int64_t state_server_channel(const struct state_server *s, const char *cid)
{
    return state__index_find(&s->channel_ix, cid, channel_key, s);
}

int64_t state_server_member(const struct state_server *s, const char *uid)
{
    return state__index_find(&s->member_ix, uid, member_key, s);
}

int64_t state_server_member_by_username(const struct state_server *s, const char *username)
{
    return state__index_find(&s->username_ix, username, username_key, s);
}

void state_server_access(const struct state_server *s, const char *uid, struct store_access *a)
{
    memset(a, 0, offsetof(struct store_access, role_ids));
    a->top_position = 0; /* after the role arrays, which are filled only up to nroles */
    a->server_found = 1;
    memcpy(a->owner_id, s->owner_id, sizeof a->owner_id);
    a->verification_level = s->verification_level;
    a->requires_2fa = s->requires_2fa;
    a->requires_rules = s->requires_rules;
    a->everyone = s->everyone;
    a->automod_on = s->automod_on;
    int64_t i = state_server_member(s, uid);
    if (i < 0)
        return;
    const struct state_member *m = &s->members[i];
    a->is_member = 1;
    a->mfa_enabled = m->mfa_enabled;
    a->is_bot = m->is_bot;
    a->account_created_at = m->account_created_at;
    a->joined_at = m->joined_at;
    a->timeout_until = m->timeout_until;
    a->rules_accepted_at = m->rules_accepted_at;
    for (uint32_t r = 0; r < m->nroles && a->nroles < ACCESS_MAX_ROLES; r++) {
        const struct state_role *role = &s->roles[s->member_roles[m->first_role + r]];
        memcpy(a->role_ids[a->nroles], role->id, UUID_LEN + 1);
        a->role_perms[a->nroles++] = role->perms;
        if (role->position > a->top_position)
            a->top_position = (int)role->position;
    }
}

uint64_t state_server_channel_perms(const struct state_server *s, size_t member, size_t channel,
                                    int64_t now)
{
    const struct state_member *m = &s->members[member];
    const struct state_channel *c = &s->channels[channel];
    size_t nroles = m->nroles < ACCESS_MAX_ROLES ? m->nroles : ACCESS_MAX_ROLES;
    const char *role_ids[ACCESS_MAX_ROLES];
    uint64_t role_perms[ACCESS_MAX_ROLES];
    for (size_t r = 0; r < nroles; r++) {
        const struct state_role *role = &s->roles[s->member_roles[m->first_role + r]];
        role_ids[r] = role->id;
        role_perms[r] = role->perms;
    }
    struct perm_overwrite ow[OVERWRITES_MAX];
    for (uint32_t i = 0; i < c->noverwrites; i++) {
        const struct state_overwrite *o = &s->overwrites[c->first_overwrite + i];
        ow[i] = (struct perm_overwrite){o->target_id, o->is_member, o->allow, o->deny};
    }
    struct perm_overwrites folded;
    rule_perm_overwrites_fold(ow, c->noverwrites, s->id, role_ids, nroles, m->user_id, &folded);
    struct perm_member pm = {.is_owner = !strcmp(s->owner_id, m->user_id),
                             .timed_out = m->timeout_until > now,
                             .everyone = s->everyone,
                             .roles = role_perms,
                             .nroles = nroles};
    return rule_perm_channel(&pm, &folded);
}

static int intent_index(uint32_t intent)
{
    for (int i = 0; i < INTENT_COUNT; i++)
        if (intent == (1u << i))
            return i;
    return -1;
}

/* With people, also every person who may see the channel (people have no intents). */
static struct idset *compute_audience(const struct state_server *s, int64_t channel,
                                      uint32_t intent, int people, int64_t now,
                                      int64_t *valid_until)
{
    struct idset *set = idset_new(people ? s->nmembers : s->nbots);
    *valid_until = 0;
    for (size_t i = 0; set && people && i < s->nmembers; i++) {
        const struct state_member *m = &s->members[i];
        if (m->bot >= 0 || m->is_bot)
            continue;
        if (channel < 0 ||
            (state_server_channel_perms(s, i, (size_t)channel, now) & PERM_VER_CANAL))
            idset_add(set, m->user_id);
    }
    for (size_t i = 0; set && i < s->nbots; i++) {
        const struct state_bot *b = &s->bots[i];
        const struct state_member *m = &s->members[b->member];
        if (b->suspended || !(b->intents & intent))
            continue;
        if (channel >= 0) {
            if (m->timeout_until > now && (!*valid_until || m->timeout_until < *valid_until))
                *valid_until = m->timeout_until;
            if (!(state_server_channel_perms(s, b->member, (size_t)channel, now) & PERM_VER_CANAL))
                continue;
        }
        idset_add(set, m->user_id);
    }
    return set;
}

static struct idset *audience(struct state_server *s, int64_t channel, uint32_t intent, int people,
                              int64_t now)
{
    int bit = intent ? intent_index(intent) : INTENT_COUNT; /* 0: people only */
    if (bit < 0 || channel >= (int64_t)s->nchannels)
        return idset_new(0);
    size_t per = audience_slots(s) / 2;
    size_t slot = (size_t)people * per + (size_t)(channel + 1) * (INTENT_COUNT + 1) + (size_t)bit;
    pthread_mutex_lock(&s->lock);
    if (!s->audiences)
        s->audiences = calloc(audience_slots(s), sizeof *s->audiences);
    struct state_audience *a = s->audiences ? &s->audiences[slot] : NULL;
    if (a && a->bots && (!a->valid_until || now < a->valid_until)) {
        struct idset *set = idset_ref(a->bots);
        pthread_mutex_unlock(&s->lock);
        return set;
    }
    int64_t valid_until;
    struct idset *set = compute_audience(s, channel, intent, people, now, &valid_until);
    if (a && set) {
        idset_unref(a->bots);
        a->bots = idset_ref(set);
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
