/* Who receives an event in one server: its audiences, worked out member by member on first use
 * and kept with the version (see server.h); a new version carries them over (server_change.c)
 * with only the touched users' places worked out again. */
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "state/server_parts.h"

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
            if (pmap_del(&set, ((const struct state_member *)c.out[i])->user_id) < 0)
                c.failed = 1;
    } else {
        pmap_init(&set, state__member_id);
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

static struct idset *audience(struct state_server *s, int64_t channel, uint32_t intent, int people,
                              int64_t now)
{
    int bit = intent ? intent_index(intent) : INTENT_COUNT; /* 0: people only */
    if (bit < 0 || channel >= (int64_t)s->shape->nchannels)
        return idset_new(0);
    size_t per = state__audience_slots(s) / 2;
    size_t slot = (size_t)people * per + (size_t)(channel + 1) * (INTENT_COUNT + 1) + (size_t)bit;
    pthread_mutex_lock(&s->lock);
    if (!s->audiences)
        s->audiences = calloc(state__audience_slots(s), sizeof *s->audiences);
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
        set = was ? state__audience_derive(s, was, &valid_until,
                                           (const char(*)[UUID_LEN + 1]) s->touched, s->ntouched,
                                           slot, now)
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

/* An audience of base's carried over to s: the touched users' places worked out again, each
 * O(log n). NULL when out of memory. */
struct idset *state__audience_derive(const struct state_server *s, const struct idset *from,
                                     int64_t *valid_until, const char (*touched)[UUID_LEN + 1],
                                     size_t ntouched, size_t slot, int64_t now)
{
    size_t per = state__audience_slots(s) / 2;
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
