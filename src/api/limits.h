/* The request limits of the interface, one per account and kind of action. */
#ifndef PRACA_API_LIMITS_H
#define PRACA_API_LIMITS_H
#include <stdint.h>

#include "api/api.h"

struct api_limit {
    const char *action;
    uint32_t count;
    int64_t window_ms;
};
/* The count of limit l against key, as state_ratelimit_take asks it. */
#define API_ASK(l, key) ((struct ratelimit_ask){(l)->action, (key), (l)->count, (l)->window_ms})

extern const struct api_limit API_LIMIT_CREATE_APPLICATION;
extern const struct api_limit API_LIMIT_GENERATE_BOT;
extern const struct api_limit API_LIMIT_ROTATE_TOKEN;
extern const struct api_limit API_LIMIT_ROTATE_SIGNING;
extern const struct api_limit API_LIMIT_ROTATE_CLIENT;
extern const struct api_limit API_LIMIT_COMPLETE_INSTALL;
extern const struct api_limit API_LIMIT_BOT_SEND;
extern const struct api_limit API_LIMIT_BOT_EDIT;
extern const struct api_limit API_LIMIT_HUMAN_SEND;
extern const struct api_limit API_LIMIT_HUMAN_EDIT;
extern const struct api_limit API_LIMIT_PRESENCE;
extern const struct api_limit API_LIMIT_INVOKE;
extern const struct api_limit API_LIMIT_AUTOCOMPLETE;
extern const struct api_limit API_LIMIT_BOT_COMMANDS;
extern const struct api_limit API_LIMIT_GATEWAY_TICKETS;
extern const struct api_limit API_LIMIT_TEST_ENDPOINT;
extern const struct api_limit API_LIMIT_CREATE_SERVER;
extern const struct api_limit API_LIMIT_CREATE_INVITE;
extern const struct api_limit API_LIMIT_REACT;
extern const struct api_limit API_LIMIT_POLL_VOTE;
extern const struct api_limit API_LIMIT_AUTHORIZE_START;
extern const struct api_limit API_LIMIT_JOIN;
extern const struct api_limit API_LIMIT_DM_OPEN;
extern const struct api_limit API_LIMIT_LEAVE;
extern const struct api_limit API_LIMIT_READ_MARK;
extern const struct api_limit API_LIMIT_TYPING;
extern const struct api_limit API_LIMIT_SEARCH;

/* Every route that changes something and counts no limit of its own. */
extern const struct api_limit API_LIMIT_WRITE;
/* Named in a route, never counted: a public route behind limits of another kind (register and
 * login: per address and username; the test clock: only with --test-clock) … */
extern const struct api_limit API_LIMIT_KEYED_APART;
/* … and a route that acts once on something another limit made (an interaction's answer: one
 * per invocation, which counts API_LIMIT_INVOKE). */
extern const struct api_limit API_LIMIT_ONCE;

extern const struct api_limit API_LIMIT_WEBHOOK;
extern const struct api_limit API_LIMIT_WEBHOOK_CHANNEL;

/* Counts one action of the caller; when over the limit answers 429 and returns -1. */
int api__limit_hit(struct api_call *c, const struct api_limit *limit);
/* The same for another key than the caller (a webhook, a channel). */
int api__limit_hit_for(struct api_call *c, const struct api_limit *limit, const char *key);

/* 1 for a method that changes something (POST, PUT, PATCH, DELETE). */
int api__route_mutates(const struct api_route *route);
/* The limit a request of the route counts: its own, API_LIMIT_WRITE for one that changes
 * something and names none, or NULL (a read, or a public route that names none: a mistake the
 * unit tests catch). */
const struct api_limit *api__route_limit(const struct api_route *route);
/* Counts API_LIMIT_WRITE when the route falls back on it: 0, or -1 when it answered 429. */
int api__limit_write(struct api_call *c);

/* Counts (RATELIMIT_RECORD) or only looks at (RATELIMIT_CHECK) limit's window for key, answering
 * nothing: the milliseconds to wait, 0 when allowed. */
int64_t api__limit_count(struct api_call *c, const struct api_limit *limit, const char *key,
                         int how);

/* The limit a writer-lane route's handler counts against its caller, counted ahead with several
 * nodes (writer_lane.c); NULL when none. */
const struct api_limit *api__limit_ahead(const struct api_route *route);

#endif
