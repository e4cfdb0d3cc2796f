/* A new version of one server from what changed (see server.h): members and installs read again
 * one by one, the shape read again when it changed, and each audience the old version had
 * carried over when the two read every right the same. */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/vec.h"
#include "domain/intents.h"
#include "state/server_parts.h"

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
    struct state__builder b;
    state__builder_init(&b);
    int rc = store_server_member_walk(db, s->id, uid, &state__server_visitor, &b);
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
    state__builder_cleanup(&b);
    return rc < 0 ? rc : 0;
}

/* Application app_id's install as the database has it now; *old_user and *new_user get its bot
 * user before and after ("" for none). */
static int apply_install(struct state_server *s, struct store *db, const char *app_id,
                         struct touched *t)
{
    struct state__builder b;
    state__builder_init(&b);
    int rc = store_server_install_walk(db, s->id, app_id, &state__server_visitor, &b);

    struct pmap_value *now = rc == 1 ? pmap_get(&b.apps, app_id) : NULL;
    const struct state_bot *old = (const struct state_bot *)pmap_get(&s->apps, app_id);
    if (rc >= 0 && old) {
        s->bytes -= STATE_BOT_BYTES;
        if (touch(t, old->user_id) || pmap_del(&s->bots, old->user_id) < 0 ||
            pmap_del(&s->apps, app_id) < 0)
            rc = STORE_ERR;
    }
    if (rc >= 0 && now) {
        s->bytes += STATE_BOT_BYTES;
        if (touch(t, ((struct state_bot *)now)->user_id) || pmap_put(&s->bots, now) ||
            pmap_put(&s->apps, now))
            rc = STORE_ERR;
    }
    state__builder_cleanup(&b);
    return rc < 0 ? rc : 0;
}

/* Each audience base had computed, carried over to s: for a channel of s, from the old channel
 * map names (-1: none; map NULL: the same index), server-wide ones always. */
static int carry_audiences(struct state_server *s, struct state_server *base,
                           const struct touched *t, const int32_t *map, int64_t now)
{
    const size_t k = INTENT_COUNT + 1;
    size_t n = state__audience_slots(s), per = n / 2, per_old = state__audience_slots(base) / 2;
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
                     ? state__audience_derive(s, was, &a->valid_until,
                                              (const char(*)[UUID_LEN + 1]) t->ids, t->n, i, now)
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
        int64_t r = state__index_find(&b->role_ix, a->roles[i].id, state__role_key, b);
        same = r < 0 || b->roles[r].perms == a->roles[i].perms;
    }
    int identical = same && a->nchannels == b->nchannels;
    for (size_t i = 0; i < b->nchannels; i++) {
        const struct state_channel *y = &b->channels[i];
        int64_t j = same ? state__index_find(&a->channel_ix, y->id, state__channel_key, a) : -1;
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
        if (!(shape = state__shape_load(db, base->id, found)))
            return NULL;
    } else {
        shape = base->shape;
        atomic_fetch_add_explicit(&shape->refs, 1, memory_order_relaxed);
    }
    struct state_server *s = state__server_new(base->id, shape);
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
