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
extern const struct api_limit API_LIMIT_AUTHORIZE_START;
extern const struct api_limit API_LIMIT_JOIN;
extern const struct api_limit API_LIMIT_DM_OPEN;
extern const struct api_limit API_LIMIT_LEAVE;
extern const struct api_limit API_LIMIT_READ_MARK;
extern const struct api_limit API_LIMIT_TYPING;

extern const struct api_limit API_LIMIT_WEBHOOK;
extern const struct api_limit API_LIMIT_WEBHOOK_CHANNEL;

/* Counts one action of the caller; when over the limit answers 429 and returns -1. */
int api__limit_hit(struct api_call *c, const struct api_limit *limit);
/* The same for another key than the caller (a webhook, a channel). */
int api__limit_hit_for(struct api_call *c, const struct api_limit *limit, const char *key);

/* The limit a writer-lane route's handler counts against its caller, counted ahead with several
 * nodes (dispatch.c); NULL when none. */
const struct api_limit *api__limit_ahead(const struct api_route *route);
/* 0 when every such limit names a writer-lane route, else -1 (logged). */
int api__limits_ahead_valid(void);

#endif
