/* Who may be where, and who sees it: see watchers.h. */
#include "state/watchers.h"

#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "store/apps.h"
#include "store/perm_channels.h"
#include "store/servers.h"

/* A bot's standing also needs its application's voice.connect. */
static enum voice_verdict bot_verdict(struct store *db, const char *user_id)
{
    struct store_app app;
    int found = store_app_find_by_bot(db, user_id, &app);
    uint32_t intents = app.intents;
    store_app_cleanup(&app);
    if (found <= 0)
        return found < 0 ? VOICE_FAILED : VOICE_NOT_MEMBER;
    return intents & INTENT_VOICE_CONNECT ? VOICE_ALLOWED : VOICE_NO_INTENT;
}

static enum voice_verdict judge(struct state *s, struct store *db, const char *user_id, int is_bot,
                                const char *channel_id, struct voice_standing *out)
{
    struct store_perm_channels channel;
    int found = store_perm_channel_read(db, channel_id, &channel);
    if (found > 0)
        memcpy(out->server_id, channel.list[0].server_id, sizeof out->server_id);
    store_perm_channels_cleanup(&channel);
    if (found <= 0)
        return found < 0 ? VOICE_FAILED : VOICE_NO_CHANNEL;
    if (!out->server_id[0])
        return VOICE_NO_CHANNEL;
    struct state_server *srv = state_server(s, db, out->server_id, &found);
    if (!srv)
        return found < 0 ? VOICE_FAILED : VOICE_NOT_MEMBER;
    enum voice_verdict v = VOICE_ALLOWED;
    const struct state_member *m = state_server_member(srv, user_id);
    int64_t at = state_server_channel(srv, channel_id);
    uint64_t perms =
        m && at >= 0 ? state_server_channel_perms(srv, m, (size_t)at, clock_now_ms()) : 0;
    if (!m)
        v = VOICE_NOT_MEMBER;
    else if (at < 0)
        v = VOICE_NO_CHANNEL;
    else if (!(perms & PERM_VER_CANAL))
        v = VOICE_HIDDEN;
    else if (strcmp(srv->shape->channels[at].type, "voice"))
        v = VOICE_NOT_VOICE;
    else if (!(perms & PERM_CONECTAR_VOZ))
        v = VOICE_NO_PERMISSION;
    state_server_unref(srv);
    if (v == VOICE_ALLOWED && is_bot)
        v = bot_verdict(db, user_id);
    out->can_speak = (perms & PERM_FALAR) != 0;
    return v;
}

void state_voice_standing(struct state *s, struct store *db, const char *user_id, int is_bot,
                          const char *channel_id, struct voice_standing *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = judge(s, db, user_id, is_bot, channel_id, out);
    if (out->verdict != VOICE_ALLOWED)
        out->can_speak = 0;
    store_read_release(db);
}

int state_voice_observers(struct state *s, struct store *db, const char *server_id,
                          const char *channel_id, char (**to)[UUID_LEN + 1], size_t *n)
{
    *to = NULL;
    *n = 0;
    int found;
    struct state_server *srv = state_server(s, db, server_id, &found);
    store_read_release(db);
    if (!srv)
        return found < 0 ? -1 : 0;
    int64_t at = state_server_channel(srv, channel_id);
    struct idset *set =
        at < 0 ? NULL /* not a channel of the server: nobody */
               : state_server_audience_with_people(srv, at, INTENT_VOICE_CONNECT, clock_now_ms());
    state_server_unref(srv);
    if (at < 0)
        return 0;
    int failed = !set || idset_copy_out(set, to, n);
    idset_unref(set);
    return failed ? -1 : 0;
}

struct idset *state_presence_watchers(struct state *s, struct store *db, const char *user_id,
                                      size_t people_max)
{
    json_t *ids = store_server_ids_of_member(db, user_id, PRESENCE_SERVERS_MAX);
    size_t n = json_array_size(ids);
    struct idset **people = ids ? calloc(n ? n : 1, sizeof *people) : NULL;
    for (size_t i = 0; people && i < n; i++) {
        int found;
        const char *sid = json_string_value(json_object_get(json_array_get(ids, i), "id"));
        struct state_server *srv = state_server(s, db, sid, &found);
        people[i] = srv ? state_server_people(srv, -1, clock_now_ms()) : NULL;
        state_server_unref(srv);
    }
    struct idset *all = people ? idset_union(people, n, people_max, user_id) : NULL;
    for (size_t i = 0; people && i < n; i++)
        idset_unref(people[i]);
    free(people);
    json_decref(ids);
    store_read_release(db);
    return all;
}
