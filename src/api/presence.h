/*
 * Presence, live to people: PRESENCE_UPDATE {userId, status} goes to the people who share a
 * server with a user whose shown status changed (a first connection, the last one closing, a
 * bot's new status). Bounded so a popular bot's reconnects cost little: only the first
 * PRESENCE_SERVERS_MAX servers the user joined count, and a server of more than
 * --presence-people-max people (1000) gets none: its pages see the person's row move in the
 * member list they subscribe to (gateway/member_lists.h), which hears every change through
 * BUS_PRESENCE.
 */
#ifndef PRACA_API_PRESENCE_H
#define PRACA_API_PRESENCE_H
#include <stddef.h>

#include "api/api.h"
#include "core/uuid.h"
#include "state/watchers.h"

/* After a handler changed user_id's saved status: PRESENCE_UPDATE to its watchers. */
void api__presence_announce(struct api_call *c, const char *user_id);
/* PUT …/presence {status, activity?}: the caller's status, for bots and people alike. */
void api__presence_put(struct api_call *c);

#endif
