/*
 * The payloads of the voice client events (platform §8), checked with no I/O: voice:join
 * {channelId, muted?, deafened?}, voice:leave {channelId?} and channel_voice:signal
 * {channelId, toUserId, data}. Each reader returns 0, or the status to refuse with (400, or 413
 * for a signal too large) and err naming the field.
 */
#ifndef PRACA_DOMAIN_VOICE_RULES_H
#define PRACA_DOMAIN_VOICE_RULES_H
#include <jansson.h>

#include "core/uuid.h"
#include "domain/json_rules.h"

/* A signal's data, serialized, is at most this many bytes (an SDP offer is a few KiB). */
#define VOICE_SIGNAL_MAX (64 * 1024)

struct voice_join_req {
    char channel_id[UUID_LEN + 1];
    int muted;
    int deafened;
};

struct voice_leave_req {
    char channel_id[UUID_LEN + 1]; /* "" leaves every channel */
};

struct voice_signal_req {
    char channel_id[UUID_LEN + 1];
    char to_user_id[UUID_LEN + 1];
    json_t *data; /* borrowed from the payload */
};

/* Where a user stands in a voice channel, as the API decides it from rights and intents. */
enum voice_verdict {
    VOICE_ALLOWED,
    VOICE_NO_CHANNEL,    /* no such channel */
    VOICE_NOT_VOICE,     /* not a voice channel */
    VOICE_NOT_MEMBER,    /* not (or no longer) a member of its server */
    VOICE_HIDDEN,        /* no VER_CANAL there */
    VOICE_NO_PERMISSION, /* no CONECTAR_VOZ there */
    VOICE_NO_INTENT,     /* a bot whose application has voice.connect off */
    VOICE_FAILED,        /* storage error */
};

struct voice_standing {
    enum voice_verdict verdict;
    char server_id[UUID_LEN + 1];
    int can_speak; /* FALAR there */
};

/* The status and message for a refused voice:join (200 and NULL when it is allowed). */
int rule_voice_refusal(enum voice_verdict v, const char **message);

/* payload is the event's argument, NULL when there is none. */
int rule_voice_read_join(json_t *payload, struct voice_join_req *out, struct rule_error *err);
int rule_voice_read_leave(json_t *payload, struct voice_leave_req *out, struct rule_error *err);
/* attachments: how many binary attachments came with the event (refused). */
int rule_voice_read_signal(json_t *payload, int attachments, struct voice_signal_req *out,
                           struct rule_error *err);

#endif
