/*
 * What reaches a person away from the page: GET /api/push/key (the service's VAPID public key),
 * GET, PUT and DELETE /api/users/@me/push-subscriptions (their devices), GET
 * /api/users/@me/notification-settings, and PUT …/notification-settings of a server or of a
 * channel of it (levels, mutes, @everyone and role mentions). api/web_push.c sends by them.
 */
#include <http_parser.h>
#include <string.h>

#include "api/access.h"
#include "api/api.h"
#include "api/input.h"
#include "api/place.h"
#include "api/reply.h"
#include "api/web_push.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "domain/urls.h"
#include "store/web_push.h"

static void push_key(struct api_call *c)
{
    struct webpush_keys k;
    if (store_vapid_read(c->db, &k) != STORE_DONE) {
        api__internal(c);
        return;
    }
    char key[WEBPUSH_PUBLIC_LEN * 4 / 3 + 4];
    crypto_base64url(k.pub, sizeof k.pub, key);
    api__reply(c, 200, json_pack("{ss}", "publicKey", key));
}

static void subscriptions_list(struct api_call *c)
{
    api__reply_list(c, "subscriptions", store_push_subs_json(c->db, c->me.user_id));
}

/* A push service's URL: https (http too where private endpoints are allowed, for tests). */
static const char *endpoint_in(struct api_call *c, json_t *body)
{
    const char *url = NULL;
    if (api__in_str(c, body, "endpoint", 1, STORE_PUSH_ENDPOINT_MAX, API_IN_REQUIRED, &url) != 1)
        return NULL;
    int allow = c->svc->cfg->allow_private_endpoints;
    const char *why = strncmp(url, "https://", 8) && !(allow && !strncmp(url, "http://", 7))
                          ? "deve ser um endereço https://"
                          : rule_url_check_endpoint(url, strlen(url), allow);
    if (why) {
        api__bad(c, "endpoint", why);
        return NULL;
    }
    return url;
}

/* One of the subscription's keys, base64url of exactly len bytes. */
static const char *key_in(struct api_call *c, json_t *keys, const char *name, size_t len,
                          unsigned char *raw)
{
    const char *text = json_string_value(json_object_get(keys, name));
    char path[32];
    snprintf(path, sizeof path, "keys.%s", name);
    if (!text || strlen(text) > 100 ||
        crypto_base64url_decode(text, strlen(text), raw, len) != (int)len) {
        api__bad(c, path, "deve ser a chave que o navegador deu (base64url)");
        return NULL;
    }
    return text;
}

static void subscription_put(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *url = body ? endpoint_in(c, body) : NULL;
    if (!url)
        return;
    json_t *keys = json_object_get(body, "keys");
    unsigned char pub[WEBPUSH_PUBLIC_LEN], auth[WEBPUSH_AUTH_LEN];
    const char *p256dh = key_in(c, keys, "p256dh", sizeof pub, pub);
    const char *secret = p256dh ? key_in(c, keys, "auth", sizeof auth, auth) : NULL;
    if (!secret)
        return;
    if (!webpush_public_valid(pub)) {
        api__bad(c, "keys.p256dh", "não é um ponto da curva P-256");
        return;
    }
    if (store_push_sub_put(c->svc->writer, c->me.user_id, url, p256dh, secret, clock_now_ms()) !=
        STORE_DONE) {
        api__internal(c);
        return;
    }
    api__web_push_device_added(c->svc->web_push);
    api__ok(c);
}

static void subscription_delete(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *url = NULL;
    if (!body ||
        api__in_str(c, body, "endpoint", 1, STORE_PUSH_ENDPOINT_MAX, API_IN_REQUIRED, &url) != 1)
        return;
    int64_t deleted = 0;
    if (store_push_sub_delete(c->svc->writer, c->me.user_id, url, &deleted) != STORE_DONE)
        api__internal(c);
    else if (!deleted)
        api__error(c, 404, "Este aparelho não está inscrito");
    else
        api__ok(c);
}

static void settings_list(struct api_call *c)
{
    json_t *all = store_notify_settings_json(c->db, c->me.user_id);
    if (!all) {
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{so}", "settings", all));
}

static json_t *setting_json(const char *scope, const struct notify_setting *s)
{
    return json_pack("{sssssIsbsb}", "scopeId", scope, "level", rule_notify_level_name(s->level),
                     "mutedUntil", (json_int_t)s->muted_until, "suppressEveryone",
                     s->suppress_everyone, "suppressRoles", s->suppress_roles);
}

/* Reads the body over the stored setting s: level, muteHours, and for a server
 * suppressEveryone and suppressRoles. 0, or -1 when it answered 400. */
static int setting_in(struct api_call *c, json_t *body, int is_server, struct notify_setting *s)
{
    const char *level = NULL;
    int64_t hours = 0;
    int rc = api__in_str(c, body, "level", 1, 16, 0, &level);
    if (rc < 0)
        return -1;
    if (rc == 1) {
        int parsed = rule_notify_level_parse(level);
        if (parsed < 0) {
            api__bad(c, "level", "deve ser default, all, mentions ou nothing");
            return -1;
        }
        s->level = (enum notify_level)parsed;
    }
    if ((rc = api__in_int(c, body, "muteHours", -1, 24, 0, &hours)) < 0)
        return -1;
    if (rc == 1) {
        int64_t until = rule_notify_mute_until(hours, clock_now_ms());
        if (until == -2) {
            api__bad(c, "muteHours", "deve ser 0, 1, 8, 24 ou -1 (até reativar)");
            return -1;
        }
        s->muted_until = until;
    }
    static const char *const SERVER_ONLY[] = {"suppressEveryone", "suppressRoles"};
    int *flags[] = {&s->suppress_everyone, &s->suppress_roles};
    for (int i = 0; i < 2; i++) {
        if (!is_server && json_object_get(body, SERVER_ONLY[i])) {
            api__bad(c, SERVER_ONLY[i], "só vale para um servidor");
            return -1;
        }
        if (api__in_bool(c, body, SERVER_ONLY[i], 0, flags[i]) < 0)
            return -1;
    }
    return 0;
}

static void setting_put(struct api_call *c, const char *scope, int is_server)
{
    json_t *body = api__body(c);
    struct notify_setting s;
    if (!body)
        return;
    if (store_notify_setting(c->db, c->me.user_id, scope, &s) != STORE_DONE) {
        api__internal(c);
        return;
    }
    int known =
        s.level != NOTIFY_DEFAULT || s.muted_until || s.suppress_everyone || s.suppress_roles;
    if (setting_in(c, body, is_server, &s))
        return;
    if (!known && store_notify_settings_count(c->db, c->me.user_id) >= STORE_NOTIFY_SCOPES_MAX) {
        api__bad(c, "scopeId", "no máximo 1000 servidores e canais com notificações próprias");
        return;
    }
    if (store_notify_setting_put(c->svc->writer, c->me.user_id, scope, &s) != STORE_DONE) {
        api__internal(c);
        return;
    }
    api__reply(c, 200, setting_json(scope, &s));
}

static void server_setting_put(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (sid)
        setting_put(c, sid, 1);
}

static void channel_setting_put(struct api_call *c)
{
    struct place p;
    if (!api__place(c, &p))
        setting_put(c, p.cid, 0);
}

const struct api_route api_notification_routes[] = {
    API_ROUTE(GET, "/api/push/key", push_key, API_PERSON),
    API_ROUTE(GET, "/api/users/@me/push-subscriptions", subscriptions_list, API_PERSON),
    API_ROUTE(PUT, "/api/users/@me/push-subscriptions", subscription_put, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/push-subscriptions", subscription_delete, API_PERSON),
    API_ROUTE(GET, "/api/users/@me/notification-settings", settings_list, API_PERSON),
    API_ROUTE(PUT, "/api/servers/:sid/notification-settings", server_setting_put, API_PERSON),
    API_ROUTE(PUT, "/api/servers/:sid/channels/:cid/notification-settings", channel_setting_put,
              API_PERSON),
    {0},
};
