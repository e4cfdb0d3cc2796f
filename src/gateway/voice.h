/*
 * Voice signaling over the gateway (platform §8). Clients emit voice:join {channelId, muted?,
 * deafened?}, voice:leave {channelId?} and channel_voice:signal {channelId, toUserId, data};
 * each is answered through the acknowledgement when the client asks for one. The gateway sends
 * channel_voice:participants_update, channel_voice:signal, voice:permission_changed and
 * voice:session_ended. Whether someone may be in a channel is decided on a worker
 * (api/voice.h); no media is carried, only membership and signaling.
 */
#ifndef PRACA_GATEWAY_VOICE_H
#define PRACA_GATEWAY_VOICE_H
#include "bus/bus.h"
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct gateway;
struct conn;

/* Handles a client event when name is a voice event (returns 1), or returns 0. */
int gateway__voice_on_event(struct gateway *gw, struct conn *c, const char *name, json_t *payload,
                            int64_t ack_id, int natt);
/* Ends the sessions owned by a closing connection and frees its voice limits. */
void gateway__voice_on_disconnect(struct gateway *gw, struct conn *c);
/* Handles a BUS_VOICE_REVIEW control event: each node reviews its own connections' sessions. */
void gateway__voice_on_review(struct gateway *gw, const struct bus_control *c);
/* With several nodes, on the loop's thread: another node put or removed a session (its text;
 * self is this node's name), or stopped following (node; NULL: every other node). */
void gateway_voice_remote(struct gateway *gw, const char *text, size_t len, int removed,
                          const char *self);
void gateway_voice_remote_drop(struct gateway *gw, const char *node);

#endif
