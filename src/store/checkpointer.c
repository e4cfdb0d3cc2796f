/* The checkpoints' thread: see checkpointer.h. */
#include "store/checkpointer.h"

#include <pthread.h>
#include <stdlib.h>

#include "core/clock.h"
#include "core/thread_name.h"

struct checkpointer {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake;
    int (*job)(void *arg);
    void *arg;
    int wanted, running, behind, stopping, off;
    uint64_t runs;
};

#define RETRY_MS 250 /* about as often as SQLite checkpoints under a steady load */

static void wait_retry(struct checkpointer *c)
{
    struct timespec at = clock_deadline(RETRY_MS);
    pthread_cond_timedwait(&c->wake, &c->mu, &at);
    c->wanted = 1; /* nudged or not */
}

static void *run(void *arg)
{
    struct checkpointer *c = arg;
    thread_name("praca-wal");
    pthread_mutex_lock(&c->mu);
    while (!c->stopping) {
        if (c->off || (!c->wanted && !c->behind)) {
            pthread_cond_wait(&c->wake, &c->mu);
            continue;
        }
        if (!c->wanted) {
            wait_retry(c);
            continue; /* stopping is looked at again first */
        }
        c->wanted = 0;
        c->running = 1;
        pthread_mutex_unlock(&c->mu);
        int behind = c->job(c->arg);
        pthread_mutex_lock(&c->mu);
        c->running = 0;
        c->behind = behind;
        c->runs++;
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

struct checkpointer *store__checkpointer_start(int (*job)(void *arg), void *arg)
{
    struct checkpointer *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->job = job;
    c->arg = arg;
    c->off = getenv("PRACA_FAULT_CHECKPOINTS_OFF") != NULL;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->wake, NULL);
    if (pthread_create(&c->thread, NULL, run, c)) {
        pthread_cond_destroy(&c->wake);
        pthread_mutex_destroy(&c->mu);
        free(c);
        return NULL;
    }
    return c;
}

void store__checkpointer_nudge(struct checkpointer *c)
{
    pthread_mutex_lock(&c->mu);
    if (!c->wanted) {
        c->wanted = 1;
        pthread_cond_signal(&c->wake);
    }
    pthread_mutex_unlock(&c->mu);
}

uint64_t store__checkpointer_runs(struct checkpointer *c, int *busy)
{
    pthread_mutex_lock(&c->mu);
    uint64_t runs = c->runs;
    *busy = !c->off && (c->running || c->wanted || c->behind);
    pthread_mutex_unlock(&c->mu);
    return runs;
}

void store__checkpointer_stop(struct checkpointer *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    c->stopping = 1;
    pthread_cond_signal(&c->wake);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    pthread_cond_destroy(&c->wake);
    pthread_mutex_destroy(&c->mu);
    free(c);
}
