/* Idempotency keys: see idempotency.h. */
#include "store/idempotency.h"

#include <stdlib.h>
#include <string.h>

#include "store/rows.h"

int store_idempotency_find(struct store *db, const char *caller, const char *key, int64_t now,
                           struct store_idempotency *out)
{
    static const char *SQL = "SELECT request_hash, status, COALESCE(body, '') FROM"
                             " idempotency_keys WHERE caller_id = $1 AND key = $2"
                             " AND created_at > $3";
    memset(out, 0, sizeof *out);
    struct store_stmt *st = store__query(
        db, SQL, SV_ARGS(SV_STR(caller), SV_STR(key), SV_INT(now - IDEMPOTENCY_TTL_MS)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW) {
        store__text_copy(st, 0, out->request_hash, sizeof out->request_hash);
        out->status = (int)store__int(st, 1);
        out->body_len = store__text_len(st, 2);
        if ((out->body = malloc(out->body_len + 1))) {
            memcpy(out->body, store__text(st, 2), out->body_len);
            out->body[out->body_len] = 0;
        } else {
            rc = STORE_ERR;
        }
    }
    store__finish(st);
    return rc == STORE_ROW ? 1 : rc == STORE_DONE ? 0 : rc;
}

int store_idempotency_reserve_at(struct store *db, struct store_idempotency_write *a)
{
    /* A day-old record gives way, and a few others of that age go with it. */
    static const char *SQL_STALE =
        "DELETE FROM idempotency_keys WHERE (caller_id = $1 AND key = $2 AND created_at <= $3)"
        " OR (caller_id, key) IN (SELECT caller_id, key FROM idempotency_keys"
        "   WHERE created_at <= $3 ORDER BY created_at LIMIT 20)";
    static const char *SQL =
        "INSERT INTO idempotency_keys (caller_id, key, request_hash, status, created_at)"
        " VALUES ($1, $2, $3, 0, $4) ON CONFLICT (caller_id, key) DO NOTHING";
    int rc = store__exec(
        db, SQL_STALE,
        SV_ARGS(SV_STR(a->caller), SV_STR(a->key), SV_INT(a->now - IDEMPOTENCY_TTL_MS)));
    if (rc == STORE_DONE)
        rc = store__exec(
            db, SQL,
            SV_ARGS(SV_STR(a->caller), SV_STR(a->key), SV_STR(a->request_hash), SV_INT(a->now)));
    if (rc != STORE_DONE)
        return rc;
    return store__changes(db) == 1 ? STORE_DONE : STORE_TAKEN;
}

STORE_WRITE_AS(store_idempotency_reserve, struct store_idempotency_write,
               store_idempotency_reserve_at)

int store_idempotency_settle_at(struct store *db, struct store_idempotency_write *a)
{
    static const char *SQL_KEEP = "UPDATE idempotency_keys SET status = $3, body = $4"
                                  " WHERE caller_id = $1 AND key = $2";
    static const char *SQL_DROP =
        "DELETE FROM idempotency_keys WHERE caller_id = $1 AND key = $2 AND status = 0";
    if (!a->status)
        return store__exec(db, SQL_DROP, SV_ARGS(SV_STR(a->caller), SV_STR(a->key)));
    return store__exec(db, SQL_KEEP,
                       SV_ARGS(SV_STR(a->caller), SV_STR(a->key), SV_INT(a->status),
                               SV_STRN(a->body ? a->body : "", a->body ? a->body_len : 0)));
}

STORE_WRITE_AS(store_idempotency_settle, struct store_idempotency_write,
               store_idempotency_settle_at)
