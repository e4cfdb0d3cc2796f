/*
 * Praça's side of an SFU: Janus's VideoRoom plugin, reached over Janus's HTTP API, which only
 * Praça uses (pages reach Janus's WebSocket with the tokens Praça hands them). A call on the
 * SFU is one room, private, created with a secret only Praça knows; a participant's room token
 * is put on the room's allowed list when admitted and taken off, with the participant kicked,
 * when they leave or lose the right to be there. Every request carries a signed token of
 * Janus's token_auth_secret, and a room is created with the VideoRoom's admin_key: both are
 * Praça's --sfu-secret, so nobody without it can make a room or join one uninvited.
 *
 * Blocking calls: they run on the gateway's SFU lane, one thread, so that an admission and a
 * kick reach Janus in the order the gateway asked for them. The connection to Janus and its
 * Janus session are kept between calls (a session that timed out is made again).
 */
#ifndef PRACA_GATEWAY_SFU_JANUS_H
#define PRACA_GATEWAY_SFU_JANUS_H
#include <stddef.h>
#include <stdint.h>

#define SFU_HEX_MAX 33 /* 16 bytes in hex, and the NUL */

struct sfu_janus;

/* A call's room: its number in Janus and the secret that kicks and destroys. */
struct sfu_room {
    uint64_t id;
    char secret[SFU_HEX_MAX];
};

/* NULL when out of memory; the first call connects. */
struct sfu_janus *gateway__janus_open(const char *api_url, const char *secret);
void gateway__janus_close(struct sfu_janus *j);

/* Makes the room when it is not there (with a room for every publisher) and lets token in;
 * kicks replaced first (a participant whose page was replaced by another; 0 for none).
 * 0, or -1 when Janus refused or could not be reached. */
int gateway__janus_admit(struct sfu_janus *j, const struct sfu_room *room, const char *token,
                         uint64_t replaced);
/* Takes token off the room's list and kicks feed, and every participant whose feed is not
 * among keep (one who joined with an ID of their own choosing). 0, or -1. */
int gateway__janus_drop(struct sfu_janus *j, const struct sfu_room *room, const char *token,
                        uint64_t feed, const uint64_t *keep, size_t nkeep);
/* Destroys the room (the call emptied). 0, or -1. */
int gateway__janus_destroy(struct sfu_janus *j, const struct sfu_room *room);

/* Janus's signed token for "janus.plugin.videoroom" until expires_at (Unix seconds):
 * "EXPIRY,janus,janus.plugin.videoroom:" and the base64 of its HMAC-SHA1. 0, or -1. */
#define SFU_TOKEN_MAX 96
int gateway__janus_signed_token(const char *secret, int64_t expires_at, char out[SFU_TOKEN_MAX]);

#endif
