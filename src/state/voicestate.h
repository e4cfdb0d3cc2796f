/*
 * Who is in which voice channel. The gateway (I/O thread) adds and removes sessions as people
 * and bots join and leave; the API (worker threads) reads a channel's members. One mutex.
 *
 * A user holds at most one session per server, owned by the gateway connection that joined;
 * joining another channel of that server moves the session. Sessions live in one array kept in
 * joining order and scanned linearly: a voice channel holds a handful of people, and a scan of
 * thousands of sessions takes microseconds.
 */
#ifndef PRACA_STATE_VOICESTATE_H
#define PRACA_STATE_VOICESTATE_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/uuid.h"

#define VOICE_SOCKET_ID_MAX 32

struct voice_session {
    char server_id[UUID_LEN + 1];
    char channel_id[UUID_LEN + 1];
    char user_id[UUID_LEN + 1];
    char socket_id[VOICE_SOCKET_ID_MAX]; /* the connection that joined */
    int is_bot;
    int self_muted;
    int self_deafened;
    int can_speak; /* FALAR in the channel; without it the participant shows as muted */
    int64_t joined_at;
};

/* What voicestate_list matches on. */
enum voice_key { VOICE_BY_CHANNEL, VOICE_BY_SERVER, VOICE_BY_USER, VOICE_BY_SOCKET };

struct voicestate;

struct voicestate *voicestate_new(void);
void voicestate_free(struct voicestate *v);

/* Adds s, or replaces the user's session in s's server. A rejoin of the same channel keeps its
 * joined_at. Returns 1 when a session was replaced (*before gets it), 0 when added, -1 when out
 * of memory. */
int voicestate_put(struct voicestate *v, const struct voice_session *s,
                   struct voice_session *before);
/* Removes the user's session in a server: 1 (with *out) or 0. */
int voicestate_remove(struct voicestate *v, const char *user_id, const char *server_id,
                      struct voice_session *out);
/* The user's session in a channel: 1 (with *out) or 0. */
int voicestate_find(struct voicestate *v, const char *user_id, const char *channel_id,
                    struct voice_session *out);
/* Sets can_speak of the user's session in channel_id. Returns 1 when it changed. */
int voicestate_set_can_speak(struct voicestate *v, const char *user_id, const char *channel_id,
                             int can_speak);
/* Copies the sessions whose key is value into a new array, in joining order (*out, free() it;
 * NULL when there are none). Returns how many, or -1 when out of memory. */
long voicestate_list(struct voicestate *v, enum voice_key key, const char *value,
                     struct voice_session **out);

/* [{userId, muted, deafened}] of sessions (with joinedAt when with_joined_at). */
json_t *voice_participants_json(const struct voice_session *list, size_t n, int with_joined_at);

#endif
