/* Reports: see reports.h. */
#include "store/reports.h"

#include <string.h>

#include "store/rows.h"

static int create_at(struct store *db, struct store_report_new *r)
{
    static const char *SQL_SAME =
        "SELECT id FROM reports WHERE reporter_id = $1 AND target_id = $2 AND status = 'open'"
        " AND COALESCE(message_id, '') = COALESCE($3, '')"
        " AND COALESCE(server_id, '') = COALESCE($4, '') LIMIT 1";
    static const char *SQL =
        "INSERT INTO reports (id, server_id, channel_id, message_id, target_id, reporter_id,"
        " reason, details, content, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    struct store_stmt *st = store__query(db, SQL_SAME,
                                         SV_ARGS(SV_STR(r->reporter_id), SV_STR(r->target_id),
                                                 SV_STR(r->message_id), SV_STR(r->server_id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    r->existing[0] = '\0';
    if (rc == STORE_ROW)
        store__text_copy(st, 0, r->existing, sizeof r->existing);
    store__finish(st);
    if (rc != STORE_DONE)
        return rc == STORE_ROW ? STORE_DONE : rc;
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(r->id), SV_STR(r->server_id), SV_STR(r->channel_id),
                               SV_STR(r->message_id), SV_STR(r->target_id), SV_STR(r->reporter_id),
                               SV_STR(r->reason), SV_STR(r->details), SV_STR(r->content),
                               SV_INT(r->now)));
}

STORE_WRITE_AS(store_report_create, struct store_report_new, create_at)

#define REPORT_SELECT                                                                              \
    "SELECT r.id, r.server_id, r.channel_id, r.message_id, r.target_id, t.username,"               \
    " t.display_name, r.reporter_id, p.username, p.display_name, r.reason, r.details, r.content,"  \
    " r.status, r.settled_by, r.settled_at, r.note, r.created_at FROM reports r"                   \
    " JOIN users t ON t.id = r.target_id JOIN users p ON p.id = r.reporter_id"

static const struct store_col REPORT_COLS[] = {
    {"id", COL_TEXT},           {"serverId", COL_TEXT},   {"channelId", COL_TEXT},
    {"messageId", COL_TEXT},    {"targetId", COL_TEXT},   {"targetUsername", COL_TEXT},
    {"targetName", COL_TEXT},   {"reporterId", COL_TEXT}, {"reporterUsername", COL_TEXT},
    {"reporterName", COL_TEXT}, {"reason", COL_TEXT},     {"details", COL_TEXT},
    {"content", COL_JSON},      {"status", COL_TEXT},     {"settledBy", COL_TEXT},
    {"settledAt", COL_TIME},    {"note", COL_TEXT},       {"createdAt", COL_TIME},
};

json_t *store_report_json(struct store *db, const char *id, int *rc)
{
    static const char *SQL = REPORT_SELECT " WHERE r.id = $1";
    return store__get_json(db, SQL, SV_ARGS(SV_STR(id)), STORE_COLS(REPORT_COLS), rc);
}

json_t *store_reports_json(struct store *db, const char *sid, const char *status,
                           const char *before)
{
    static const char *SQL = REPORT_SELECT
        " WHERE COALESCE(r.server_id, '') = COALESCE($1, '') AND ($2 IS NULL OR r.status = $2)"
        " AND ($3 IS NULL OR r.id < $3) ORDER BY r.id DESC LIMIT $4";
    return store__list_json(
        db, SQL, SV_ARGS(SV_STR(sid), SV_STR(status), SV_STR(before), SV_INT(STORE_REPORTS_PAGE)),
        STORE_COLS(REPORT_COLS));
}

int store_report_settle_db(struct store *db, struct store_report_settle *s)
{
    static const char *SQL =
        "UPDATE reports SET status = $3, settled_by = $4, settled_at = $5, note = $6"
        " WHERE id = $1 AND COALESCE(server_id, '') = COALESCE($2, '')";
    const char *status = s->status;
    int open = status && !strcmp(status, "open");
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(s->id), SV_STR(s->server_id), SV_STR(status),
                                 open ? SV_NULLV : SV_STR(s->by), open ? SV_NULLV : SV_INT(s->now),
                                 open ? SV_NULLV : SV_STR(s->note)));
    s->changes = rc == STORE_DONE ? store__changes(db) : 0;
    return rc;
}

STORE_WRITE_AS(store_report_settle, struct store_report_settle, store_report_settle_db)
