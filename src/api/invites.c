/* Invites: create (CRIAR_CONVITE), list and revoke (GERENCIAR_SERVIDOR), look one up, and join
 * through one. */
#include <http_parser.h>
#include <string.h>

#include "core/jsonout.h"
#include "api/audit.h"
#include "api/access.h"
#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/events.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "domain/permissions.h"
#include "store/members.h"

#define INVITE_CODE_LEN 10
#define INVITE_AGE_MAX  (7LL * 24 * 3600) /* seconds */
/* An invite nobody gave an age to ends in 7 days, as Discord's: a link pasted somewhere public
 * stops working on its own; 0 asks for one that never ends. */
#define INVITE_AGE_DEFAULT INVITE_AGE_MAX

static void invite_code(char out[INVITE_CODE_LEN + 1])
{
    static const char alphabet[] = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    unsigned char raw[INVITE_CODE_LEN];
    crypto_random(raw, sizeof raw);
    for (int i = 0; i < INVITE_CODE_LEN; i++)
        out[i] = alphabet[raw[i] % (sizeof alphabet - 1)];
    out[INVITE_CODE_LEN] = '\0';
}

static void invite_create(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_CRIAR_CONVITE);
    if (!sid)
        return;
    int64_t max_uses = 0, max_age = INVITE_AGE_DEFAULT;
    json_t *body = c->req->body.len ? api__body(c) : NULL;
    if (c->req->body.len &&
        (!body || api__in_int(c, body, "maxUses", 0, 100, API_IN_NULLABLE, &max_uses) < 0 ||
         api__in_int(c, body, "maxAgeSeconds", 0, INVITE_AGE_MAX, API_IN_NULLABLE, &max_age) < 0))
        return;
    if (api__limit_hit(c, &API_LIMIT_CREATE_INVITE))
        return;
    char code[INVITE_CODE_LEN + 1];
    invite_code(code);
    int64_t expires = max_age ? clock_now_ms() + max_age * 1000 : 0;
    if (store_invite_create(c->svc->writer, code, sid, c->me.user_id, max_uses, expires) < 0) {
        api__internal(c);
        return;
    }
    api__audit_object(c, sid, "invite.create", "invite", code,
                      json_pack("{sIso}", "maxUses", (json_int_t)max_uses, "expiresAt",
                                expires ? jsonout_time(expires) : json_null()),
                      0);
    api__reply(c, 200,
               json_pack("{sssIso}", "code", code, "maxUses", (json_int_t)max_uses, "expiresAt",
                         expires ? jsonout_time(expires) : json_null()));
}

static int code_ok(const char *code)
{
    size_t n = strlen(code);
    if (n == 0 || n > 32)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = code[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')))
            return 0;
    }
    return 1;
}

static void invite_get(struct api_call *c)
{
    const char *code = api__param(c, "code");
    int rc = STORE_DONE;
    json_t *inv = code_ok(code) ? store_invite_json(c->db, code, clock_now_ms(), &rc) : NULL;
    if (!inv) {
        if (rc < 0)
            api__internal(c);
        else
            api__error(c, 404, "Convite inválido ou expirado");
        return;
    }
    api__reply(c, 200, json_pack("{so}", "invite", inv));
}

static void invite_join(struct api_call *c)
{
    const char *code = api__param(c, "code");
    if (!code_ok(code)) {
        api__error(c, 404, "Convite inválido ou expirado");
        return;
    }
    if (api__limit_hit(c, &API_LIMIT_JOIN))
        return;
    struct store_invite_join j = {.code = code, .user_id = c->me.user_id, .now = clock_now_ms()};
    int rc = store_invite_join(c->svc->writer, &j);
    if (api__store_answer(c, rc,
                          &(struct api_store_words){.missing = "Convite inválido ou expirado",
                                                    .refused = "Você foi banido deste servidor"}))
        return;
    if (rc == 1)
        api__event_member_add(c, j.server_id, c->me.user_id);
    api__reply_server_view(c, j.server_id);
}

static void invite_list(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    if (!sid)
        return;
    api__reply_list(c, "invites", store_invites_json(c->db, sid, clock_now_ms()));
}

static void invite_delete(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    if (!sid)
        return;
    const char *code = api__param(c, "code");
    int rc = code_ok(code) ? store_invite_delete(c->svc->writer, sid, code) : 0;
    if (rc < 0)
        api__internal(c);
    else if (!rc)
        api__error(c, 404, "Convite não encontrado");
    else {
        api__audit(c, sid, "invite.delete", "invite", code, NULL);
        api__ok(c);
    }
}

const struct api_route api_invite_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/invites", invite_create, API_ANY,
              .limit = &API_LIMIT_CREATE_INVITE),
    API_ROUTE(GET, "/api/servers/:sid/invites", invite_list, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/invites/:code", invite_delete, API_ANY),
    API_ROUTE(GET, "/api/invites/:code", invite_get, API_PUBLIC),
    API_ROUTE(POST, "/api/invites/:code/join", invite_join, API_PERSON, .tells_bots = 1,
              .limit = &API_LIMIT_JOIN),
    {0},
};
