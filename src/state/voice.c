/* Voice sessions: see voice.h. */
#include "core/buf.h"
#include "core/jsonout.h"
#include "core/vec.h"
#include "state/voice.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct state_voice {
    pthread_mutex_t lock;
    struct voice_session *list;
    size_t n, cap;
    voicestate_change_fn on_change;
    void *change_arg;
};

void state_voice_on_change(struct state_voice *v, voicestate_change_fn fn, void *arg)
{
    v->on_change = fn;
    v->change_arg = arg;
}

static void tell(struct state_voice *v, const struct voice_session *s, int removed)
{
    if (v->on_change)
        v->on_change(v->change_arg, s, removed);
}

struct state_voice *state_voice_new(void)
{
    struct state_voice *v = calloc(1, sizeof *v);
    if (v)
        pthread_mutex_init(&v->lock, NULL);
    return v;
}

void state_voice_free(struct state_voice *v)
{
    if (!v)
        return;
    pthread_mutex_destroy(&v->lock);
    free(v->list);
    free(v);
}

static const char *key_of(const struct voice_session *s, enum voice_key key)
{
    switch (key) {
    case VOICE_BY_CHANNEL:
        return s->channel_id;
    case VOICE_BY_SERVER:
        return s->server_id;
    case VOICE_BY_USER:
        return s->user_id;
    case VOICE_BY_SOCKET:
        return s->socket_id;
    case VOICE_ALL:
        return "";
    }
    return "";
}

/* Index of the user's session in a server (or in a channel), or -1. Called locked. */
static long locate(const struct state_voice *v, const char *user_id, enum voice_key key,
                   const char *value)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->list[i].user_id, user_id) && !strcmp(key_of(&v->list[i], key), value))
            return (long)i;
    return -1;
}

static void take_out(struct state_voice *v, size_t i)
{
    memmove(&v->list[i], &v->list[i + 1], (v->n - i - 1) * sizeof v->list[0]);
    v->n--;
}

/* Puts s in the place of the user's session in s's server (called locked): 1 when one was
 * replaced (*before), 0 when added, -1 when out of memory. */
static int put_locked(struct state_voice *v, const struct voice_session *s,
                      struct voice_session *before)
{
    long i = locate(v, s->user_id, VOICE_BY_SERVER, s->server_id);
    if (i >= 0) {
        struct voice_session *old = &v->list[i];
        *before = *old;
        if (!strcmp(old->channel_id, s->channel_id)) {
            int64_t joined_at = old->joined_at;
            *old = *s;
            old->joined_at = joined_at;
            return 1;
        }
        take_out(v, (size_t)i);
    }
    if (VEC_RESERVE(v->list, v->n, v->cap, 16))
        return -1;
    v->list[v->n++] = *s;
    return i >= 0;
}

int state_voice_put(struct state_voice *v, const struct voice_session *s,
                    struct voice_session *before)
{
    pthread_mutex_lock(&v->lock);
    int rc = put_locked(v, s, before);
    if (rc >= 0) {
        long i = locate(v, s->user_id, VOICE_BY_SERVER, s->server_id);
        tell(v, &v->list[i], 0);
    }
    pthread_mutex_unlock(&v->lock);
    return rc;
}

int state_voice_apply(struct state_voice *v, const struct voice_session *s, int removed,
                      struct voice_session *before)
{
    pthread_mutex_lock(&v->lock);
    long i = locate(v, s->user_id, VOICE_BY_SERVER, s->server_id);
    int rc = -1;
    if (removed) {
        if (i >= 0 && !strcmp(v->list[i].node, s->node)) {
            *before = v->list[i];
            if (!before->node[0])
                tell(v, before, 1);
            take_out(v, (size_t)i);
            rc = 1;
        }
    } else {
        rc = put_locked(v, s, before);
        if (rc == 1 && !before->node[0] && strcmp(s->node, "")) /* the user moved elsewhere */
            tell(v, before, 1);
    }
    pthread_mutex_unlock(&v->lock);
    return rc;
}

long state_voice_drop_node(struct state_voice *v, const char *node, struct voice_session **out)
{
    *out = NULL;
    pthread_mutex_lock(&v->lock);
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++)
        n += node ? !strcmp(v->list[i].node, node) : v->list[i].node[0] != '\0';
    struct voice_session *copy = n ? malloc(n * sizeof *copy) : NULL;
    if (n && !copy) {
        pthread_mutex_unlock(&v->lock);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < v->n;)
        if (node ? !strcmp(v->list[i].node, node) : v->list[i].node[0] != '\0') {
            copy[k++] = v->list[i];
            take_out(v, i);
        } else {
            i++;
        }
    pthread_mutex_unlock(&v->lock);
    *out = copy;
    return (long)n;
}

int state_voice_remove(struct state_voice *v, const char *user_id, const char *server_id,
                       struct voice_session *out)
{
    pthread_mutex_lock(&v->lock);
    long i = locate(v, user_id, VOICE_BY_SERVER, server_id);
    if (i >= 0) {
        *out = v->list[i];
        tell(v, out, 1);
        take_out(v, (size_t)i);
    }
    pthread_mutex_unlock(&v->lock);
    return i >= 0;
}

int state_voice_find(struct state_voice *v, const char *user_id, const char *channel_id,
                     struct voice_session *out)
{
    pthread_mutex_lock(&v->lock);
    long i = locate(v, user_id, VOICE_BY_CHANNEL, channel_id);
    if (i >= 0)
        *out = v->list[i];
    pthread_mutex_unlock(&v->lock);
    return i >= 0;
}

int state_voice_set_can_speak(struct state_voice *v, const char *user_id, const char *channel_id,
                              int can_speak)
{
    pthread_mutex_lock(&v->lock);
    long i = locate(v, user_id, VOICE_BY_CHANNEL, channel_id);
    int changed = i >= 0 && v->list[i].can_speak != can_speak;
    if (changed) {
        v->list[i].can_speak = can_speak;
        tell(v, &v->list[i], 0);
    }
    pthread_mutex_unlock(&v->lock);
    return changed;
}

/* Joining order, whichever node heard of each session first: by the time each joined, and for
 * two in the same millisecond in the order this node heard of them (a stable sort of a list
 * kept in that order; a channel holds few). */
static void sort_by_joining(struct voice_session *list, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct voice_session s = list[i];
        size_t j = i;
        for (; j > 0 && list[j - 1].joined_at > s.joined_at; j--)
            list[j] = list[j - 1];
        list[j] = s;
    }
}

long state_voice_list(struct state_voice *v, enum voice_key key, const char *value,
                      struct voice_session **out)
{
    *out = NULL;
    pthread_mutex_lock(&v->lock);
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++)
        n += !strcmp(key_of(&v->list[i], key), value);
    struct voice_session *copy = n ? malloc(n * sizeof *copy) : NULL;
    if (n && !copy) {
        pthread_mutex_unlock(&v->lock);
        return -1;
    }
    for (size_t i = 0, k = 0; k < n; i++)
        if (!strcmp(key_of(&v->list[i], key), value))
            copy[k++] = v->list[i];
    pthread_mutex_unlock(&v->lock);
    sort_by_joining(copy, n);
    *out = copy;
    return (long)n;
}

json_t *state_voice_participants_json(const struct voice_session *list, size_t n,
                                      int with_joined_at)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        const struct voice_session *s = &list[i];
        json_t *p = json_pack("{sssbsb}", "userId", s->user_id, "muted",
                              s->self_muted || !s->can_speak, "deafened", s->self_deafened);
        if (with_joined_at)
            json_object_set_new(p, "joinedAt", jsonout_time(s->joined_at));
        json_array_append_new(arr, p);
    }
    return arr;
}

char *state_voice_session_text(const struct voice_session *s)
{
    json_t *o =
        json_pack("{ss ss ss ss ss sb sb sb sb sI}", "s", s->server_id, "c", s->channel_id, "u",
                  s->user_id, "k", s->socket_id, "o", s->node, "b", s->is_bot, "m", s->self_muted,
                  "d", s->self_deafened, "p", s->can_speak, "j", (json_int_t)s->joined_at);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

int state_voice_session_parse(const char *text, size_t len, struct voice_session *out)
{
    json_t *o = json_loadb(text, len, 0, NULL);
    const char *sid, *cid, *uid, *sock, *node;
    int bot, muted, deaf, speak;
    json_int_t joined;
    int rc = json_unpack(o, "{ss ss ss ss ss sb sb sb sb sI}", "s", &sid, "c", &cid, "u", &uid, "k",
                         &sock, "o", &node, "b", &bot, "m", &muted, "d", &deaf, "p", &speak, "j",
                         &joined) ||
                     slice_copy(slice_from(sid), out->server_id, sizeof out->server_id) ||
                     slice_copy(slice_from(cid), out->channel_id, sizeof out->channel_id) ||
                     slice_copy(slice_from(uid), out->user_id, sizeof out->user_id) ||
                     slice_copy(slice_from(sock), out->socket_id, sizeof out->socket_id) ||
                     slice_copy(slice_from(node), out->node, sizeof out->node)
                 ? -1
                 : 0;
    if (!rc) {
        out->is_bot = bot;
        out->self_muted = muted;
        out->self_deafened = deaf;
        out->can_speak = speak;
        out->joined_at = joined;
    }
    json_decref(o);
    return rc;
}
