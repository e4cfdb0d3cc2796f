/*
 * Claiming an import's placeholder: the server's managers (GERENCIAR_SERVIDOR) make a code for
 * one placeholder (POST …/members/:uid/claim-code) and hand it to whoever wrote those messages
 * elsewhere, as a link (/app#claim=CODE); that person reads what it claims (GET /api/claims/:code)
 * and takes it (POST): the messages, reactions, nickname and roles become theirs, the
 * placeholder leaves, and they join the server if they were not in it. A person whose verified
 * address is the one the export gave a placeholder claims it without a code
 * (/api/users/@me/imported).
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/access.h"
#include "api/api.h"
#include "api/audit.h"
#include "api/events.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/jsonout.h"
#include "domain/permissions.h"
#include "store/claims.h"

#define CLAIM_AGE_MS   (7LL * 24 * 3600 * 1000)
#define CLAIM_CODE_MAX 64

/* The code's SHA-256 (codes are kept by it); 0, or -1 for what cannot be a code. */
static int code_hash(const char *code, char out[CRYPTO_SHA256_HEX + 1])
{
    size_t n = code ? strlen(code) : 0;
    if (n != CRYPTO_TOKEN_LEN)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char ch = code[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '-' || ch == '_'))
            return -1;
    }
    crypto_sha256_hex(code, n, out);
    return 0;
}

static void claim_code_create(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    const char *uid = sid ? api__param_id(c, "uid", "Membro não encontrado") : NULL;
    if (!uid)
        return;
    unsigned char raw[32];
    char code[CRYPTO_TOKEN_LEN + 1], hash[CRYPTO_SHA256_HEX + 1];
    crypto_random(raw, sizeof raw);
    code[crypto_base64url(raw, sizeof raw, code)] = 0;
    crypto_sha256_hex(code, strlen(code), hash);
    int64_t now = clock_now_ms();
    struct store_claim_code put = {.code_hash = hash,
                                   .server_id = sid,
                                   .user_id = uid,
                                   .by = c->me.user_id,
                                   .now = now,
                                   .expires_at = now + CLAIM_AGE_MS};
    int rc = store_claim_code_put(c->svc->writer, &put);
    if (api__store_answer(
            c, rc, &(struct api_store_words){.missing = "Membro não encontrado ou não importado"}))
        return;
    api__audit(c, sid, "member.claim_code", "member", uid, NULL);
    api__reply(c, 200,
               json_pack("{sssoso}", "code", code, "expiresAt", jsonout_time(put.expires_at),
                         "userId", json_string(uid)));
}

static void claim_get(struct api_call *c)
{
    char hash[CRYPTO_SHA256_HEX + 1];
    int rc = STORE_DONE;
    json_t *claim = code_hash(api__param(c, "code"), hash)
                        ? NULL
                        : store_claim_json(c->db, hash, clock_now_ms(), &rc);
    if (!claim && rc < 0)
        api__internal(c);
    else if (!claim)
        api__error(c, 404, "Código inválido ou expirado");
    else
        api__reply(c, 200, json_pack("{so}", "claim", claim));
}

/* A claim made: the server's pages and bots told, the audit log written, the answer. */
static void claimed(struct api_call *c, int rc, const struct store_claim_take *t)
{
    if (api__store_answer(
            c, rc,
            &(struct api_store_words){.missing = "Código inválido ou expirado",
                                      .refused = "Você não pode reivindicar estas mensagens aqui"}))
        return;
    api__event_member_remove(c, t->server_id, t->placeholder_id, "claimed");
    if (t->joined)
        api__event_member_add(c, t->server_id, c->me.user_id);
    api__event_server_changed(c, t->server_id, "members"); /* the pages read the authors again */
    api__audit(c, t->server_id, "member.claim", "member", c->me.user_id,
               json_pack("{sssI}", "placeholderId", t->placeholder_id, "messages",
                         (json_int_t)t->messages));
    api__reply(c, 200,
               json_pack("{s{sssssIsb}}", "claim", "serverId", t->server_id, "placeholderId",
                         t->placeholder_id, "messages", (json_int_t)t->messages, "joined",
                         t->joined));
}

static void claim_take(struct api_call *c)
{
    char hash[CRYPTO_SHA256_HEX + 1];
    if (code_hash(api__param(c, "code"), hash)) {
        api__error(c, 404, "Código inválido ou expirado");
        return;
    }
    struct store_claim_take t = {
        .code_hash = hash, .user_id = c->me.user_id, .now = clock_now_ms()};
    claimed(c, store_claim_take(c->svc->writer, &t), &t);
}

/* GET /api/users/@me/imported: the placeholders whose address is the caller's verified one. */
static void imported_list(struct api_call *c)
{
    api__reply_list(c, "placeholders", store_claims_by_email_json(c->db, c->me.user_id));
}

static void imported_take(struct api_call *c)
{
    const char *uid = api__param_id(c, "uid", "Código inválido ou expirado");
    if (!uid)
        return;
    struct store_claim_take t = {.user_id = c->me.user_id, .now = clock_now_ms()};
    snprintf(t.placeholder_id, sizeof t.placeholder_id, "%s", uid);
    claimed(c, store_claim_by_email(c->svc->writer, &t), &t);
}

const struct api_route api_claim_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/members/:uid/claim-code", claim_code_create, API_PERSON),
    API_ROUTE(GET, "/api/claims/:code", claim_get, API_PERSON),
    API_ROUTE(POST, "/api/claims/:code", claim_take, API_PERSON, .tells_bots = 1,
              .limit = &API_LIMIT_JOIN),
    API_ROUTE(GET, "/api/users/@me/imported", imported_list, API_PERSON),
    API_ROUTE(POST, "/api/users/@me/imported/:uid", imported_take, API_PERSON, .tells_bots = 1,
              .limit = &API_LIMIT_JOIN),
    {0},
};
