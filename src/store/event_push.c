/* Events pushed over HTTP: see event_push.h. */
#include "store/event_push.h"

#include <string.h>

#include "store/rows.h"

static int claim_job(struct store *db, void *arg)
{
    static const char *SQL_CLAIM =
        "UPDATE applications SET events_lease_node = $2, events_lease_until = $3,"
        " events_cursor = CASE WHEN events_lease_node = $2 AND events_generation = $4"
        "   AND events_cursor < $5 THEN $5 ELSE events_cursor END"
        " WHERE id = $1 AND events_endpoint_url IS NOT NULL AND events_paused = 0"
        " AND bot_user_id IS NOT NULL AND signing_secret IS NOT NULL"
        " AND (events_lease_node IS NULL OR events_lease_node = $2 OR events_lease_until < $6)";
    static const char *SQL_READ =
        "SELECT events_endpoint_url, signing_secret, bot_user_id, events_cursor,"
        " events_generation, events_replays FROM applications WHERE id = $1";
    struct store_push *p = arg;
    int rc = store__exec(db, SQL_CLAIM,
                         SV_ARGS(SV_STR(p->app_id), SV_STR(p->node), SV_INT(p->lease_until),
                                 SV_INT(p->generation), SV_INT(p->cursor), SV_INT(p->now)));
    if (rc != STORE_DONE)
        return rc;
    if (store__changes(db) != 1)
        return 0;
    int found;
    struct store_stmt *st = store__row(db, SQL_READ, p->app_id, &found);
    if (!st)
        return found < 0 ? found : 0;
    store__text_copy(st, 0, p->url, sizeof p->url);
    store__text_copy(st, 1, p->secret, sizeof p->secret);
    store__text_copy(st, 2, p->bot_user_id, sizeof p->bot_user_id);
    p->cursor = (uint64_t)store__int(st, 3);
    p->generation = store__int(st, 4);
    p->replays = store__int(st, 5);
    store__finish(st);
    return 1;
}

int store_push_claim(struct store_writer *w, struct store_push *p)
{
    return store_write(w, claim_job, p);
}

static int record_job(struct store *db, void *arg)
{
    static const char *SQL_LOG =
        "INSERT INTO event_push_attempts (id, application_id, first_position, last_position,"
        " events, gap, status, latency_ms, error, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    static const char *SQL_OLD =
        "DELETE FROM event_push_attempts WHERE application_id = $1 AND id NOT IN"
        " (SELECT id FROM event_push_attempts WHERE application_id = $1 ORDER BY id DESC"
        "  LIMIT $2)";
    /* Delivered is delivered, whoever holds the lease now and whatever else the owner changed;
     * only the owner's own cursor (a replay) since the batch was read wins over it. */
    static const char *SQL_MOVE = "UPDATE applications SET events_cursor = $3"
                                  " WHERE id = $1 AND events_replays = $2 AND events_cursor < $3";
    static const char *SQL_HELD = "SELECT 1 FROM applications WHERE id = $1"
                                  " AND events_lease_node = $2 AND events_generation = $3";
    const struct store_push_attempt *a = arg;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    int rc = store__exec(db, SQL_LOG,
                         SV_ARGS(SV_STR(id), SV_STR(a->app_id), SV_INT(a->first), SV_INT(a->last),
                                 SV_INT(a->events), SV_INT(a->gap), SV_INT(a->status),
                                 SV_INT(a->latency_ms), SV_STR(a->error), SV_INT(a->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_OLD, SV_ARGS(SV_STR(a->app_id), SV_INT(STORE_PUSH_ATTEMPTS_MAX)));
    if (rc == STORE_DONE && a->delivered)
        rc = store__exec(db, SQL_MOVE,
                         SV_ARGS(SV_STR(a->app_id), SV_INT(a->replays), SV_INT(a->last)));
    if (rc != STORE_DONE || !a->delivered)
        return rc == STORE_DONE ? 0 : rc;
    return store__exists(db, SQL_HELD,
                         SV_ARGS(SV_STR(a->app_id), SV_STR(a->node), SV_INT(a->generation)));
}

int store_push_record(struct store_writer *w, const struct store_push_attempt *a)
{
    return store_write(w, record_job, (void *)a);
}

int store_push_apps(struct store *db, void (*fn)(void *arg, const char *app_id), void *arg)
{
    static const char *SQL = "SELECT id FROM applications"
                             " WHERE events_endpoint_url IS NOT NULL AND events_paused = 0";
    struct store_stmt *st = store__query(db, SQL, NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW)
        fn(arg, store__text(st, 0));
    store__finish(st);
    return rc;
}

/* Every owner's change frees the lease and moves the generation: the pusher reads again. */
#define RESET                                                                                      \
    " events_generation = events_generation + 1, events_lease_node = NULL,"                        \
    " events_lease_until = 0"

int store_push_set_url(struct store_writer *w, const char *app_id, const char *url)
{
    static const char *SQL =
        "UPDATE applications SET events_cursor = CASE WHEN events_endpoint_url IS NULL"
        "   THEN (SELECT COALESCE(MAX(position), 0) FROM event_log) ELSE events_cursor END,"
        " events_replays = events_replays + CASE WHEN events_endpoint_url IS NULL THEN 1 ELSE 0 "
        "END,"
        " events_endpoint_url = $2," RESET " WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(app_id), SV_STR(url)), NULL);
}

int store_push_set_paused(struct store_writer *w, const char *app_id, int paused)
{
    static const char *SQL = "UPDATE applications SET events_paused = $2," RESET " WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(app_id), SV_INT(paused)), NULL);
}

int store_push_replay(struct store_writer *w, const char *app_id, uint64_t after)
{
    static const char *SQL = "UPDATE applications SET events_cursor = $2,"
                             " events_replays = events_replays + 1," RESET " WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(app_id), SV_INT(after)), NULL);
}

json_t *store_push_json(struct store *db, const char *app_id, int limit)
{
    static const char *SQL_APP = "SELECT events_endpoint_url, events_paused, events_cursor"
                                 " FROM applications WHERE id = $1";
    static const char *SQL_LOG =
        "SELECT id, first_position, last_position, events, gap, status, latency_ms, error,"
        " created_at FROM event_push_attempts WHERE application_id = $1 ORDER BY id DESC LIMIT $2";
    static const struct store_col APP[] = {
        {"eventsEndpointUrl", COL_TEXT}, {"paused", COL_BOOL}, {"cursor", COL_TEXT}};
    static const struct store_col LOG[] = {
        {"id", COL_TEXT},       {"firstPosition", COL_TEXT}, {"lastPosition", COL_TEXT},
        {"events", COL_INT},    {"gap", COL_BOOL},           {"status", COL_INT},
        {"latencyMs", COL_INT}, {"error", COL_TEXT},         {"createdAt", COL_TIME},
    };
    int rc;
    json_t *out = store__get_json(db, SQL_APP, SV_ARGS(SV_STR(app_id)), STORE_COLS(APP), &rc);
    json_t *log =
        out ? store__list_json(db, SQL_LOG, SV_ARGS(SV_STR(app_id), SV_INT(limit)), STORE_COLS(LOG))
            : NULL;
    if (!log) {
        json_decref(out);
        return NULL;
    }
    json_object_set_new(out, "deliveries", log);
    return out;
}
