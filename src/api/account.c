/*
 * A person's sessions and password: sign out here, sign out everywhere, change the password
 * (which signs out every other session). The session cookie is set and cleared here.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "api/limits.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/events.h"
#include "api/presence.h"
#include "core/crypto.h"
#include "state/ratelimit.h"
#include "store/web_push.h"
#include "store/people.h"

/* Wrong current passwords per person: a stolen session guessing. */
static const struct api_limit PASSWORD_FAILURE = {"password-failure", 5, 10 * 60 * 1000};

/* "; Secure" when the site is served over https: the cookie then never travels in clear. */
void api__session_cookie(struct api_call *c, const char *token)
{
    const char *secure = strncmp(c->svc->site_url, "https://", 8) == 0 ? "; Secure" : "";
    char cookie[160];
    if (token)
        snprintf(cookie, sizeof cookie, "session=%s; HttpOnly; SameSite=Lax; Path=/%s", token,
                 secure);
    else
        snprintf(cookie, sizeof cookie, "session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0%s",
                 secure);
    http_response_add_header(c->res, "Set-Cookie", cookie);
}

static void auth_logout(struct api_call *c)
{
    if (store_token_delete(c->svc->writer, c->me.token_hash) < 0) {
        api__internal(c);
        return;
    }
    api__event_disconnect(c, c->me.user_id, c->me.token_hash);
    api__session_cookie(c, NULL);
    api__ok(c);
}

static void auth_logout_everywhere(struct api_call *c)
{
    int64_t revoked = 0;
    /* Signed out everywhere, no device hears of the person any more either. */
    if (store_sessions_revoke(c->svc->writer, c->me.user_id, NULL, &revoked) < 0 ||
        store_push_subs_forget(c->svc->writer, c->me.user_id) != STORE_DONE) {
        api__internal(c);
        return;
    }
    api__event_disconnect(c, c->me.user_id, NULL);
    api__session_cookie(c, NULL);
    api__reply(c, 200, json_pack("{sbsI}", "ok", 1, "revoked", (json_int_t)revoked));
}

int api__password_ok(struct api_call *c, const char *password, const char *field)
{
    int64_t wait = api__limit_count(c, &PASSWORD_FAILURE, c->me.user_id, RATELIMIT_CHECK);
    if (wait > 0) {
        api__rate_limited(c, wait);
        return 0;
    }
    char hash[CRYPTO_PASSWORD_MAX];
    int rc = store_password_hash(c->db, c->me.user_id, hash);
    if (rc != 1) {
        api__internal(c);
        return 0;
    }
    if (crypto_password_verify(password, strlen(password), hash) != 1) {
        api__limit_count(c, &PASSWORD_FAILURE, c->me.user_id, RATELIMIT_RECORD);
        api__bad(c, field, "senha incorreta");
        return 0;
    }
    return 1;
}

/* Changes the password and ends every other session: whoever else held one is out. */
static void password_change(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *current, *fresh;
    if (!body || api__in_str(c, body, "currentPassword", 0, 1024, API_IN_REQUIRED, &current) < 0 ||
        api__in_str(c, body, "newPassword", 8, 128, API_IN_REQUIRED, &fresh) < 0 ||
        !api__password_ok(c, current, "currentPassword"))
        return;
    char hash[CRYPTO_PASSWORD_MAX];
    if (crypto_password_hash(fresh, strlen(fresh), hash)) {
        api__internal(c);
        return;
    }
    int64_t revoked = 0;
    if (store_password_set(c->svc->writer, c->me.user_id, hash) < 0 ||
        store_sessions_revoke(c->svc->writer, c->me.user_id, c->me.token_hash, &revoked) < 0) {
        api__internal(c);
        return;
    }
    api__event_disconnect_others(c, c->me.user_id, c->me.token_hash);
    api__reply(c, 200, json_pack("{sbsI}", "ok", 1, "revoked", (json_int_t)revoked));
}

/* GET /api/users/@me/sessions: where the person is signed in, this session marked. */
static void sessions_list(struct api_call *c)
{
    json_t *list = store_sessions_json(c->db, c->me.user_id, c->me.token_hash);
    if (!list) {
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{so}", "sessions", list));
}

/* DELETE /api/users/@me/sessions/:id: that session ends, its sockets close. */
static void session_end(struct api_call *c)
{
    const char *id = api__param(c, "id");
    char hash[65];
    int found = id && strlen(id) == 16 ? store_session_by_id(c->db, c->me.user_id, id, hash) : 0;
    if (found < 0) {
        api__internal(c);
        return;
    }
    if (!found) {
        api__error(c, 404, "Sessão não encontrada");
        return;
    }
    if (store_token_delete(c->svc->writer, hash) < 0) {
        api__internal(c);
        return;
    }
    api__event_disconnect(c, c->me.user_id, hash);
    if (!strcmp(hash, c->me.token_hash))
        api__session_cookie(c, NULL); /* this one: signed out here too */
    api__ok(c);
}

/* DELETE /api/users/@me/sessions: every session but this one ends. */
static void sessions_end_others(struct api_call *c)
{
    int64_t revoked = 0;
    if (store_sessions_revoke(c->svc->writer, c->me.user_id, c->me.token_hash, &revoked) < 0) {
        api__internal(c);
        return;
    }
    api__event_disconnect_others(c, c->me.user_id, c->me.token_hash);
    api__reply(c, 200, json_pack("{sbsI}", "ok", 1, "revoked", (json_int_t)revoked));
}

const struct api_route api_account_routes[] = {
    API_ROUTE(POST, "/api/auth/logout", auth_logout, API_PERSON),
    API_ROUTE(POST, "/api/auth/logout-everywhere", auth_logout_everywhere, API_PERSON),
    API_ROUTE(POST, "/api/users/@me/password", password_change, API_PERSON, .hashes = 1),
    API_ROUTE(PUT, "/api/users/@me/presence", api__presence_put, API_PERSON,
              .limit = &API_LIMIT_PRESENCE),
    API_ROUTE(GET, "/api/users/@me/sessions", sessions_list, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/sessions", sessions_end_others, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/sessions/:id", session_end, API_PERSON),
    {0},
};
