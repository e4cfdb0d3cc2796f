/*
 * The one writer: a thread with its own connection that runs every write.
 *
 * store_write hands a function to the writer and blocks until the transaction holding it has
 * committed. The writer takes all writes waiting at that moment, runs each in its own savepoint
 * (one failing write is rolled back alone), commits once, then wakes every waiter with its own
 * result: one fsync-free WAL commit serves many requests (group commit).
 *
 * A job goes further: the whole of it runs on the writer thread inside the batch's transaction
 * (its store_write calls run at once, each in its own savepoint), and it is told after the
 * commit. A request handler that only reads memory and writes runs this way with no thread
 * waiting on another. A batch is committed early after any write that changes what the
 * in-memory state holds, so the next job reads the state as it now is.
 */
#ifndef PRACA_STORE_WRITER_H
#define PRACA_STORE_WRITER_H

#include <stdint.h>

#include "core/job.h"
#include "store/db.h"

/* Runs on the writer thread inside a savepoint. Return >= 0 to keep the changes, < 0 to roll
 * them back; the value is handed back to the caller of store_write. */
typedef int (*store_write_fn)(struct store *db, void *arg);

struct store_writer;

/* A job (core/job.h) for the writer: its run on the writer thread, inside the transaction, with
 * the writer's connection (struct store *) as its context; its done on the writer thread after
 * the commit (ok 0: it failed, the job's writes are gone). Both must be set. */

/* What the writer has done since start, for metrics (any thread). */
struct store_writer_stats {
    unsigned long long transactions; /* committed or not */
    unsigned long long jobs;
    unsigned long long wait_ns;           /* jobs' time from submit to run, summed */
    unsigned long long queued;            /* jobs waiting now */
    struct store_checkpoints checkpoints; /* SQLite's -wal beside the writer (store/db.h) */
};
void store_writer_stats(struct store_writer *w, struct store_writer_stats *out);

/* Told on the writer thread, after a commit and before its waiters wake, of each change the
 * batch made (a server, a token or every identity: see store/snapshot.h), or with NULL when
 * anything may have (another process committed, or the batch named too many). */
typedef void (*store_change_fn)(void *arg, const char *server_id);
/* Told once after a batch's changes were told, still before its waiters wake (may be NULL). It
 * may wait (several nodes: until the others have the changes), so it runs on a thread of its
 * own, never the writer's: the writer goes on committing, and the waiters of that batch, and of
 * every batch after it, wake in commit order once it returns. */
typedef void (*store_changed_fn)(void *arg);

struct store_writer *store_writer_new(const char *path);
/* The same, its commits flushed to the disk before they are acknowledged when full (SQLite's
 * synchronous=FULL: an fsync per group commit; PostgreSQL follows its own synchronous_commit). */
struct store_writer *store_writer_new_durable(const char *path, int full);
/* Sets who is told of changes; call before the first write. */
void store_writer_on_change(struct store_writer *w, store_change_fn fn, store_changed_fn done,
                            void *arg);
/* Blocks until committed. Returns fn's result, or STORE_ERR when the commit itself failed.
 * Inside a job (on the writer thread) it runs fn at once and returns its result; the job
 * learns whether it was committed from its done. */
int store_write(struct store_writer *w, store_write_fn fn, void *arg);
/* Defines int name(struct store_writer *w, type *arg): a write that runs at(db, arg) on the
 * writer (store_write), where at takes the typed argument. One line instead of a typed
 * function, an untyped trampoline and the call. */
#define STORE_WRITE_AS(name, type, at)                                                             \
    static int name##_job(struct store *db, void *arg)                                             \
    {                                                                                              \
        return at(db, arg);                                                                        \
    }                                                                                              \
    int name(struct store_writer *w, type *arg)                                                    \
    {                                                                                              \
        return store_write(w, name##_job, arg);                                                    \
    }

/* One statement as a write; *changes (may be NULL) gets the rows it changed. Returns
 * STORE_DONE or an error. */
int store__write_exec(struct store_writer *w, const char *sql, const struct store_val *args,
                      size_t nargs, int64_t *changes);
/* Runs sql, a statement that deletes at most a chunk of rows for one ID ($1), as one write
 * after another until it deletes nothing: a large delete never holds the writer's transaction
 * for long, and other writes run between its chunks. */
int store__write_delete_chunks(struct store_writer *w, const char *sql, const char *id);
/* Queues a job; returns at once. */
void store_writer_submit(struct store_writer *w, struct job *job);
/* Queues a job without waking the writer: the I/O thread queues what one turn of its loop
 * read, then wakes the writer once, so those requests share a transaction instead of the first
 * one running alone. The writer also wakes by itself within a second. */
void store_writer_submit_later(struct store_writer *w, struct job *job);
void store_writer_wake(struct store_writer *w);
/* Finishes queued writes, then stops. store_writer_free(NULL) does nothing. */
void store_writer_free(struct store_writer *w);

#endif
