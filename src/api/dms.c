/* Direct messages between people: one channel per pair, found or made, or a group's
 * (api/dm_groups.c). Bots get no DMs. */
#include <http_parser.h>
#include <string.h>

#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "core/clock.h"
#include "api/attachments.h"
#include "api/compose.h"
#include "api/dm.h"
#include "api/events.h"
#include "api/forward.h"
#include "api/limits.h"
#include "store/messages.h"
#include "store/people.h"
#include "store/channels.h"

int api__user_known(struct api_call *c, const char *uid, int *is_bot)
{
    int exists = store_user_kind(c->db, uid, is_bot);
    if (exists < 0)
        api__internal(c);
    else if (!exists)
        api__error(c, 404, "Usuário não encontrado");
    return exists == 1;
}

static void dm_open(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *target;
    if (body && json_object_get(body, "userIds")) {
        api__dm_group_create(c, body);
        return;
    }
    if (!body || api__in_id(c, body, "userId", API_IN_REQUIRED, &target) < 0)
        return;
    int is_bot = 0;
    if (!api__user_known(c, target, &is_bot))
        return;
    if (is_bot) {
        api__error(c, 403, "Bots não recebem mensagens diretas");
        return;
    }
    if (strcmp(target, c->me.user_id) == 0) {
        api__bad(c, "userId", "não é possível abrir uma conversa consigo mesmo");
        return;
    }
    if (api__dm_blocked(c, NULL, target))
        return;
    if (api__limit_hit(c, &API_LIMIT_DM_OPEN))
        return;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    struct store_dm_open dm = {.id = id, .a = c->me.user_id, .b = target, .now = clock_now_ms()};
    if (api__store_answer(c, store_dm_open(c->svc->writer, &dm),
                          &(struct api_store_words){
                              .refused = "Só é possível conversar com quem está em um servidor "
                                         "em comum com você"}))
        return;
    int rc;
    api__reply_found(c, 200, "channel", store_dm_json(c->db, dm.channel_id, &rc));
}

const char *api__dm_of_caller(struct api_call *c)
{
    const char *cid = api__param_id(c, "cid", "Conversa não encontrada");
    if (!cid)
        return NULL;
    int in = store_dm_member(c->db, cid, c->me.user_id);
    if (in < 0)
        api__internal(c);
    else if (!in)
        api__error(c, 404, "Conversa não encontrada");
    return in == 1 ? cid : NULL;
}

json_t *api__dm_post(struct api_call *c, const char *cid, json_t *body,
                     const struct api_limit *limit)
{
    struct draft d;
    if (api__dm_blocked(c, cid, NULL) || api__draft_read(c, body, 0, 0, &d))
        return NULL;
    struct api_files f;
    struct store_new_forward fwd;
    int has_fwd;
    char *files = NULL;
    json_t *msg = NULL;
    if (!api__forward_take(c, body, &d, &fwd, &f, &has_fwd) &&
        (has_fwd || !api__files_take(c, NULL, NULL, NULL, NULL, &f)) &&
        !api__draft_check(c, d.content, NULL, NULL, 0, f.n + has_fwd) &&
        !(limit && api__limit_hit(c, limit)) &&
        (!f.n || (files = api__files_json(&f)) || (api__internal(c), 0))) {
        char id[UUID_LEN + 1];
        uuid_v7(id);
        const char *reply = d.reply_to_id && uuid_valid(d.reply_to_id, strlen(d.reply_to_id)) &&
                                    store_message_in_channel(c->db, d.reply_to_id, cid) == 1
                                ? d.reply_to_id
                                : NULL;
        struct store_new_message m = {.id = id,
                                      .channel_id = cid,
                                      .author_id = c->me.user_id,
                                      .type = "text",
                                      .content = d.content ? d.content : "", /* files alone */
                                      .reply_to_id = reply,
                                      .mentions_json = "[]",
                                      .role_ids_json = "[]",
                                      .attachments_json = files,
                                      .files = files ? &f.set : NULL,
                                      .forward = has_fwd ? &fwd : NULL,
                                      .nonce = d.enforce_nonce ? d.nonce : NULL,
                                      .now = clock_now_ms()};
        int rc = store_message_insert(c->svc->writer, &m), again = rc == STORE_TAKEN;
        /* A nonce seen today: the message it made, and nobody is told twice. */
        msg = again    ? store_message_by_nonce(c->db, m.author_id, m.nonce, m.now, &rc)
              : rc < 0 ? NULL
                       : store_message_json(c->db, id, &rc);
        struct idset *people = msg && !again ? store_dm_people(c->db, cid) : NULL;
        if (!msg)
            api__internal(c);
        else if (people) /* live only, to the two of them: a DM is no bot's business */
            api__event_dm(c, "MESSAGE_CREATE", cid, id, people, json_incref(msg));
    }
    free(files);
    return msg;
}

static void dm_send(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c);
    json_t *body = cid ? api__body(c) : NULL;
    json_t *msg = body ? api__dm_post(c, cid, body, &API_LIMIT_HUMAN_SEND) : NULL;
    if (msg)
        api__reply(c, 200, json_pack("{so}", "message", msg));
}

/* TYPING_START in a DM, to the two of them (see api/typing.c). */
static void dm_typing(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c);
    if (!cid || api__limit_hit(c, &API_LIMIT_TYPING))
        return;
    struct idset *people = store_dm_people(c->db, cid);
    if (!people) {
        api__internal(c);
        return;
    }
    api__event_dm(c, "TYPING_START", cid, NULL, people,
                  json_pack("{snsssnsssI}", "serverId", "channelId", cid, "threadId", "userId",
                            c->me.user_id, "at", (json_int_t)clock_now_ms()));
    api__ok(c);
}

/* :mid in the caller's DM :cid, written by the caller; answered (404, 403) otherwise. */
static const char *own_dm_message(struct api_call *c, const char *cid, const char *refusal)
{
    const char *mid = api__param_id(c, "mid", "Mensagem não encontrada");
    if (!mid)
        return NULL;
    struct store_message_ref ref;
    int found = store_message_ref(c->db, mid, &ref);
    if (found < 0) {
        api__internal(c);
        return NULL;
    }
    if (!found || strcmp(ref.channel_id, cid)) {
        api__error(c, 404, "Mensagem não encontrada");
        return NULL;
    }
    if (strcmp(ref.author_id, c->me.user_id)) {
        api__error(c, 403, refusal);
        return NULL;
    }
    return mid;
}

/* The text of one's own DM message (as a person edits in a server: content only). */
static void dm_edit(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c), *mid;
    json_t *body;
    struct draft d;
    if (!cid || !(mid = own_dm_message(c, cid, "Só quem escreveu a mensagem pode editá-la")) ||
        !(body = api__body(c)) || api__draft_read(c, body, 0, 0, &d))
        return;
    if (!d.content_set)
        api__bad(c, "content", "obrigatório");
    else if (!api__draft_check(c, d.content, NULL, NULL, 0, 0) &&
             !api__limit_hit(c, &API_LIMIT_HUMAN_EDIT)) {
        struct store_message_edit edit = {.id = mid,
                                          .content = d.content,
                                          .mentions_json = "[]",
                                          .role_ids_json = "[]",
                                          .now = clock_now_ms()};
        int rc;
        json_t *msg = store_message_edit(c->svc->writer, &edit) < 0
                          ? NULL
                          : store_message_json(c->db, mid, &rc);
        struct idset *people = msg ? store_dm_people(c->db, cid) : NULL;
        if (!msg)
            api__internal(c);
        else {
            if (people)
                api__event_dm(c, "MESSAGE_UPDATE", cid, mid, people, json_incref(msg));
            api__reply(c, 200, json_pack("{so}", "message", msg));
        }
    }
}

static void dm_delete(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c), *mid;
    if (!cid || !(mid = own_dm_message(c, cid, "Só quem escreveu a mensagem pode apagá-la")))
        return;
    int64_t changes = 0;
    struct idset *people;
    if (store_message_delete(c->svc->writer, mid, &changes) < 0 ||
        !(people = store_dm_people(c->db, cid))) {
        api__internal(c);
        return;
    }
    if (changes)
        api__event_dm(c, "MESSAGE_DELETE", cid, mid, people,
                      json_pack("{sssnss}", "id", mid, "serverId", "channelId", cid));
    else
        idset_unref(people);
    api__ok(c);
}

static void dm_list(struct api_call *c)
{
    json_t *dms = store_dm_list_json(c->db, c->me.user_id);
    if (!dms)
        api__internal(c);
    else
        api__reply(c, 200, json_pack("{so}", "dms", dms));
}

static void dm_history(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c);
    if (cid)
        api__reply_history(c, cid);
}

const struct api_route api_dm_routes[] = {
    API_ROUTE(POST, "/api/users/@me/dms", dm_open, API_PERSON, .limit = &API_LIMIT_DM_OPEN),
    API_ROUTE(GET, "/api/users/@me/dms", dm_list, API_PERSON),
    API_ROUTE(POST, "/api/dms/:cid/messages", dm_send, API_PERSON, .body = API_BODY_UPLOAD,
              .limit = &API_LIMIT_HUMAN_SEND),
    API_ROUTE(GET, "/api/dms/:cid/messages", dm_history, API_PERSON),
    API_ROUTE(PATCH, "/api/dms/:cid/messages/:mid", dm_edit, API_PERSON,
              .limit = &API_LIMIT_HUMAN_EDIT),
    API_ROUTE(DELETE, "/api/dms/:cid/messages/:mid", dm_delete, API_PERSON),
    API_ROUTE(POST, "/api/dms/:cid/typing", dm_typing, API_PERSON, .limit = &API_LIMIT_TYPING),
    {0},
};
