/*
 * A request's first stage: who calls. The credential (a bearer token, else the session cookie
 * with a same-origin check on writes), its owner (from memory, else the database), and whether
 * that owner may call the route (bots, people, suspended applications, expired sessions).
 */
#include "api/dispatch_parts.h"

#include <http_parser.h>
#include <string.h>

#include "api/reply.h"
#include "core/crypto.h"
#include "state/state.h"

static struct slice bearer_token(const struct http_request *req)
{
    struct slice h = http_request_header(req, "authorization");
    if (h.len > 7 && slice_eq_nocase((struct slice){h.ptr, 7}, "bearer "))
        return (struct slice){h.ptr + 7, h.len - 7};
    return (struct slice){NULL, 0};
}

static struct slice cookie_token(const struct http_request *req)
{
    struct slice h = http_request_header(req, "cookie");
    size_t i = 0;
    while (i < h.len) {
        while (i < h.len && (h.ptr[i] == ' ' || h.ptr[i] == ';'))
            i++;
        size_t start = i;
        while (i < h.len && h.ptr[i] != ';')
            i++;
        struct slice pair = {h.ptr + start, i - start};
        if (pair.len > 8 && memcmp(pair.ptr, "session=", 8) == 0)
            return (struct slice){pair.ptr + 8, pair.len - 8};
    }
    return (struct slice){NULL, 0};
}

struct slice api__request_token(const struct http_request *req, int *via_cookie)
{
    struct slice token = bearer_token(req);
    int cookie = !token.ptr;
    if (cookie)
        token = cookie_token(req);
    if (via_cookie)
        *via_cookie = cookie && token.ptr;
    return token;
}

static int same_origin(struct api_call *c)
{
    struct slice origin = http_request_header(c->req, "origin");
    if (!origin.ptr)
        return 0;
    if (c->svc->site_url[0] && slice_eq(origin, c->svc->site_url))
        return 1;
    struct slice host = http_request_header(c->req, "host");
    if (!host.ptr)
        return 0;
    static const char *schemes[] = {"http://", "https://"};
    for (int i = 0; i < 2; i++) {
        size_t sl = strlen(schemes[i]);
        if (origin.len == sl + host.len && memcmp(origin.ptr, schemes[i], sl) == 0 &&
            memcmp(origin.ptr + sl, host.ptr, host.len) == 0)
            return 1;
    }
    return 0;
}

int api__admit(struct api_call *c, enum api_auth need, const struct store_token_owner *owner)
{
    if (owner->is_bot && (owner->suspended || !owner->app_id[0])) {
        api__error(c, 401, "Token inválido: a aplicação está suspensa");
        return -1;
    }
    if (!owner->is_bot &&
        state_session_expired(c->svc->state, c->me.token_hash, owner->last_used)) {
        api__error(c, 401, "Sessão expirada: entre de novo");
        return -1;
    }
    memcpy(c->me.user_id, owner->user_id, sizeof c->me.user_id);
    memcpy(c->me.app_id, owner->app_id, sizeof c->me.app_id);
    c->me.is_bot = owner->is_bot;
    int safe = c->req->method == HTTP_GET || c->req->method == HTTP_HEAD;
    if (c->me.via_cookie && !safe && !same_origin(c)) {
        api__error(c, 403,
                   "Origem não permitida: requisições com cookie precisam de Origin do site");
        return -1;
    }
    if (need == API_PERSON && c->me.is_bot) {
        api__error(c, 403, "Rota não permitida para bots");
        return -1;
    }
    if (need == API_BOT && !c->me.is_bot) {
        api__error(c, 403, "Rota exclusiva de bots: use o token do bot");
        return -1;
    }
    return 0;
}

int api__credential(struct api_call *c)
{
    struct slice token = api__request_token(c->req, &c->me.via_cookie);
    if (!token.ptr || token.len == 0) {
        api__error(c, 401, "Não autenticado: envie o token em Authorization: Bearer");
        return -1;
    }
    if (token.len > TOKEN_MAX) {
        api__error(c, 401, "Token inválido");
        return -1;
    }
    crypto_sha256_hex(token.ptr, token.len, c->me.token_hash);
    return 0;
}

int api__authenticate(struct api_call *c, enum api_auth need)
{
    if (api__credential(c))
        return -1;
    struct store_token_owner owner;
    int rc = state_identity(c->svc->state, c->db, c->me.token_hash, &owner);
    if (rc < 0) { /* not a bad credential: one that cannot be checked now */
        api__busy(c, API_UNAVAILABLE);
        return -1;
    }
    if (rc == 0) {
        api__error(c, 401, "Token inválido");
        return -1;
    }
    return api__admit(c, need, &owner);
}

int api__still_admitted(struct api_call *c)
{
    const struct api_prepared *pre = c->pre;
    if (!pre || !pre->admitted || pre->identity_epoch != state_identity_epoch(c->svc->state))
        return 0;
    c->me = pre->me;
    return 1;
}
