/*
 * A fixed pool of worker threads of our own, each with a context made once on its thread
 * (the request handlers' database connection). A job (core/job.h) runs with that context; one
 * whose run is NULL runs the pool's run function. Its done is not called.
 */
#ifndef PRACA_CORE_WORKERS_H
#define PRACA_CORE_WORKERS_H
#include <stddef.h>

#include "core/job.h"

typedef void *(*workers_init_fn)(void *arg, int index); /* NULL = the thread could not start */
typedef void (*workers_cleanup_fn)(void *thread_ctx);
typedef void (*workers_run_fn)(struct job *job, void *thread_ctx);

struct workers;

/* Starts n threads named name (thread_name.h); returns NULL when any thread's init failed. */
struct workers *workers_new(const char *name, int n, workers_init_fn init,
                            workers_cleanup_fn cleanup, workers_run_fn run, void *arg);
void workers_submit(struct workers *w, struct job *job);
/* Queues the job unless max_queued jobs already wait for a thread; 0 queued, -1 refused. */
int workers_try_submit(struct workers *w, struct job *job, size_t max_queued);
/* Jobs waiting for a thread now. */
size_t workers_queued(struct workers *w);
/* Runs every queued job, then stops and joins the threads. workers_free(NULL) does nothing. */
void workers_free(struct workers *w);

#endif
