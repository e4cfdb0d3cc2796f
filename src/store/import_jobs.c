/* Imports started from the page: see import_jobs.h. */
#include "store/import_jobs.h"

#include "store/rows.h"

/* What a job's status reads as: a running one not heard from for a while was cut short. */
#define STATUS_NOW "CASE WHEN status = 'running' AND updated_at <= $2 THEN 'failed' ELSE status END"

static int start_at(struct store *db, struct store_import_job_start *s)
{
    static const char *SQL_BUSY =
        "SELECT 1 FROM import_jobs WHERE owner_id = $1 AND " STATUS_NOW " = 'running'";
    static const char *SQL = "INSERT INTO import_jobs (id, owner_id, format, file_name, size,"
                             " created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)";
    int busy = store__exists(
        db, SQL_BUSY, SV_ARGS(SV_STR(s->owner_id), SV_INT(s->now - STORE_IMPORT_JOB_STALE_MS)));
    if (busy)
        return busy < 0 ? busy : STORE_REFUSED;
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(s->id), SV_STR(s->owner_id), SV_STR(s->format),
                               SV_STR(s->file_name), SV_INT(s->size), SV_INT(s->now)));
}

STORE_WRITE_AS(store_import_job_start, struct store_import_job_start, start_at)

static int end_at(struct store *db, struct store_import_job_end *e)
{
    static const char *SQL =
        "UPDATE import_jobs SET status = CASE WHEN CAST($2 AS TEXT) IS NULL THEN 'done'"
        " ELSE 'failed' END, error = $2, updated_at = $3, finished_at = $3"
        " WHERE id = $1 AND status = 'running'";
    return store__exec(db, SQL, SV_ARGS(SV_STR(e->id), SV_STR(e->error), SV_INT(e->now)));
}

STORE_WRITE_AS(store_import_job_end, struct store_import_job_end, end_at)

int store_import_job_progress_at(struct store *db, const char *id, const char *server_id,
                                 int64_t progress, int64_t messages, int64_t now)
{
    static const char *SQL =
        "UPDATE import_jobs SET progress = $2, messages = $3, server_id = COALESCE($4, server_id),"
        " updated_at = $5 WHERE id = $1 AND status = 'running'";
    return store__exec(
        db, SQL,
        SV_ARGS(SV_STR(id), SV_INT(progress), SV_INT(messages), SV_STR(server_id), SV_INT(now)));
}

json_t *store_import_jobs_json(struct store *db, const char *owner_id, int64_t now)
{
    static const char *SQL = "SELECT id, format, file_name, size, " STATUS_NOW ", progress,"
                             " messages, server_id, error, created_at, finished_at"
                             " FROM import_jobs WHERE owner_id = $1 ORDER BY id DESC LIMIT 5";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},        {"format", COL_TEXT},    {"fileName", COL_TEXT},
        {"size", COL_INT},       {"status", COL_TEXT},    {"progress", COL_INT},
        {"messages", COL_INT},   {"serverId", COL_TEXT},  {"error", COL_TEXT},
        {"createdAt", COL_TIME}, {"finishedAt", COL_TIME}};
    return store__list_json(db, SQL,
                            SV_ARGS(SV_STR(owner_id), SV_INT(now - STORE_IMPORT_JOB_STALE_MS)),
                            STORE_COLS(COLS));
}
