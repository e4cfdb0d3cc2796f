/* Voice rights and the voice-members route: see voice.h. */
#include "api/limits.h"
#include "api/reply.h"
#include "api/voice.h"

#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/events.h"
#include "api/place.h"
#include "bus/bus.h"
#include "domain/intents.h"
#include "state/voice.h"

void api__voice_review_user(struct api_call *c, const char *user_id)
{
    struct bus_control ctl = {.all = 0};
    slice_copy(slice_from(user_id), ctl.user, sizeof ctl.user);
    api__event_control(c, BUS_KIND_VOICE_REVIEW, &ctl);
}

/* GET /api/bot/servers/:sid/channels/:cid/voice-members (a bot with voice.connect) and
 * GET /api/servers/:sid/channels/:cid/voice-members (a person who can see the channel). */
static void voice_members(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    if (c->me.is_bot && api__bot_intent(c, INTENT_VOICE_CONNECT)) {
        return;
    }
    if (strcmp(p.type, "voice")) {
        api__bad(c, "cid", "não é um canal de voz");
        return;
    }
    struct voice_session *list;
    long n = state_voice_list(c->svc->voice, VOICE_BY_CHANNEL, p.cid, &list);
    if (n < 0) {
        api__internal(c);
        return;
    }
    api__reply(c, 200,
               json_pack("{so}", "members", state_voice_participants_json(list, (size_t)n, 1)));
    free(list);
}

const struct api_route api_voice_routes[] = {
    API_ROUTE(GET, "/api/bot/servers/:sid/channels/:cid/voice-members", voice_members, API_BOT),
    API_ROUTE(GET, "/api/servers/:sid/channels/:cid/voice-members", voice_members, API_PERSON),
    {0},
};
