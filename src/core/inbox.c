/* Loop inbox: see inbox.h. */
#include "core/inbox.h"

#include <pthread.h>
#include <stdlib.h>

struct inbox {
    uv_async_t async;
    pthread_mutex_t lock;
    struct job *head, *tail;
    int shut;          /* posts refused */
    int free_on_close; /* inbox_close: nobody frees it afterwards */
    /* inbox_new_after_io: what was taken waits in ready for the loop's check phase. */
    int after_io;
    uv_check_t check;
    struct job *ready, *ready_tail;
    int open_handles; /* freed once the last is closed */
};

static void run_all(struct job *it)
{
    while (it) {
        struct job *next = it->next;
        it->run(it, NULL);
        it = next;
    }
}

static void run_ready(uv_check_t *c)
{
    struct inbox *in = c->data;
    struct job *it = in->ready;
    in->ready = in->ready_tail = NULL;
    uv_check_stop(c);
    run_all(it);
}

static void drain(uv_async_t *a)
{
    struct inbox *in = a->data;
    pthread_mutex_lock(&in->lock);
    struct job *it = in->head, *last = in->tail;
    in->head = in->tail = NULL;
    pthread_mutex_unlock(&in->lock);
    if (!in->after_io || !it) {
        run_all(it);
        return;
    }
    if (in->ready_tail)
        in->ready_tail->next = it;
    else
        in->ready = it;
    in->ready_tail = last;
    uv_check_start(&in->check, run_ready);
}

static struct inbox *create(uv_loop_t *loop, int after_io)
{
    struct inbox *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    pthread_mutex_init(&in->lock, NULL);
    if (uv_async_init(loop, &in->async, drain)) {
        pthread_mutex_destroy(&in->lock);
        free(in);
        return NULL;
    }
    in->async.data = in;
    in->open_handles = 1;
    in->after_io = after_io;
    if (after_io) {
        uv_check_init(loop, &in->check);
        in->check.data = in;
        in->open_handles++;
    }
    return in;
}

struct inbox *inbox_new(uv_loop_t *loop)
{
    return create(loop, 0);
}

struct inbox *inbox_new_after_io(uv_loop_t *loop)
{
    return create(loop, 1);
}

int inbox_post_list(struct inbox *in, struct job *first, struct job *last)
{
    last->next = NULL;
    pthread_mutex_lock(&in->lock);
    if (in->shut) {
        pthread_mutex_unlock(&in->lock);
        return -1;
    }
    if (in->tail)
        in->tail->next = first;
    else
        in->head = first;
    in->tail = last;
    pthread_mutex_unlock(&in->lock);
    uv_async_send(&in->async);
    return 0;
}

int inbox_post(struct inbox *in, struct job *item)
{
    return inbox_post_list(in, item, item);
}

static void on_closed(uv_handle_t *h)
{
    struct inbox *in = h->data;
    if (--in->open_handles == 0 && in->free_on_close)
        inbox_free(in);
}

/* What is queued runs now, and the handles close. */
static void finish(struct inbox *in)
{
    drain(&in->async);
    if (in->after_io) {
        run_ready(&in->check);
        uv_close((uv_handle_t *)&in->check, on_closed);
    }
    uv_close((uv_handle_t *)&in->async, on_closed);
}

void inbox_close(struct inbox *in)
{
    if (!in)
        return;
    in->free_on_close = 1;
    finish(in);
}

void inbox_shut(struct inbox *in)
{
    if (!in)
        return;
    pthread_mutex_lock(&in->lock);
    in->shut = 1;
    pthread_mutex_unlock(&in->lock);
    finish(in);
}

void inbox_free(struct inbox *in)
{
    if (!in)
        return;
    pthread_mutex_destroy(&in->lock);
    free(in);
}
