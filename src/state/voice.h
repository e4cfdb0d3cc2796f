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
#define VOICE_NODE_MAX      17 /* a node's name in the relay (bus/relay.h), and its NUL */

struct voice_session {
    char server_id[UUID_LEN + 1];
    char channel_id[UUID_LEN + 1];
    char user_id[UUID_LEN + 1];
    char socket_id[VOICE_SOCKET_ID_MAX]; /* the connection that joined */
    char node[VOICE_NODE_MAX];           /* "" when that connection is this node's */
    int is_bot;
    int self_muted;
    int self_deafened;
    int can_speak; /* FALAR in the channel; without it the participant shows as muted */
    int64_t joined_at;
};

/* What state_voice_list matches on. */
enum voice_key { VOICE_BY_CHANNEL, VOICE_BY_SERVER, VOICE_BY_USER, VOICE_BY_SOCKET, VOICE_ALL };
/* VOICE_ALL matches every session when given the value "". */

struct state_voice;

struct state_voice *state_voice_new(void);
void state_voice_free(struct state_voice *v);

/* With several nodes: told of each change to this node's own sessions (a put, or a removal,
 * replaced or moved away included), under the lock: fn must only queue. */
typedef void (*voicestate_change_fn)(void *arg, const struct voice_session *s, int removed);
void state_voice_on_change(struct state_voice *v, voicestate_change_fn fn, void *arg);
/* Another node's change (s->node names the node that holds it, "" for this one): a put replaces
 * the user's session in that server, whichever node held it (this node's own is then told as
 * removed); a removal removes it only while that node still holds it. Returns 1 when a session
 * was replaced or removed (*before), 0 when one was added, -1 when nothing changed. */
int state_voice_apply(struct state_voice *v, const struct voice_session *s, int removed,
                      struct voice_session *before);
/* Removes every session of node (NULL: of every other node); copies of them in *out (free() it)
 * and how many, or -1 when out of memory. */
long state_voice_drop_node(struct state_voice *v, const char *node, struct voice_session **out);

/* A session as the relay carries it, and back: 0, or -1 when the text is not one. */
char *state_voice_session_text(const struct voice_session *s);
int state_voice_session_parse(const char *text, size_t len, struct voice_session *out);

/* Adds s, or replaces the user's session in s's server. A rejoin of the same channel keeps its
 * joined_at. Returns 1 when a session was replaced (*before gets it), 0 when added, -1 when out
 * of memory. */
int state_voice_put(struct state_voice *v, const struct voice_session *s,
                    struct voice_session *before);
/* Removes the user's session in a server: 1 (with *out) or 0. */
int state_voice_remove(struct state_voice *v, const char *user_id, const char *server_id,
                       struct voice_session *out);
/* The user's session in a channel: 1 (with *out) or 0. */
int state_voice_find(struct state_voice *v, const char *user_id, const char *channel_id,
                     struct voice_session *out);
/* Sets can_speak of the user's session in channel_id. Returns 1 when it changed. */
int state_voice_set_can_speak(struct state_voice *v, const char *user_id, const char *channel_id,
                              int can_speak);
/* Copies the sessions whose key is value into a new array, in joining order (*out, free() it;
 * NULL when there are none). Returns how many, or -1 when out of memory. */
long state_voice_list(struct state_voice *v, enum voice_key key, const char *value,
                      struct voice_session **out);

/* [{userId, muted, deafened}] of sessions (with joinedAt when with_joined_at). */
json_t *state_voice_participants_json(const struct voice_session *list, size_t n,
                                      int with_joined_at);

#endif
