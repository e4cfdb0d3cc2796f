/*
 * A person's saved messages ("Salvos", Slack's "Later", Discord's bookmarks): a message they can
 * read, kept in a list of their own until they take it back or it is deleted. The list shows
 * only what they can still read (a channel closed to them since is left out, not revealed), and
 * their other pages hear SAVED_UPDATE so a mark shows everywhere.
 */
#include <http_parser.h>
#include <string.h>

#include "api/access.h"
#include "api/api.h"
#include "api/events.h"
#include "api/input.h"
#include "api/reply.h"
#include "bus/bus.h"
#include "core/clock.h"
#include "store/messages.h"
#include "store/saved.h"

#define SAVED_MAX 1000
#define PAGE_MAX  50
#define NONE      "Mensagem não encontrada"

/* :mid, a message the caller can read: its ID, or NULL (answered 404). */
static const char *readable(struct api_call *c)
{
    const char *mid = api__param_id(c, "mid", NONE);
    struct store_message_ref ref;
    int found = mid ? store_message_ref(c->db, mid, &ref) : 0;
    int ok = found > 0 ? api__may_read(c, ref.channel_id) : found;
    if (ok < 0)
        api__internal(c);
    else if (!ok && mid)
        api__error(c, 404, NONE);
    return ok > 0 ? mid : NULL;
}

static void told(struct api_call *c, const char *mid, int saved)
{
    struct bus_where at = bus_where_of(NULL, NULL, NULL, mid, c->me.user_id);
    api__event_to_user(c, "SAVED_UPDATE", &at,
                       json_pack("{sssb}", "messageId", mid, "saved", saved));
}

static void saved_put(struct api_call *c)
{
    const char *mid = readable(c);
    if (!mid)
        return;
    struct store_saved s = {
        .user_id = c->me.user_id, .message_id = mid, .now = clock_now_ms(), .max = SAVED_MAX};
    if (api__store_answer(c, store_saved_put(c->svc->writer, &s),
                          &(struct api_store_words){
                              .full = "messageId: você já tem 1000 mensagens salvas, o máximo"}))
        return;
    if (s.changes)
        told(c, mid, 1);
    api__ok(c);
}

static void saved_delete(struct api_call *c)
{
    const char *mid = api__param_id(c, "mid", NONE);
    if (!mid)
        return;
    struct store_saved s = {.user_id = c->me.user_id, .message_id = mid};
    if (store_saved_delete(c->svc->writer, &s) < 0) {
        api__internal(c);
        return;
    }
    if (!s.changes) {
        api__error(c, 404, NONE);
        return;
    }
    told(c, mid, 0);
    api__ok(c);
}

/* GET /api/users/@me/saved?before=&limit=: {saved: [{savedAt, authorName, message}], next}, the
 * last saved
 * first; next (a time, or null at the end) is the following page's before. */
static void saved_list(struct api_call *c)
{
    struct slice v;
    long long limit = PAGE_MAX;
    int64_t before = 0;
    char text[64];
    if (http_query_param(c->req->query, "limit", &v) && slice_to_i64(v, 1, PAGE_MAX, &limit)) {
        api__bad(c, "limit", "deve ser um número de 1 a 50");
        return;
    }
    if (http_query_param(c->req->query, "before", &v) &&
        (http_url_decode(v, text, sizeof text, NULL) || clock_parse(text, strlen(text), &before))) {
        api__bad(c, "before", "deve ser uma data ISO 8601");
        return;
    }
    json_t *rows = store_saved_json(c->db, c->me.user_id, before, limit);
    json_t *out = rows ? json_array() : NULL;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        int rc, may = api__may_read(c, json_string_value(json_object_get(row, "channelId")));
        json_t *m = may > 0 ? store_message_json(
                                  c->db, json_string_value(json_object_get(row, "messageId")), &rc)
                            : NULL;
        if (may < 0 || (may > 0 && !m && rc < 0)) {
            json_decref(out);
            out = NULL;
            break;
        }
        if (m)
            json_array_append_new(out, json_pack("{sOsOso}", "savedAt",
                                                 json_object_get(row, "savedAt"), "authorName",
                                                 json_object_get(row, "authorName"), "message", m));
    }
    /* next: where the following page starts, from the rows read, so a page thinned by what
     * cannot be read any more still goes on. */
    json_t *last = rows && json_array_size(rows) == (size_t)limit
                       ? json_object_get(json_array_get(rows, json_array_size(rows) - 1), "savedAt")
                       : NULL;
    json_t *next = last ? json_incref(last) : json_null();
    json_decref(rows);
    if (!out) {
        json_decref(next);
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{soso}", "saved", out, "next", next));
}

const struct api_route api_saved_routes[] = {
    API_ROUTE(GET, "/api/users/@me/saved", saved_list, API_PERSON),
    API_ROUTE(PUT, "/api/users/@me/saved/:mid", saved_put, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/saved/:mid", saved_delete, API_PERSON),
    {0},
};
