/*
 * DELETE /api/users/@me {password, code?}: a person deletes their account. The password (and
 * two-factor's code when it is on) proves it is them; a server they own must be handed over or
 * deleted first (409 names them). Then they leave every server, their applications are deleted,
 * their sessions, profile, picture, blocks, links and read marks are erased, and their sockets
 * close. The account's row stays as "Conta apagada" so that what they wrote keeps an author; its
 * name is held for 30 days (store/accounts.h).
 */
#include <http_parser.h>
#include <string.h>

#include "api/api.h"
#include "api/events.h"
#include "api/input.h"
#include "api/installs.h"
#include "api/mfa.h"
#include "api/reply.h"
#include "core/clock.h"
#include "store/accounts.h"
#include "store/apps.h"
#include "store/members.h"
#include "store/people.h"
#include "store/servers.h"

/* With two-factor on, the code too (a recovery code does): 0, or -1 when it has answered. */
static int second_factor(struct api_call *c, const char *code)
{
    int rc;
    json_t *me = store_user_json(c->db, c->me.user_id, &rc);
    struct store_login who;
    int found =
        me ? store_login_find(c->db, json_string_value(json_object_get(me, "username")), &who) : -1;
    json_decref(me);
    if (found != 1) {
        api__internal(c);
        return -1;
    }
    if (!who.mfa_enabled)
        return 0;
    if (!code) {
        api__error_flag(c, 401, "Código de dois fatores obrigatório", "mfaRequired");
        return -1;
    }
    if (!api__mfa_accept(c, &who, code)) {
        api__bad(c, "code", "código inválido, expirado ou já usado");
        return -1;
    }
    return 0;
}

/* 0 when the person owns no server; else answered 409 with the servers. */
static int owns_nothing(struct api_call *c)
{
    json_t *owned = store_servers_owned_json(c->db, c->me.user_id);
    if (!owned) {
        api__internal(c);
        return -1;
    }
    if (!json_array_size(owned)) {
        json_decref(owned);
        return 0;
    }
    api__reply(c, 409,
               json_pack("{ssso}", "error",
                         "Transfira ou apague antes os servidores de que você é dono", "servers",
                         owned));
    return -1;
}

static int leave_servers(struct api_call *c)
{
    json_t *servers = store_servers_of_user(c->db, c->me.user_id);
    size_t i;
    json_t *s;
    int rc = servers ? 0 : -1;
    json_array_foreach(servers, i, s)
    {
        const char *sid = json_string_value(json_object_get(s, "id"));
        int64_t changes = 0;
        if (store_member_remove(c->svc->writer, sid, c->me.user_id, &changes) < 0) {
            rc = -1;
            break;
        }
        if (changes)
            api__event_person_removed(c, sid, c->me.user_id, NULL);
    }
    json_decref(servers);
    if (rc)
        api__internal(c);
    return rc;
}

static int delete_apps(struct api_call *c)
{
    json_t *ids = store_apps_owned_ids(c->db, c->me.user_id);
    if (!ids) {
        api__internal(c);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; !rc && i < json_array_size(ids); i++) {
        struct store_app app;
        int found = store_app_find(c->db, json_string_value(json_array_get(ids, i)), &app);
        if (found < 0) {
            api__internal(c);
            rc = -1;
        } else if (found) {
            rc = api__app_remove(c, &app);
            store_app_cleanup(&app);
        }
    }
    json_decref(ids);
    return rc;
}

static void account_delete(struct api_call *c)
{
    json_t *body = api__json_body_only(c);
    const char *password, *code = NULL;
    if (!body || api__in_str(c, body, "password", 0, 1024, API_IN_REQUIRED, &password) < 0 ||
        api__in_str(c, body, "code", 1, 32, API_IN_NULLABLE, &code) < 0 ||
        !api__password_ok(c, password, "password") || second_factor(c, code) || owns_nothing(c) ||
        leave_servers(c) || delete_apps(c))
        return;
    struct store_account_erase e = {c->me.user_id, clock_now_ms()};
    if (store_account_erase(c->svc->writer, &e) < 0) {
        api__internal(c);
        return;
    }
    api__event_disconnect(c, c->me.user_id, NULL);
    api__session_cookie(c, NULL);
    api__ok(c);
}

const struct api_route api_account_delete_routes[] = {
    API_ROUTE(DELETE, "/api/users/@me", account_delete, API_PERSON, .hashes = 1),
    {0},
};
