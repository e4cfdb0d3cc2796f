/*
 * Messages in server channels: the bot send and edit routes, the human send route, history,
 * delete, reactions and pins. Sends and edits publish MESSAGE_CREATE / MESSAGE_UPDATE /
 * MESSAGE_DELETE to the bots that may see the channel (for threads, to the people only).
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/reply.h"
#include "api/input.h"
#include "core/jsonout.h"
#include "api/compose.h"
#include "api/events.h"
#include "api/forward.h"
#include "api/limits.h"
#include "api/messages.h"
#include "api/place.h"
#include "api/polls.h"
#include "api/previews.h"
#include "core/clock.h"
#include "domain/emoji.h"
#include "domain/message_rules.h"
#include "domain/permissions.h"
#include "store/messages.h"

#define VERIFY_ACCOUNT_AGE_MS (5 * 60 * 1000)
#define VERIFY_MEMBER_AGE_MS  (10 * 60 * 1000)

/* A JSON array as stored: NULL for an absent or empty one. */
static char *stored_array(json_t *a)
{
    return json_array_size(a) ? jsonout_dump(a, NULL) : NULL;
}

/* A thread's messages go to the people who can see its parent, live only: bots never get
 * thread events. */
static void publish(struct api_call *c, const struct place *p, const char *name, const char *mid,
                    json_t *payload)
{
    if (strcmp(p->type, "thread") == 0)
        api__event_people(c, name, p, mid, payload);
    else
        api__event_message(c, name, p, mid, payload);
}

/* MESSAGE_CREATE of mid from the text the caller also answers with. */
static void publish_created(struct api_call *c, const struct place *p, const char *mid,
                            const char *text, size_t len)
{
    if (strcmp(p->type, "thread") == 0) {
        json_t *payload = json_loadb(text, len, 0, NULL);
        if (payload)
            api__event_people(c, "MESSAGE_CREATE", p, mid, payload);
        return;
    }
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, text, len + 1);
        api__event_message_text(c, "MESSAGE_CREATE", p, mid, copy, len);
    }
}

/* The checks that come last, just before a write: the limit, then the caller's gate. */
static int last_checks(struct api_call *c, const struct message_write *w)
{
    return (w->limit && api__limit_hit(c, w->limit)) || (w->gate && w->gate(c, w->gate_arg));
}

/* The message a nonce made, as text; NULL answered. */
static char *nonce_message(struct api_call *c, const char *author_id, const char *nonce,
                           size_t *len)
{
    int rc;
    json_t *m = store_message_by_nonce(c->db, author_id, nonce, clock_now_ms(), &rc);
    char *text = m ? jsonout_dump(m, len) : NULL;
    json_decref(m);
    if (!text)
        api__internal(c);
    return text;
}

char *api__message_create(struct api_call *c, const struct place *p, struct draft *d,
                          const struct message_write *w, size_t *len)
{
    const char *content = d->content ? d->content : "";
    struct mentions_out men;
    if (api__mentions(c, p->srv, content, (p->perms & PERM_MENCIONAR_TODOS) != 0, &men))
        return NULL;
    char *users = NULL, *roles = NULL, *embeds = NULL, *components = NULL, *view = NULL;
    char *files = NULL;
    if (api__automod(c, p->srv, content, d->embeds, men.total) || last_checks(c, w))
        goto out;
    int rc = STORE_DONE;
    json_t *reply_to = d->reply_to_id && uuid_valid(d->reply_to_id, strlen(d->reply_to_id))
                           ? store_reply_target(c->db, d->reply_to_id, p->cid, &rc)
                           : NULL;
    if (rc < 0) {
        api__internal(c);
        goto out;
    }
    const char *reply = reply_to ? d->reply_to_id : NULL;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    users = jsonout_dump(men.users, NULL);
    roles = jsonout_dump(men.roles, NULL);
    embeds = stored_array(d->embeds);
    components = stored_array(d->components);
    if (w->files && w->files->n && !(files = api__files_json(w->files))) {
        api__internal(c);
        goto out;
    }
    struct store_new_message m = {
        .id = id,
        .channel_id = p->cid,
        .thread_parent_id = p->parent_id,
        .server_id = p->sid,
        .webhook = w->webhook,
        .author_id = w->webhook ? w->webhook->id : c->me.user_id,
        .application_id = w->application_id,
        .command_name = w->command_name,
        .command_invoker_id = w->command_invoker_id,
        .type = w->poll ? "poll" : "text", /* the kinds platform.md names */
        .content = content,
        .embeds_json = embeds,
        .components_json = components,
        .reply_to_id = reply,
        .mentions_json = users,
        .role_ids_json = roles,
        .attachments_json = files,
        .files = files ? &w->files->set : NULL,
        .poll = w->poll,
        .forward = w->forward,
        .flags = d->flags | (w->ephemeral ? MSG_FLAG_EPHEMERAL : 0),
        .now = clock_now_ms(),
        .everyone = men.everyone,
        .nonce = d->enforce_nonce && !w->ephemeral ? d->nonce : NULL,
    };
    rc = !users || !roles ? STORE_ERR
         : w->ephemeral   ? STORE_DONE
                          : store_message_insert(c->svc->writer, &m);
    if (rc == STORE_TAKEN) /* the nonce's message, made before: answered again, not sent again */
        view = nonce_message(c, m.author_id, m.nonce, len);
    else if (rc < 0 || !(view = store_message_view_text(&m, reply_to, len)))
        api__internal(c);
    else if (!w->ephemeral) {
        publish_created(c, p, id, view, *len);
        api__previews_start(c, p, id, content);
    }
    json_decref(reply_to);
out:
    free(users);
    free(roles);
    free(embeds);
    free(components);
    free(files);
    return view;
}

/* A bot's send: its application's, with its files and poll. */
static void bot_message(struct api_call *c, const struct place *p, struct draft *d,
                        struct api_files *files, const struct store_new_poll *poll)
{
    struct message_write w = {
        .limit = &API_LIMIT_BOT_SEND, .application_id = c->me.app_id, .files = files, .poll = poll};
    size_t len;
    char *text = api__message_create(c, p, d, &w, &len);
    if (text)
        api__reply_wrapped(c, "message", text);
}

/* The bot routes write only in the server's text channels. */
static int text_channel_only(struct api_call *c, const struct place *p)
{
    if (!strcmp(p->type, "text"))
        return 0;
    api__bad(
        c, "channelId",
        !strcmp(p->type, "forum")
            ? "canais de fórum não aceitam mensagens diretas; crie uma thread"
            : "esta rota só envia em canais de texto do servidor (não em threads, voz ou DMs)");
    return -1;
}

static void bot_send(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    json_t *body;
    struct draft d;
    if (!text_channel_only(c, &p) &&
        !api__require_in(c, p.perms, PERM_VER_CANAL | PERM_ENVIAR_MENSAGENS) &&
        (body = api__body(c)) && !api__draft_read(c, body, 1, 0, &d)) {
        struct api_files f;
        struct store_new_poll poll;
        int has_poll;
        /* A poll is something in the message, as a file is. */
        if (!api__poll_take(c, body, &poll, &has_poll) &&
            !api__files_take(c, p.sid, NULL, NULL, NULL, &f) &&
            !api__files_resolve(c, &f, d.embeds, d.components) &&
            !api__draft_check(c, d.content, d.embeds, d.components, d.flags, f.n + has_poll))
            bot_message(c, &p, &d, &f, has_poll ? &poll : NULL);
    }
}

int api__human_gates(struct api_call *c, const struct place *p)
{
    const struct store_access *s = &p->a.s;
    int64_t now = clock_now_ms();
    if (p->a.timed_out) {
        api__error(c, 403, "Você está em timeout neste servidor e não pode enviar mensagens");
        return -1;
    }
    if (api__require_in(c, p->perms, PERM_ENVIAR_MENSAGENS))
        return -1;
    if (p->a.is_owner)
        return 0;
    if (s->requires_rules && (c->me.is_bot || !s->rules_accepted_at)) {
        api__error_flag(c, 403,
                        c->me.is_bot ? "Este servidor exige aceitar as regras; bots não podem"
                                     : "Aceite as regras do servidor antes de enviar mensagens",
                        "requiresRulesAcceptance");
        return -1;
    }
    int level = s->verification_level;
    int blocked = (level >= 1 && now - s->account_created_at < VERIFY_ACCOUNT_AGE_MS) ||
                  (level >= 2 && now - s->joined_at < VERIFY_MEMBER_AGE_MS) ||
                  (level >= 3 && !s->mfa_enabled);
    if (blocked) {
        api__error_flag(c, 403, "O nível de verificação do servidor impede o envio por enquanto",
                        "verificationLevelBlocked");
        return -1;
    }
    return 0;
}

int api__send_allowed(struct api_call *c, const struct place *p)
{
    int person_in_thread = !strcmp(p->type, "thread") && !c->me.is_bot;
    if (!person_in_thread && text_channel_only(c, p))
        return -1;
    return api__human_gates(c, p);
}

char *api__channel_post(struct api_call *c, const struct place *p, json_t *body,
                        const struct api_limit *limit, size_t *len)
{
    struct draft d;
    if (api__draft_read(c, body, 0, 0, &d))
        return NULL;
    /* Text and files only: embeds, components and flags are not read on this route. */
    struct api_files f;
    struct store_new_poll poll;
    struct store_new_forward fwd;
    int has_poll, has_fwd;
    /* A forward brings its own files (copies of the original's). */
    if (api__forward_take(c, body, &d, &fwd, &f, &has_fwd) ||
        api__poll_take(c, body, &poll, &has_poll) ||
        (!has_fwd && api__files_take(c, p->sid, NULL, NULL, NULL, &f)) ||
        api__draft_check(c, d.content, NULL, NULL, 0, f.n + has_poll + has_fwd))
        return NULL;
    struct message_write w = {.limit = limit,
                              .files = &f,
                              .poll = has_poll ? &poll : NULL,
                              .forward = has_fwd ? &fwd : NULL};
    return api__message_create(c, p, &d, &w, len);
}

static void human_send(struct api_call *c)
{
    struct place p;
    json_t *body;
    size_t len;
    char *text;
    if (!api__place(c, &p) && !api__send_allowed(c, &p) && (body = api__body(c)) &&
        (text = api__channel_post(c, &p, body, &API_LIMIT_HUMAN_SEND, &len)))
        api__reply_wrapped(c, "message", text);
}

/* The flag changed under the components an edit keeps: whether they fit the new rules (1), or
 * it has answered 400 (0). */
static int kept_components_fit(struct api_call *c, json_t *components, int64_t flags)
{
    if (!json_array_size(components))
        return 1;
    struct rule_error err;
    json_t *again =
        rule_message_clean_components(components, flags == MSG_FLAG_COMPONENTS_V2, &err);
    if (!again) {
        api__bad(c, err.path, err.reason);
        return 0;
    }
    json_decref(again);
    return 1;
}

/* An edit's mentions: read from its new text, or (content NULL) the message's as they were.
 * 0, or -1 when it has answered. */
static int edit_mentions(struct api_call *c, const struct place *p, const char *content,
                         json_t *old, struct mentions_out *men)
{
    if (content)
        return api__mentions(c, p->srv, content, (p->perms & PERM_MENCIONAR_TODOS) != 0, men);
    men->users = json_incref(json_object_get(old, "mentions"));
    men->roles = json_incref(json_object_get(old, "mentionedRoleIds"));
    if (api__at_end_json(c, men->users) | api__at_end_json(c, men->roles)) {
        memset(men, 0, sizeof *men);
        return -1;
    }
    men->everyone = json_is_true(json_object_get(old, "mentionsEveryone"));
    men->total = json_array_size(men->users) + json_array_size(men->roles) + (size_t)men->everyone;
    return 0;
}

json_t *api__message_edit(struct api_call *c, const struct place *p, const char *mid, json_t *body,
                          const struct message_write *w)
{
    json_t *old = NULL, *embeds = NULL, *components = NULL, *result = NULL;
    struct draft d = {0};
    struct mentions_out men = {0};
    struct api_files f = {0};
    char *users = NULL, *roles = NULL, *e = NULL, *k = NULL, *files = NULL;
    int rc;
    if (!(old = store_message_json(c->db, mid, &rc))) {
        api__internal(c);
        goto out;
    }
    int64_t old_flags = json_integer_value(json_object_get(old, "flags"));
    if (api__draft_read(c, body, !w->text_only, old_flags, &d))
        goto out;
    const char *content =
        d.content_set ? d.content : json_string_value(json_object_get(old, "content"));
    embeds = d.embeds_set ? json_incref(d.embeds) : json_incref(json_object_get(old, "embeds"));
    components = d.components_set ? json_incref(d.components)
                                  : json_incref(json_object_get(old, "components"));
    if (!d.components_set && d.flags != old_flags && !kept_components_fit(c, components, d.flags))
        goto out;
    /* A person's edit keeps or removes files (by `attachments`) but adds none, as on Discord. */
    int files_read = !w->text_only || json_object_get(body, "attachments");
    if (files_read &&
        (api__files_take(c, p->sid, mid, json_object_get(old, "attachments"), body, &f) ||
         api__files_resolve(c, &f, embeds, components)))
        goto out;
    size_t nfiles = files_read ? f.n : json_array_size(json_object_get(old, "attachments"));
    if (api__draft_check(c, content, embeds, components, d.flags, nfiles))
        goto out;
    if (f.changed && f.n && !(files = api__files_json(&f))) {
        api__internal(c);
        goto out;
    }
    if (edit_mentions(c, p, d.content_set ? content : NULL, old, &men) ||
        api__automod(c, p->srv, content, embeds, men.total) || last_checks(c, w))
        goto out;
    users = jsonout_dump(men.users, NULL);
    roles = jsonout_dump(men.roles, NULL);
    e = stored_array(embeds);
    k = stored_array(components);
    struct store_message_edit edit = {.id = mid,
                                      .content = content,
                                      .embeds_json = e,
                                      .components_json = k,
                                      .mentions_json = users,
                                      .role_ids_json = roles,
                                      .attachments_json = files,
                                      .files = f.changed ? &f.set : NULL,
                                      .channel_id = p->cid,
                                      .server_id = p->sid,
                                      .flags = d.flags,
                                      .now = clock_now_ms(),
                                      .everyone = men.everyone};
    if (!users || !roles || store_message_edit(c->svc->writer, &edit) < 0 ||
        !(result = store_message_json(c->db, mid, &rc)))
        api__internal(c);
    else
        publish(c, p, "MESSAGE_UPDATE", mid, json_incref(result));
out:
    free(users);
    free(roles);
    free(e);
    free(k);
    free(files);
    json_decref(old);
    json_decref(embeds);
    json_decref(components);
    return result;
}

/* The edit: absent or null keeps a field, [] removes embeds or components, "" clears text.
 * A bot edits what its application sent, in text channels; a person the text of their own. */
static void edit(struct api_call *c, int person)
{
    struct place p;
    if (api__place(c, &p))
        return;
    const char *mid;
    struct store_message_ref ref;
    json_t *body;
    if ((!person && text_channel_only(c, &p)) || api__place_message(c, &p, &mid, &ref))
        return;
    if (person ? strcmp(ref.author_id, c->me.user_id) : strcmp(ref.application_id, c->me.app_id)) {
        api__error(c, 403,
                   person ? "Só quem escreveu a mensagem pode editá-la"
                          : "Só a aplicação que enviou a mensagem pode editá-la");
        return;
    }
    if (person && p.a.timed_out) {
        api__error(c, 403, "Você está em timeout neste servidor e não pode editar mensagens");
        return;
    }
    if (api__require_in(c, p.perms, PERM_VER_CANAL | PERM_ENVIAR_MENSAGENS) ||
        !(body = api__body(c)))
        return;
    struct message_write w = {.limit = person ? &API_LIMIT_HUMAN_EDIT : &API_LIMIT_BOT_EDIT,
                              .text_only = person};
    json_t *m = api__message_edit(c, &p, mid, body, &w);
    if (m)
        api__reply(c, 200, json_pack("{so}", "message", m));
}

static void bot_edit(struct api_call *c)
{
    edit(c, 0);
}

static void human_edit(struct api_call *c)
{
    edit(c, 1);
}

/* Reads limit and at most one of before / beforeId / around. */
static int page_query(struct api_call *c, int64_t *limit, enum store_page_mode *mode,
                      char bound[UUID_LEN + 1])
{
    struct slice v, b, bi, ar;
    long long n = 50;
    if (http_query_param(c->req->query, "limit", &v) && slice_to_i64(v, 1, 100, &n)) {
        api__bad(c, "limit", "deve ser um número inteiro de 1 a 100");
        return -1;
    }
    *limit = n;
    int has_b = http_query_param(c->req->query, "before", &b);
    int has_bi = http_query_param(c->req->query, "beforeId", &bi);
    int has_ar = http_query_param(c->req->query, "around", &ar);
    if (has_b + has_bi + has_ar > 1) {
        api__bad(c, "before", "use no máximo um entre before, beforeId e around");
        return -1;
    }
    *mode = PAGE_LATEST;
    if (has_b) {
        char text[64];
        int64_t ms;
        if (http_url_decode(b, text, sizeof text, NULL) || clock_parse(text, strlen(text), &ms)) {
            api__bad(c, "before", "deve ser uma data ISO 8601 ou YYYY-MM-DD HH:MM:SS");
            return -1;
        }
        uuid_v7_floor(ms, bound);
        *mode = PAGE_BEFORE;
    } else if (has_bi || has_ar) {
        struct slice id = has_bi ? bi : ar;
        if (!uuid_valid(id.ptr, id.len)) {
            api__bad(c, has_bi ? "beforeId" : "around", "deve ser um UUID");
            return -1;
        }
        slice_copy(id, bound, UUID_LEN + 1);
        *mode = has_bi ? PAGE_BEFORE : PAGE_AROUND;
    }
    return 0;
}

json_t *api__history(struct api_call *c, const char *channel_id)
{
    int64_t limit;
    enum store_page_mode mode;
    char bound[UUID_LEN + 1] = "";
    if (page_query(c, &limit, &mode, bound))
        return NULL;
    int more = 0;
    json_t *page = store_messages_page(c->db, channel_id, mode, bound, limit, &more);
    if (page && !c->me.is_bot && store_polls_mine(c->db, page, c->me.user_id) != STORE_DONE) {
        json_decref(page);
        page = NULL;
    }
    if (!page) {
        api__internal(c);
        return NULL;
    }
    return json_pack("{sosb}", "messages", page, "hasMore", more);
}

void api__reply_history(struct api_call *c, const char *channel_id)
{
    json_t *page = api__history(c, channel_id);
    if (page)
        api__reply(c, 200, page);
}

static void history(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    api__reply_history(c, p.cid);
}

/* The channel's pins, for its panel: anyone who can read the channel. */
static void pins(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    json_t *list = store_messages_pinned(c->db, p.cid);
    if (list)
        api__reply(c, 200, json_pack("{so}", "messages", list));
    else
        api__internal(c);
}

static void message_delete(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    const char *mid;
    struct store_message_ref ref;
    int64_t changes = 0;
    if (!api__place_message(c, &p, &mid, &ref)) {
        int own = !strcmp(ref.author_id, c->me.user_id);
        if (!own && (api__require_in(c, p.perms, PERM_GERENCIAR_MENSAGENS) ||
                     api__moderation_allowed(c, &p.a))) {
            /* answered */
        } else if (store_message_delete(c->svc->writer, mid, &changes) < 0) {
            api__internal(c);
        } else {
            if (changes)
                publish(c, &p, "MESSAGE_DELETE", mid, json_pack("{ss}", "id", mid));
            api__ok(c);
        }
    }
}

/* Timeouts stop reactions and pins with a message that says why. */
static int not_timed_out(struct api_call *c, const struct place *p)
{
    if (!p->a.timed_out)
        return 0;
    api__error(c, 403, "Você está em timeout neste servidor");
    return -1;
}

static void react(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    const char *mid, *emoji, *custom;
    struct store_message_ref ref;
    json_t *body;
    if (!api__place_message(c, &p, &mid, &ref) && !not_timed_out(c, &p) &&
        !api__require_in(c, p.perms, PERM_ADICIONAR_REACOES) && (body = api__body(c)) &&
        !api__in_reaction(c, body, &emoji, &custom) &&
        !api__custom_emoji_usable(c, p.sid, mid, custom) && !api__limit_hit(c, &API_LIMIT_REACT)) {
        struct store_reaction_toggle t = {.message_id = mid,
                                          .channel_id = p.cid,
                                          .emoji = emoji,
                                          .custom_emoji_id = custom,
                                          .user_id = c->me.user_id,
                                          .now = clock_now_ms()};
        int rc = store_reaction_toggle(c->svc->writer, &t);
        if (!api__store_answer(c, rc,
                               &(struct api_store_words){
                                   .full = "emoji: a mensagem já tem 20 reações diferentes"})) {
            /* Viewers get the change, not the list: its size does not grow with the reactions. */
            api__event_people(c, "MESSAGE_REACTIONS_UPDATE", &p, mid,
                              api__reaction_change(p.sid, p.cid, mid, emoji, custom, c->me.user_id,
                                                   t.count, t.added));
            /* Read after the commit, on this worker's connection, not inside the writer's. */
            api__reply_list(c, "reactions", store_reactions_json(c->db, mid));
        }
    }
}

static void pin(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    const char *mid;
    struct store_message_ref ref;
    if (!api__place_message(c, &p, &mid, &ref) && !not_timed_out(c, &p) &&
        !api__require_in(c, p.perms, PERM_FIXAR_MENSAGENS)) {
        struct store_pin_toggle t = {.message_id = mid, .channel_id = p.cid, .pinned = 0};
        int rc = store_pin_toggle(c->svc->writer, &t);
        if (!api__store_answer(
                c, rc,
                &(struct api_store_words){
                    .missing = "Mensagem não encontrada",
                    .full = "messageId: o canal já tem o máximo de 50 mensagens fixadas"})) {
            api__event_people(c, "CHANNEL_PINS_UPDATE", &p, mid,
                              api__pin_change(p.sid, p.cid, mid, t.pinned));
            api__reply(c, 200, json_pack("{sb}", "pinned", t.pinned));
        }
    }
}

const struct api_route api_message_routes[] = {
    API_ROUTE(POST, "/api/bot/servers/:sid/channels/:cid/messages", bot_send, API_BOT,
              .tells_bots = 1, .body = API_BODY_UPLOAD, .limit = &API_LIMIT_BOT_SEND),
    API_ROUTE(PATCH, "/api/bot/servers/:sid/channels/:cid/messages/:mid", bot_edit, API_BOT,
              .tells_bots = 1, .body = API_BODY_UPLOAD, .limit = &API_LIMIT_BOT_EDIT),
    API_ROUTE(GET, "/api/servers/:sid/channels/:cid/messages", history, API_ANY),
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/messages", human_send, API_ANY,
              .tells_bots = 1, .body = API_BODY_UPLOAD, .limit = &API_LIMIT_HUMAN_SEND),
    API_ROUTE(PATCH, "/api/servers/:sid/channels/:cid/messages/:mid", human_edit, API_PERSON,
              .tells_bots = 1, .limit = &API_LIMIT_HUMAN_EDIT),
    API_ROUTE(DELETE, "/api/servers/:sid/channels/:cid/messages/:mid", message_delete, API_ANY,
              .tells_bots = 1),
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/messages/:mid/react", react, API_ANY,
              .limit = &API_LIMIT_REACT),
    API_ROUTE(GET, "/api/servers/:sid/channels/:cid/pins", pins, API_ANY),
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/messages/:mid/pin", pin, API_ANY),
    {0},
};
