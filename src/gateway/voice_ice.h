/*
 * Where a voice participant's browser finds the others: the ICE servers handed out with each
 * voice:join answer. TURN credentials follow the TURN REST API scheme that coturn's
 * use-auth-secret checks: the username is "EXPIRY:USER_ID" (Unix seconds), the password the
 * base64 of HMAC-SHA1(secret, username), so coturn needs no database and a credential expires
 * by itself.
 */
#ifndef PRACA_GATEWAY_VOICE_ICE_H
#define PRACA_GATEWAY_VOICE_ICE_H
#include <jansson.h>
#include <stdint.h>

struct voice_ice {
    const char *stun_urls;   /* comma-separated; "" or NULL for none */
    const char *turn_urls;   /* comma-separated; "" or NULL for none */
    const char *turn_secret; /* needed with turn_urls */
    int ttl_seconds;         /* a TURN credential's life */
    int relay_only;          /* iceTransportPolicy "relay": no participant learns another's IP */
};

#define VOICE_TURN_USERNAME_MAX 64
#define VOICE_TURN_PASSWORD_MAX 32 /* base64 of 20 bytes: 28 and the NUL */

/* The TURN credential of user_id valid until expires_at (Unix seconds). 0, or -1 when the
 * secret or the user cannot make one. */
int gateway__turn_credential(const char *secret, const char *user_id, int64_t expires_at,
                             char username[VOICE_TURN_USERNAME_MAX],
                             char password[VOICE_TURN_PASSWORD_MAX]);
/* {iceServers: [{urls: […]}, {urls: […], username, credential}], iceTransportPolicy} for user_id
 * at now_ms; iceServers is empty when nothing is configured (host candidates only). NULL when
 * out of memory. */
json_t *gateway__ice_json(const struct voice_ice *ice, const char *user_id, int64_t now_ms);
/* NULL when the configuration holds together, else what is wrong with it. */
const char *gateway_ice_problem(const struct voice_ice *ice);

#endif
