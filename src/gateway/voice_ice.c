/* The ICE servers of a voice participant: see voice_ice.h. */
#include "gateway/voice_ice.h"

#include <stdio.h>
#include <string.h>

#include "core/crypto.h"
#include "core/uuid.h"

int gateway__turn_credential(const char *secret, const char *user_id, int64_t expires_at,
                             char username[VOICE_TURN_USERNAME_MAX],
                             char password[VOICE_TURN_PASSWORD_MAX])
{
    unsigned char mac[32];
    if (!secret || !*secret || !user_id || !uuid_valid(user_id, strlen(user_id)))
        return -1;
    int n = snprintf(username, VOICE_TURN_USERNAME_MAX, "%lld:%s", (long long)expires_at, user_id);
    if (n < 0 || n >= VOICE_TURN_USERNAME_MAX)
        return -1;
    int len = crypto_hmac("SHA1", secret, strlen(secret), username, (size_t)n, mac);
    if (len != 20)
        return -1;
    crypto_base64(mac, (size_t)len, password);
    return 0;
}

/* The comma-separated URLs as a JSON array (empty ones left out). */
static json_t *urls_of(const char *list)
{
    json_t *urls = json_array();
    for (const char *p = list ? list : ""; urls && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len && json_array_append_new(urls, json_stringn(p, len))) {
            json_decref(urls);
            return NULL;
        }
        p += len + (comma != NULL);
    }
    return urls;
}

json_t *gateway__ice_json(const struct voice_ice *ice, const char *user_id, int64_t now_ms)
{
    json_t *servers = json_array(), *stun = urls_of(ice->stun_urls),
           *turn = urls_of(ice->turn_urls);
    char username[VOICE_TURN_USERNAME_MAX], password[VOICE_TURN_PASSWORD_MAX];
    if (!servers || !stun || !turn)
        goto fail;
    if (json_array_size(stun))
        json_array_append_new(servers, json_pack("{sO}", "urls", stun));
    if (json_array_size(turn)) {
        int64_t expires = now_ms / 1000 + ice->ttl_seconds;
        if (gateway__turn_credential(ice->turn_secret, user_id, expires, username, password))
            goto fail;
        json_array_append_new(servers, json_pack("{sOssss}", "urls", turn, "username", username,
                                                 "credential", password));
    }
    json_decref(stun);
    json_decref(turn);
    return json_pack("{soss}", "iceServers", servers, "iceTransportPolicy",
                     ice->relay_only ? "relay" : "all");
fail:
    json_decref(servers);
    json_decref(stun);
    json_decref(turn);
    return NULL;
}

/* 1 when every URL of the list starts with one of the two schemes. */
static int schemes_are(const char *list, const char *a, const char *b)
{
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len && strncmp(p, a, strlen(a)) && strncmp(p, b, strlen(b)))
            return 0;
        p += len + (comma != NULL);
    }
    return 1;
}

const char *gateway_ice_problem(const struct voice_ice *ice)
{
    const char *stun = ice->stun_urls ? ice->stun_urls : "";
    const char *turn = ice->turn_urls ? ice->turn_urls : "";
    if (!schemes_are(stun, "stun:", "stuns:"))
        return "--stun-url: each URL starts with stun: or stuns:";
    if (!schemes_are(turn, "turn:", "turns:"))
        return "--turn-url: each URL starts with turn: or turns:";
    if (*turn && (!ice->turn_secret || !*ice->turn_secret))
        return "--turn-url needs --turn-secret (coturn's static-auth-secret)";
    if (ice->relay_only && !*turn)
        return "--voice-relay-only needs --turn-url";
    return NULL;
}
