/* Read state kept on the server, for people: where each has read up to in each channel, thread
 * and DM, and which of those hold something newer by someone else. */
#include <http_parser.h>
#include <string.h>

#include "api/access.h"
#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/limits.h"
#include "core/clock.h"
#include "domain/permissions.h"
#include "store/messages.h"
#include "store/read_states.h"
#include "store/channels.h"
#include "store/servers.h"

#define UNREAD_SERVERS_MAX 100 /* the servers looked at, by when one joined them */

/* Appends server sid's unread channels and threads that the caller can see; -1 on error. */
static int unread_in_server(struct api_call *c, const char *sid, json_t *out)
{
    struct access a;
    int rc = api__access_quiet(c, sid, c->me.user_id, &a);
    if (rc)
        return rc < 0 ? -1 : 0;
    struct store_perm_channels channels;
    if (store_perm_channels_of_server(c->db, sid, &channels) != STORE_DONE)
        return -1;
    json_t *rows = store_unread_in_server(c->db, sid, c->me.user_id);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        const char *parent = json_string_value(json_object_get(row, "parentId"));
        const struct store_perm_channel *ch = store_perm_channels_find(
            &channels, parent ? parent : json_string_value(json_object_get(row, "id")));
        if (ch && api__channel_perms(&a, ch) & PERM_VER_CANAL)
            json_array_append_new(
                out, json_pack("{sOsssOsOsO}", "channelId", json_object_get(row, "id"), "serverId",
                               sid, "lastMessageId", json_object_get(row, "lastMessageId"),
                               "lastReadId", json_object_get(row, "lastReadId"), "mentionCount",
                               json_object_get(row, "mentionCount")));
    }
    rc = rows ? 0 : -1;
    json_decref(rows);
    store_perm_channels_cleanup(&channels);
    return rc;
}

static void unread_list(struct api_call *c)
{
    json_t *out = json_array();
    json_t *servers = store_server_ids_of_member(c->db, c->me.user_id, UNREAD_SERVERS_MAX);
    json_t *dms = store_unread_dms(c->db, c->me.user_id);
    int failed = !servers || !dms;
    for (size_t i = 0; i < json_array_size(servers); i++) {
        json_t *server = json_array_get(servers, i);
        failed |= unread_in_server(c, json_string_value(json_object_get(server, "id")), out) < 0;
    }
    for (size_t i = 0; i < json_array_size(dms); i++) {
        json_t *dm = json_array_get(dms, i);
        json_array_append_new(out, json_pack("{sOsnsOsOsO}", "channelId", json_object_get(dm, "id"),
                                             "serverId", "lastMessageId",
                                             json_object_get(dm, "lastMessageId"), "lastReadId",
                                             json_object_get(dm, "lastReadId"), "mentionCount",
                                             json_object_get(dm, "mentionCount")));
    }
    json_decref(servers);
    json_decref(dms);
    if (failed) {
        json_decref(out);
        api__internal(c);
    } else {
        api__reply(c, 200, json_pack("{so}", "unread", out));
    }
}

/* 1 when the caller can read channel cid, 0 when not (answered 404), -1 answered otherwise. */
static int may_read(struct api_call *c, const char *cid)
{
    int ok = api__may_read(c, cid);
    if (ok < 0)
        api__internal(c);
    else if (!ok)
        api__error(c, 404, "Canal não encontrado");
    return ok < 0 ? -1 : ok;
}

static void read_mark(struct api_call *c)
{
    const char *cid = api__param_id(c, "cid", "Canal não encontrado");
    json_t *body;
    const char *mid;
    if (!cid || may_read(c, cid) != 1 || !(body = api__body(c)) ||
        api__in_id(c, body, "messageId", API_IN_REQUIRED, &mid) < 0 ||
        api__limit_hit(c, &API_LIMIT_READ_MARK))
        return;
    int in = store_message_in_channel(c->db, mid, cid);
    if (in < 0)
        api__internal(c);
    else if (!in)
        api__bad(c, "messageId", "não é uma mensagem deste canal");
    else if (store_read_mark(c->svc->writer, c->me.user_id, cid, mid, clock_now_ms()) < 0)
        api__internal(c);
    else
        api__ok(c);
}

const struct api_route api_read_state_routes[] = {
    API_ROUTE(GET, "/api/users/@me/unread", unread_list, API_PERSON),
    API_ROUTE(PUT, "/api/users/@me/read-states/:cid", read_mark, API_PERSON,
              .limit = &API_LIMIT_READ_MARK),
    {0},
};
