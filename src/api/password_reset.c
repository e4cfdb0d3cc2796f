/*
 * POST /api/auth/reset-password {token, newPassword}: a one-time link from `praca admin
 * reset-password` sets a new password; every session of the person ends. Public, on the
 * password-hashing pool; each address gets a few attempts a minute, like login.
 */
#include <http_parser.h>
#include <string.h>

#include "api/api.h"
#include "api/events.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "state/ratelimit.h"
#include "store/password_resets.h"

static const struct api_limit RESET_ADDRESS = {"reset-address", 10, 60 * 1000};

static void reset_password(struct api_call *c)
{
    int64_t wait = api__limit_count(c, &RESET_ADDRESS, c->req->peer, RATELIMIT_RECORD);
    if (wait > 0) {
        api__rate_limited(c, wait);
        return;
    }
    json_t *body = api__json_body_only(c);
    const char *token, *fresh;
    if (!body || api__in_str(c, body, "token", 1, 128, API_IN_REQUIRED, &token) < 0 ||
        api__in_str(c, body, "newPassword", 8, 128, API_IN_REQUIRED, &fresh) < 0)
        return;
    char token_hash[CRYPTO_SHA256_HEX + 1], hash[CRYPTO_PASSWORD_MAX], user_id[64];
    crypto_sha256_hex(token, strlen(token), token_hash);
    /* A link that is not there costs no password hash. */
    int rc = store_password_reset_usable(c->db, token_hash, clock_now_ms());
    int64_t revoked = 0;
    if (rc == STORE_RESET_DONE && crypto_password_hash(fresh, strlen(fresh), hash))
        rc = STORE_ERR;
    if (rc == STORE_RESET_DONE)
        rc = store_password_reset_use(c->svc->writer, token_hash, hash, clock_now_ms(), user_id,
                                      &revoked);
    if (rc == STORE_RESET_UNKNOWN)
        api__error(c, 404, "Link de redefinição inválido");
    else if (rc == STORE_RESET_GONE)
        api__error(c, 410, "Este link já foi usado ou expirou");
    else if (rc != STORE_RESET_DONE)
        api__internal(c);
    else {
        api__event_disconnect(c, user_id, NULL); /* its sockets close with its sessions */
        api__reply(c, 200, json_pack("{sbsI}", "ok", 1, "revoked", (json_int_t)revoked));
    }
}

const struct api_route api_password_reset_routes[] = {
    API_ROUTE(POST, "/api/auth/reset-password", reset_password, API_PUBLIC, .hashes = 1,
              .limit = &API_LIMIT_KEYED_APART),
    {0},
};
