/*
 * Message search: GET /api/servers/:sid/messages/search in the channels (and threads) the
 * caller may read now, and GET /api/dms/:cid/messages/search in one DM of theirs. Bots need
 * messages.read. Whatever the index holds, a channel whose VER_CANAL the caller lost is not
 * looked in: the channels are worked out from the state at each request.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/access.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/jsonout.h"
#include "domain/intents.h"
#include "domain/search_rules.h"
#include "domain/text.h"
#include "http/request.h"
#include "state/state.h"
#include "store/channels.h"
#include "store/messages.h"
#include "store/search.h"

#define SEARCH_PAGE_MAX 25

/* q, limit and before from the query: 0, or -1 answered. */
static int read_query(struct api_call *c, struct search_query *sq, long long *limit,
                      char before[UUID_LEN + 1])
{
    struct slice v;
    char q[4 * SEARCH_QUERY_MAX + 1] = "";
    const char *why;
    if (http_query_param(c->req->query, "q", &v)) {
        size_t len;
        if (v.len >= sizeof q || http_url_decode(v, q, sizeof q, &len)) {
            api__bad(c, "q", "deve ter até 512 caracteres");
            return -1;
        }
        q[len] = 0;
    }
    if (rule_search_parse(q, sq, &why)) {
        api__bad(c, "q", why);
        return -1;
    }
    *limit = 25;
    if (http_query_param(c->req->query, "limit", &v) &&
        slice_to_i64(v, 1, SEARCH_PAGE_MAX, limit)) {
        api__bad(c, "limit", "deve ser um número de 1 a 25");
        return -1;
    }
    before[0] = 0;
    if (http_query_param(c->req->query, "before", &v) &&
        (slice_copy(v, before, UUID_LEN + 1) || !uuid_valid(before, strlen(before)))) {
        api__bad(c, "before", "deve ser o ID de uma mensagem");
        return -1;
    }
    return 0;
}

/* The found messages, whole, in the order found: {messages, hasMore, next}. */
static void reply_found(struct api_call *c, json_t *ids, const char *next)
{
    json_t *messages = json_array();
    size_t i;
    json_t *id;
    json_array_foreach(ids, i, id)
    {
        int rc;
        json_t *m = store_message_json(c->db, json_string_value(id), &rc);
        if (m)
            json_array_append_new(messages, m);
    }
    json_decref(ids);
    api__reply(c, 200,
               json_pack("{sosbso}", "messages", messages, "hasMore", next[0] != '\0', "next",
                         next[0] ? json_string(next) : json_null()));
}

/* Looks in channels (a JSON array's text) and answers {messages, hasMore}. */
static void run_search(struct api_call *c, const char *channels, const struct search_query *sq,
                       const char *author, const char *mentioned, const char *before,
                       long long limit)
{
    struct store_search q = {.channels_json = channels,
                             .text = sq->text,
                             .author_id = author && author[0] ? author : NULL,
                             .mentions_id = mentioned && mentioned[0] ? mentioned : NULL,
                             .has_link = sq->has_link,
                             .has_embed = sq->has_embed,
                             .has_file = sq->has_file,
                             .after_ms = sq->after_ms,
                             .before_ms = sq->before_ms,
                             .before_id = before[0] ? before : NULL,
                             .limit = limit,
                             .scan_rows = c->svc->cfg->search_scan_rows};
    char next[UUID_LEN + 1];
    /* What was sent just before is indexed first, and read in a fresh snapshot. */
    if (sq->text[0] && store_search_indexed_by_writer(c->db)) {
        if (store_search_catch_up(c->svc->writer) < 0) {
            api__internal(c);
            return;
        }
        store_read_release(c->db);
    }
    json_t *ids = store_search_ids(c->db, &q, next);
    if (!ids)
        api__internal(c);
    else
        reply_found(c, ids, next);
}

/* The IDs of the channels and threads the member may read now, as a JSON array's text. */
static char *readable_channels(struct state_server *srv, const struct state_member *me,
                               const char *only)
{
    json_t *list = json_array();
    int64_t now = clock_now_ms();
    for (size_t i = 0; i < srv->shape->nchannels; i++) {
        const struct state_channel *ch = &srv->shape->channels[i];
        int64_t perm = ch->parent_id[0] ? state_server_channel(srv, ch->parent_id) : (int64_t)i;
        if (perm < 0 || !(state_server_channel_perms(srv, me, (size_t)perm, now) & PERM_VER_CANAL))
            continue;
        if (only && strcmp(ch->id, only) != 0 && strcmp(ch->parent_id, only) != 0)
            continue;
        json_array_append_new(list, json_string(ch->id));
    }
    char *text = jsonout_dump(list, NULL);
    json_decref(list);
    return text;
}

/* GET /api/servers/:sid/messages/search?q=&limit=&before= */
static void server_search(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    struct search_query sq;
    long long limit;
    char before[UUID_LEN + 1], in[UUID_LEN + 1] = "";
    if (!sid || (c->me.is_bot && api__bot_intent(c, INTENT_MESSAGES_READ)) ||
        read_query(c, &sq, &limit, before) || api__limit_hit(c, &API_LIMIT_SEARCH))
        return;
    int found;
    struct state_server *srv = state_server(c->svc->state, c->db, sid, &found);
    if (!srv) {
        api__internal(c);
        return;
    }
    const struct state_member *me = state_server_member(srv, c->me.user_id);
    rule_text_username_fold(sq.from, strlen(sq.from)); /* usernames are kept folded */
    rule_text_username_fold(sq.mentions, strlen(sq.mentions));
    const struct state_member *from =
        sq.from[0] ? state_server_member_by_username(srv, sq.from) : NULL;
    const struct state_member *mentions =
        sq.mentions[0] ? state_server_member_by_username(srv, sq.mentions) : NULL;
    int in_found = sq.in[0] ? store_channel_named(c->db, sid, sq.in, in) : 1;
    char author[UUID_LEN + 1] = "", mentioned[UUID_LEN + 1] = "";
    if (from)
        memcpy(author, from->user_id, sizeof author);
    if (mentions)
        memcpy(mentioned, mentions->user_id, sizeof mentioned);
    char *channels = me && in_found > 0 ? readable_channels(srv, me, in[0] ? in : NULL) : NULL;
    state_server_unref(srv);
    int nobody = (sq.from[0] && !from) || (sq.mentions[0] && !mentions);
    if (in_found < 0 || (me && in_found > 0 && !channels)) {
        free(channels);
        api__internal(c);
        return;
    }
    /* A name that is nobody here, or a channel that is not here, finds nothing. */
    if (!me || nobody || !in_found) {
        free(channels);
        reply_found(c, json_array(), "");
        return;
    }
    run_search(c, channels, &sq, author, mentioned, before, limit);
    free(channels);
}

/* GET /api/dms/:cid/messages/search?q=&limit=&before= (words, phrases, has:, dates) */
static void dm_search(struct api_call *c)
{
    const char *cid = api__param_id(c, "cid", "Conversa não encontrada");
    struct search_query sq;
    long long limit;
    char before[UUID_LEN + 1];
    if (!cid)
        return;
    int in = store_dm_member(c->db, cid, c->me.user_id);
    if (in <= 0) {
        if (in < 0)
            api__internal(c);
        else
            api__error(c, 404, "Conversa não encontrada");
        return;
    }
    if (read_query(c, &sq, &limit, before) || api__limit_hit(c, &API_LIMIT_SEARCH))
        return;
    char channels[UUID_LEN + 8];
    snprintf(channels, sizeof channels, "[\"%s\"]", cid);
    run_search(c, channels, &sq, NULL, NULL, before, limit);
}

const struct api_route api_search_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/messages/search", server_search, API_ANY,
              .limit = &API_LIMIT_SEARCH),
    API_ROUTE(GET, "/api/dms/:cid/messages/search", dm_search, API_PERSON,
              .limit = &API_LIMIT_SEARCH),
    {0},
};
