/*
 * Incoming webhooks, managed: a member with GERENCIAR_WEBHOOKS in a channel (a person, or a bot
 * granted it) creates its secret URLs, lists, renames, moves, rotates and deletes them. Posting
 * through one is api/webhook_posts.c.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/access.h"
#include "api/audit.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "domain/urls.h"
#include "domain/webhook_formats.h"
#include "store/webhooks.h"

#define NOT_FOUND "Webhook não encontrado"

/* {webhook, token, url}: the token is shown here only (at creation and rotation). */
static json_t *with_token(struct api_call *c, json_t *hook, const char *token)
{
    char url[1024];
    snprintf(url, sizeof url, "%s/api/webhooks/%s/%s", c->svc->site_url,
             json_string_value(json_object_get(hook, "id")), token);
    return json_pack("{sossss}", "webhook", hook, "token", token, "url", url);
}

/* name (1–80) and avatarUrl (an http(s) URL or null), as given: 0, or -1 answered. */
static int read_fields(struct api_call *c, json_t *body, int name_required, const char **name,
                       const char **avatar, int *avatar_set)
{
    struct rule_error err;
    json_t *n = json_object_get(body, "name"), *a = json_object_get(body, "avatarUrl");
    *name = NULL;
    if (n || name_required) {
        if (rule_webhook_name(n, "name", &err) < 0) {
            api__bad(c, err.path, err.reason);
            return -1;
        }
        *name = json_string_value(n);
    }
    *avatar = NULL;
    *avatar_set = a != NULL;
    if (a && !json_is_null(a)) {
        const char *why = json_is_string(a) && json_string_length(a) <= URL_MAX
                              ? rule_url_check_http(json_string_value(a), json_string_length(a))
                              : "deve ser uma URL http(s) de até 2048 caracteres";
        if (why) {
            api__bad(c, "avatarUrl", why);
            return -1;
        }
        *avatar = json_string_value(a);
    }
    return 0;
}

/* A channel of this server where the caller has GERENCIAR_WEBHOOKS: 0, or -1 answered. */
static int manages_in(struct api_call *c, const struct access *a, const char *cid)
{
    uint64_t perms;
    const struct store_perm_channel *channel = api__channel(c, a, cid, &perms);
    if (!channel)
        return -1;
    if (strcmp(channel->type, "text")) {
        api__bad(c, "channelId", "webhooks postam só em canais de texto");
        return -1;
    }
    return api__require_in(c, perms, PERM_GERENCIAR_WEBHOOKS);
}

static const struct api_store_words FULL = {.full = "channelId: no máximo 15 webhooks por canal"};

/* POST /api/servers/:sid/channels/:cid/webhooks {name, avatarUrl?} */
static void create(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0), *cid, *name, *avatar;
    json_t *body;
    int avatar_set;
    if (!sid || !(cid = api__param_id(c, "cid", "Canal não encontrado")) ||
        manages_in(c, &a, cid) || !(body = api__body(c)) ||
        read_fields(c, body, 1, &name, &avatar, &avatar_set))
        return;
    char id[UUID_LEN + 1], token[CRYPTO_TOKEN_LEN + 1], hash[CRYPTO_SHA256_HEX + 1];
    uuid_v7(id);
    crypto_token(token);
    crypto_sha256_hex(token, strlen(token), hash);
    struct store_new_webhook h = {.id = id,
                                  .server_id = sid,
                                  .channel_id = cid,
                                  .name = name,
                                  .avatar_url = avatar,
                                  .token_hash = hash,
                                  .creator_id = c->me.user_id,
                                  .application_id = c->me.is_bot ? c->me.app_id : NULL,
                                  .now = clock_now_ms()};
    int rc;
    json_t *hook = NULL;
    if (api__store_answer(c, store_webhook_create(c->svc->writer, &h), &FULL))
        return;
    if (!(hook = store_webhook_json(c->db, id, &rc))) {
        api__internal(c);
        return;
    }
    api__audit_object(c, sid, "webhook.create", "webhook", id,
                      json_pack("{sOsOsO}", "name", json_object_get(hook, "name"), "channelId",
                                json_object_get(hook, "channelId"), "avatarUrl",
                                json_object_get(hook, "avatarUrl")),
                      0);
    api__reply(c, 201, with_token(c, hook, token));
}

/* GET /api/servers/:sid/webhooks (GERENCIAR_WEBHOOKS in the server) */
static void list_server(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_WEBHOOKS);
    if (sid)
        api__reply_list(c, "webhooks", store_webhooks_json(c->db, sid, NULL));
}

/* GET /api/servers/:sid/channels/:cid/webhooks */
static void list_channel(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0), *cid;
    if (sid && (cid = api__param_id(c, "cid", "Canal não encontrado")) && !manages_in(c, &a, cid))
        api__reply_list(c, "webhooks", store_webhooks_json(c->db, sid, cid));
}

/* The webhook :wid of this server, where the caller manages webhooks. */
static int managed_hook(struct api_call *c, struct access *a, const char **sid,
                        struct store_webhook *h)
{
    const char *wid;
    if (!(*sid = api__server(c, a, 0)) || !(wid = api__param_id(c, "wid", NOT_FOUND)))
        return -1;
    int found = store_webhook_find(c->db, wid, h);
    if (found < 0)
        api__internal(c);
    else if (!found || strcmp(h->server_id, *sid) != 0)
        api__error(c, 404, NOT_FOUND);
    else
        return manages_in(c, a, h->channel_id);
    return -1;
}

/* PATCH /api/servers/:sid/webhooks/:wid {name?, avatarUrl?, channelId?} */
static void change(struct api_call *c)
{
    struct access a;
    struct store_webhook h;
    const char *sid, *name, *avatar, *cid = NULL;
    json_t *body;
    int avatar_set;
    if (managed_hook(c, &a, &sid, &h) || !(body = api__body(c)) ||
        read_fields(c, body, 0, &name, &avatar, &avatar_set) ||
        api__in_id(c, body, "channelId", 0, &cid) < 0)
        return;
    if (cid && !strcmp(cid, h.channel_id))
        cid = NULL;
    if (cid && manages_in(c, &a, cid)) /* moving needs the right in both channels */
        return;
    struct store_webhook_change ch = {h.id, name, cid, avatar, avatar_set};
    int rc;
    json_t *before = store_webhook_json(c->db, h.id, &rc), *hook;
    if (!before || api__store_answer(c, store_webhook_change(c->svc->writer, &ch), &FULL)) {
        if (!c->answered)
            api__internal(c);
        json_decref(before);
        return;
    }
    if (!(hook = store_webhook_json(c->db, h.id, &rc))) {
        json_decref(before);
        api__internal(c);
        return;
    }
    static const char *const KEYS[] = {"name", "channelId", "avatarUrl", NULL};
    api__audit_update(c, sid, "webhook.update", "webhook", h.id, before, json_incref(hook), KEYS);
    api__reply(c, 200, json_pack("{so}", "webhook", hook));
}

/* POST /api/servers/:sid/webhooks/:wid/token: a new token; the old URL stops working. */
static void rotate(struct api_call *c)
{
    struct access a;
    struct store_webhook h;
    const char *sid;
    if (managed_hook(c, &a, &sid, &h))
        return;
    char token[CRYPTO_TOKEN_LEN + 1], hash[CRYPTO_SHA256_HEX + 1];
    crypto_token(token);
    crypto_sha256_hex(token, strlen(token), hash);
    int rc;
    json_t *hook;
    if (store_webhook_set_token(c->svc->writer, h.id, hash) < 0 ||
        !(hook = store_webhook_json(c->db, h.id, &rc))) {
        api__internal(c);
        return;
    }
    api__audit(c, sid, "webhook.token", "webhook", h.id, NULL);
    api__reply(c, 200, with_token(c, hook, token));
}

/* DELETE /api/servers/:sid/webhooks/:wid: its messages stay. */
static void delete_hook(struct api_call *c)
{
    struct access a;
    struct store_webhook h;
    const char *sid;
    int64_t changes = 0;
    if (managed_hook(c, &a, &sid, &h))
        return;
    if (store_webhook_delete(c->svc->writer, h.id, &changes) < 0) {
        api__internal(c);
        return;
    }
    api__audit_object(c, sid, "webhook.delete", "webhook", h.id, json_pack("{ss}", "name", h.name),
                      1);
    api__ok(c);
}

const struct api_route api_webhook_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/webhooks", create, API_ANY),
    API_ROUTE(GET, "/api/servers/:sid/channels/:cid/webhooks", list_channel, API_ANY),
    API_ROUTE(GET, "/api/servers/:sid/webhooks", list_server, API_ANY),
    API_ROUTE(PATCH, "/api/servers/:sid/webhooks/:wid", change, API_ANY),
    API_ROUTE(POST, "/api/servers/:sid/webhooks/:wid/token", rotate, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/webhooks/:wid", delete_hook, API_ANY),
    {0},
};
