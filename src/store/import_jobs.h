/*
 * Imports started from the page (migration 052): the job's row, written when the upload is in,
 * moved on by the `praca import` the node started (on that command's own connection, with its
 * batches), and ended by the node once the command's process is gone, done or failed with its
 * words. A job whose row has not moved for STORE_IMPORT_JOB_STALE_MS was cut short (a restart)
 * and shows as failed.
 */
#ifndef PRACA_STORE_IMPORT_JOBS_H
#define PRACA_STORE_IMPORT_JOBS_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

#define STORE_IMPORT_JOB_STALE_MS (120LL * 1000)

struct store_import_job_start {
    const char *id, *owner_id, *format, *file_name;
    int64_t size, now;
};
/* A running job, unless the person has one running (STORE_REFUSED). */
int store_import_job_start(struct store_writer *w, struct store_import_job_start *s);

struct store_import_job_end {
    const char *id;
    const char *error; /* why it failed, or NULL: done */
    int64_t now;
};
/* The job ended, by the node that ran it once its process is gone (so that a job shown ended
 * no longer holds the node's place), unless it ended already. */
int store_import_job_end(struct store_writer *w, struct store_import_job_end *e);

/* By the import itself, in its transaction: how far it is (per mille of its file, messages
 * written or found) and its server once known. */
int store_import_job_progress_at(struct store *db, const char *id, const char *server_id,
                                 int64_t progress, int64_t messages, int64_t now);

/* The person's newest jobs, at most 5: [{id, format, fileName, size, status, progress,
 * messages, serverId, error, createdAt, finishedAt}]. NULL on error. */
json_t *store_import_jobs_json(struct store *db, const char *owner_id, int64_t now);

#endif
