/*
 * Events that handlers publish to the bus. The publisher resolves who receives each event
 * (bots in that server), so delivery needs no database.
 */
#ifndef PRACA_API_EVENTS_H
#define PRACA_API_EVENTS_H

#include "api/api.h"

/* GUILD_MEMBER_ADD with the member object of the new member. */
void api_event_member_add(struct api_call *c, const char *sid, const char *uid);
/* GUILD_MEMBER_REMOVE {serverId, userId, reason}; reason NULL when the member left. */
void api_event_member_remove(struct api_call *c, const char *sid, const char *uid,
                             const char *reason);

/* An event for one user's gateway connections (a person's or a bot's). Takes payload. */
void api_event_to_user(struct api_call *c, const char *name, const char *user_id, json_t *payload);

/* Closes the gateway connections of a user (only those made with token_hash when given). */
void api_event_disconnect(struct api_call *c, const char *user_id, const char *token_hash);

struct access;
/* The bots whose application has intent (a bit of domain/intents.h) that can see channel (an
 * object with its overwrites) of server sid, whose @everyone holds everyone. *to is malloc'd.
 * Returns 0 or -1. */
int api_bots_seeing(struct api_call *c, const char *sid, uint64_t everyone, json_t *channel,
                    uint32_t intent, char (**to)[UUID_LEN + 1], size_t *n);
/* A message event (MESSAGE_CREATE / UPDATE / DELETE) in a server channel: to the bots with
 * messages.read that can see that channel (computed with its overwrites). The caller's access
 * provides the server's @everyone bits. Takes payload. */
void api_event_message(struct api_call *c, const char *name, const struct access *a,
                       json_t *channel, json_t *payload);

#endif
