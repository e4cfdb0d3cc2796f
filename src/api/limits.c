/* The interface's table of request limits (per account, sliding windows). */
#include "api/reply.h"
#include "api/limits.h"

#include "state/ratelimit.h"

#define HOUR_MS   (3600 * 1000)
#define MINUTE_MS (60 * 1000)

const struct api_limit API_LIMIT_CREATE_APPLICATION = {"create-application", 10, HOUR_MS};
const struct api_limit API_LIMIT_GENERATE_BOT = {"generate-bot", 10, HOUR_MS};
const struct api_limit API_LIMIT_ROTATE_TOKEN = {"rotate-bot-token", 20, HOUR_MS};
const struct api_limit API_LIMIT_ROTATE_SIGNING = {"rotate-signing-secret", 20, HOUR_MS};
const struct api_limit API_LIMIT_ROTATE_CLIENT = {"rotate-client-secret", 20, HOUR_MS};
const struct api_limit API_LIMIT_COMPLETE_INSTALL = {"complete-install", 30, HOUR_MS};
const struct api_limit API_LIMIT_BOT_SEND = {"bot-send", 10, 10 * 1000};
const struct api_limit API_LIMIT_BOT_EDIT = {"bot-edit", 10, 10 * 1000};
const struct api_limit API_LIMIT_HUMAN_SEND = {"send", 10, 10 * 1000};
const struct api_limit API_LIMIT_HUMAN_EDIT = {"edit", 10, 10 * 1000};
const struct api_limit API_LIMIT_PRESENCE = {"presence", 30, MINUTE_MS};
const struct api_limit API_LIMIT_BOT_COMMANDS = {"bot-commands", 20, MINUTE_MS};
const struct api_limit API_LIMIT_GATEWAY_TICKETS = {"gateway-tickets", 30, MINUTE_MS};
const struct api_limit API_LIMIT_TEST_ENDPOINT = {"test-endpoint", 10, MINUTE_MS};
const struct api_limit API_LIMIT_CREATE_SERVER = {"create-server", 10, HOUR_MS};
const struct api_limit API_LIMIT_CREATE_INVITE = {"create-invite", 50, HOUR_MS};
const struct api_limit API_LIMIT_REACT = {"react", 30, 10 * 1000};
/* Each join and leave is an event to every member and a row of the event log kept a day. */
const struct api_limit API_LIMIT_DM_OPEN = {"dm-open", 20, MINUTE_MS};
const struct api_limit API_LIMIT_JOIN = {"join", 20, MINUTE_MS};
const struct api_limit API_LIMIT_LEAVE = {"leave", 20, MINUTE_MS};
const struct api_limit API_LIMIT_AUTHORIZE_START = {"authorize-start", 60, MINUTE_MS};
const struct api_limit API_LIMIT_READ_MARK = {"read-mark", 60, MINUTE_MS};
const struct api_limit API_LIMIT_TYPING = {"typing", 10, 10 * 1000};
const struct api_limit API_LIMIT_INVOKE = {"invoke", 20, 10 * 1000};
/* Suggestions while typing: the page asks at most once in flight, after a pause. */
const struct api_limit API_LIMIT_AUTOCOMPLETE = {"autocomplete", 40, 10 * 1000};

/* A webhook's posts (Discord's numbers): per webhook, and per channel whatever the webhook. */
const struct api_limit API_LIMIT_WEBHOOK = {"webhook", 5, 2 * 1000};
const struct api_limit API_LIMIT_WEBHOOK_CHANNEL = {"webhook-channel", 30, MINUTE_MS};

int api__limit_hit_for(struct api_call *c, const struct api_limit *limit, const char *key)
{
    int64_t wait =
        state_ratelimit_hit(c->svc->limits, limit->action, key, limit->count, limit->window_ms);
    if (!wait)
        return 0;
    api__rate_limited(c, wait);
    return -1;
}

int api__limit_hit(struct api_call *c, const struct api_limit *limit)
{
    return api__limit_hit_for(c, limit, c->me.user_id);
}
