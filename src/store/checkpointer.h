/*
 * A thread that runs one job whenever it is nudged, off the thread that nudges it: SQLite's
 * checkpoints. Run by the writer after a commit, a checkpoint's fsync of the database file
 * stalled every commit waiting behind it (213 ms on a database of a million messages here);
 * here it runs beside the writer, which goes on appending to the -wal meanwhile. Nudges that
 * come while the job runs fold into one more run; a run that could not finish (the writer
 * appended meanwhile) is tried again after RETRY_MS without a nudge, so the end of a burst of
 * commits is copied too and the -wal can start again from its beginning.
 */
#ifndef PRACA_STORE_CHECKPOINTER_H
#define PRACA_STORE_CHECKPOINTER_H
#include <stdint.h>

struct checkpointer;

/* job returns 0 once it caught up, 1 when there is more to do. NULL if the thread cannot start.
 * PRACA_FAULT_CHECKPOINTS_OFF set: the job never runs (a test shows that the writer then does
 * not checkpoint either). */
struct checkpointer *store__checkpointer_start(int (*job)(void *arg), void *arg);
void store__checkpointer_nudge(struct checkpointer *c);
/* The runs finished so far; *busy: 1 while a run is under way, wanted or due again. */
uint64_t store__checkpointer_runs(struct checkpointer *c, int *busy);
/* Waits for a run under way, then ends the thread. NULL is ignored. */
void store__checkpointer_stop(struct checkpointer *c);

#endif
