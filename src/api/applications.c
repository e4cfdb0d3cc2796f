/*
 * Application management, for the human owner only: someone else's application answers 404
 * on every route. Secrets and tokens are shown once, in the answer that makes them.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonout.h"
#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/applications.h"
#include "api/voice.h"
#include "api/endpoint.h"
#include "api/events.h"
#include "api/installs.h"
#include "api/limits.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "domain/intents.h"
#include "domain/text.h"
#include "domain/urls.h"
#include "store/apps.h"
#include "store/installs.h"
#include "store/commands.h"
#include "store/interactions.h"

#define DESCRIPTION_MAX   400
#define REDIRECT_URIS_MAX 10
#define NOT_FOUND         "Aplicação não encontrada"

static json_t *app_json(struct api_call *c, const char *id)
{
    int rc;
    json_t *app = store_app_json(c->db, id, c->me.user_id, &rc);
    return app ? api__app_view(app) : NULL;
}

static void reply_app(struct api_call *c, int status, const char *id)
{
    json_t *app = app_json(c, id);
    if (!app) {
        api__internal(c);
        return;
    }
    api__reply(c, status, json_pack("{so}", "application", app));
}

/* Loads :id when it is the caller's application; otherwise answers 404. */
int api__owned_app(struct api_call *c, struct store_app *app)
{
    memset(app, 0, sizeof *app);
    const char *id = api__param_id(c, "id", NOT_FOUND);
    if (!id)
        return -1;
    int found = store_app_find(c->db, id, app);
    if (found < 0) {
        api__internal(c);
        return -1;
    }
    if (!found || strcmp(app->owner_id, c->me.user_id) != 0) {
        store_app_cleanup(app);
        api__error(c, 404, NOT_FOUND);
        return -1;
    }
    return 0;
}

typedef void (*owned_handler)(struct api_call *c, struct store_app *app);

/* Runs fn with the caller's application :id loaded, and releases it afterwards. */
static void with_owned(struct api_call *c, owned_handler fn)
{
    struct store_app app;
    if (api__owned_app(c, &app))
        return;
    fn(c, &app);
    store_app_cleanup(&app);
}

#define OWNED_ROUTE(fn)                                                                            \
    static void fn##_route(struct api_call *c)                                                     \
    {                                                                                              \
        with_owned(c, fn);                                                                         \
    }

static void app_list(struct api_call *c)
{
    json_t *list = store_apps_of_owner(c->db, c->me.user_id);
    if (!list) {
        api__internal(c);
        return;
    }
    size_t i;
    json_t *app;
    json_array_foreach(list, i, app) api__app_view(app);
    api__reply(c, 200, json_pack("{so}", "applications", list));
}

static void app_create(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *name, *description, *icon;
    int set_icon;
    if (!body || api__in_icon(c, body, &set_icon, &icon) < 0 ||
        api__in_str(c, body, "name", 1, 32, API_IN_REQUIRED | API_IN_TRIM, &name) < 0 ||
        api__in_str(c, body, "description", 0, DESCRIPTION_MAX, API_IN_NULLABLE, &description) <
            0 ||
        api__limit_hit(c, &API_LIMIT_CREATE_APPLICATION))
        return;
    char id[UUID_LEN + 1], client_id[33];
    uuid_v7(id);
    crypto_random_hex(client_id, 16);
    struct store_new_app a = {.id = id,
                              .owner_id = c->me.user_id,
                              .name = name,
                              .description = description,
                              .icon_url = icon,
                              .client_id = client_id,
                              .now = clock_now_ms()};
    if (store_app_create(c->svc->writer, &a) < 0) {
        api__internal(c);
        return;
    }
    reply_app(c, 201, id);
}

static void app_get(struct api_call *c, struct store_app *app)
{
    reply_app(c, 200, app->id);
}

static void app_update(struct api_call *c, struct store_app *app)
{
    json_t *body = api__body(c);
    const char *name, *description, *icon;
    int set_icon;
    if (body && api__in_icon(c, body, &set_icon, &icon) >= 0 &&
        api__in_str(c, body, "name", 1, 32, API_IN_TRIM, &name) >= 0 &&
        api__in_str(c, body, "description", 0, DESCRIPTION_MAX, API_IN_NULLABLE, &description) >=
            0) {
        if (store_app_update(c->svc->writer, app->id, name, description, set_icon, icon) < 0)
            api__internal(c);
        else
            reply_app(c, 200, app->id);
    }
}

int api__app_remove(struct api_call *c, const struct store_app *app)
{
    json_t *servers = store_app_install_servers(c->db, app->id);
    if (!servers || store_app_delete(c->svc->writer, app->id) < 0) {
        json_decref(servers);
        api__internal(c);
        return -1;
    }
    size_t i;
    json_t *sid;
    json_array_foreach(servers, i, sid)
    {
        api__event_member_remove(c, json_string_value(sid), app->bot_user_id, "app_uninstalled");
    }
    json_decref(servers);
    if (app->bot_user_id[0])
        api__event_disconnect(c, app->bot_user_id, NULL);
    return 0;
}

static void app_delete(struct api_call *c, struct store_app *app)
{
    if (!api__app_remove(c, app))
        api__ok(c);
}

static void new_token(char token[CRYPTO_TOKEN_LEN + 1], char hash[65])
{
    crypto_token(token);
    crypto_sha256_hex(token, strlen(token), hash);
}

static void bot_create(struct api_call *c, struct store_app *app)
{
    if (app->bot_user_id[0]) {
        api__error(c, 409, "Esta aplicação já tem um bot");
        return;
    }
    if (api__limit_hit(c, &API_LIMIT_GENERATE_BOT))
        return;
    char token[CRYPTO_TOKEN_LEN + 1], hash[65], user_id[UUID_LEN + 1], username[33];
    new_token(token, hash);
    uuid_v7(user_id);
    int rc = STORE_CONSTRAINT;
    for (int attempt = 0; rc == STORE_CONSTRAINT && attempt < 8; attempt++) {
        /* The plain name first; then a random suffix while the name is taken. */
        rule_text_bot_username(
            app->name, attempt ? 1000 + (int)(clock_now_ms() % 9000) + attempt : 0, username);
        struct store_new_bot b = {.app_id = app->id,
                                  .user_id = user_id,
                                  .username = username,
                                  .display_name = app->name,
                                  .token_hash = hash,
                                  .now = clock_now_ms()};
        rc = store_bot_create(c->svc->writer, &b);
    }
    if (api__store_answer(c, rc,
                          &(struct api_store_words){.taken = "Esta aplicação já tem um bot"}))
        return;
    json_t *view = app_json(c, app->id);
    if (!view) {
        api__internal(c);
        return;
    }
    api__reply(c, 201,
               json_pack("{sossss}", "application", view, "botUsername", username, "token", token));
}

static void bot_token_rotate(struct api_call *c, struct store_app *app)
{
    if (!app->bot_user_id[0])
        api__error(c, 404, "Esta aplicação ainda não tem bot");
    else if (!api__limit_hit(c, &API_LIMIT_ROTATE_TOKEN)) {
        char token[CRYPTO_TOKEN_LEN + 1], hash[65];
        new_token(token, hash);
        struct store_bot_token t = {
            .bot_user_id = app->bot_user_id, .token_hash = hash, .now = clock_now_ms()};
        if (store_bot_token_replace(c->svc->writer, &t) < 0) {
            api__internal(c);
        } else {
            api__event_disconnect(c, app->bot_user_id, NULL); /* the old token's connections */
            api__reply(c, 200, json_pack("{ss}", "token", token));
        }
    }
}

static void intents_put(struct api_call *c, struct store_app *app)
{
    json_t *body = api__body(c);
    json_t *list = body ? json_object_get(body, "intents") : NULL;
    uint32_t bits = 0;
    if (body && !list)
        api__bad(c, "intents", "obrigatório");
    else if (body && !json_is_array(list))
        api__bad(c, "intents", "deve ser uma lista de textos");
    else if (body) {
        size_t i;
        json_t *v;
        json_array_foreach(list, i, v)
        {
            uint32_t bit = json_is_string(v)
                               ? rule_intent_bit(json_string_value(v), json_string_length(v))
                               : 0;
            if (!bit) {
                char path[48];
                snprintf(path, sizeof path, "intents.%zu", i);
                api__bad(c, path,
                         "valor desconhecido (válidos: messages.read, messages.write, members.read,"
                         " interactions.receive, voice.connect)");
                break;
            }
            bits |= bit;
        }
        if (!c->answered) {
            if (store_app_set_int(c->svc->writer, app->id, "intents", bits) < 0) {
                api__internal(c);
            } else {
                if (app->bot_user_id[0])
                    api__voice_review_user(c, app->bot_user_id);
                reply_app(c, 200, app->id);
            }
        }
    }
}

static void interactions_config_put(struct api_call *c, struct store_app *app)
{
    json_t *body = api__body(c);
    const char *url = NULL;
    if (body && api__in_str(c, body, "interactionsEndpointUrl", 0, URL_MAX,
                            API_IN_NULLABLE | API_IN_REQUIRED, &url) >= 0) {
        const char *why =
            url ? rule_url_check_endpoint(url, strlen(url), c->svc->cfg->allow_private_endpoints)
                : NULL;
        if (why)
            api__bad(c, "interactionsEndpointUrl", why);
        else if (store_app_set_text(c->svc->writer, app->id, "interactions_endpoint_url", url) < 0)
            api__internal(c);
        else
            reply_app(c, 200, app->id);
    }
}

/* The ping's outcome, from the endpoints' thread to a worker. */
struct ping {
    struct api_later *later;
    long status;
    int64_t latency_ms;
    int pong;
};

static void ping_reply(struct api_call *c, void *arg)
{
    struct ping *p = arg;
    api__reply(c, 200,
               json_pack("{sbsosI}", "ok", p->pong, "status",
                         p->status ? json_integer(p->status) : json_null(), "latencyMs",
                         (json_int_t)p->latency_ms));
    free(p);
}

static void ping_answered(void *arg, int sent, struct endpoint_result *r)
{
    struct ping *p = arg;
    json_t *answer = sent == 0 && r->body ? json_loads(r->body, 0, NULL) : NULL;
    const char *type = json_string_value(json_object_get(answer, "type"));
    p->status = r->status;
    p->latency_ms = r->latency_ms;
    p->pong = r->status >= 200 && r->status < 300 && type && !strcmp(type, "pong");
    json_decref(answer);
    api__endpoint_result_cleanup(r);
    api__later_resume(p->later, ping_reply, p);
}

static void ping_endpoint(struct api_call *c, const char *app_id, const char *url,
                          const char *secret)
{
    static const char PING[] = "{\"type\":\"ping\"}";
    struct ping *p = calloc(1, sizeof *p);
    if (!p || !(p->later = api__later(c))) {
        free(p);
        api__internal(c);
        return;
    }
    if (api__endpoint_call(c->svc->endpoints, app_id, url, secret, PING, sizeof PING - 1,
                           c->svc->cfg->allow_private_endpoints, ping_answered, p) == 0)
        return;
    api__later_cancel(c);
    free(p);
    api__busy(c, "A aplicação já tem muitas chamadas em andamento; tente de novo em instantes");
}

/* POST …/interactions-config/test: a signed {type: "ping"} that must get {type: "pong"}. */
static void interactions_config_test(struct api_call *c, struct store_app *app)
{
    int rc;
    json_t *ep = store_app_endpoint(c->db, app->id, &rc);
    const char *url = json_string_value(json_object_get(ep, "url"));
    const char *secret = json_string_value(json_object_get(ep, "secret"));
    if (!ep)
        api__internal(c);
    else if (!url)
        api__bad(c, "interactionsEndpointUrl", "nenhuma URL configurada");
    else if (!secret)
        api__bad(c, "signingSecret", "gere o segredo de assinatura antes de testar");
    else if (!api__limit_hit(c, &API_LIMIT_TEST_ENDPOINT))
        ping_endpoint(c, app->id, url, secret);
    json_decref(ep);
}

static void signing_secret_rotate(struct api_call *c, struct store_app *app)
{
    if (!api__limit_hit(c, &API_LIMIT_ROTATE_SIGNING)) {
        char secret[65];
        crypto_random_hex(secret, 32);
        if (store_app_set_text(c->svc->writer, app->id, "signing_secret", secret) < 0)
            api__internal(c);
        else
            api__reply(c, 200, json_pack("{ss}", "signingSecret", secret));
    }
}

static void client_secret_rotate(struct api_call *c, struct store_app *app)
{
    if (!api__limit_hit(c, &API_LIMIT_ROTATE_CLIENT)) {
        char secret[CRYPTO_TOKEN_LEN + 1], hash[65];
        new_token(secret, hash);
        if (store_app_set_text(c->svc->writer, app->id, "client_secret_hash", hash) < 0)
            api__internal(c);
        else
            api__reply(c, 200, json_pack("{ss}", "clientSecret", secret));
    }
}

static void redirect_uris_put(struct api_call *c, struct store_app *app)
{
    json_t *body = api__body(c);
    json_t *list = body ? json_object_get(body, "redirectUris") : NULL;
    if (body && !list)
        api__bad(c, "redirectUris", "obrigatório");
    else if (body && !json_is_array(list))
        api__bad(c, "redirectUris", "deve ser uma lista de URLs");
    else if (body && json_array_size(list) > REDIRECT_URIS_MAX)
        api__bad(c, "redirectUris", "deve ter no máximo 10 URLs");
    else if (body) {
        json_t *clean = json_array();
        size_t i;
        json_t *v;
        json_array_foreach(list, i, v)
        {
            char path[48];
            snprintf(path, sizeof path, "redirectUris.%zu", i);
            const char *why = !json_is_string(v) ? "deve ser um texto"
                                                 : rule_url_check_redirect(json_string_value(v),
                                                                           json_string_length(v));
            if (why) {
                api__bad(c, path, why);
                break;
            }
            int dup = 0;
            size_t k;
            json_t *seen;
            json_array_foreach(clean, k, seen) dup |= json_equal(seen, v);
            if (!dup)
                json_array_append(clean, v);
        }
        char *text = c->answered ? NULL : jsonout_dump(clean, NULL);
        json_decref(clean);
        if (!c->answered) {
            if (!text || store_app_set_text(c->svc->writer, app->id, "redirect_uris", text) < 0)
                api__internal(c);
            else
                reply_app(c, 200, app->id);
        }
        free(text);
    }
}

static void visibility_put(struct api_call *c, struct store_app *app)
{
    json_t *body = api__body(c);
    int is_public = 0;
    if (body && api__in_bool(c, body, "isPublic", API_IN_REQUIRED, &is_public) >= 0) {
        if (store_app_set_int(c->svc->writer, app->id, "is_public", is_public) < 0)
            api__internal(c);
        else
            reply_app(c, 200, app->id);
    }
}

static void installs_list(struct api_call *c, struct store_app *app)
{
    json_t *list = store_app_installs_json(c->db, app->id);
    api__reply_list(c, "installs", list);
}

static void install_delete(struct api_call *c, struct store_app *app)
{
    const char *sid = api__param_id(c, "serverId", "Instalação não encontrada");
    int removed = sid ? api__uninstall(c, app->id, app->bot_user_id, sid, "app_uninstalled") : -1;
    if (removed == 0)
        api__error(c, 404, "Instalação não encontrada");
    else if (removed > 0)
        api__ok(c);
}

static void commands_list(struct api_call *c, struct store_app *app)
{
    json_t *list = store_app_commands_json(c->db, app->id);
    api__reply_list(c, "commands", list);
}

OWNED_ROUTE(app_get)
OWNED_ROUTE(interactions_config_test)
OWNED_ROUTE(app_update)
OWNED_ROUTE(app_delete)
OWNED_ROUTE(bot_create)
OWNED_ROUTE(bot_token_rotate)
OWNED_ROUTE(intents_put)
OWNED_ROUTE(interactions_config_put)
OWNED_ROUTE(signing_secret_rotate)
OWNED_ROUTE(client_secret_rotate)
OWNED_ROUTE(redirect_uris_put)
OWNED_ROUTE(visibility_put)
OWNED_ROUTE(installs_list)
OWNED_ROUTE(install_delete)
OWNED_ROUTE(commands_list)

const struct api_route api_application_routes[] = {
    API_ROUTE(GET, "/api/applications", app_list, API_PERSON),
    API_ROUTE(POST, "/api/applications", app_create, API_PERSON, .body = API_BODY_LARGE,
              .limit = &API_LIMIT_CREATE_APPLICATION),
    API_ROUTE(GET, "/api/applications/:id", app_get_route, API_PERSON),
    API_ROUTE(PUT, "/api/applications/:id", app_update_route, API_PERSON, .body = API_BODY_LARGE),
    API_ROUTE(DELETE, "/api/applications/:id", app_delete_route, API_PERSON, .tells_bots = 1),
    API_ROUTE(POST, "/api/applications/:id/bot", bot_create_route, API_PERSON,
              .limit = &API_LIMIT_GENERATE_BOT),
    API_ROUTE(POST, "/api/applications/:id/bot/token/rotate", bot_token_rotate_route, API_PERSON,
              .limit = &API_LIMIT_ROTATE_TOKEN),
    API_ROUTE(PUT, "/api/applications/:id/intents", intents_put_route, API_PERSON),
    API_ROUTE(POST, "/api/applications/:id/interactions-config/test",
              interactions_config_test_route, API_PERSON, .limit = &API_LIMIT_TEST_ENDPOINT),
    API_ROUTE(PUT, "/api/applications/:id/interactions-config", interactions_config_put_route,
              API_PERSON),
    API_ROUTE(POST, "/api/applications/:id/interactions/signing-secret/rotate",
              signing_secret_rotate_route, API_PERSON, .limit = &API_LIMIT_ROTATE_SIGNING),
    API_ROUTE(PUT, "/api/applications/:id/oauth/redirect-uris", redirect_uris_put_route,
              API_PERSON),
    API_ROUTE(PUT, "/api/applications/:id/visibility", visibility_put_route, API_PERSON),
    API_ROUTE(GET, "/api/applications/:id/installs", installs_list_route, API_PERSON),
    API_ROUTE(DELETE, "/api/applications/:id/installs/:serverId", install_delete_route, API_PERSON,
              .tells_bots = 1),
    API_ROUTE(POST, "/api/applications/:id/oauth/client-secret/rotate", client_secret_rotate_route,
              API_PERSON, .limit = &API_LIMIT_ROTATE_CLIENT),
    API_ROUTE(GET, "/api/applications/:id/commands", commands_list_route, API_PERSON),
    {0},
};
