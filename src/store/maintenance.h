/*
 * The writer's periodic work, run from the I/O thread's loop: the event log's retention (with
 * the consent pages left open) once a minute, the files nothing refers to a slice at a time,
 * SQLite's search index catching up with what was sent, and the writer woken after each turn
 * of the loop so that what one turn read shares a transaction. Each job is queued on the writer
 * at most once at a time.
 */
#ifndef PRACA_STORE_MAINTENANCE_H
#define PRACA_STORE_MAINTENANCE_H

#include <uv.h>

#include "store/files.h"
#include "store/writer.h"

struct store_maintenance_config {
    int event_retention_hours;
    int files_grace_seconds; /* a file (or an upload's leftover) untouched this long may go */
    int files_sweep_seconds; /* between slices of the sweep */
    int search_index;        /* 1 with SQLite: PostgreSQL's index follows its table by itself */
};

struct store_maintenance;

/* Starts the timers on loop (the spool's leftovers of a crash are swept at once); NULL when out
 * of memory. writer and files outlive it. */
struct store_maintenance *store_maintenance_start(uv_loop_t *loop, struct store_writer *writer,
                                                  const struct store_files *files,
                                                  const struct store_maintenance_config *cfg);
/* Closes its handles (the loop then runs their close). */
void store_maintenance_stop(struct store_maintenance *m);
/* After the loop has closed them and the writer has stopped: a job it queued may still be on
 * the writer until then. store_maintenance_free(NULL) does nothing. */
void store_maintenance_free(struct store_maintenance *m);

#endif
