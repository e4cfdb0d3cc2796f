/* Audit log: see audit.h. */
#include "store/audit.h"

#include "store/rows.h"

int store_audit_insert_at(struct store *db, struct store_audit_entry *e)
{
    static const char *SQL_OLD = "DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log"
                                 " WHERE created_at < $1 ORDER BY created_at LIMIT 20)";
    static const char *SQL =
        "INSERT INTO audit_log (id, server_id, actor_id, application_id, action, target_type,"
        " target_id, changes, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,"
        " $10)";
    int rc = store__exec(db, SQL_OLD, SV_ARGS(SV_INT(e->now - AUDIT_TTL_MS)));
    if (rc != STORE_DONE)
        return rc;
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(e->id), SV_STR(e->server_id), SV_STR(e->actor_id),
                               SV_STR(e->application_id), SV_STR(e->action), SV_STR(e->target_type),
                               SV_STR(e->target_id), SV_STR(e->changes_json), SV_STR(e->reason),
                               SV_INT(e->now)));
}

STORE_WRITE_AS(store_audit_insert, struct store_audit_entry, store_audit_insert_at)

json_t *store_audit_json(struct store *db, const struct store_audit_query *q, int *has_more)
{
    static const char *SQL =
        "SELECT id, server_id, actor_id, application_id, action, target_type, target_id, changes,"
        " reason, created_at FROM audit_log WHERE server_id = $1"
        " AND ($2 = '' OR actor_id = $2) AND ($3 = '' OR action = $3)"
        " AND ($4 = '' OR target_id = $4) AND ($5 = '' OR id < $5) AND created_at > $6"
        " ORDER BY id DESC LIMIT $7";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},       {"serverId", COL_TEXT},
        {"actorId", COL_TEXT},  {"applicationId", COL_TEXT},
        {"action", COL_TEXT},   {"targetType", COL_TEXT},
        {"targetId", COL_TEXT}, {"changes", COL_JSON},
        {"reason", COL_TEXT},   {"createdAt", COL_TIME},
    };
    json_t *list = store__list_json(
        db, SQL,
        SV_ARGS(SV_STR(q->server_id), SV_STR(q->actor_id ? q->actor_id : ""),
                SV_STR(q->action ? q->action : ""), SV_STR(q->target_id ? q->target_id : ""),
                SV_STR(q->before ? q->before : ""), SV_INT(q->now - AUDIT_TTL_MS),
                SV_INT(q->limit + 1)),
        STORE_COLS(COLS));
    *has_more = list && (int64_t)json_array_size(list) > q->limit;
    if (*has_more)
        json_array_remove(list, json_array_size(list) - 1);
    return list;
}
