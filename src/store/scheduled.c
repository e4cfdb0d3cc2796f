/* Scheduled messages and reminders: see scheduled.h. */
#include "store/scheduled.h"

#include "core/clock.h"
#include "store/rows.h"

#define DAY_MS (24 * 3600 * 1000LL)

static int scheduled_create_at(struct store *db, struct store_new_scheduled *s)
{
    static const char *SQL_COUNT =
        "SELECT count(*) FROM scheduled_messages WHERE user_id = $1 AND state <> 'sent'";
    static const char *SQL = "INSERT INTO scheduled_messages (id, user_id, server_id, channel_id,"
                             " content, send_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)";
    int64_t n = store__number(db, SQL_COUNT, s->user_id);
    if (n < 0)
        return STORE_ERR;
    if (n >= s->max)
        return STORE_FULL;
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(s->id), SV_STR(s->user_id), SV_STR(s->server_id),
                               SV_STR(s->channel_id), SV_STR(s->content), SV_INT(s->send_at),
                               SV_INT(s->now)));
}

STORE_WRITE_AS(store_scheduled_create, struct store_new_scheduled, scheduled_create_at)

static const struct store_col SCHEDULED_COLS[] = {
    {"id", COL_TEXT},      {"serverId", COL_TEXT}, {"channelId", COL_TEXT},
    {"content", COL_TEXT}, {"sendAt", COL_TIME},   {"createdAt", COL_TIME},
    {"state", COL_TEXT},   {"error", COL_TEXT},    {"messageId", COL_TEXT},
};
#define SCHEDULED_SELECT                                                                           \
    "SELECT id, server_id, channel_id, content, send_at, created_at, state, error, message_id"     \
    " FROM scheduled_messages"

json_t *store_scheduled_list(struct store *db, const char *uid)
{
    static const char *SQL = SCHEDULED_SELECT " WHERE user_id = $1 AND state <> 'sent'"
                                              " ORDER BY send_at, id";
    return store__list_json(db, SQL, SV_ARGS(SV_STR(uid)), STORE_COLS(SCHEDULED_COLS));
}

json_t *store_scheduled_get(struct store *db, const char *uid, const char *id, int *rc)
{
    static const char *SQL = SCHEDULED_SELECT " WHERE id = $1 AND user_id = $2";
    return store__get_json(db, SQL, SV_ARGS(SV_STR(id), SV_STR(uid)), STORE_COLS(SCHEDULED_COLS),
                           rc);
}

/* One statement whose success is to change a row of its caller's: STORE_MISSING when none. */
static int one_row(struct store *db, const char *sql, const struct store_val *args, size_t n)
{
    int rc = store__exec(db, sql, args, n);
    return rc == STORE_DONE && !store__changes(db) ? STORE_MISSING : rc;
}

static int scheduled_update_at(struct store *db, struct store_scheduled_patch *p)
{
    static const char *SQL =
        "UPDATE scheduled_messages SET content = COALESCE($3, content),"
        " send_at = CASE WHEN CAST($4 AS BIGINT) > 0 THEN $4 ELSE send_at END, state = 'pending',"
        " error = NULL,"
        " claimed_until = 0 WHERE id = $1 AND user_id = $2 AND state <> 'sent'";
    return one_row(
        db, SQL,
        SV_ARGS(SV_STR(p->id), SV_STR(p->user_id), SV_STR(p->content), SV_INT(p->send_at)));
}

STORE_WRITE_AS(store_scheduled_update, struct store_scheduled_patch, scheduled_update_at)

static int scheduled_delete_at(struct store *db, struct store_scheduled_ref *r)
{
    static const char *SQL =
        "DELETE FROM scheduled_messages WHERE id = $1 AND user_id = $2 AND state <> 'sent'";
    return one_row(db, SQL, SV_ARGS(SV_STR(r->id), SV_STR(r->user_id)));
}

STORE_WRITE_AS(store_scheduled_delete, struct store_scheduled_ref, scheduled_delete_at)

json_t *store_scheduled_due(struct store *db, int64_t now, int64_t limit)
{
    static const char *SQL = "SELECT id, user_id, server_id, channel_id, content, send_at"
                             " FROM scheduled_messages WHERE state = 'pending' AND send_at <= $1"
                             " AND claimed_until < $1 ORDER BY send_at, id LIMIT $2";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},        {"userId", COL_TEXT},  {"serverId", COL_TEXT},
        {"channelId", COL_TEXT}, {"content", COL_TEXT}, {"sendAt", COL_INT},
    };
    return store__list_json(db, SQL, SV_ARGS(SV_INT(now), SV_INT(limit)), STORE_COLS(COLS));
}

static int scheduled_claim_at(struct store *db, struct store_claim *c)
{
    static const char *SQL = "UPDATE scheduled_messages SET claimed_until = $3"
                             " WHERE id = $1 AND state = 'pending' AND claimed_until < $2";
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(c->id), SV_INT(c->now), SV_INT(c->until)));
    c->changes = rc == STORE_DONE ? store__changes(db) : 0;
    return rc;
}

STORE_WRITE_AS(store_scheduled_claim, struct store_claim, scheduled_claim_at)

static int scheduled_end_at(struct store *db, struct store_scheduled_end *e)
{
    static const char *SQL = "UPDATE scheduled_messages SET state = $4, message_id = $2, error = $3"
                             " WHERE id = $1 AND state = 'pending'";
    /* What was sent a day ago is known by its message now: its row goes. */
    static const char *SQL_OLD =
        "DELETE FROM scheduled_messages WHERE state = 'sent' AND send_at < $1";
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(e->id), SV_STR(e->message_id), SV_STR(e->error),
                                 SV_STR(e->message_id ? "sent" : "failed")));
    return rc == STORE_DONE ? store__exec(db, SQL_OLD, SV_ARGS(SV_INT(clock_now_ms() - DAY_MS)))
                            : rc;
}

STORE_WRITE_AS(store_scheduled_end, struct store_scheduled_end, scheduled_end_at)

int64_t store_scheduled_pending(struct store *db)
{
    static const char *SQL = "SELECT count(*) FROM scheduled_messages WHERE state = $1";
    return store__number(db, SQL, "pending");
}

/* ---- reminders ---- */

static int reminder_create_at(struct store *db, struct store_new_reminder *r)
{
    static const char *SQL_COUNT = "SELECT count(*) FROM reminders WHERE user_id = $1";
    static const char *SQL = "INSERT INTO reminders (id, user_id, message_id, note, remind_at,"
                             " created_at) VALUES ($1, $2, $3, $4, $5, $6)";
    int64_t n = store__number(db, SQL_COUNT, r->user_id);
    if (n < 0)
        return STORE_ERR;
    if (n >= r->max)
        return STORE_FULL;
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(r->id), SV_STR(r->user_id), SV_STR(r->message_id),
                               SV_STR(r->note), SV_INT(r->remind_at), SV_INT(r->now)));
}

STORE_WRITE_AS(store_reminder_create, struct store_new_reminder, reminder_create_at)

json_t *store_reminders_list(struct store *db, const char *uid)
{
    static const char *SQL =
        "SELECT r.id, r.message_id, r.note, r.remind_at, r.created_at, m.server_id,"
        " COALESCE(m.thread_parent_id, m.channel_id),"
        " CASE WHEN m.thread_parent_id IS NOT NULL THEN m.channel_id END"
        " FROM reminders r LEFT JOIN messages m ON m.id = r.message_id"
        " WHERE r.user_id = $1 ORDER BY r.remind_at, r.id";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},        {"messageId", COL_TEXT}, {"note", COL_TEXT},
        {"remindAt", COL_TIME},  {"createdAt", COL_TIME}, {"serverId", COL_TEXT},
        {"channelId", COL_TEXT}, {"threadId", COL_TEXT},
    };
    return store__list_json(db, SQL, SV_ARGS(SV_STR(uid)), STORE_COLS(COLS));
}

static int reminder_delete_at(struct store *db, struct store_scheduled_ref *r)
{
    static const char *SQL = "DELETE FROM reminders WHERE id = $1 AND user_id = $2";
    return one_row(db, SQL, SV_ARGS(SV_STR(r->id), SV_STR(r->user_id)));
}

STORE_WRITE_AS(store_reminder_delete, struct store_scheduled_ref, reminder_delete_at)

json_t *store_reminders_due(struct store *db, int64_t now, int64_t limit)
{
    static const char *SQL = "SELECT id, user_id, message_id, note, remind_at FROM reminders"
                             " WHERE state = 'pending' AND remind_at <= $1 AND claimed_until < $1"
                             " ORDER BY remind_at, id LIMIT $2";
    static const struct store_col COLS[] = {{"id", COL_TEXT},
                                            {"userId", COL_TEXT},
                                            {"messageId", COL_TEXT},
                                            {"note", COL_TEXT},
                                            {"remindAt", COL_TIME}};
    return store__list_json(db, SQL, SV_ARGS(SV_INT(now), SV_INT(limit)), STORE_COLS(COLS));
}

static int reminder_claim_at(struct store *db, struct store_claim *c)
{
    static const char *SQL = "UPDATE reminders SET claimed_until = $3"
                             " WHERE id = $1 AND state = 'pending' AND claimed_until < $2";
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(c->id), SV_INT(c->now), SV_INT(c->until)));
    c->changes = rc == STORE_DONE ? store__changes(db) : 0;
    return rc;
}

STORE_WRITE_AS(store_reminder_claim, struct store_claim, reminder_claim_at)

int store_reminder_done_at(struct store *db, void *id)
{
    static const char *SQL = "DELETE FROM reminders WHERE id = $1";
    return store__exec(db, SQL, SV_ARGS(SV_STR((const char *)id)));
}
