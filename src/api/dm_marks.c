/*
 * Reactions and pins in a DM, as in a channel: either person reacts to or pins any message of
 * their conversation, and both see it live. There is no permission to hold and no timeout in a
 * DM; the limits are the channel routes' (reactions' own, pins the write limit). Bots have no
 * DMs, so none of this reaches a bot.
 */
#include <http_parser.h>
#include <string.h>

#include "api/api.h"
#include "api/dm.h"
#include "api/events.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "store/channels.h"
#include "store/messages.h"

/* :mid when it is a message of DM cid; NULL when it has answered 404 (or 500). */
static const char *dm_message(struct api_call *c, const char *cid)
{
    const char *mid = api__param_id(c, "mid", "Mensagem não encontrada");
    if (!mid)
        return NULL;
    int in = store_message_in_channel(c->db, mid, cid);
    if (in < 0)
        api__internal(c);
    else if (!in)
        api__error(c, 404, "Mensagem não encontrada");
    return in == 1 ? mid : NULL;
}

/* The change, live, to the two people of the conversation. */
static void tell_both(struct api_call *c, const char *cid, const char *name, const char *mid,
                      json_t *payload)
{
    struct idset *people = store_dm_people(c->db, cid);
    if (people)
        api__event_dm(c, name, cid, mid, people, payload);
    else
        json_decref(payload);
}

static void dm_react(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c), *mid, *emoji, *custom;
    json_t *body;
    if (!cid || !(mid = dm_message(c, cid)) || !(body = api__body(c)) ||
        api__in_reaction(c, body, &emoji, &custom) ||
        api__custom_emoji_usable(c, NULL, mid, custom) || api__limit_hit(c, &API_LIMIT_REACT))
        return;
    struct store_reaction_toggle t = {.message_id = mid,
                                      .channel_id = cid,
                                      .emoji = emoji,
                                      .custom_emoji_id = custom,
                                      .user_id = c->me.user_id,
                                      .now = clock_now_ms()};
    if (api__store_answer(
            c, store_reaction_toggle(c->svc->writer, &t),
            &(struct api_store_words){.full = "emoji: a mensagem já tem 20 reações diferentes"}))
        return;
    tell_both(c, cid, "MESSAGE_REACTIONS_UPDATE", mid,
              api__reaction_change(NULL, cid, mid, emoji, custom, c->me.user_id, t.count, t.added));
    api__reply_list(c, "reactions", store_reactions_json(c->db, mid));
}

static void dm_pin(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c), *mid;
    if (!cid || !(mid = dm_message(c, cid)))
        return;
    struct store_pin_toggle t = {.message_id = mid, .channel_id = cid, .pinned = 0};
    if (api__store_answer(
            c, store_pin_toggle(c->svc->writer, &t),
            &(struct api_store_words){
                .missing = "Mensagem não encontrada",
                .full = "messageId: a conversa já tem o máximo de 50 mensagens fixadas"}))
        return;
    tell_both(c, cid, "CHANNEL_PINS_UPDATE", mid, api__pin_change(NULL, cid, mid, t.pinned));
    api__reply(c, 200, json_pack("{sb}", "pinned", t.pinned));
}

static void dm_pins(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c);
    if (!cid)
        return;
    json_t *list = store_messages_pinned(c->db, cid);
    if (list)
        api__reply(c, 200, json_pack("{so}", "messages", list));
    else
        api__internal(c);
}

const struct api_route api_dm_mark_routes[] = {
    API_ROUTE(POST, "/api/dms/:cid/messages/:mid/react", dm_react, API_PERSON,
              .limit = &API_LIMIT_REACT),
    API_ROUTE(POST, "/api/dms/:cid/messages/:mid/pin", dm_pin, API_PERSON),
    API_ROUTE(GET, "/api/dms/:cid/pins", dm_pins, API_PERSON),
    {0},
};
