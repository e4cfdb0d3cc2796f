/*
 * Installing a bot: the consent page calls start (who, what, where to), then complete (which
 * server, which bits were left checked). Granted = requested ∩ the installer's permissions in
 * that server ∩ what was left checked; computed here, never trusted from the client.
 * An authorize session belongs to the person who started it, lasts 10 minutes, works once.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonout.h"
#include "api/audit.h"
#include "api/access.h"
#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/voice.h"
#include "api/events.h"
#include "api/limits.h"
#include "core/clock.h"
#include "domain/permissions.h"
#include "domain/text.h"
#include "store/apps.h"
#include "store/installs.h"
#include "store/servers.h"
#include "state/state.h"
#include "state/server.h"

#define SESSION_LIFETIME_MS (10 * 60 * 1000)
#define STATE_MAX           500

/* Reads a query parameter, URL-decoded, into out; 0 absent, 1 present, -1 answered 400. */
static int query(struct api_call *c, const char *name, char *out, size_t cap)
{
    struct slice raw;
    if (!http_query_param(c->req->query, name, &raw))
        return 0;
    size_t len;
    if (http_url_decode(raw, out, cap, &len)) {
        api__bad(c, name, "valor inválido ou longo demais");
        return -1;
    }
    if (strlen(out) != len) { /* a %00 would cut it short without a word */
        api__bad(c, name, "não pode ter o caractere nulo");
        return -1;
    }
    return 1;
}

/* Servers where this person may install: owner, or GERENCIAR_SERVIDOR. */
static json_t *installable_servers(struct api_call *c)
{
    json_t *mine = store_servers_of_user(c->db, c->me.user_id);
    if (!mine)
        return NULL;
    json_t *out = json_array();
    size_t i;
    json_t *s;
    json_array_foreach(mine, i, s)
    {
        const char *sid = json_string_value(json_object_get(s, "id"));
        struct access a;
        int rc = api__access_quiet(c, sid, c->me.user_id, &a);
        if (rc < 0) {
            json_decref(mine);
            json_decref(out);
            return NULL;
        }
        if (rc == 0 && (a.base & PERM_GERENCIAR_SERVIDOR))
            json_array_append_new(out, json_pack("{sOsOsO}", "id", json_object_get(s, "id"), "name",
                                                 json_object_get(s, "name"), "iconUrl",
                                                 json_object_get(s, "iconUrl")));
    }
    json_decref(mine);
    return out;
}

static int redirect_registered(const struct store_app *app, const char *uri)
{
    size_t i;
    json_t *v;
    json_array_foreach(app->redirect_uris, i, v) if (!strcmp(json_string_value(v), uri)) return 1;
    return 0;
}

static void authorize_start(struct api_call *c)
{
    char client_id[64], redirect_uri[2049], perms_text[32], state[2048];
    int has_client, has_redirect, has_perms, has_state;
    if ((has_client = query(c, "client_id", client_id, sizeof client_id)) < 0 ||
        (has_redirect = query(c, "redirect_uri", redirect_uri, sizeof redirect_uri)) < 0 ||
        (has_perms = query(c, "permissions", perms_text, sizeof perms_text)) < 0 ||
        (has_state = query(c, "state", state, sizeof state)) < 0)
        return;
    if (!has_client || !*client_id) {
        api__bad(c, "client_id", "obrigatório");
        return;
    }
    if (!has_redirect || !*redirect_uri) {
        api__bad(c, "redirect_uri", "obrigatório");
        return;
    }
    long long requested = 0;
    if (has_perms && *perms_text &&
        (slice_to_i64(slice_from(perms_text), 0, (long long)PERM_ALL, &requested))) {
        api__bad(c, "permissions", "deve ser um número inteiro de 0 a 524287");
        return;
    }
    if (has_state && rule_text_chars(state, strlen(state)) > STATE_MAX) {
        api__bad(c, "state", "deve ter no máximo 500 caracteres");
        return;
    }
    if (api__limit_hit(c, &API_LIMIT_AUTHORIZE_START))
        return;
    struct store_app app;
    int found = store_app_find_by_client(c->db, client_id, &app);
    if (found < 0) {
        api__internal(c);
        return;
    }
    int owner = found && !strcmp(app.owner_id, c->me.user_id);
    if (!found)
        api__error(c, 404, "Aplicação não encontrada");
    else if (app.suspended)
        api__error(c, 403, "Esta aplicação está suspensa");
    else if (!app.is_public && !owner)
        api__error(c, 403, "Esta aplicação é privada: só o dono pode instalá-la");
    else if (!app.bot_user_id[0])
        api__bad(c, "client_id", "a aplicação não tem bot");
    else if (!redirect_registered(&app, redirect_uri))
        api__bad(c, "redirect_uri", "não é idêntica a uma URL registrada na aplicação");
    if (c->answered) {
        store_app_cleanup(&app);
        return;
    }
    json_t *servers = installable_servers(c);
    char id[UUID_LEN + 1];
    uuid_v7(id);
    int64_t now = clock_now_ms(), expires = now + SESSION_LIFETIME_MS;
    if (!servers || store_authorize_create(c->svc->writer, id, app.id, c->me.user_id, redirect_uri,
                                           has_state ? state : NULL, requested, now, expires) < 0) {
        json_decref(servers);
        store_app_cleanup(&app);
        api__internal(c);
        return;
    }
    int rc;
    json_t *full = store_app_json(c->db, app.id, NULL, &rc);
    json_t *summary = json_pack("{sssOsOsOsO}", "id", app.id, "name", json_object_get(full, "name"),
                                "iconUrl", json_object_get(full, "iconUrl"), "description",
                                json_object_get(full, "description"), "botUsername",
                                json_object_get(full, "botUsername"));
    json_decref(full);
    api__reply(c, 200,
               json_pack("{sssosIsoso}", "authorizeSessionId", id, "expiresAt",
                         jsonout_time(expires), "requestedPermissions", (json_int_t)requested,
                         "application", summary, "servers", servers));
    store_app_cleanup(&app);
}

/* redirect_uri with only the state added (when there is one). */
static char *redirect_url(const struct store_authorize *s)
{
    struct buf b;
    buf_init(&b, 16384);
    buf_append_str(&b, s->redirect_uri);
    if (s->has_state) {
        buf_append_str(&b, strchr(s->redirect_uri, '?') ? "&state=" : "?state=");
        static const char hex[] = "0123456789ABCDEF";
        for (const unsigned char *p = (const unsigned char *)s->state; *p; p++) {
            if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                *p == '-' || *p == '_' || *p == '.' || *p == '~') {
                buf_append(&b, p, 1);
            } else {
                char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
                buf_append(&b, esc, 3);
            }
        }
    }
    return buf_detach(&b, NULL);
}

/* A server holds at most --server-bots-max bots; a bot already there may be installed again
 * (its permissions change). Answers 400 when full. From memory: a few installs at once on
 * several nodes may pass it by as many. */
static int bots_full(struct api_call *c, const char *sid, const char *app_id)
{
    int found, full = 0;
    struct state_server *srv = state_server(c->svc->state, c->db, sid, &found);
    if (!srv) {
        api__internal(c);
        return -1;
    }
    int64_t max = c->svc->cfg->server_bots_max;
    if (!state_server_installed(srv, app_id) && (int64_t)state_server_install_count(srv) >= max) {
        char msg[80];
        snprintf(msg, sizeof msg, "Este servidor já tem o máximo de %lld bots", (long long)max);
        api__error(c, 400, msg);
        full = -1;
    }
    state_server_unref(srv);
    return full;
}

/* The authorization's last step, its application loaded: installs it in a->server_id with the
 * permissions asked for that the installer holds, and answers where the browser goes next. */
static void install(struct api_call *c, const struct store_authorize *s, const struct access *a,
                    const struct store_app *app, uint64_t asked)
{
    static const struct api_store_words words = {
        .missing = "Sessão de autorização inválida, expirada ou já usada",
        .refused = "O bot desta aplicação foi banido deste servidor"};
    if (app->suspended) {
        api__error(c, 403, "Esta aplicação está suspensa");
        return;
    }
    if (api__limit_hit(c, &API_LIMIT_COMPLETE_INSTALL) || bots_full(c, a->server_id, app->id))
        return;
    uint64_t granted = asked & a->base;
    char role_name[200], role_id[UUID_LEN + 1];
    snprintf(role_name, sizeof role_name, "Bot: %s", app->name);
    uuid_v7(role_id);
    struct store_install in = {.app_id = app->id,
                               .server_id = a->server_id,
                               .bot_user_id = app->bot_user_id,
                               .role_name = role_name,
                               .installer_id = c->me.user_id,
                               .new_role_id = role_id,
                               .session_id = s->id,
                               .granted = (int64_t)granted,
                               .now = clock_now_ms()};
    if (api__store_answer(c, store_install(c->svc->writer, &in), &words))
        return;
    api__audit(
        c, a->server_id, "application.install", "application", app->id,
        json_pack("[{sssnsI}]", "key", "grantedPermissions", "old", "new", (json_int_t)granted));
    if (in.created)
        api__event_member_add(c, a->server_id, app->bot_user_id);
    char *url = redirect_url(s);
    api__reply(c, 200,
               json_pack("{s:s, s:{s:s, s:I}}", "redirectUrl", url ? url : s->redirect_uri,
                         "install", "serverId", a->server_id, "grantedPermissions",
                         (json_int_t)granted));
    free(url);
}

static void authorize_complete(struct api_call *c)
{
    const char *session_id =
        api__param_id(c, "authorizeSessionId", "Sessão de autorização inválida");
    if (!session_id)
        return;
    struct store_authorize s;
    int found = store_authorize_find(c->db, session_id, &s);
    if (found < 0) {
        api__internal(c);
        return;
    }
    if (!found || s.used || s.expires_at <= clock_now_ms() || strcmp(s.user_id, c->me.user_id)) {
        api__error(c, 404, "Sessão de autorização inválida, expirada ou já usada");
        return;
    }
    json_t *body = api__body(c);
    const char *sid;
    uint64_t checked = 0;
    int has_checked;
    if (!body || api__in_id(c, body, "serverId", API_IN_REQUIRED, &sid) < 0 ||
        (has_checked = api__in_perms(c, body, "permissions", API_IN_NULLABLE, &checked)) < 0)
        return;
    struct access a;
    int rc = api__access_quiet(c, sid, c->me.user_id, &a);
    if (rc < 0) {
        api__internal(c);
        return;
    }
    if (rc > 0) { /* not a member (or no such server): the session stays pending */
        api__error(c, 403, "Sem permissão: é preciso GERENCIAR_SERVIDOR neste servidor");
        return;
    }
    if (api__require(c, &a, PERM_GERENCIAR_SERVIDOR))
        return;
    struct store_app app;
    found = store_app_find(c->db, s.app_id, &app);
    if (found < 0)
        api__internal(c);
    else if (!found || !app.bot_user_id[0])
        api__error(c, 404, "Sessão de autorização inválida, expirada ou já usada");
    else
        install(c, &s, &a, &app, (uint64_t)s.requested & (has_checked == 1 ? checked : PERM_ALL));
    store_app_cleanup(&app);
}

const struct api_route api_oauth_routes[] = {
    API_ROUTE(GET, "/api/oauth2/authorize/start", authorize_start, API_PERSON,
              .limit = &API_LIMIT_AUTHORIZE_START),
    API_ROUTE(POST, "/api/oauth2/authorize/:authorizeSessionId/complete", authorize_complete,
              API_PERSON, .tells_bots = 1, .limit = &API_LIMIT_COMPLETE_INSTALL),
    {0},
};
