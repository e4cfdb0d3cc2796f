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

/* payload is the event's argument, NULL when there is none. */
int voice_read_join(json_t *payload, struct voice_join_req *out, struct rule_error *err);
int voice_read_leave(json_t *payload, struct voice_leave_req *out, struct rule_error *err);
/* attachments: how many binary attachments came with the event (refused). */
int voice_read_signal(json_t *payload, int attachments, struct voice_signal_req *out,
                      struct rule_error *err);

#endif
