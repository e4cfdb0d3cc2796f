/*
 * Servers: create (with @everyone and #geral), list mine, read (channels I can see), settings,
 * delete, automod, rules acceptance (joining a discoverable server: directory.c).
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "core/jsonout.h"
#include "api/access.h"
#include "api/audit.h"
#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/voice.h"
#include "api/events.h"
#include "core/clock.h"
#include "domain/directory_rules.h"
#include "domain/permissions.h"
#include "domain/text.h"
#include "state/directory.h"
#include "store/channels.h"
#include "store/emojis.h"
#include "store/members.h"
#include "store/roles.h"
#include "store/servers.h"

#define RULES_MAX        4000
#define AUTOMOD_WORDS    1000
#define AUTOMOD_WORD_MAX 60

/* {server, channels (those a can see), roles, emojis} */
static json_t *server_view(struct api_call *c, const struct access *a, const char *sid)
{
    int rc;
    json_t *server = store_server_json(c->db, sid, &rc);
    json_t *channels = store_channels_json(c->db, sid);
    json_t *roles = store_roles_json(c->db, sid);
    json_t *emojis = store_emojis_json(c->db, sid);
    struct store_perm_channels rows;
    int read = store_perm_channels_of_server(c->db, sid, &rows);
    json_t *visible =
        read == STORE_DONE && channels ? api__channels_seen(a, &rows, channels) : NULL;
    store_perm_channels_cleanup(&rows);
    json_decref(channels);
    if (!server || !visible || !roles || !emojis) {
        json_decref(server);
        json_decref(visible);
        json_decref(roles);
        json_decref(emojis);
        return NULL;
    }
    return json_pack("{sosososo}", "server", server, "channels", visible, "roles", roles, "emojis",
                     emojis);
}

static void reply_server_view(struct api_call *c, int status, const char *sid)
{
    struct access a;
    if (api__access(c, sid, &a))
        return;
    json_t *view = server_view(c, &a, sid);
    if (!view) {
        api__internal(c);
        return;
    }
    api__reply(c, status, view);
}

static void server_create(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *name;
    if (!body || api__in_str(c, body, "name", 1, 100, API_IN_REQUIRED | API_IN_TRIM, &name) < 0 ||
        api__limit_hit(c, &API_LIMIT_CREATE_SERVER))
        return;
    char id[UUID_LEN + 1], channel_id[UUID_LEN + 1];
    uuid_v7(id);
    uuid_v7(channel_id);
    struct store_new_server s = {.id = id,
                                 .name = name,
                                 .owner_id = c->me.user_id,
                                 .channel_id = channel_id,
                                 .everyone_perms = (int64_t)PERM_EVERYONE_DEFAULT,
                                 .now = clock_now_ms()};
    if (store_server_create(c->svc->writer, &s) < 0) {
        api__internal(c);
        return;
    }
    reply_server_view(c, 201, id);
}

static void server_list(struct api_call *c)
{
    json_t *list = store_servers_of_user(c->db, c->me.user_id);
    api__reply_list(c, "servers", list);
}

#define THREADS_PER_PARENT 100

/* ?threads=1: the threads and forum posts of every channel in the view too (the newest
 * THREADS_PER_PARENT of each), so a page reads a server's whole tree in one request. */
static int add_threads(struct api_call *c, json_t *view)
{
    json_t *threads = json_array();
    size_t i;
    json_t *ch;
    json_array_foreach(json_object_get(view, "channels"), i, ch)
    {
        const char *type = json_string_value(json_object_get(ch, "type"));
        if (!type || (strcmp(type, "text") && strcmp(type, "forum")))
            continue;
        json_t *some = store_threads_json(c->db, json_string_value(json_object_get(ch, "id")),
                                          THREADS_PER_PARENT);
        if (!some) {
            json_decref(threads);
            return -1;
        }
        json_array_extend(threads, some);
        json_decref(some);
    }
    json_object_set_new(view, "threads", threads);
    return 0;
}

static void server_get(struct api_call *c)
{
    const char *sid = api__param_id(c, "sid", "Servidor não encontrado");
    struct slice v;
    int with_threads = http_query_param(c->req->query, "threads", &v) && slice_eq(v, "1");
    struct access a;
    if (!sid || api__access(c, sid, &a))
        return;
    json_t *view = server_view(c, &a, sid);
    if (!view || (with_threads && add_threads(c, view))) {
        json_decref(view);
        api__internal(c);
        return;
    }
    api__reply(c, 200, view);
}

static void reply_server(struct api_call *c, const char *sid)
{
    int rc;
    json_t *server = store_server_json(c->db, sid, &rc);
    if (!server) {
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{so}", "server", server));
}

/* A change to the server's settings: the server, when the caller holds GERENCIAR_SERVIDOR
 * there and sent a JSON body (*body); else NULL, answered. */
static const char *managed(struct api_call *c, json_t **body)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    return sid && (*body = api__body(c)) ? sid : NULL;
}

/* tags: up to five, each folded (domain/directory_rules.h), kept once, as a JSON array (*out
 * the request's, NULL when absent). */
static int in_tags(struct api_call *c, json_t *body, char **out)
{
    json_t *v = json_object_get(body, "tags");
    *out = NULL;
    if (!v)
        return 0;
    if (!json_is_array(v) || json_array_size(v) > DIRECTORY_TAGS_MAX) {
        api__bad(c, "tags", "deve ser uma lista de até 5 tags");
        return -1;
    }
    json_t *tags = json_array();
    size_t i;
    json_t *t;
    json_array_foreach(v, i, t)
    {
        char tag[DIRECTORY_TAG_MAX + 1];
        if (!json_is_string(t) ||
            !rule_directory_tag(json_string_value(t), json_string_length(t), tag, sizeof tag)) {
            json_decref(tags);
            api__bad(c, "tags", "cada tag tem de 2 a 24 letras, números ou hífens");
            return -1;
        }
        int seen = 0;
        size_t k;
        json_t *u;
        json_array_foreach(tags, k, u) seen |= !strcmp(json_string_value(u), tag);
        if (!seen)
            json_array_append_new(tags, json_string(tag));
    }
    *out = json_dumps(tags, JSON_COMPACT);
    json_decref(tags);
    if (!*out) {
        api__internal(c);
        return -1;
    }
    return api__at_end_free(c, *out);
}

static void server_patch(struct api_call *c)
{
    json_t *body;
    const char *sid = managed(c, &body);
    if (!sid)
        return;
    struct store_server_patch p = {.id = sid,
                                   .verification_level = -1,
                                   .requires_rules = -1,
                                   .requires_2fa = -1,
                                   .discoverable = -1,
                                   .link_previews = -1};
    int rr = -1, r2 = -1, disc = -1, previews = -1;
    char *tags = NULL; /* freed at the end of the request */
    if (api__in_str(c, body, "name", 1, 100, API_IN_TRIM, &p.name) < 0 ||
        api__in_int(c, body, "verificationLevel", 0, 3, 0, &p.verification_level) < 0 ||
        api__in_bool(c, body, "requiresRulesAcceptance", 0, &rr) < 0 ||
        api__in_str(c, body, "rules", 0, RULES_MAX, 0, &p.rules) < 0 ||
        api__in_bool(c, body, "requires2FA", 0, &r2) < 0 ||
        api__in_bool(c, body, "discoverable", 0, &disc) < 0 ||
        api__in_bool(c, body, "linkPreviews", 0, &previews) < 0 ||
        api__in_icon(c, body, &p.set_icon, &p.icon_url) < 0)
        return;
    if (api__in_str(c, body, "description", 0, DIRECTORY_DESCRIPTION_MAX, API_IN_TRIM,
                    &p.description) < 0 ||
        in_tags(c, body, &tags) < 0)
        return;
    p.requires_rules = rr;
    p.requires_2fa = r2;
    p.discoverable = disc;
    p.link_previews = previews;
    p.tags_json = tags;
    int rc;
    json_t *before = store_server_json(c->db, sid, &rc);
    if (!before || store_server_update(c->svc->writer, &p) < 0) {
        json_decref(before);
        api__internal(c);
        return;
    }
    json_t *after = store_server_json(c->db, sid, &rc);
    static const char *const KEYS[] = {"name",
                                       "verificationLevel",
                                       "requiresRulesAcceptance",
                                       "rules",
                                       "requires2FA",
                                       "discoverable",
                                       "iconUrl",
                                       "description",
                                       "tags",
                                       "linkPreviews",
                                       NULL};
    json_t *changes = api__audit_changes(before, after, KEYS);
    size_t i;
    json_t *ch;
    json_array_foreach(changes, i, ch) /* an icon is shown as changed, not kept twice */
        if (!strcmp(json_string_value(json_object_get(ch, "key")), "iconUrl"))
    {
        json_object_set_new(ch, "old", json_boolean(!json_is_null(json_object_get(ch, "old"))));
        json_object_set_new(ch, "new", json_boolean(!json_is_null(json_object_get(ch, "new"))));
    }
    api__audit(c, sid, "server.update", "server", sid, changes);
    json_decref(before);
    json_decref(after);
    state_directory_stale(c->svc->directory);
    api__event_server_changed(c, sid, "server");
    reply_server(c, sid);
}

static void server_delete(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (!sid)
        return;
    if (!a.is_owner) {
        api__error(c, 403, "Só o dono pode apagar o servidor");
        return;
    }
    if (store_server_delete(c->svc->writer, sid) < 0) {
        api__internal(c);
        return;
    }
    api__ok(c);
}

/* PUT /api/servers/:sid/owner {userId, password}: the owner hands the server to a person who is
 * a member, with their own password, so that they may leave it. */
static void owner_put(struct api_call *c)
{
    struct access a, to;
    const char *sid = api__server(c, &a, 0), *uid, *password;
    json_t *body = sid ? api__body(c) : NULL;
    if (!body || api__in_id(c, body, "userId", API_IN_REQUIRED, &uid) < 0 ||
        api__in_str(c, body, "password", 0, 1024, API_IN_REQUIRED, &password) < 0)
        return;
    if (!a.is_owner) {
        api__error(c, 403, "Só o dono pode transferir o servidor");
        return;
    }
    if (!strcmp(uid, c->me.user_id)) {
        api__bad(c, "userId", "você já é o dono");
        return;
    }
    int rc = api__access_quiet(c, sid, uid, &to);
    if (rc < 0) {
        api__internal(c);
        return;
    }
    if (rc || to.s.is_bot) {
        api__bad(c, "userId", rc ? "não é membro deste servidor" : "um bot não pode ser dono");
        return;
    }
    if (!api__password_ok(c, password, "password"))
        return;
    if (store_server_owner_set(c->svc->writer, sid, uid) < 0) {
        api__internal(c);
        return;
    }
    api__audit(c, sid, "server.transfer", "server", sid,
               json_pack("[{ssssss}]", "key", "ownerId", "old", c->me.user_id, "new", uid));
    api__event_server_changed(c, sid, "server");
    reply_server(c, sid);
}

static void automod_put(struct api_call *c)
{
    json_t *body;
    const char *sid = managed(c, &body);
    if (!sid)
        return;
    json_t *words = json_object_get(body, "blockedWords");
    json_t *clean = json_array();
    if (words && !json_is_null(words)) {
        if (!json_is_array(words)) {
            json_decref(clean);
            api__bad(c, "blockedWords", "deve ser uma lista de textos");
            return;
        }
        if (json_array_size(words) > AUTOMOD_WORDS) {
            json_decref(clean);
            api__bad(c, "blockedWords", "deve ter no máximo 1000 palavras");
            return;
        }
        size_t i;
        json_t *w;
        json_array_foreach(words, i, w)
        {
            char path[48];
            snprintf(path, sizeof path, "blockedWords.%zu", i);
            size_t len = json_is_string(w) ? json_string_length(w) : 0;
            const char *s = json_is_string(w) ? rule_text_trim(json_string_value(w), &len) : NULL;
            size_t chars = s ? rule_text_chars(s, len) : 0;
            if (!s || chars < 1 || chars > AUTOMOD_WORD_MAX) {
                json_decref(clean);
                api__bad(c, path, !s ? "deve ser um texto" : "deve ter entre 1 e 60 caracteres");
                return;
            }
            json_array_append_new(clean, json_stringn(s, len));
        }
    }
    int64_t max_mentions = 0;
    int has_max = api__in_int(c, body, "maxMentions", 1, 100, API_IN_NULLABLE, &max_mentions);
    if (has_max < 0) {
        json_decref(clean);
        return;
    }
    char *words_json = jsonout_dump(clean, NULL);
    int rc = words_json
                 ? store_automod_set(c->svc->writer, sid, words_json, has_max == 1, max_mentions)
                 : STORE_ERR;
    free(words_json);
    if (rc < 0) {
        json_decref(clean);
        api__internal(c);
        return;
    }
    api__audit(c, sid, "automod.update", "server", sid,
               json_pack("[{sssnsO}{sssnso}]", "key", "blockedWords", "old", "new", clean, "key",
                         "maxMentions", "old", "new",
                         has_max == 1 ? json_integer(max_mentions) : json_null()));
    api__reply(c, 200,
               json_pack("{s{soso}}", "automod", "blockedWords", clean, "maxMentions",
                         has_max == 1 ? json_integer(max_mentions) : json_null()));
}

static void rules_accept(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (!sid)
        return;
    if (store_rules_accept(c->svc->writer, sid, c->me.user_id) < 0) {
        api__internal(c);
        return;
    }
    api__ok(c);
}

void api__reply_server_view(struct api_call *c, const char *sid)
{
    reply_server_view(c, 200, sid);
}

const struct api_route api_server_routes[] = {
    API_ROUTE(POST, "/api/servers", server_create, API_PERSON, .limit = &API_LIMIT_CREATE_SERVER),
    API_ROUTE(GET, "/api/servers", server_list, API_PERSON),
    API_ROUTE(GET, "/api/servers/:sid", server_get, API_ANY),
    API_ROUTE(PATCH, "/api/servers/:sid", server_patch, API_ANY, .body = API_BODY_LARGE),
    API_ROUTE(DELETE, "/api/servers/:sid", server_delete, API_PERSON),
    API_ROUTE(PUT, "/api/servers/:sid/automod", automod_put, API_ANY),
    API_ROUTE(PUT, "/api/servers/:sid/owner", owner_put, API_PERSON, .hashes = 1),
    API_ROUTE(POST, "/api/servers/:sid/rules/accept", rules_accept, API_PERSON),
    {0},
};
