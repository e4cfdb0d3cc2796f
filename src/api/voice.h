/*
 * Voice, as the API decides it: whether a user may be in a voice channel (asked by the gateway
 * on a worker thread when someone joins, and again after a change of rights), which bots watch
 * a channel's participants, and the requests for such a check that handlers publish.
 * The route GET /api/bot/servers/:sid/channels/:cid/voice-members lives in voice.c too.
 */
#ifndef PRACA_API_VOICE_H
#define PRACA_API_VOICE_H
#include <stddef.h>

#include "api/api.h"
#include "core/uuid.h"
#include "domain/voice_rules.h"

/* Where user_id stands in voice channel channel_id. thread_ctx is the worker's. */
void api_voice_standing(void *thread_ctx, const char *user_id, int is_bot, const char *channel_id,
                        struct voice_standing *out);
/* The bots with voice.connect and the people that can see the channel, in a malloc'd array
 * (*to, *n). Returns 0 or -1. */
int api_voice_observers(void *thread_ctx, const char *server_id, const char *channel_id,
                        char (**to)[UUID_LEN + 1], size_t *n);

/* Asks every node to check again one user's voice sessions: for a change that names no server
 * (an application's intents). What changes in a server is reviewed from the writer's change
 * marks (main.c), whatever route made it. */
void api__voice_review_user(struct api_call *c, const char *user_id);

#endif
