/*
 * A person's scheduled messages (sent by the server at their time, even with every page closed,
 * after a restart and on any node: api/due.c) and reminders for themselves, about a message or
 * in their own words. People only; each person's own, never anyone else's.
 */
#include "api/scheduled.h"

#include <http_parser.h>
#include <string.h>

#include "api/access.h"
#include "api/events.h"
#include "api/input.h"
#include "api/messages.h"
#include "api/place.h"
#include "api/reply.h"
#include "bus/bus.h"
#include "core/clock.h"
#include "core/uuid.h"
#include "domain/message_rules.h"
#include "store/channels.h"
#include "store/messages.h"
#include "store/scheduled.h"

#define SCHEDULED_MAX     100 /* unsent per person */
#define REMINDERS_MAX     100
#define SCHEDULE_AHEAD_MS (30LL * 24 * 3600 * 1000)
#define REMIND_AHEAD_MS   (365LL * 24 * 3600 * 1000)
#define NOTE_MAX          500
#define PREVIEW_MAX       200 /* bytes of a reminded message's text */
#define NONE              "Mensagem agendada não encontrada"

void api__scheduled_told(struct api_call *c, const char *id)
{
    int rc;
    json_t *s = store_scheduled_get(c->db, c->me.user_id, id, &rc);
    struct bus_where at = bus_where_of(NULL, NULL, NULL, NULL, c->me.user_id);
    api__event_to_user(c, "SCHEDULED_UPDATE", &at,
                       json_pack("{s:s,s:o}", "id", id, "scheduled", s ? s : json_null()));
}

/* A time field in (now, now + ahead]: 1 with it, 0 absent, -1 answered. */
static int future(struct api_call *c, json_t *body, const char *key, int64_t ahead, int64_t *out)
{
    int rc = api__in_time(c, body, key, out);
    if (rc <= 0)
        return rc;
    int64_t now = clock_now_ms();
    char why[64];
    snprintf(why, sizeof why, "no máximo %lld dias à frente", (long long)(ahead / 86400000));
    if (*out <= now || *out > now + ahead) {
        api__bad(c, key, *out <= now ? "deve estar no futuro" : why);
        return -1;
    }
    return 1;
}

/* The person may post in the room now: a channel or thread of sid, or a conversation of theirs
 * (sid NULL). 0, or -1 answered as the send would be. */
static int may_post(struct api_call *c, const char *sid, const char *cid)
{
    struct place p;
    if (sid)
        return api__place_at(c, sid, cid, &p) || api__send_allowed(c, &p) ? -1 : 0;
    int in = store_dm_member(c->db, cid, c->me.user_id);
    if (in < 0)
        api__internal(c);
    else if (!in)
        api__error(c, 404, "Conversa não encontrada");
    return in == 1 ? 0 : -1;
}

static void scheduled_create(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *sid = NULL, *cid = NULL, *content = NULL;
    int64_t at = 0;
    if (!body || api__in_id(c, body, "serverId", API_IN_NULLABLE, &sid) < 0 ||
        api__in_id(c, body, "channelId", API_IN_REQUIRED, &cid) < 0 ||
        api__in_str(c, body, "content", 1, MSG_CONTENT_MAX, API_IN_REQUIRED | API_IN_TRIM,
                    &content) < 0)
        return;
    int rc = future(c, body, "sendAt", SCHEDULE_AHEAD_MS, &at);
    if (rc == 0)
        api__bad(c, "sendAt", "obrigatório");
    if (rc <= 0 || may_post(c, sid, cid))
        return;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    struct store_new_scheduled s = {.id = id,
                                    .user_id = c->me.user_id,
                                    .server_id = sid,
                                    .channel_id = cid,
                                    .content = content,
                                    .send_at = at,
                                    .now = clock_now_ms(),
                                    .max = SCHEDULED_MAX};
    if (api__store_answer(c, store_scheduled_create(c->svc->writer, &s),
                          &(struct api_store_words){
                              .full = "sendAt: você já tem 100 mensagens agendadas, o máximo"}))
        return;
    api__scheduled_told(c, id);
    api__reply_found(c, 201, "scheduled", store_scheduled_get(c->db, c->me.user_id, id, &rc));
}

static void scheduled_list(struct api_call *c)
{
    api__reply_list(c, "scheduled", store_scheduled_list(c->db, c->me.user_id));
}

static void scheduled_update(struct api_call *c)
{
    const char *id = api__param_id(c, "id", NONE);
    json_t *body = id ? api__body(c) : NULL;
    const char *content = NULL;
    int64_t at = 0;
    if (!body || api__in_str(c, body, "content", 1, MSG_CONTENT_MAX, API_IN_TRIM, &content) < 0 ||
        future(c, body, "sendAt", SCHEDULE_AHEAD_MS, &at) < 0)
        return;
    struct store_scheduled_patch p = {
        .id = id, .user_id = c->me.user_id, .content = content, .send_at = at};
    if (api__store_answer(c, store_scheduled_update(c->svc->writer, &p),
                          &(struct api_store_words){.missing = NONE}))
        return;
    int rc;
    api__scheduled_told(c, id);
    api__reply_found(c, 200, "scheduled", store_scheduled_get(c->db, c->me.user_id, id, &rc));
}

static void scheduled_delete(struct api_call *c)
{
    const char *id = api__param_id(c, "id", NONE);
    struct store_scheduled_ref r = {.id = id, .user_id = c->me.user_id};
    if (!id || api__store_answer(c, store_scheduled_delete(c->svc->writer, &r),
                                 &(struct api_store_words){.missing = NONE}))
        return;
    api__scheduled_told(c, id);
    api__ok(c);
}

/* ---- reminders ---- */

/* What a reminder of mid shows of it, when the caller can still read it; else null. */
static json_t *reminded_message(struct api_call *c, const char *mid)
{
    struct store_message_ref ref;
    int rc;
    if (!mid || store_message_ref(c->db, mid, &ref) != 1 || api__may_read(c, ref.channel_id) != 1)
        return json_null();
    json_t *m = store_message_json(c->db, mid, &rc);
    if (!m)
        return json_null();
    const char *text = json_string_value(json_object_get(m, "content"));
    size_t len = text ? strlen(text) : 0;
    if (len > PREVIEW_MAX) /* cut at a character */
        for (len = PREVIEW_MAX; len && ((unsigned char)text[len] & 0xc0) == 0x80;)
            len--;
    json_t *out =
        json_pack("{s:O,s:O,s:O,s:O,s:O,s:s%}", "id", json_object_get(m, "id"), "serverId",
                  json_object_get(m, "serverId"), "channelId", json_object_get(m, "channelId"),
                  "threadId", json_object_get(m, "threadId"), "fromId",
                  json_object_get(m, "fromId"), "preview", text ? text : "", len);
    json_decref(m);
    return out ? out : json_null();
}

int api__reminder_told(struct api_call *c, json_t *row)
{
    const char *id = json_string_value(json_object_get(row, "id"));
    const char *mid = json_string_value(json_object_get(row, "messageId"));
    json_t *reminder = json_deep_copy(row);
    json_object_del(reminder, "userId");
    struct bus_where at = bus_where_of(NULL, NULL, NULL, mid, c->me.user_id);
    /* Gone in the transaction that logs its event: a list read on hearing it no longer has it. */
    return api__write_with_event(
        c, store_reminder_done_at, (void *)id, "REMINDER_DUE", &at,
        json_pack("{s:o,s:o}", "reminder", reminder, "message", reminded_message(c, mid)));
}

static void reminder_create(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *mid = NULL, *note = NULL;
    int64_t at = 0;
    if (!body || api__in_id(c, body, "messageId", API_IN_NULLABLE, &mid) < 0 ||
        api__in_str(c, body, "note", 0, NOTE_MAX, API_IN_NULLABLE | API_IN_TRIM, &note) < 0)
        return;
    int rc = future(c, body, "remindAt", REMIND_AHEAD_MS, &at);
    if (rc == 0)
        api__bad(c, "remindAt", "obrigatório");
    if (rc <= 0)
        return;
    if (!mid && (!note || !*note)) {
        api__bad(c, "note", "obrigatório sem messageId");
        return;
    }
    struct store_message_ref ref;
    int found = mid ? store_message_ref(c->db, mid, &ref) : 0;
    int ok = found > 0 ? api__may_read(c, ref.channel_id) : found;
    if (ok < 0) {
        api__internal(c);
        return;
    }
    if (mid && !ok) {
        api__error(c, 404, "Mensagem não encontrada");
        return;
    }
    char id[UUID_LEN + 1];
    uuid_v7(id);
    struct store_new_reminder r = {.id = id,
                                   .user_id = c->me.user_id,
                                   .message_id = mid,
                                   .note = note ? note : "",
                                   .remind_at = at,
                                   .now = clock_now_ms(),
                                   .max = REMINDERS_MAX};
    if (api__store_answer(
            c, store_reminder_create(c->svc->writer, &r),
            &(struct api_store_words){.full = "remindAt: você já tem 100 lembretes, o máximo"}))
        return;
    json_t *list = store_reminders_list(c->db, c->me.user_id);
    json_t *mine = NULL;
    size_t i;
    json_t *x;
    json_array_foreach(list, i, x) if (!strcmp(json_string_value(json_object_get(x, "id")), id))
        mine = json_incref(x);
    json_decref(list);
    api__reply_found(c, 201, "reminder", mine);
}

static void reminder_list(struct api_call *c)
{
    api__reply_list(c, "reminders", store_reminders_list(c->db, c->me.user_id));
}

static void reminder_delete(struct api_call *c)
{
    const char *id = api__param_id(c, "id", "Lembrete não encontrado");
    struct store_scheduled_ref r = {.id = id, .user_id = c->me.user_id};
    if (id && !api__store_answer(c, store_reminder_delete(c->svc->writer, &r),
                                 &(struct api_store_words){.missing = "Lembrete não encontrado"}))
        api__ok(c);
}

const struct api_route api_scheduled_routes[] = {
    API_ROUTE(GET, "/api/users/@me/scheduled-messages", scheduled_list, API_PERSON),
    API_ROUTE(POST, "/api/users/@me/scheduled-messages", scheduled_create, API_PERSON),
    API_ROUTE(PATCH, "/api/users/@me/scheduled-messages/:id", scheduled_update, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/scheduled-messages/:id", scheduled_delete, API_PERSON),
    API_ROUTE(GET, "/api/users/@me/reminders", reminder_list, API_PERSON),
    API_ROUTE(POST, "/api/users/@me/reminders", reminder_create, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/reminders/:id", reminder_delete, API_PERSON),
    {0},
};
