/*
 * Posting through an incoming webhook: POST /api/webhooks/:wid/:token, where the secret URL is
 * the credential. The message shows the webhook's name (or the post's username, never a
 * member's) marked as a webhook's; Slack's and GitHub's payloads are read with ?format=.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/attachments.h"
#include "api/compose.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/messages.h"
#include "api/place.h"
#include "api/reply.h"
#include "core/crypto.h"
#include "domain/interaction_rules.h"
#include "domain/permissions.h"
#include "domain/urls.h"
#include "domain/webhook_formats.h"
#include "http/request.h"
#include "store/webhooks.h"

/* What a webhook may do in its channel: post, but not ping @everyone. */
#define WEBHOOK_PERMS (PERM_VER_CANAL | PERM_ENVIAR_MENSAGENS)

/* The webhook of :wid whose token is :token: 0, or -1 answered (404 unknown, 401 a wrong
 * token, as Discord answers). */
static int hook_of_path(struct api_call *c, struct store_webhook *h)
{
    const char *wid = api__param_id(c, "wid", "Webhook não encontrado");
    const char *token = api__param(c, "token");
    if (!wid)
        return -1;
    int found = store_webhook_find(c->db, wid, h);
    char hash[CRYPTO_SHA256_HEX + 1];
    crypto_sha256_hex(token, strlen(token), hash);
    if (found < 0)
        api__internal(c);
    else if (!found)
        api__error(c, 404, "Webhook não encontrado");
    else if (!crypto_equal(hash, h->token_hash, CRYPTO_SHA256_HEX))
        api__error(c, 401, "Token de webhook inválido");
    else
        return 0;
    return -1;
}

/* A query parameter's value copied into out ("" when absent). */
static void query(struct api_call *c, const char *name, char *out, size_t cap)
{
    struct slice v;
    out[0] = 0;
    if (http_query_param(c->req->query, name, &v))
        slice_copy(v, out, cap);
}

/* Webhooks post no interactive component (nobody would get its interactions): link buttons,
 * text and layout only. */
static int interactive(json_t *components)
{
    size_t i;
    json_t *k;
    json_array_foreach(components, i, k)
    {
        if (json_object_get(k, "customId") || interactive(json_object_get(k, "components")) ||
            (json_is_object(json_object_get(k, "accessory")) &&
             json_object_get(json_object_get(k, "accessory"), "customId")))
            return 1;
    }
    return 0;
}

/* The body in Praça's shape, from ?format= (a new reference; NULL answered, or *ignored). */
static json_t *native_body(struct api_call *c, json_t *body, const char *format, int *ignored)
{
    struct rule_error err;
    json_t *out = NULL;
    *ignored = 0;
    if (!*format)
        return json_incref(body);
    if (!strcmp(format, "slack"))
        out = rule_webhook_from_slack(body, &err);
    else if (!strcmp(format, "github")) {
        char event[64] = "";
        struct slice header = http_request_header(c->req, "x-github-event");
        if (header.ptr)
            slice_copy(header, event, sizeof event);
        out = rule_webhook_from_github(event, body, ignored, &err);
        if (*ignored)
            return NULL;
    } else {
        api__bad(c, "format", "deve ser slack ou github");
        return NULL;
    }
    if (!out)
        api__bad(c, err.path, err.reason);
    return out;
}

/* username and avatarUrl of the post: a member's name is refused (from another service's
 * payload it is dropped instead, and the webhook's own name shows). */
static int read_author(struct api_call *c, json_t *body, const struct store_webhook *h, int lenient,
                       struct store_message_webhook *who)
{
    struct rule_error err;
    json_t *name = json_object_get(body, "username"), *avatar = json_object_get(body, "avatarUrl");
    who->id = h->id;
    who->name = h->name;
    who->avatar_url = h->avatar_url[0] ? h->avatar_url : NULL;
    if (name && !json_is_null(name)) {
        if (rule_webhook_name(name, "username", &err) < 0) {
            api__bad(c, err.path, err.reason);
            return -1;
        }
        int taken = store_member_named(c->db, h->server_id, json_string_value(name));
        if (taken < 0) {
            api__internal(c);
            return -1;
        }
        if (taken && !lenient) {
            api__bad(c, "username", "é o nome de um membro deste servidor");
            return -1;
        }
        if (!taken)
            who->name = json_string_value(name);
    }
    if (avatar && !json_is_null(avatar)) {
        const char *why =
            json_is_string(avatar) && json_string_length(avatar) <= URL_MAX
                ? rule_url_check_http(json_string_value(avatar), json_string_length(avatar))
                : "deve ser uma URL http(s)";
        if (why && !lenient) {
            api__bad(c, "avatarUrl", why);
            return -1;
        }
        if (!why)
            who->avatar_url = json_string_value(avatar);
    }
    return 0;
}

/* POST /api/webhooks/:wid/:token[?wait=true][&threadId=][&format=slack|github] */
static void post(struct api_call *c)
{
    struct store_webhook h;
    char format[16], wait[8], thread[UUID_LEN + 2];
    json_t *raw, *body = NULL;
    int ignored;
    if (hook_of_path(c, &h))
        return;
    query(c, "format", format, sizeof format);
    query(c, "wait", wait, sizeof wait);
    query(c, "threadId", thread, sizeof thread);
    if (api__limit_hit_for(c, &API_LIMIT_WEBHOOK, h.id) ||
        api__limit_hit_for(c, &API_LIMIT_WEBHOOK_CHANNEL, h.channel_id) || !(raw = api__body(c)))
        return;
    if (!(body = native_body(c, raw, format, &ignored))) {
        if (ignored)
            api__reply_bytes(c, 204, "text/plain", NULL, 0);
        return;
    }
    struct place p = {0};
    struct draft d = {0};
    struct api_files f = {0};
    struct store_message_webhook who;
    const char *cid = h.channel_id;
    if (thread[0]) {
        if (strlen(thread) != UUID_LEN || !uuid_valid(thread, UUID_LEN)) {
            api__bad(c, "threadId", "deve ser um ID");
            goto out;
        }
        cid = thread;
    }
    if (read_author(c, body, &h, format[0] != 0, &who) ||
        api__place_trusted(c, h.server_id, cid, WEBHOOK_PERMS, &p))
        goto out;
    if (thread[0] && (!p.parent_id || strcmp(p.parent_id, h.channel_id) != 0)) {
        api__bad(c, "threadId", "não é uma thread do canal deste webhook");
        goto out;
    }
    if (api__draft_read(c, body, 1, 0, &d))
        goto out;
    if (interactive(d.components)) {
        api__bad(c, "components", "webhooks não levam componentes interativos (só botões de link)");
        goto out;
    }
    if (api__files_take(c, h.server_id, NULL, NULL, NULL, &f) ||
        api__files_resolve(c, &f, d.embeds, d.components) ||
        api__draft_check(c, d.content, d.embeds, d.components, d.flags, f.n))
        goto out;
    struct message_write w = {.webhook = &who, .files = &f};
    size_t len;
    char *text = api__message_create(c, &p, &d, &w, &len);
    if (text && !strcmp(wait, "true"))
        api__reply_wrapped(c, "message", text);
    else if (text) {
        free(text);
        api__reply_bytes(c, 204, "text/plain", NULL, 0);
    }
out:
    json_decref(body);
}

/* GET /api/webhooks/:wid/:token: the webhook, for a tool that holds only its URL. */
static void get(struct api_call *c)
{
    struct store_webhook h;
    int rc;
    json_t *hook;
    if (hook_of_path(c, &h))
        return;
    if (!(hook = store_webhook_json(c->db, h.id, &rc)))
        api__internal(c);
    else
        api__reply(c, 200, json_pack("{so}", "webhook", hook));
}

const struct api_route api_webhook_post_routes[] = {
    API_ROUTE(POST, "/api/webhooks/:wid/:token", post, API_PUBLIC, .body = API_BODY_UPLOAD,
              .limit = &API_LIMIT_WEBHOOK),
    API_ROUTE(GET, "/api/webhooks/:wid/:token", get, API_PUBLIC),
    {0},
};
