/*
 * Answering later: after its first answer (a defer, a message, an update), an interaction's
 * application edits or deletes that answer and sends follow-ups for 15 minutes, through routes
 * keyed by the interaction's ID and its own token (INTERACTION_CREATE's `token`), so a worker
 * process without the bot's token can finish the job. The calls act as the application's bot.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/attachments.h"
#include "api/events.h"
#include "api/interaction_answers.h"
#include "api/input.h"
#include "api/messages.h"
#include "api/place.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "domain/message_rules.h"
#include "store/apps.h"
#include "store/interactions.h"

#define FOLLOWUPS_MAX 5

/* The interaction of :id whose token is :token, still within its 15 minutes; the call then acts
 * as its application's bot. 0, or -1 when it has answered (404 unknown or expired, 403 another
 * interaction's token). */
static int interaction_of_token(struct api_call *c, struct store_interaction *it)
{
    const char *id = api__param_id(c, "id", "Interação não encontrada");
    const char *token = api__param(c, "token");
    if (!id)
        return -1;
    int found = store_interaction_find(c->db, id, it);
    if (found < 0) {
        api__internal(c);
        return -1;
    }
    char hash[CRYPTO_SHA256_HEX + 1];
    crypto_sha256_hex(token, strlen(token), hash);
    if (!found || clock_now_ms() - it->created_at >= INTERACTION_TTL_MS) {
        api__error(c, 404, "Interação não encontrada ou expirada");
        return -1;
    }
    if (strlen(it->token_hash) != CRYPTO_SHA256_HEX ||
        !crypto_equal(hash, it->token_hash, CRYPTO_SHA256_HEX)) {
        api__error(c, 403, "Este token não é o desta interação");
        return -1;
    }
    struct store_app app;
    found = store_app_find(c->db, it->application_id, &app);
    if (found == 1 && app.bot_user_id[0] && !app.suspended) {
        memset(&c->me, 0, sizeof c->me);
        memcpy(c->me.user_id, app.bot_user_id, UUID_LEN + 1);
        memcpy(c->me.app_id, app.id, UUID_LEN + 1);
        c->me.is_bot = 1;
    }
    int usable = found == 1 && app.bot_user_id[0] && !app.suspended;
    store_app_cleanup(&app);
    if (found < 0)
        api__internal(c);
    else if (!usable)
        api__error(c, 403, "A aplicação não pode responder agora (sem bot ou suspensa)");
    return found == 1 && usable ? 0 : -1;
}

/* An ephemeral message is kept nowhere, so nothing could serve its files. */
static int no_files_here(struct api_call *c)
{
    if (!c->req->upload || !c->req->upload->nfiles)
        return 0;
    api__bad(c, "files", "uma resposta efêmera não leva arquivos");
    return -1;
}

static int answered_first(struct api_call *c, const struct store_interaction *it)
{
    if (it->answered)
        return 0;
    api__error(c, 409, "Responda à interação antes (respond), depois edite ou acompanhe");
    return -1;
}

/* An ephemeral message for the invoker only, built from a send body: not stored. id, when
 * given, replaces the new one (an edit of an ephemeral answer). */
static void ephemeral_to_invoker(struct api_call *c, const struct store_interaction *it,
                                 const struct place *p, struct draft *d, const char *id,
                                 const char *event)
{
    struct message_write w = {.application_id = it->application_id,
                              .command_name = it->command_name[0] ? it->command_name : NULL,
                              .command_invoker_id = it->user_id,
                              .ephemeral = 1};
    size_t len;
    char *text = api__message_create(c, p, d, &w, &len);
    json_t *m = text ? json_loadb(text, len, 0, NULL) : NULL;
    free(text);
    if (!m) {
        if (!c->answered)
            api__internal(c);
        return;
    }
    if (id) {
        char now[CLOCK_ISO_LEN + 1];
        clock_format_iso(clock_now_ms(), now);
        json_object_set_new(m, "id", json_string(id));
        json_object_set_new(m, "editedAt", json_string(now));
    }
    struct bus_where at = api__interaction_where(it, json_string_value(json_object_get(m, "id")));
    api__event_to_user(c, event, &at, json_incref(m));
    api__reply(c, 200, json_pack("{so}", "message", m));
}

/* PATCH /api/interactions/:id/:token/messages/@original: the first answer, edited (a defer's
 * thinking message becomes the answer). */
static void original_edit(struct api_call *c)
{
    struct store_interaction it;
    json_t *body;
    struct place p;
    if (interaction_of_token(c, &it) || answered_first(c, &it) || !(body = api__body(c)) ||
        api__limit_hit(c, &API_LIMIT_BOT_EDIT)) /* the bot's own edits' window */
        return;
    if (!it.response_message_id[0]) {
        api__error(c, 404, "Esta interação não tem uma mensagem de resposta");
        return;
    }
    if (api__place_at(c, it.server_id, it.channel_id, &p))
        return;
    if (it.ephemeral) {
        struct draft d;
        if (!no_files_here(c) && !api__draft_read(c, body, 1, 0, &d) &&
            !api__draft_check(c, d.content, d.embeds, d.components, d.flags, 0))
            ephemeral_to_invoker(c, &it, &p, &d, it.response_message_id, "MESSAGE_UPDATE");
    } else {
        /* The thinking flag goes unless the body sets flags of its own. */
        if (it.deferred && !json_object_get(body, "flags"))
            json_object_set_new(body, "flags", json_integer(0));
        struct message_write w = {0};
        json_t *m = api__message_edit(c, &p, it.response_message_id, body, &w);
        if (m && it.deferred &&
            store_interaction_set_response(c->svc->writer, it.id, it.response_message_id, 1) < 0) {
            json_decref(m);
            api__internal(c);
        } else if (m) {
            struct bus_where at = api__interaction_where(&it, it.response_message_id);
            api__event_to_user(c, "MESSAGE_UPDATE", &at, json_incref(m));
            api__reply(c, 200, json_pack("{so}", "message", m));
        }
    }
}

/* DELETE /api/interactions/:id/:token/messages/@original */
static void original_delete(struct api_call *c)
{
    struct store_interaction it;
    struct place p;
    if (interaction_of_token(c, &it) || answered_first(c, &it) ||
        api__limit_hit(c, &API_LIMIT_WRITE))
        return;
    if (!it.response_message_id[0] || !strcmp(it.response_message_id, it.message_id)) {
        api__error(c, 404, "Esta interação não tem uma mensagem de resposta própria");
        return;
    }
    if (api__place_at(c, it.server_id, it.channel_id, &p))
        return;
    json_t *gone = json_pack("{ssssss}", "id", it.response_message_id, "serverId", it.server_id,
                             "channelId", it.channel_id);
    int64_t changes = 0;
    if (it.ephemeral) {
        struct bus_where at = api__interaction_where(&it, it.response_message_id);
        api__event_to_user(c, "MESSAGE_DELETE", &at, gone);
        api__ok(c);
    } else if (store_message_delete(c->svc->writer, it.response_message_id, &changes) < 0) {
        json_decref(gone);
        api__internal(c);
    } else if (!changes) {
        json_decref(gone);
        api__error(c, 404, "A mensagem de resposta já foi apagada");
    } else {
        api__event_message(c, "MESSAGE_DELETE", &p, it.response_message_id, gone);
        api__ok(c);
    }
}

/* POST /api/interactions/:id/:token/followups: a message of the bot in the interaction's
 * channel (ephemeral ones to the invoker only), at most FOLLOWUPS_MAX per interaction. */
static void followup(struct api_call *c)
{
    struct store_interaction it;
    json_t *body;
    struct place p;
    if (interaction_of_token(c, &it) || answered_first(c, &it) || !(body = api__body(c)) ||
        api__limit_hit(c, &API_LIMIT_BOT_SEND) || api__place_at(c, it.server_id, it.channel_id, &p))
        return;
    int ephemeral = 0;
    struct draft d = {0};
    struct api_files f = {0};
    if (api__in_bool(c, body, "ephemeral", 0, &ephemeral) < 0 ||
        api__draft_read(c, body, 1, 0, &d) ||
        (ephemeral ? no_files_here(c)
                   : api__files_take(c, it.server_id, NULL, NULL, NULL, &f) ||
                         api__files_resolve(c, &f, d.embeds, d.components)) ||
        api__draft_check(c, d.content, d.embeds, d.components, d.flags, f.n))
        return;
    int rc = store_interaction_followup(c->svc->writer, it.id, FOLLOWUPS_MAX);
    if (rc == STORE_FULL) {
        api__bad(c, "followups", "no máximo 5 mensagens de acompanhamento por interação");
        return;
    }
    if (rc < 0) {
        api__internal(c);
        return;
    }
    if (ephemeral) {
        ephemeral_to_invoker(c, &it, &p, &d, NULL, "MESSAGE_CREATE");
        return;
    }
    struct message_write w = {.application_id = it.application_id,
                              .command_name = it.command_name[0] ? it.command_name : NULL,
                              .command_invoker_id = it.user_id,
                              .files = &f};
    size_t len;
    char *text = api__message_create(c, &p, &d, &w, &len);
    if (text)
        api__reply_wrapped(c, "message", text);
}

const struct api_route api_interaction_followup_routes[] = {
    API_ROUTE(PATCH, "/api/interactions/:id/:token/messages/@original", original_edit, API_PUBLIC,
              .body = API_BODY_UPLOAD, .limit = &API_LIMIT_BOT_EDIT),
    API_ROUTE(DELETE, "/api/interactions/:id/:token/messages/@original", original_delete,
              API_PUBLIC, .limit = &API_LIMIT_WRITE),
    API_ROUTE(POST, "/api/interactions/:id/:token/followups", followup, API_PUBLIC,
              .body = API_BODY_UPLOAD, .limit = &API_LIMIT_BOT_SEND),
    {0},
};
