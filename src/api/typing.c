/* Typing indicators: TYPING_START, live to the people who can see where someone is about to
 * speak. Allowed only where that caller could send the message; never logged nor replayed, and
 * bots do not get it. */
#include <http_parser.h>

#include "api/api.h"
#include "api/events.h"
#include "api/limits.h"
#include "api/messages.h"
#include "api/place.h"
#include "api/reply.h"
#include "core/clock.h"

static void channel_typing(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    if (!api__send_allowed(c, &p) && !api__limit_hit(c, &API_LIMIT_TYPING)) {
        int thread = p.parent_id != NULL;
        api__event_people(c, "TYPING_START", &p, NULL,
                          json_pack("{sssssosssI}", "serverId", p.sid, "channelId",
                                    thread ? p.parent_id : p.cid, "threadId",
                                    thread ? json_string(p.cid) : json_null(), "userId",
                                    c->me.user_id, "at", (json_int_t)clock_now_ms()));
        api__ok(c);
    }
}

const struct api_route api_typing_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/typing", channel_typing, API_ANY,
              .limit = &API_LIMIT_TYPING),
    {0},
};
