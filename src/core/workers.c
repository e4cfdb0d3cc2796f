/* Worker pool: see workers.h. One mutex and condition variable guard a FIFO of jobs. */
#include "core/workers.h"
#include "core/thread_name.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct workers {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct job *head, *tail;
    size_t queued; /* jobs waiting for a thread */
    int stopping;
    int n, started, failed;
    pthread_cond_t started_cond;
    pthread_t *threads;
    workers_init_fn init;
    workers_cleanup_fn cleanup;
    workers_run_fn run;
    void *arg;
    const char *name;
};

struct start {
    struct workers *w;
    int index;
};

static void *thread_main(void *p)
{
    struct start *s = p;
    struct workers *w = s->w;
    int index = s->index;
    free(s);
    thread_name(w->name);
    void *ctx = w->init(w->arg, index);
    pthread_mutex_lock(&w->lock);
    w->started++;
    if (!ctx)
        w->failed = 1;
    pthread_cond_broadcast(&w->started_cond);
    pthread_mutex_unlock(&w->lock);
    if (!ctx)
        return NULL;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (!w->head && !w->stopping)
            pthread_cond_wait(&w->ready, &w->lock);
        struct job *job = w->head;
        if (job) {
            w->head = job->next;
            if (!w->head)
                w->tail = NULL;
            w->queued--;
        }
        pthread_mutex_unlock(&w->lock);
        if (!job)
            break;
        job->next = NULL;
        if (job->run)
            job->run(job, ctx);
        else
            w->run(job, ctx);
    }
    w->cleanup(ctx);
    return NULL;
}

struct workers *workers_new(const char *name, int n, workers_init_fn init,
                            workers_cleanup_fn cleanup, workers_run_fn run, void *arg)
{
    struct workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->threads = calloc((size_t)n, sizeof *w->threads);
    if (!w->threads) {
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->ready, NULL);
    pthread_cond_init(&w->started_cond, NULL);
    w->init = init;
    w->cleanup = cleanup;
    w->run = run;
    w->arg = arg;
    w->name = name;
    for (int i = 0; i < n; i++) {
        struct start *s = malloc(sizeof *s);
        if (s) {
            s->w = w;
            s->index = i;
        }
        if (!s || pthread_create(&w->threads[i], NULL, thread_main, s)) {
            free(s);
            w->failed = 1;
            break;
        }
        w->n++;
    }
    pthread_mutex_lock(&w->lock);
    while (w->started < w->n)
        pthread_cond_wait(&w->started_cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
    if (w->failed) {
        workers_free(w);
        return NULL;
    }
    return w;
}

size_t workers_queued(struct workers *w)
{
    pthread_mutex_lock(&w->lock);
    size_t n = w->queued;
    pthread_mutex_unlock(&w->lock);
    return n;
}

int workers_try_submit(struct workers *w, struct job *job, size_t max_queued)
{
    job->next = NULL;
    pthread_mutex_lock(&w->lock);
    if (w->queued >= max_queued) {
        pthread_mutex_unlock(&w->lock);
        return -1;
    }
    if (w->tail)
        w->tail->next = job;
    else
        w->head = job;
    w->tail = job;
    w->queued++;
    pthread_cond_signal(&w->ready);
    pthread_mutex_unlock(&w->lock);
    return 0;
}

void workers_submit(struct workers *w, struct job *job)
{
    workers_try_submit(w, job, SIZE_MAX);
}

void workers_free(struct workers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = 1;
    pthread_cond_broadcast(&w->ready);
    pthread_mutex_unlock(&w->lock);
    for (int i = 0; i < w->n; i++)
        pthread_join(w->threads[i], NULL);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->ready);
    pthread_cond_destroy(&w->started_cond);
    free(w->threads);
    free(w);
}
