/*
 * A call past a mesh: when a voice channel's call holds more than --voice-mesh-max
 * participants (or always, with 0), its people's media go through an SFU (Janus's VideoRoom,
 * sfu_janus.h) instead of each page calling every other. A call stays on the SFU until it
 * empties, so that a call that shrinks does not switch back and forth. Bots keep their direct
 * links to each page (their WebRTC stacks speak no Janus): only people's media cross the SFU.
 *
 * Everything a participant needs is derived from --sfu-secret, so no node keeps a table of
 * rooms or tokens: a channel's room number and secret, and a participant's feed number and
 * room token, are HMACs of the channel and user IDs. A room token is on the room's allowed
 * list only from an admitted voice:join until that session ends (left, moved, kicked, rights
 * gone, disconnected): then it is removed and the feed kicked. Sessions run on the I/O thread;
 * Janus is reached from the gateway's SFU lane.
 */
#ifndef PRACA_GATEWAY_VOICE_SFU_H
#define PRACA_GATEWAY_VOICE_SFU_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "gateway/sfu_janus.h"

struct gateway;
struct voice_session;

struct voice_sfu {
    const char *api_url; /* Janus's HTTP API, Praça's alone; "" or NULL: no SFU */
    const char *ws_url;  /* where pages reach Janus's WebSocket */
    const char *secret;  /* Janus's token_auth_secret and the VideoRoom's admin_key */
    int mesh_max;        /* a call of more participants goes through the SFU; 0: every call */
    int ttl_seconds;     /* a page's Janus token lives this long (a join again renews it) */
};

/* NULL when the configuration holds together, else what is wrong with it. */
const char *gateway_sfu_problem(const struct voice_sfu *sfu);

/* What a participant of a channel's call is on the SFU. Feed and room numbers stay below 2^53,
 * so that a page's JavaScript reads them exactly. */
struct sfu_ids {
    struct sfu_room room;
    uint64_t feed;
    char token[SFU_HEX_MAX];
};
/* 0, or -1 when the secret or an ID is missing. */
int gateway__sfu_ids(const char *secret, const char *channel_id, const char *user_id,
                     struct sfu_ids *out);

/* On the I/O thread. Whether a call of n participants in channel_id is on the SFU now; the
 * call goes onto it past the mesh's size and leaves it when it empties. */
int gateway__sfu_on(struct gateway *gw, const char *channel_id, size_t n);
/* {media: "sfu", feeds: [{userId, feedId}], bots: [userId]} of a call on the SFU: whose stream
 * each feed is, and who is reached directly. NULL when out of memory. */
json_t *gateway__sfu_media_json(struct gateway *gw, const struct voice_session *list, size_t n);
/* {url, room, feedId, token, sessionToken, expiresAt} for s's page. NULL when out of memory. */
json_t *gateway__sfu_join_json(struct gateway *gw, const struct voice_session *s, int64_t now_ms);

/* Lets s into its call's room (made when missing); replaced is the feed of the page s replaced
 * (0: none), kicked first. then runs on the I/O thread with ok 1 or 0. */
typedef void (*sfu_admitted_fn)(struct gateway *gw, void *arg, int ok);
void gateway__sfu_admit(struct gateway *gw, const struct voice_session *s, uint64_t replaced,
                        sfu_admitted_fn then, void *arg);
/* s's session ended on this node: its token is taken off its room's list and its feed kicked;
 * the room goes when the call has emptied. Nothing when the call is not on the SFU. */
void gateway__sfu_gone(struct gateway *gw, const struct voice_session *s);

/* Starts the lane (gateway_new) and stops it (gateway_free); 0 or -1. */
int gateway__sfu_start(struct gateway *gw, const struct voice_sfu *cfg);
void gateway__sfu_stop(struct gateway *gw);

#endif
