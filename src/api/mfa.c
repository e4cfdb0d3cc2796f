/*
 * Two-factor: what proves it (a TOTP code of the person's authenticator, or one of their
 * recovery codes, each good once), the recovery codes themselves (made when two-factor is turned
 * on, made anew on demand, shown only then), and turning it off with either proof.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "api/input.h"
#include "api/mfa.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "store/people.h"

/* 1 when code is the TOTP of this or a neighbouring step and newer than the last one used. */
static int totp_accept(struct api_call *c, const struct store_login *who, const char *code)
{
    if (strlen(code) != 6)
        return 0;
    long long want;
    if (slice_to_i64(slice_from(code), 0, 999999, &want))
        return 0;
    int64_t now_step = clock_now_ms() / TOTP_STEP_MS;
    for (int64_t step = now_step - 1; step <= now_step + 1; step++) {
        if (step <= who->mfa_last_step || crypto_totp_code(who->mfa_secret, step) != want)
            continue;
        return store_mfa_use_step(c->svc->writer, who->id, step) == 1;
    }
    return 0;
}

/* A recovery code as typed ("abcde-fghij", any case, spaces) into its stored SHA-256. */
static int recovery_hash(const char *code, char out[65])
{
    char norm[MFA_RECOVERY_LEN + 1];
    size_t n = 0;
    for (const char *p = code; *p; p++) {
        char ch = *p;
        if (ch == '-' || ch == ' ')
            continue;
        if (n == MFA_RECOVERY_LEN)
            return -1;
        norm[n++] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    }
    if (n != MFA_RECOVERY_LEN)
        return -1;
    norm[n] = '\0';
    crypto_sha256_hex(norm, n, out);
    return 0;
}

int api__mfa_accept(struct api_call *c, const struct store_login *who, const char *code)
{
    if (totp_accept(c, who, code))
        return 1;
    char hash[65];
    return !recovery_hash(code, hash) && store_mfa_recovery_use(c->svc->writer, who->id, hash) == 1;
}

json_t *api__mfa_new_recovery_codes(struct api_call *c)
{
    struct store_mfa_recovery set = {.user_id = c->me.user_id};
    json_t *codes = json_array();
    for (int i = 0; i < STORE_MFA_RECOVERY_CODES; i++) {
        unsigned char raw[8];
        char b32[32], shown[MFA_RECOVERY_LEN + 2];
        crypto_random(raw, sizeof raw);
        crypto_base32(raw, sizeof raw, b32);
        for (int k = 0; k < MFA_RECOVERY_LEN; k++)
            b32[k] = (char)(b32[k] >= 'A' && b32[k] <= 'Z' ? b32[k] - 'A' + 'a' : b32[k]);
        b32[MFA_RECOVERY_LEN] = '\0';
        snprintf(shown, sizeof shown, "%.5s-%.5s", b32, b32 + 5);
        recovery_hash(shown, set.hashes[i]);
        json_array_append_new(codes, json_string(shown));
    }
    if (store_mfa_recovery_replace(c->svc->writer, &set) < 0) {
        json_decref(codes);
        return NULL;
    }
    return codes;
}

/* The caller's login record, when two-factor is on; answers 409 (off) or 500 otherwise. */
static int enabled_login(struct api_call *c, struct store_login *who)
{
    int rc;
    json_t *user = store_user_json(c->db, c->me.user_id, &rc);
    char username[33] = "";
    if (user)
        slice_copy(slice_from(json_string_value(json_object_get(user, "username"))), username,
                   sizeof username);
    json_decref(user);
    if (!user || store_login_find(c->db, username, who) != 1) {
        api__internal(c);
        return -1;
    }
    if (!who->mfa_enabled) {
        api__error(c, 409, "A verificação em duas etapas não está ativa");
        return -1;
    }
    return 0;
}

/* The proof a change to two-factor asks for: {code}, a TOTP code or an unused recovery code. */
static int proven(struct api_call *c, struct store_login *who)
{
    json_t *body = api__body(c);
    const char *code;
    if (!body || api__in_str(c, body, "code", 1, 32, API_IN_REQUIRED, &code) < 0 ||
        enabled_login(c, who))
        return -1;
    if (!api__mfa_accept(c, who, code)) {
        api__bad(c, "code", "código inválido, expirado ou já usado");
        return -1;
    }
    return 0;
}

void api__mfa_recovery_codes(struct api_call *c)
{
    struct store_login who;
    if (proven(c, &who))
        return;
    json_t *codes = api__mfa_new_recovery_codes(c);
    if (!codes)
        api__internal(c);
    else
        api__reply(c, 200, json_pack("{so}", "recoveryCodes", codes));
}

void api__mfa_off(struct api_call *c)
{
    struct store_login who;
    if (proven(c, &who))
        return;
    int rc;
    json_t *user = store_mfa_disable(c->svc->writer, c->me.user_id) < 0
                       ? NULL
                       : store_user_json(c->db, c->me.user_id, &rc);
    if (!user)
        api__internal(c);
    else
        api__reply(c, 200, json_pack("{so}", "user", user));
}
