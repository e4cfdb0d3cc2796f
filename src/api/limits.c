/* The interface's table of request limits (per account, sliding windows). */
#include "api/reply.h"
#include "api/limits.h"

#include "state/ratelimit.h"

#include <http_parser.h>
#include <string.h>

#include "core/log.h"

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
const struct api_limit API_LIMIT_POLL_VOTE = {"poll-vote", 30, 10 * 1000};
/* Each join and leave is an event to every member and a row of the event log kept a day. */
const struct api_limit API_LIMIT_DM_OPEN = {"dm-open", 20, MINUTE_MS};
const struct api_limit API_LIMIT_JOIN = {"join", 20, MINUTE_MS};
const struct api_limit API_LIMIT_LEAVE = {"leave", 20, MINUTE_MS};
const struct api_limit API_LIMIT_AUTHORIZE_START = {"authorize-start", 60, MINUTE_MS};
const struct api_limit API_LIMIT_READ_MARK = {"read-mark", 60, MINUTE_MS};
const struct api_limit API_LIMIT_TYPING = {"typing", 10, 10 * 1000};
/* Each search reads up to --search-scan-rows messages (without words) or its words' matches. */
const struct api_limit API_LIMIT_SEARCH = {"search", 20, 10 * 1000};
const struct api_limit API_LIMIT_INVOKE = {"invoke", 20, 10 * 1000};
/* Suggestions while typing: the page asks at most once in flight, after a pause. */
const struct api_limit API_LIMIT_AUTOCOMPLETE = {"autocomplete", 40, 10 * 1000};

/* Writes with no limit of their own (roles, channels, overwrites, kicks, bans, settings …):
 * Discord's global 50 a second would let one account make 500 events in 10 s; this is a tenth. */
const struct api_limit API_LIMIT_WRITE = {"write", 50, 10 * 1000};
const struct api_limit API_LIMIT_KEYED_APART = {"keyed-apart", 0, 0};
const struct api_limit API_LIMIT_ONCE = {"once", 0, 0};

/* A webhook's posts (Discord's numbers): per webhook, and per channel whatever the webhook. */
const struct api_limit API_LIMIT_WEBHOOK = {"webhook", 5, 2 * 1000};
const struct api_limit API_LIMIT_WEBHOOK_CHANNEL = {"webhook-channel", 30, MINUTE_MS};

/* Every limit counted per account, for GET /api/bot/rate-limits. */
static const struct api_limit *const PER_ACCOUNT[] = {
    &API_LIMIT_BOT_SEND,        &API_LIMIT_BOT_EDIT,         &API_LIMIT_REACT,
    &API_LIMIT_POLL_VOTE,       &API_LIMIT_BOT_COMMANDS,     &API_LIMIT_PRESENCE,
    &API_LIMIT_GATEWAY_TICKETS, &API_LIMIT_HUMAN_SEND,       &API_LIMIT_HUMAN_EDIT,
    &API_LIMIT_TYPING,          &API_LIMIT_INVOKE,           &API_LIMIT_AUTOCOMPLETE,
    &API_LIMIT_READ_MARK,       &API_LIMIT_DM_OPEN,          &API_LIMIT_JOIN,
    &API_LIMIT_LEAVE,           &API_LIMIT_CREATE_SERVER,    &API_LIMIT_CREATE_INVITE,
    &API_LIMIT_AUTHORIZE_START, &API_LIMIT_COMPLETE_INSTALL, &API_LIMIT_CREATE_APPLICATION,
    &API_LIMIT_GENERATE_BOT,    &API_LIMIT_ROTATE_TOKEN,     &API_LIMIT_ROTATE_SIGNING,
    &API_LIMIT_ROTATE_CLIENT,   &API_LIMIT_TEST_ENDPOINT,    &API_LIMIT_WRITE,
    &API_LIMIT_SEARCH,
};

int api__route_mutates(const struct api_route *route)
{
    return route->method == HTTP_POST || route->method == HTTP_PUT || route->method == HTTP_PATCH ||
           route->method == HTTP_DELETE;
}

const struct api_limit *api__route_limit(const struct api_route *route)
{
    if (route->limit)
        return route->limit;
    return api__route_mutates(route) && route->auth != API_PUBLIC ? &API_LIMIT_WRITE : NULL;
}

int api__limit_write(struct api_call *c)
{
    const struct api_route *route = c->route ? c->route->handler : NULL;
    if (!route || route->limit || api__route_limit(route) != &API_LIMIT_WRITE)
        return 0;
    return api__limit_hit(c, &API_LIMIT_WRITE);
}

/* With several nodes a writer-lane route's limit is counted in Redis before the lane
 * (writer_lane.c), so that the writer never waits on the network; one counted by its handler
 * against a key of its own (a count of 0: an interaction's token) is not. */
const struct api_limit *api__limit_ahead(const struct api_route *route)
{
    const struct api_limit *l = api__lane(route) == API_ON_WRITER ? api__route_limit(route) : NULL;
    return l && l->count ? l : NULL;
}

/* The answer counted before the writer lane for this action, taken once; NULL when none. */
static const struct ratelimit_taken *taken_ahead(struct api_call *c, const struct api_limit *limit,
                                                 const char *key)
{
    struct ratelimit_taken *t = c->taken;
    if (!t || !state_ratelimit_taken_for(t, limit->action, key))
        return NULL;
    c->taken = NULL; /* used: not given back */
    return t;
}

int api__limit_hit_for(struct api_call *c, const struct api_limit *limit, const char *key)
{
    struct ratelimit_taken here;
    const struct ratelimit_taken *t = taken_ahead(c, limit, key);
    /* On the writer lane (c->held) only this node's window, should nothing have been counted
     * ahead (Redis too slow, or a limit its route does not name). */
    if (!t && c->held && state_ratelimit_shared(c->svc->limits) && c->route &&
        !api__limit_ahead(c->route->handler))
        log_error("api: %s counts %s on the writer lane, not the limit its route names",
                  c->route->pattern, limit->action);
    if (!t) {
        state_ratelimit_take(c->svc->limits, &API_ASK(limit, key),
                             RATELIMIT_RECORD | (c->held ? RATELIMIT_HERE : 0), &here);
        t = &here;
    }
    int64_t wait = t->wait;
    struct ratelimit_status st = t->st;
    if (!wait) {
        /* The answer tells what is left: of the limits passed, the one closest to its end. */
        uint32_t left = st.limit > st.used ? st.limit - st.used : 0;
        if (!c->budget.name || left < c->budget.remaining)
            c->budget = (struct api_budget){limit->action, st.limit, left, st.reset_ms};
        return 0;
    }
    c->budget.name = NULL; /* a 429 says nothing of budgets */
    api__rate_limited(c, wait);
    return -1;
}

int64_t api__limit_count(struct api_call *c, const struct api_limit *limit, const char *key,
                         int how)
{
    return state_ratelimit_take(c->svc->limits, &API_ASK(limit, key), how, NULL);
}

/* GET /api/bot/rate-limits: every per-account limit, what is left of it and when it refills. */
static void rate_limits(struct api_call *c)
{
    json_t *list = json_array();
    for (size_t i = 0; i < sizeof PER_ACCOUNT / sizeof *PER_ACCOUNT; i++) {
        const struct api_limit *l = PER_ACCOUNT[i];
        struct ratelimit_taken now;
        state_ratelimit_take(c->svc->limits, &API_ASK(l, c->me.user_id), RATELIMIT_CHECK, &now);
        struct ratelimit_status st = now.st;
        json_array_append_new(
            list, json_pack("{sssIsIsIsI}", "name", l->action, "limit", (json_int_t)st.limit,
                            "windowMs", (json_int_t)l->window_ms, "remaining",
                            (json_int_t)(st.limit > st.used ? st.limit - st.used : 0),
                            "resetAfterMs", (json_int_t)st.reset_ms));
    }
    api__reply(c, 200, json_pack("{so}", "limits", list));
}

const struct api_route api_limit_routes[] = {
    API_ROUTE(GET, "/api/bot/rate-limits", rate_limits, API_ANY),
    {0},
};

int api__limit_hit(struct api_call *c, const struct api_limit *limit)
{
    return api__limit_hit_for(c, limit, c->me.user_id);
}
