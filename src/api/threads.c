/*
 * Threads: a channel with a parent, started from a message of a text channel, or in a forum
 * as a new post with its first message. People talk in a thread through the human send route
 * with the thread's ID; bots receive no thread events.
 */
#include <http_parser.h>
#include <string.h>

#include "api/reply.h"
#include "api/input.h"
#include "api/events.h"
#include "api/place.h"
#include "api/compose.h"
#include "api/limits.h"
#include "api/messages.h"
#include "core/clock.h"
#include "domain/permissions.h"
#include "store/messages.h"
#include "store/channels.h"

/* Answers with the new thread (and the message it began from, when one did); the server's
 * people read its channels again (SERVER_UPDATE). */
static void reply_thread(struct api_call *c, const char *id, const char *origin, json_t *extra)
{
    int rc;
    json_t *ch = store_channel_json(c->db, id, &rc);
    const char *sid = json_string_value(json_object_get(ch, "serverId"));
    if (sid)
        api__event_server_changed(c, sid, "channels");
    if (!ch) {
        json_decref(extra);
        api__internal(c);
        return;
    }
    json_object_del(ch, "overwrites"); /* a thread takes its parent's */
    json_object_set_new(ch, "originMessageId", origin ? json_string(origin) : json_null());
    json_t *out = json_pack("{so}", "channel", ch);
    if (extra)
        json_object_update(out, extra);
    json_decref(extra);
    api__reply(c, 201, out);
}

static void thread_from_message(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    const char *mid, *name;
    struct store_message_ref ref;
    json_t *body;
    if (strcmp(p.type, "text") != 0)
        api__bad(c, "channelId", "threads começam de mensagens de canais de texto");
    else if (!api__place_message(c, &p, &mid, &ref) && !api__human_gates(c, &p) &&
             (body = api__body(c)) &&
             api__in_str(c, body, "name", 1, 100, API_IN_REQUIRED | API_IN_TRIM, &name) >= 0 &&
             !api__automod(c, p.srv, name, NULL, 0) && !api__limit_hit(c, &API_LIMIT_HUMAN_SEND)) {
        char id[UUID_LEN + 1];
        uuid_v7(id);
        struct store_new_thread t = {.id = id,
                                     .server_id = p.sid,
                                     .parent_id = p.cid,
                                     .name = name,
                                     .origin_message_id = mid,
                                     .now = clock_now_ms()};
        int rc = store_thread_create(c->svc->writer, &t);
        if (!api__store_answer(
                c, rc, &(struct api_store_words){.taken = "Esta mensagem já tem uma thread"}))
            reply_thread(c, id, mid, NULL);
    }
}

struct forum_post {
    struct store_new_thread thread;
    struct store_new_message first;
};

static int forum_post_write(struct store *db, void *arg)
{
    struct forum_post *f = arg;
    int rc = store_thread_create_at(db, &f->thread);
    return rc == STORE_DONE ? store_message_insert_at(db, &f->first) : rc;
}

static void forum_thread(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    const char *name, *content;
    json_t *body;
    if (strcmp(p.type, "forum") != 0)
        api__bad(c, "channelId", "só canais de fórum recebem publicações novas");
    else if (!api__human_gates(c, &p) && (body = api__body(c)) &&
             api__in_str(c, body, "name", 1, 100, API_IN_REQUIRED | API_IN_TRIM, &name) >= 0 &&
             api__in_str(c, body, "content", 1, 4000, API_IN_REQUIRED, &content) >= 0 &&
             !api__automod(c, p.srv, name, NULL, 0) && !api__automod(c, p.srv, content, NULL, 0) &&
             !api__limit_hit(c, &API_LIMIT_HUMAN_SEND)) {
        char tid[UUID_LEN + 1], mid[UUID_LEN + 1];
        uuid_v7(tid);
        uuid_v7(mid);
        int64_t now = clock_now_ms();
        struct forum_post f = {
            .thread = {tid, p.sid, p.cid, name, NULL, now},
            .first = {.id = mid,
                      .channel_id = tid,
                      .thread_parent_id = p.cid,
                      .server_id = p.sid,
                      .author_id = c->me.user_id,
                      .type = "text",
                      .content = content,
                      .mentions_json = "[]",
                      .role_ids_json = "[]",
                      .now = now},
        };
        int rc;
        if (store_write(c->svc->writer, forum_post_write, &f) < 0) {
            api__internal(c);
        } else {
            json_t *m = store_message_json(c->db, mid, &rc);
            if (!m)
                api__internal(c);
            else
                reply_thread(c, tid, NULL, json_pack("{so}", "message", m));
        }
    }
}

#define THREADS_LISTED 100

/* GET /api/servers/:sid/channels/:cid/threads: a text channel's threads or a forum's posts. */
static void thread_list(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    json_t *list = NULL;
    if (strcmp(p.type, "text") && strcmp(p.type, "forum"))
        api__bad(c, "cid", "só canais de texto e fóruns têm threads");
    else if (!(list = store_threads_json(c->db, p.cid, THREADS_LISTED)))
        api__internal(c);
    else
        api__reply(c, 200, json_pack("{so}", "threads", list));
}

const struct api_route api_thread_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/channels/:cid/threads", thread_list, API_ANY),
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/messages/:mid/threads", thread_from_message,
              API_ANY, .limit = &API_LIMIT_HUMAN_SEND),
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/threads", forum_thread, API_ANY,
              .limit = &API_LIMIT_HUMAN_SEND),
    {0},
};
