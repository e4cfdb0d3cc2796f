/*
 * Voice, as the API serves it: the request to check a user's voice sessions again that a
 * handler publishes, and the voice-members routes (voice.c). Whether a user may be in a voice
 * channel, and who watches its participants, are the state's answers (state/watchers.h).
 */
#ifndef PRACA_API_VOICE_H
#define PRACA_API_VOICE_H
#include "api/api.h"

/* Asks every node to check again one user's voice sessions: for a change that names no server
 * (an application's intents). What changes in a server is reviewed from the writer's change
 * marks (main.c), whatever route made it. */
void api__voice_review_user(struct api_call *c, const char *user_id);

#endif
