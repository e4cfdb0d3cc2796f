/* The writer's batch: see write_batch.h. */
#include "store/write_batch.h"

#include <stdlib.h>

#include "store/engine.h"
#include "store/event_log.h"
#include "store/message_rows.h"
#include "store/savepoints.h"

int store__write_batch_new(struct store *db)
{
    if (!db->batch && !(db->batch = calloc(1, sizeof *db->batch)))
        return STORE_ERR;
    return STORE_DONE;
}

int store__write_batch_commit(struct store *db)
{
    if (store__rows_flush(db) != STORE_DONE)
        return STORE_ERR;
    return store__events_flush_commit(db);
}

void store__write_batch_forget(struct store *db)
{
    store__events_forget(db, 0);
    store__savepoints_forget(db);
}

void store__write_batch_free(struct store *db)
{
    if (!db->batch)
        return;
    store__events_discard(db);
    store__message_rows_free(db);
    free(db->batch);
    db->batch = NULL;
}
