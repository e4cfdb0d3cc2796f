/*
 * The server directory (state/directory.h): the discoverable servers people can find and join
 * (joining one here too), a server's preview before joining (its rules, its public channels and
 * their messages, read only), and a server's icon as an image of its own, so lists need not carry
 * it inline.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/access.h"
#include "api/api.h"
#include "api/events.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/crypto.h"
#include "domain/directory_rules.h"
#include "domain/permissions.h"
#include "domain/text.h"
#include "state/directory.h"
#include "state/server.h"
#include "state/state.h"
#include "store/channels.h"
#include "store/directory.h"
#include "store/members.h"
#include "store/servers.h"

#define PAGE_DEFAULT 24
#define PAGE_MAX     50
#define OFFSET_MAX   10000
#define JOINED_MAX   1000 /* servers of the caller's looked at for `joined` */

/* Marks each server of list the caller is a member of with joined: true (false otherwise). */
static int mark_joined(struct api_call *c, json_t *list)
{
    json_t *mine = store_server_ids_of_member(c->db, c->me.user_id, JOINED_MAX);
    if (!mine)
        return -1;
    size_t i, k;
    json_t *s, *m;
    json_array_foreach(list, i, s)
    {
        int joined = 0;
        const char *id = json_string_value(json_object_get(s, "id"));
        json_array_foreach(mine, k, m) joined |=
            !strcmp(json_string_value(json_object_get(m, "id")), id);
        json_object_set_new(s, "joined", json_boolean(joined));
    }
    json_decref(mine);
    return 0;
}

/* A query parameter's text, URL-decoded into out: 0, or -1 answered (too long). */
static int query_text(struct api_call *c, const char *name, char *out, size_t cap, size_t max,
                      const char *why)
{
    struct slice v;
    size_t len = 0;
    out[0] = '\0';
    if (!http_query_param(c->req->query, name, &v))
        return 0;
    if (v.len >= cap || http_url_decode(v, out, cap, &len) || rule_text_chars(out, len) > max) {
        api__bad(c, name, why);
        return -1;
    }
    out[len] = '\0';
    return 0;
}

static int query_number(struct api_call *c, const char *name, long long lo, long long hi,
                        long long *out, const char *why)
{
    struct slice v;
    if (http_query_param(c->req->query, name, &v) && slice_to_i64(v, lo, hi, out)) {
        api__bad(c, name, why);
        return -1;
    }
    return 0;
}

/* GET /api/directory?q=&tag=&limit=&offset= */
static void directory_list(struct api_call *c)
{
    char q[4 * DIRECTORY_QUERY_MAX + 1], tag_in[4 * DIRECTORY_TAG_MAX + 1],
        tag[DIRECTORY_TAG_MAX + 1];
    long long limit = PAGE_DEFAULT, offset = 0;
    if (query_text(c, "q", q, sizeof q, DIRECTORY_QUERY_MAX, "deve ter até 200 caracteres") ||
        query_text(c, "tag", tag_in, sizeof tag_in, DIRECTORY_TAG_MAX, "não é uma tag") ||
        query_number(c, "limit", 1, PAGE_MAX, &limit, "deve ser um número de 1 a 50") ||
        query_number(c, "offset", 0, OFFSET_MAX, &offset, "deve ser um número de 0 a 10000"))
        return;
    if (tag_in[0] && !rule_directory_tag(tag_in, strlen(tag_in), tag, sizeof tag)) {
        api__bad(c, "tag", "não é uma tag");
        return;
    }
    struct directory_query dq = {.q = q,
                                 .q_len = strlen(q),
                                 .tag = tag_in[0] ? tag : NULL,
                                 .offset = (size_t)offset,
                                 .limit = (size_t)limit};
    size_t total = 0;
    json_t *page = state_directory_list(c->svc->directory, c->db, c->svc->presence, &dq, &total);
    json_t *tags = state_directory_tags(c->svc->directory, c->db, c->svc->presence);
    if (!page || !tags || mark_joined(c, page) < 0) {
        json_decref(page);
        json_decref(tags);
        api__internal(c);
        return;
    }
    api__reply(c, 200,
               json_pack("{sosIso}", "servers", page, "total", (json_int_t)total, "tags", tags));
}

/* A discoverable server's ID from :sid: NULL when it is not (answered 404). */
static const char *discoverable(struct api_call *c)
{
    static const char *NONE = "Servidor não encontrado";
    const char *sid = api__param_id(c, "sid", NONE);
    if (!sid)
        return NULL;
    int rc;
    json_t *server = store_server_json(c->db, sid, &rc);
    int open = json_is_true(json_object_get(server, "discoverable"));
    json_decref(server);
    if (rc < 0)
        api__internal(c);
    else if (!open)
        api__error(c, 404, NONE);
    return open && rc >= 0 ? sid : NULL;
}

/* The channels a visitor sees: those @everyone may see, threads aside. */
static json_t *public_channels(struct api_call *c, const char *sid, const struct access *visitor)
{
    json_t *all = store_channels_json(c->db, sid);
    struct store_perm_channels rows;
    int read = all ? store_perm_channels_of_server(c->db, sid, &rows) : STORE_ERR;
    json_t *seen = read == STORE_DONE ? api__channels_seen(visitor, &rows, all) : NULL;
    json_t *out = seen ? json_array() : NULL;
    if (read == STORE_DONE)
        store_perm_channels_cleanup(&rows);
    json_decref(all);
    size_t i;
    json_t *ch;
    json_array_foreach(seen, i, ch)
    {
        if (!strcmp(json_string_value(json_object_get(ch, "type")), "category"))
            continue;
        json_t *shown = json_object();
        static const char *const KEYS[] = {"id", "name", "type", "topic", "position", NULL};
        for (size_t k = 0; KEYS[k]; k++)
            if (json_object_get(ch, KEYS[k]))
                json_object_set(shown, KEYS[k], json_object_get(ch, KEYS[k]));
        json_array_append_new(out, shown);
    }
    json_decref(seen);
    return out;
}

/* The directory's entry for sid (a copy, the caller's), read again once when it is missing (the
 * server was made discoverable since the listing was read). NULL: not listed, or *rc < 0. */
static json_t *listed(struct api_call *c, const char *sid, int *rc)
{
    json_t *entry = state_directory_entry(c->svc->directory, c->db, c->svc->presence, sid, rc);
    if (!entry && *rc >= 0) {
        state_directory_stale(c->svc->directory);
        entry = state_directory_entry(c->svc->directory, c->db, c->svc->presence, sid, rc);
    }
    json_t *copy = entry ? json_deep_copy(entry) : NULL;
    json_decref(entry);
    return copy;
}

/* GET /api/servers/:sid/preview: what a discoverable server shows before one joins. */
static void preview(struct api_call *c)
{
    const char *sid = discoverable(c);
    if (!sid)
        return;
    int rc;
    json_t *server = listed(c, sid, &rc);
    if (!server) {
        if (rc < 0)
            api__internal(c);
        else
            api__error(c, 404, "Servidor não encontrado");
        return;
    }
    struct access visitor;
    json_t *full = store_server_json(c->db, sid, &rc);
    json_t *channels =
        full && !api__access_visitor(c, sid, &visitor) ? public_channels(c, sid, &visitor) : NULL;
    json_t *one = json_pack("[O]", server);
    if (!channels || mark_joined(c, one) < 0) {
        api__internal(c);
    } else {
        json_object_set(server, "rules", json_object_get(full, "rules"));
        json_object_set(server, "requiresRulesAcceptance",
                        json_object_get(full, "requiresRulesAcceptance"));
        api__reply(c, 200, json_pack("{sOsO}", "server", server, "channels", channels));
    }
    json_decref(one);
    json_decref(server);
    json_decref(full);
    json_decref(channels);
}

/* POST /api/servers/:sid/join: joining through discovery (invites go through invites.c); its
 * bots hear GUILD_MEMBER_ADD as for an invite. */
static void server_join(struct api_call *c)
{
    const char *sid = discoverable(c);
    if (!sid || api__not_banned(c, sid) || api__limit_hit(c, &API_LIMIT_JOIN))
        return;
    int added = store_member_add(c->svc->writer, sid, c->me.user_id);
    if (added < 0) {
        api__internal(c);
        return;
    }
    if (added) {
        api__event_member_add(c, sid, c->me.user_id);
        state_directory_stale(c->svc->directory); /* its count */
    }
    api__reply_server_view(c, sid);
}

/* authors: {userId: {name, isBot}} for the page's authors who are members (a visitor cannot read
 * the member list the app names them from); one who left is not there and is shown unnamed. */
static int add_authors(struct api_call *c, const char *sid, json_t *page)
{
    int found;
    struct state_server *srv = state_server(c->svc->state, c->db, sid, &found);
    if (!srv)
        return -1;
    json_t *authors = json_object();
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(page, "messages"), i, m)
    {
        const char *from = json_string_value(json_object_get(m, "fromId"));
        const struct state_member *who = from ? state_server_member(srv, from) : NULL;
        if (who && !json_object_get(authors, from))
            json_object_set_new(authors, from,
                                json_pack("{sssb}", "name", who->name, "isBot", who->is_bot));
    }
    state_server_unref(srv);
    return json_object_set_new(page, "authors", authors);
}

/* GET /api/servers/:sid/preview/channels/:cid/messages: a public text channel's messages, as
 * a member reads them (the same paging), for someone who may not be one yet. */
static void preview_messages(struct api_call *c)
{
    const char *sid = discoverable(c);
    const char *cid = sid ? api__param_id(c, "cid", "Canal não encontrado") : NULL;
    if (!cid)
        return;
    if (api__not_banned(c, sid))
        return;
    struct access visitor;
    const struct store_perm_channel *ch;
    int found = api__perm_channel(c, cid, &ch);
    json_t *page;
    if (found < 0)
        return;
    if (found && api__access_visitor(c, sid, &visitor) < 0) {
        api__internal(c);
    } else if (!found || strcmp(ch->server_id, sid) || strcmp(ch->type, "text") ||
               !(api__channel_perms(&visitor, ch) & PERM_VER_CANAL)) {
        api__error(c, 404, "Canal não encontrado");
    } else if ((page = api__history(c, cid))) {
        if (add_authors(c, sid, page) < 0) {
            json_decref(page);
            api__internal(c);
        } else {
            api__reply(c, 200, page);
        }
    }
}

/* The picture types an icon is served as; its bytes must be what its data URL says. */
static const char *const ICON_TYPES[] = {"image/png", "image/jpeg", "image/gif", "image/webp"};

static const char *icon_type(const char *url)
{
    for (size_t i = 0; i < sizeof ICON_TYPES / sizeof *ICON_TYPES; i++) {
        size_t n = strlen(ICON_TYPES[i]);
        if (!strncmp(url + 5, ICON_TYPES[i], n) && !strncmp(url + 5 + n, ";base64,", 8))
            return ICON_TYPES[i];
    }
    return NULL;
}

static int icon_bytes_are(const char *type, const unsigned char *b, size_t len)
{
    if (!strcmp(type, "image/webp"))
        return len > 12 && !memcmp(b, "RIFF", 4) && !memcmp(b + 8, "WEBP", 4);
    if (!strcmp(type, "image/png"))
        return len > 8 && !memcmp(b, "\x89PNG", 4);
    if (!strcmp(type, "image/jpeg"))
        return len > 3 && !memcmp(b, "\xff\xd8\xff", 3);
    return len > 6 && !memcmp(b, "GIF8", 4);
}

/* GET /api/servers/:sid/icon: the icon as an image (PNG, JPEG, GIF or WebP), for its members
 * and, when the server is discoverable, for anyone signed in. */
static void icon(struct api_call *c)
{
    static const char *NONE = "Ícone não encontrado";
    const char *sid = api__param_id(c, "sid", NONE);
    if (!sid)
        return;
    struct access a;
    int member = api__access_quiet(c, sid, c->me.user_id, &a), rc = 0;
    json_t *server = member > 0 ? store_server_json(c->db, sid, &rc) : NULL;
    int open = member == 0 || json_is_true(json_object_get(server, "discoverable"));
    json_decref(server);
    char *url = NULL;
    int64_t version = 0;
    int has = rc < 0 ? rc : open ? store_server_icon(c->db, sid, &url, &version) : 0;
    if (member < 0 || has < 0) {
        api__internal(c);
        return;
    }
    const char *type = has ? icon_type(url) : NULL;
    const char *data = type ? strchr(url, ',') + 1 : NULL;
    size_t cap = data ? 3 * (strlen(data) / 4) + 3 : 0;
    unsigned char *bytes = type ? malloc(cap) : NULL;
    int len = bytes ? crypto_base64_decode(data, strlen(data), bytes, cap) : -1;
    free(url);
    if (len <= 0 || !icon_bytes_are(type, bytes, (size_t)len)) {
        free(bytes);
        api__error(c, 404, NONE);
        return;
    }
    char etag[48];
    snprintf(etag, sizeof etag, "\"icon-%lld\"", (long long)version);
    http_response_add_header(c->res, "ETag", etag);
    c->res->cache_control = "private, max-age=86400";
    struct slice match = http_request_header(c->req, "if-none-match");
    if (match.ptr && slice_eq(match, etag)) {
        free(bytes);
        api__reply_bytes(c, 304, NULL, NULL, 0);
        return;
    }
    api__reply_bytes(c, 200, type, (char *)bytes, (size_t)len);
}

const struct api_route api_directory_routes[] = {
    API_ROUTE(GET, "/api/directory", directory_list, API_PERSON),
    API_ROUTE(GET, "/api/servers/:sid/preview", preview, API_PERSON),
    API_ROUTE(GET, "/api/servers/:sid/preview/channels/:cid/messages", preview_messages,
              API_PERSON),
    API_ROUTE(GET, "/api/servers/:sid/icon", icon, API_ANY),
    API_ROUTE(POST, "/api/servers/:sid/join", server_join, API_PERSON, .tells_bots = 1,
              .limit = &API_LIMIT_JOIN),
    {0},
};
