/*
 * Interactions: a person invokes a command, clicks a component or submits a form in a text
 * channel; the application's bot gets INTERACTION_CREATE and answers once, within 15 minutes,
 * with a message, an update of the component's message, or a form shown to the person.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/command_access.h"
#include "api/interaction_answers.h"
#include "api/limits.h"
#include "api/reply.h"
#include "api/input.h"
#include "core/jsonout.h"
#include "api/endpoint.h"
#include "api/events.h"
#include "api/messages.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "domain/interaction_rules.h"
#include "domain/intents.h"
#include "domain/locales.h"
#include "domain/message_rules.h"
#include "domain/permissions.h"
#include "store/apps.h"
#include "store/commands.h"
#include "store/interactions.h"
#include "store/members.h"
#include "store/messages.h"
#include "store/people.h"

/* What the person invoked, read from the body; the JSON parts are owned. */
struct invocation {
    const char *type;
    const char *app_id;
    const char *command_name;
    const char *command_type; /* chat, user or message (static) */
    const char *target_id;    /* a context-menu command's member or message */
    const char *message_id;
    const char *custom_id;
    const char *open_modal_of;
    json_t *options;
    json_t *values;
    json_t *target; /* the resolved member or message */
};

static void invocation_cleanup(struct invocation *inv)
{
    json_decref(inv->options);
    json_decref(inv->values);
    json_decref(inv->target);
}

/* The command the person names, if they may use it in this channel: its definition (owned). */
static json_t *command_allowed(struct api_call *c, const struct place *p, json_t *body,
                               struct invocation *inv)
{
    if (api__in_id(c, body, "applicationId", API_IN_REQUIRED, &inv->app_id) < 0 ||
        api__in_str(c, body, "commandName", 1, 32, API_IN_REQUIRED, &inv->command_name) < 0)
        return NULL;
    int rc;
    json_t *cmd = store_command_find(c->db, inv->app_id, p->sid, inv->command_name, &rc);
    json_t *overrides =
        cmd ? store_command_overrides_of(c->db, p->sid, inv->app_id, inv->command_name, &rc) : NULL;
    if ((!cmd || !overrides) && rc < 0)
        api__internal(c);
    else if (!cmd)
        api__error(c, 404, "Comando não encontrado");
    else if (!api__command_permitted(&p->a, p->cid, p->perms, cmd, overrides))
        api__error(c, 403, "Você não tem permissão para usar este comando aqui");
    else {
        json_decref(overrides);
        const char *type = json_string_value(json_object_get(cmd, "type"));
        inv->command_type = !strcmp(type, "user")      ? "user"
                            : !strcmp(type, "message") ? "message"
                                                       : "chat";
        return cmd;
    }
    json_decref(overrides);
    json_decref(cmd);
    return NULL;
}

/* A context-menu command's target: a member of this server, or a message of this channel
 * (which the person sees, as they see the channel). */
static int read_target(struct api_call *c, const struct place *p, json_t *body,
                       struct invocation *inv)
{
    json_t *opts = json_object_get(body, "options");
    if (opts && !json_is_null(opts) && json_array_size(opts) > 0) {
        api__bad(c, "options", "comandos de menu não têm opções");
        return -1;
    }
    if (api__in_id(c, body, "targetId", API_IN_REQUIRED, &inv->target_id) < 0)
        return -1;
    int rc;
    if (!strcmp(inv->command_type, "message")) {
        struct store_message_ref ref;
        if (api__place_message_at(c, p, inv->target_id, &ref))
            return -1;
        inv->target = store_message_json(c->db, inv->target_id, &rc);
    } else {
        inv->target = store_member_json(c->db, p->sid, inv->target_id, &rc);
        if (!inv->target && rc >= 0) {
            api__error(c, 404, "Membro não encontrado");
            return -1;
        }
        if (inv->target)
            api__member_status(c, inv->target);
    }
    if (!inv->target) {
        api__internal(c);
        return -1;
    }
    return 0;
}

static int read_command(struct api_call *c, const struct place *p, json_t *body,
                        struct invocation *inv)
{
    json_t *cmd = command_allowed(c, p, body, inv);
    if (!cmd)
        return -1;
    int rc;
    if (strcmp(inv->command_type, "chat") != 0) {
        rc = read_target(c, p, body, inv);
    } else {
        struct rule_error err;
        inv->options = rule_interaction_clean_options(json_object_get(cmd, "options"),
                                                      json_object_get(body, "options"), &err);
        rc = inv->options ? 0 : api__rule_refused(c, &err);
    }
    json_decref(cmd);
    return rc;
}

/* An option being typed: the options so far, one of them focused (autocomplete: true). */
static int read_autocomplete(struct api_call *c, const struct place *p, json_t *body,
                             struct invocation *inv)
{
    const char *focused;
    json_t *cmd = command_allowed(c, p, body, inv);
    if (!cmd)
        return -1;
    int rc = -1;
    if (strcmp(inv->command_type, "chat") != 0)
        api__bad(c, "commandName", "só comandos de barra têm opções");
    else if (api__in_str(c, body, "focused", 1, 32, API_IN_REQUIRED, &focused) >= 0) {
        struct rule_error err;
        inv->options = rule_interaction_clean_partial_options(
            json_object_get(cmd, "options"), json_object_get(body, "options"), focused, &err);
        rc = inv->options ? 0 : api__rule_refused(c, &err);
    }
    json_decref(cmd);
    return rc;
}

static int read_component(struct api_call *c, const struct place *p, json_t *body,
                          struct invocation *inv, char app_id[UUID_LEN + 1])
{
    struct store_message_ref ref;
    if (api__in_id(c, body, "messageId", API_IN_REQUIRED, &inv->message_id) < 0 ||
        api__in_str(c, body, "customId", 1, INTERACTION_CUSTOM_ID_MAX, API_IN_REQUIRED,
                    &inv->custom_id) < 0 ||
        api__place_message_at(c, p, inv->message_id, &ref))
        return -1;
    int rc;
    json_t *m = store_message_json(c->db, inv->message_id, &rc);
    if (!m) {
        api__internal(c);
        return -1;
    }
    json_t *component =
        ref.application_id[0]
            ? rule_interaction_find_component(json_object_get(m, "components"), inv->custom_id)
            : NULL;
    int is_select = component && json_integer_value(json_object_get(component, "type")) != 2;
    json_decref(m);
    if (!component) {
        api__error(c, 409, "O componente não existe mais nesta mensagem");
        return -1;
    }
    memcpy(app_id, ref.application_id, UUID_LEN + 1);
    inv->app_id = app_id;
    json_t *values = json_object_get(body, "values");
    if (!is_select || !values || json_is_null(values))
        return 0;
    struct rule_error err;
    inv->values = rule_interaction_clean_select_values(values, &err);
    return inv->values ? 0 : api__rule_refused(c, &err);
}

/* A form's values, checked against the form the bot showed (still open for this person). */
static int read_modal_submit(struct api_call *c, json_t *body, struct invocation *inv)
{
    if (api__in_id(c, body, "applicationId", API_IN_REQUIRED, &inv->app_id) < 0 ||
        api__in_str(c, body, "customId", 1, INTERACTION_CUSTOM_ID_MAX, API_IN_REQUIRED,
                    &inv->custom_id) < 0)
        return -1;
    struct rule_error err;
    inv->values = rule_interaction_clean_form_values(json_object_get(body, "values"), &err);
    if (!inv->values)
        return api__rule_refused(c, &err);
    int rc;
    json_t *modal = store_interaction_open_modal(c->db, c->me.user_id, inv->app_id, inv->custom_id,
                                                 clock_now_ms(), &rc);
    if (!modal) {
        if (rc < 0)
            api__internal(c);
        else
            api__error(c, 409, "Nenhum formulário aberto com este customId");
        return -1;
    }
    int ok = rule_interaction_check_form(modal, inv->values, &err);
    json_decref(modal);
    if (ok < 0)
        return api__rule_refused(c, &err);
    inv->open_modal_of = inv->custom_id;
    return 0;
}

/* The application must be installed here, not suspended, and receive interactions; its bot
 * user ID is copied out. */
static int app_ready(struct api_call *c, const char *app_id, const char *sid,
                     char bot_user_id[UUID_LEN + 1])
{
    struct store_app app;
    int found = store_app_find(c->db, app_id, &app);
    int installed = found == 1 ? store_app_installed(c->db, app_id, sid) : 0;
    int ok = 0;
    if (found < 0 || installed < 0)
        api__internal(c);
    else if (!found || !installed || app.suspended || !app.bot_user_id[0])
        api__error(c, 404, "Aplicação não instalada neste servidor");
    else if (!(app.intents & INTENT_INTERACTIONS_RECEIVE))
        api__error(c, 403, "Esta aplicação não recebe interações (intent interactions.receive)");
    else {
        memcpy(bot_user_id, app.bot_user_id, UUID_LEN + 1);
        ok = 1;
    }
    store_app_cleanup(&app);
    return ok ? 0 : -1;
}

/* Who invoked, with their language (null: never chosen) so the bot can answer in it. */
static json_t *user_summary(struct api_call *c)
{
    int rc;
    char locale[LOCALE_TAG_MAX + 1];
    json_t *u = store_user_json(c->db, c->me.user_id, &rc);
    if (!u || store_user_locale(c->db, c->me.user_id, locale) < 0) {
        json_decref(u);
        return NULL;
    }
    json_t *out =
        json_pack("{sOsOsOso}", "id", json_object_get(u, "id"), "username",
                  json_object_get(u, "username"), "displayName", json_object_get(u, "displayName"),
                  "locale", locale[0] ? json_string(locale) : json_null());
    json_decref(u);
    return out;
}

static json_t *nullable(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *interaction_payload(const char *id, const struct place *p,
                                   const struct invocation *inv, json_t *user, int64_t now)
{
    char created[CLOCK_ISO_LEN + 1];
    clock_format_iso(now, created);
    json_t *o = json_pack("{ssssssssss}", "id", id, "type", inv->type, "applicationId", inv->app_id,
                          "serverId", p->sid, "channelId", p->cid);
    json_object_set_new(o, "user", user);
    json_object_set_new(o, "commandName", nullable(inv->command_name));
    json_object_set_new(o, "commandType", nullable(inv->command_name ? inv->command_type : NULL));
    json_object_set_new(o, "targetId", nullable(inv->target_id));
    json_object_set_new(o, "target", inv->target ? json_incref(inv->target) : json_null());
    json_object_set_new(o, "options", inv->options ? json_incref(inv->options) : json_null());
    json_object_set_new(o, "messageId", nullable(inv->message_id));
    json_object_set_new(o, "customId", nullable(inv->custom_id));
    json_object_set_new(o, "values", inv->values ? json_incref(inv->values) : json_null());
    json_object_set_new(o, "createdAt", json_string(created));
    return o;
}

/* POST /api/servers/:sid/channels/:cid/interactions */
/* The insert as a writer job, logged with its event by api__write_with_event. */
static int insert_job(struct store *db, void *arg)
{
    return store_interaction_insert_at(db, arg);
}

/* The invocation of its type: 0, or -1 when it has answered. */
static int read_invocation(struct api_call *c, struct place *p, json_t *body,
                           struct invocation *inv, char app_id[UUID_LEN + 1])
{
    if (!strcmp(inv->type, "command"))
        return read_command(c, p, body, inv);
    if (!strcmp(inv->type, "component"))
        return read_component(c, p, body, inv, app_id);
    if (!strcmp(inv->type, "modal_submit"))
        return read_modal_submit(c, body, inv);
    if (!strcmp(inv->type, "autocomplete"))
        return read_autocomplete(c, p, body, inv);
    api__bad(c, "type", "deve ser command, component, modal_submit ou autocomplete");
    return -1;
}

/* The interaction kept and sent: to the application's endpoint when it has one, else as
 * INTERACTION_CREATE to its bot, committed with the row. Answers the request. */
static void send_interaction(struct api_call *c, const struct place *p,
                             const struct invocation *inv, const char *bot_user_id, const char *url,
                             const char *secret)
{
    json_t *user = user_summary(c);
    if (!user) {
        api__internal(c);
        return;
    }
    char id[UUID_LEN + 1], token[CRYPTO_TOKEN_LEN + 1], token_hash[CRYPTO_SHA256_HEX + 1];
    uuid_v7(id);
    /* The interaction's own credential: it answers later through /api/interactions/:id/:token,
     * for 15 minutes, without the bot's token. Only its hash is kept. */
    crypto_token(token);
    crypto_sha256_hex(token, strlen(token), token_hash);
    int64_t now = clock_now_ms();
    json_t *payload = interaction_payload(id, p, inv, user, now);
    char *kept = jsonout_dump(payload, NULL); /* the row keeps it without the token */
    json_object_set_new(payload, "token", json_string(token));
    char *text = jsonout_dump(payload, NULL);
    struct store_new_interaction row = {.id = id,
                                        .application_id = inv->app_id,
                                        .server_id = p->sid,
                                        .channel_id = p->cid,
                                        .user_id = c->me.user_id,
                                        .type = inv->type,
                                        .command_name = inv->command_name,
                                        .message_id = inv->message_id,
                                        .payload = kept,
                                        .token_hash = token_hash,
                                        .open_modal_of = inv->open_modal_of,
                                        .now = now};
    int rc;
    /* Gateway mode: the interaction and its INTERACTION_CREATE commit together. */
    struct bus_where at = bus_where_of(p->sid, p->cid, p->cid, inv->message_id, bot_user_id);
    if (!text || !kept)
        rc = -1;
    else if (url)
        rc = store_interaction_insert(c->svc->writer, &row);
    else
        rc = api__write_with_event(c, insert_job, &row, "INTERACTION_CREATE", &at,
                                   json_incref(payload));
    static const struct api_store_words no_form = {
        .taken = "Nenhum formulário aberto com este customId"};
    if (!api__store_answer(c, rc, &no_form) && url)
        api__interaction_to_endpoint(c, id, text, inv->app_id, bot_user_id, url, secret);
    else if (!c->answered)
        api__reply(c, 202, json_pack("{ss}", "interactionId", id));
    free(text);
    free(kept);
    json_decref(payload);
}

static void invoke(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    struct invocation inv = {0};
    char app_id[UUID_LEN + 1], bot_user_id[UUID_LEN + 1];
    json_t *body, *endpoint = NULL;
    int rc;
    if (strcmp(p.type, "text") != 0) {
        api__bad(c, "channelId", "interações só acontecem em canais de texto do servidor");
    } else if (!api__require_in(c, p.perms, PERM_VER_CANAL | PERM_USAR_COMANDOS) &&
               (body = api__body(c)) &&
               api__in_str(c, body, "type", 1, 16, API_IN_REQUIRED, &inv.type) >= 0 &&
               !read_invocation(c, &p, body, &inv, app_id) &&
               !app_ready(c, inv.app_id, p.sid, bot_user_id) &&
               !api__limit_hit(c, strcmp(inv.type, "autocomplete") ? &API_LIMIT_INVOKE
                                                                   : &API_LIMIT_AUTOCOMPLETE)) {
        endpoint = store_app_endpoint(c->db, inv.app_id, &rc);
        const char *url = json_string_value(json_object_get(endpoint, "url"));
        const char *secret = json_string_value(json_object_get(endpoint, "secret"));
        if (!endpoint)
            api__internal(c);
        else if (url && !secret)
            api__error(c, 502, "A aplicação não está configurada: falta o segredo de assinatura");
        else
            send_interaction(c, &p, &inv, bot_user_id, url, secret);
    }
    json_decref(endpoint);
    invocation_cleanup(&inv);
}

/* ---- the answer ---- */

const struct api_route api_interaction_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/interactions", invoke, API_PERSON,
              .limit = &API_LIMIT_INVOKE),
    API_ROUTE(POST, "/api/bot/interactions/:id/respond", api__interaction_respond, API_BOT,
              .tells_bots = 1, .body = API_BODY_UPLOAD, .limit = &API_LIMIT_ONCE),
    {0},
};
