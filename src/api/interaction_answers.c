/*
 * Interactions answered: once, within 15 minutes, by the application's bot (POST
 * /api/bot/interactions/:id/respond) with a message, an update of the component's message, a
 * form, choices for an option being typed, or a deferral; in endpoint-URL mode, the endpoint's
 * own HTTP answer applied as if the bot had sent it. Invoking is interactions.c.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#include "api/interaction_answers.h"

struct bus_where api__interaction_where(const struct store_interaction *it, const char *mid)
{
    return bus_where_of(it->server_id, it->channel_id, it->channel_id, mid, it->user_id);
}

/* Claims the interaction just before the answer is written: once, within 15 minutes, saying
 * what the answer is (deferred, ephemeral, the message it is on). */
struct claim {
    const char *id;
    const char *modal_custom_id;
    const char *modal;
    int deferred, ephemeral;
    const char *response_message_id;
};

static int claim(struct api_call *c, void *arg)
{
    struct claim *cl = arg;
    struct store_interaction_answer a = {.id = cl->id,
                                         .modal_custom_id = cl->modal_custom_id,
                                         .modal = cl->modal,
                                         .deferred = cl->deferred,
                                         .ephemeral = cl->ephemeral,
                                         .response_message_id = cl->response_message_id,
                                         .now = clock_now_ms()};
    int rc = store_interaction_answer(c->svc->writer, &a);
    return api__store_answer(
        c, rc, &(struct api_store_words){.taken = "Interação já respondida ou expirada"});
}

/* An ephemeral answer is kept nowhere, so nothing could serve its files. */
static int no_files_if(struct api_call *c, int ephemeral, const struct api_files *f)
{
    if (!ephemeral || !f->n)
        return 0;
    api__bad(c, "files", "uma resposta efêmera não leva arquivos");
    return -1;
}

/* A message answer. A defer is one too: an empty message flagged LOADING (the page shows the bot
 * thinking), which the bot replaces later through the interaction's token. */
static void respond_message(struct api_call *c, const struct store_interaction *it,
                            const struct place *p, json_t *data, int defer)
{
    int ephemeral = 0;
    struct draft d = {0};
    if (api__in_bool(c, data, "ephemeral", 0, &ephemeral) < 0)
        return;
    if (defer)
        d.flags = MSG_FLAG_LOADING;
    else if (api__draft_read(c, data, 1, 0, &d))
        return;
    struct api_files f = {0};
    if (defer ||
        (api__files_take(c, p->sid, NULL, NULL, NULL, &f) == 0 && !no_files_if(c, ephemeral, &f) &&
         !api__files_resolve(c, &f, d.embeds, d.components) &&
         !api__draft_check(c, d.content, d.embeds, d.components, d.flags, f.n))) {
        struct claim cl = {it->id, NULL, NULL, defer, ephemeral, NULL};
        struct message_write w = {.application_id = it->application_id,
                                  .command_name = it->command_name[0] ? it->command_name : NULL,
                                  .command_invoker_id = it->user_id,
                                  .ephemeral = ephemeral,
                                  .gate = claim,
                                  .gate_arg = &cl,
                                  .files = &f};
        size_t len;
        char *text = api__message_create(c, p, &d, &w, &len);
        json_t *m = text ? json_loadb(text, len, 0, NULL) : NULL;
        if (text && !m)
            api__internal(c);
        free(text);
        const char *mid = m ? json_string_value(json_object_get(m, "id")) : NULL;
        if (mid && store_interaction_set_response(c->svc->writer, it->id, mid, 0) < 0) {
            json_decref(m);
            api__internal(c);
        } else if (m) {
            struct bus_where at = api__interaction_where(it, mid);
            api__event_to_user(c, "MESSAGE_CREATE", &at, json_incref(m));
            api__reply(c, 200, json_pack("{so}", "message", m));
        }
    }
}

static void respond_update(struct api_call *c, const struct store_interaction *it,
                           const struct place *p, json_t *data)
{
    if (strcmp(it->type, "component") != 0) {
        api__bad(c, "type", "update só responde a interações de componente");
        return;
    }
    struct store_message_ref ref;
    if (api__place_message_at(c, p, it->message_id, &ref))
        return;
    struct claim cl = {it->id, NULL, NULL, 0, 0, it->message_id};
    struct message_write w = {.gate = claim, .gate_arg = &cl};
    json_t *m = api__message_edit(c, p, it->message_id, data, &w);
    if (m) {
        struct bus_where at = api__interaction_where(it, it->message_id);
        api__event_to_user(c, "MESSAGE_UPDATE", &at, json_incref(m));
        api__reply(c, 200, json_pack("{so}", "message", m));
    }
}

static void respond_modal(struct api_call *c, const struct store_interaction *it, json_t *data)
{
    if (!strcmp(it->type, "modal_submit")) {
        api__bad(c, "type", "um formulário enviado não pode ser respondido com outro formulário");
        return;
    }
    struct rule_error err;
    json_t *modal = rule_interaction_clean_modal(data, &err);
    if (!modal) {
        api__rule_refused(c, &err);
        return;
    }
    char *kept = jsonout_dump(modal, NULL);
    struct claim cl = {it->id, json_string_value(json_object_get(modal, "customId")), kept, 0, 0,
                       NULL};
    int rc = kept ? claim(c, &cl) : (api__internal(c), -1);
    free(kept);
    if (rc) {
        json_decref(modal);
        return;
    }
    json_t *ev =
        json_pack("{ssssssss}", "interactionId", it->id, "applicationId", it->application_id,
                  "serverId", it->server_id, "channelId", it->channel_id);
    json_object_update(ev, modal);
    struct bus_where at = api__interaction_where(it, NULL);
    api__event_to_user(c, "INTERACTION_MODAL", &at, ev);
    api__reply(c, 200, json_pack("{so}", "modal", modal));
}

/* A component's answer "later", with no visible change: the bot edits the component's message
 * through the interaction's token when it is ready. */
static void respond_defer_update(struct api_call *c, const struct store_interaction *it)
{
    if (strcmp(it->type, "component") != 0) {
        api__bad(c, "type", "deferUpdate só responde a interações de componente");
        return;
    }
    struct claim cl = {it->id, NULL, NULL, 1, 0, it->message_id};
    if (!claim(c, &cl))
        api__reply(c, 200, json_pack("{sb}", "deferred", 1));
}

static void respond_typed(struct api_call *c, const struct store_interaction *it, const char *type,
                          json_t *data);

/* Suggestions for the option being typed: shown to the person at once, kept nowhere. */
static void respond_autocomplete(struct api_call *c, const struct store_interaction *it,
                                 json_t *data)
{
    struct rule_error err;
    json_t *choices = rule_interaction_clean_choices(data, &err);
    if (!choices) {
        api__rule_refused(c, &err);
        return;
    }
    struct claim cl = {it->id, NULL, NULL, 0, 0, NULL};
    if (claim(c, &cl)) {
        json_decref(choices);
        return;
    }
    json_t *ev = json_pack("{sssssssO}", "interactionId", it->id, "applicationId",
                           it->application_id, "commandName", it->command_name, "choices", choices);
    struct bus_where at = api__interaction_where(it, NULL);
    api__event_to_user(c, "INTERACTION_AUTOCOMPLETE", &at, ev);
    api__reply(c, 200, json_pack("{so}", "choices", choices));
}

/* Applies the answer {type, data} of the caller's application to interaction id. */
static void respond_with(struct api_call *c, const char *id, json_t *body)
{
    struct store_interaction it;
    int found = store_interaction_find(c->db, id, &it);
    if (found < 0) {
        api__internal(c);
        return;
    }
    if (!found || strcmp(it.application_id, c->me.app_id) != 0) {
        api__error(c, 404, "Interação não encontrada");
        return;
    }
    const char *type;
    if (api__in_str(c, body, "type", 1, 16, API_IN_REQUIRED, &type) < 0)
        return;
    int defer = !strcmp(type, "defer"), defer_update = !strcmp(type, "deferUpdate");
    json_t *data = json_object_get(body, "data");
    json_t *none = (defer || defer_update) && !data ? json_object() : NULL;
    if (none)
        data = none; /* a defer needs no data */
    if (!json_is_object(data)) {
        api__bad(c, "data", "deve ser um objeto");
        return;
    }
    respond_typed(c, &it, type, data);
    json_decref(none);
}

static void respond_typed(struct api_call *c, const struct store_interaction *it, const char *type,
                          json_t *data)
{
    int suggest = !strcmp(it->type, "autocomplete");
    int64_t ttl = suggest ? AUTOCOMPLETE_TTL_MS : INTERACTION_TTL_MS;
    if (it->answered || clock_now_ms() - it->created_at >= ttl) {
        api__error(c, 409, "Interação já respondida ou expirada");
        return;
    }
    if (suggest != !strcmp(type, "autocomplete")) {
        api__bad(c, "type",
                 suggest ? "uma interação autocomplete só se responde com autocomplete"
                         : "autocomplete só responde a interações autocomplete");
        return;
    }
    if (suggest) {
        respond_autocomplete(c, it, data);
        return;
    }
    if (!strcmp(type, "modal")) {
        respond_modal(c, it, data);
        return;
    }
    if (!strcmp(type, "deferUpdate")) {
        respond_defer_update(c, it);
        return;
    }
    if (strcmp(type, "message") && strcmp(type, "update") && strcmp(type, "defer")) {
        api__bad(c, "type", "deve ser message, update, modal, defer, deferUpdate ou autocomplete");
        return;
    }
    struct place p;
    if (api__place_at(c, it->server_id, it->channel_id, &p))
        return;
    if (!strcmp(type, "update"))
        respond_update(c, it, &p, data);
    else
        respond_message(c, it, &p, data, !strcmp(type, "defer"));
}

/* POST /api/bot/interactions/:id/respond {type, data} */
void api__interaction_respond(struct api_call *c)
{
    const char *id = api__param_id(c, "id", "Interação não encontrada");
    json_t *body = id ? api__body(c) : NULL;
    if (body)
        respond_with(c, id, body);
}

/* Endpoint-URL mode: the endpoint's HTTP answer is the application's answer, applied as if its
 * bot had sent it, on a call of its own so the person's answer stays separate. The call runs on
 * the endpoints' thread; the person's request waits for it without holding a worker. */
struct endpoint_wait {
    struct api_later *later;
    char id[UUID_LEN + 1], app_id[UUID_LEN + 1], bot_user_id[UUID_LEN + 1];
    json_t *answer; /* the endpoint's JSON object, or NULL */
};

static void apply_endpoint_answer(struct api_call *c, void *arg)
{
    struct endpoint_wait *w = arg;
    if (!json_is_object(w->answer)) {
        api__reply(c, 502,
                   json_pack("{ssss}", "error", "A aplicação não respondeu à interação a tempo",
                             "interactionId", w->id));
        goto out;
    }
    struct http_response res;
    http_response_init(&res);
    struct api_call as_app = *c;
    as_app.res = &res;
    as_app.answered = 0;
    as_app.body = NULL;
    as_app.n_at_end = 0; /* what it holds is its own, released below */
    memset(&as_app.me, 0, sizeof as_app.me);
    memcpy(as_app.me.user_id, w->bot_user_id, UUID_LEN + 1);
    memcpy(as_app.me.app_id, w->app_id, UUID_LEN + 1);
    as_app.me.is_bot = 1;
    respond_with(&as_app, w->id, w->answer);
    api__call_end(&as_app);
    if (res.status >= 200 && res.status < 300) {
        api__reply(c, 202, json_pack("{ss}", "interactionId", w->id));
    } else {
        json_t *why = res.body ? json_loadb(res.body, res.body_len, 0, NULL) : NULL;
        char msg[512];
        const char *error = json_string_value(json_object_get(why, "error"));
        snprintf(msg, sizeof msg, "A resposta da aplicação foi recusada: %s",
                 error ? error : "erro desconhecido");
        json_decref(why);
        api__reply(c, 502, json_pack("{ssss}", "error", msg, "interactionId", w->id));
    }
    http_response_cleanup(&res);
out:
    json_decref(w->answer);
    free(w);
}

/* On the endpoints' thread. */
static void endpoint_answered(void *arg, int sent, struct endpoint_result *r)
{
    struct endpoint_wait *w = arg;
    w->answer = sent == 0 && r->status >= 200 && r->status < 300 && r->body
                    ? json_loads(r->body, 0, NULL)
                    : NULL;
    api__endpoint_result_cleanup(r);
    /* On the writer: the answer's message and its event commit together. */
    api__later_resume_writer(w->later, apply_endpoint_answer, w);
}

void api__interaction_to_endpoint(struct api_call *c, const char *id, const char *payload,
                                  const char *app_id, const char *bot_user_id, const char *url,
                                  const char *secret)
{
    struct endpoint_wait *w = calloc(1, sizeof *w);
    if (!w || !(w->later = api__later(c))) {
        free(w);
        api__internal(c);
        return;
    }
    memcpy(w->id, id, sizeof w->id);
    memcpy(w->app_id, app_id, sizeof w->app_id);
    memcpy(w->bot_user_id, bot_user_id, sizeof w->bot_user_id);
    if (api__endpoint_call(c->svc->endpoints, app_id, url, secret, payload, strlen(payload),
                           c->svc->cfg->allow_private_endpoints, endpoint_answered, w) == 0)
        return;
    api__later_cancel(c);
    free(w);
    api__busy(c, "A aplicação já tem muitas interações em andamento; tente de novo em instantes");
}
