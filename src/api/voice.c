/* Voice rights and the voice-members route: see voice.h. */
#include "api/reply.h"
#include "api/voice.h"

#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/access.h"
#include "api/events.h"
#include "api/place.h"
#include "bus/bus.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "state/voice.h"
#include "store/apps.h"
#include "store/channels.h"

static enum voice_verdict judge(struct api_call *c, const char *user_id, int is_bot,
                                json_t *channel, struct voice_standing *out)
{
    const char *sid = json_string_value(json_object_get(channel, "serverId"));
    const char *type = json_string_value(json_object_get(channel, "type"));
    if (!sid || slice_copy(slice_from(sid), out->server_id, sizeof out->server_id))
        return VOICE_NO_CHANNEL;
    struct access a;
    int rc = api__access_quiet(c, sid, user_id, &a);
    if (rc)
        return rc < 0 ? VOICE_FAILED : VOICE_NOT_MEMBER;
    uint64_t perms = api__channel_perms(&a, channel);
    if (!(perms & PERM_VER_CANAL))
        return VOICE_HIDDEN;
    if (!type || strcmp(type, "voice"))
        return VOICE_NOT_VOICE;
    if (!(perms & PERM_CONECTAR_VOZ))
        return VOICE_NO_PERMISSION;
    if (is_bot) {
        struct store_app app;
        int found = store_app_find_by_bot(c->db, user_id, &app);
        uint32_t intents = app.intents;
        store_app_cleanup(&app);
        if (found <= 0)
            return found < 0 ? VOICE_FAILED : VOICE_NOT_MEMBER;
        if (!(intents & INTENT_VOICE_CONNECT))
            return VOICE_NO_INTENT;
    }
    out->can_speak = (perms & PERM_FALAR) != 0;
    return VOICE_ALLOWED;
}

void api_voice_standing(void *thread_ctx, const char *user_id, int is_bot, const char *channel_id,
                        struct voice_standing *out)
{
    struct api_call c = api__thread_call(thread_ctx);
    memset(out, 0, sizeof *out);
    int rc;
    json_t *channel = store_channel_json(c.db, channel_id, &rc);
    if (channel)
        out->verdict = judge(&c, user_id, is_bot, channel, out);
    else
        out->verdict = rc < 0 ? VOICE_FAILED : VOICE_NO_CHANNEL;
    if (out->verdict != VOICE_ALLOWED)
        out->can_speak = 0;
    json_decref(channel);
    store_read_release(c.db);
}

int api_voice_observers(void *thread_ctx, const char *server_id, const char *channel_id,
                        char (**to)[UUID_LEN + 1], size_t *n)
{
    struct api_call c = api__thread_call(thread_ctx);
    int failed;
    struct idset *set =
        api__audience_with_people(&c, server_id, channel_id, INTENT_VOICE_CONNECT, &failed);
    failed |= api__ids_array(set, to, n);
    idset_unref(set);
    store_read_release(c.db);
    return failed ? -1 : 0;
}

void api__voice_review_user(struct api_call *c, const char *user_id)
{
    api__event_control(c, BUS_VOICE_REVIEW, json_pack("{ss}", "userId", user_id));
}

/* GET /api/bot/servers/:sid/channels/:cid/voice-members (a bot with voice.connect) and
 * GET /api/servers/:sid/channels/:cid/voice-members (a person who can see the channel). */
static void voice_members(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    if (c->me.is_bot && api__bot_intent(c, INTENT_VOICE_CONNECT)) {
        api__place_cleanup(&p);
        return;
    }
    if (strcmp(p.type, "voice")) {
        api__place_cleanup(&p);
        api__bad(c, "cid", "não é um canal de voz");
        return;
    }
    struct voice_session *list;
    long n = state_voice_list(c->svc->voice, VOICE_BY_CHANNEL, p.cid, &list);
    api__place_cleanup(&p);
    if (n < 0) {
        api__internal(c);
        return;
    }
    api__reply(c, 200,
               json_pack("{so}", "members", state_voice_participants_json(list, (size_t)n, 1)));
    free(list);
}

const struct api_route api_voice_routes[] = {
    {HTTP_GET, "/api/bot/servers/:sid/channels/:cid/voice-members", voice_members, API_BOT,
     API_ON_WORKER, API_BODY_SMALL},
    {HTTP_GET, "/api/servers/:sid/channels/:cid/voice-members", voice_members, API_PERSON,
     API_ON_WORKER, API_BODY_SMALL},
    {0, NULL, NULL, 0, 0, 0},
};
