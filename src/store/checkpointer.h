/*
 * A thread that runs one job whenever it is nudged, off the thread that nudges it: SQLite's
 * checkpoints. Run by the writer after a commit, a checkpoint's fsync of the database file
 * stalled every commit waiting behind it (213 ms on a database of a million messages here);
 * here it runs beside the writer, which goes on appending to the -wal meanwhile. Nudges that
 * come while the job runs fold into one more run.
 */
#ifndef PRACA_STORE_CHECKPOINTER_H
#define PRACA_STORE_CHECKPOINTER_H
#include <stdint.h>

struct checkpointer;

/* NULL if the thread cannot start. PRACA_FAULT_CHECKPOINTS_OFF set: the job never runs (a test
 * shows that the writer then does not checkpoint either). */
struct checkpointer *store__checkpointer_start(void (*job)(void *arg), void *arg);
void store__checkpointer_nudge(struct checkpointer *c);
/* The runs finished so far; *busy: 1 while a run is under way or wanted. */
uint64_t store__checkpointer_runs(struct checkpointer *c, int *busy);
/* Waits for a run under way, then ends the thread. NULL is ignored. */
void store__checkpointer_stop(struct checkpointer *c);

#endif
