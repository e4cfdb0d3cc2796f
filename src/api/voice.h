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

enum api_voice_verdict {
    VOICE_ALLOWED,
    VOICE_NO_CHANNEL,    /* no such channel */
    VOICE_NOT_VOICE,     /* not a voice channel */
    VOICE_NOT_MEMBER,    /* not (or no longer) a member of its server */
    VOICE_HIDDEN,        /* no VER_CANAL there */
    VOICE_NO_PERMISSION, /* no CONECTAR_VOZ there */
    VOICE_NO_INTENT,     /* a bot whose application has voice.connect off */
    VOICE_FAILED,        /* storage error */
};

struct api_voice_standing {
    enum api_voice_verdict verdict;
    char server_id[UUID_LEN + 1];
    int can_speak; /* FALAR there */
};

/* Where user_id stands in voice channel channel_id. thread_ctx is the worker's. */
void api_voice_standing(void *thread_ctx, const char *user_id, int is_bot, const char *channel_id,
                        struct api_voice_standing *out);
/* The status and message a refused voice:join gets. */
int api_voice_refusal(enum api_voice_verdict v, const char **message);
/* The bots with voice.connect that can see the channel, in a malloc'd array (*to, *n).
 * Returns 0 or -1. */
int api_voice_observers(void *thread_ctx, const char *server_id, const char *channel_id,
                        char (**to)[UUID_LEN + 1], size_t *n);

/* Asks the gateway to check again the voice sessions in a server, or those of one user. */
void api_voice_review_server(struct api_call *c, const char *server_id);
void api_voice_review_user(struct api_call *c, const char *user_id);

#endif
