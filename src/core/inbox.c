/* Loop inbox: see inbox.h. */
#include "core/inbox.h"

#include <pthread.h>
#include <stdlib.h>

struct inbox {
    uv_async_t async;
    pthread_mutex_t lock;
    struct inbox_item *head, *tail;
};

static void drain(uv_async_t *a)
{
    struct inbox *in = a->data;
    pthread_mutex_lock(&in->lock);
    struct inbox_item *it = in->head;
    in->head = in->tail = NULL;
    pthread_mutex_unlock(&in->lock);
    while (it) {
        struct inbox_item *next = it->next;
        it->run(it);
        it = next;
    }
}

struct inbox *inbox_new(uv_loop_t *loop)
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
    return in;
}

void inbox_post(struct inbox *in, struct inbox_item *item)
{
    item->next = NULL;
    pthread_mutex_lock(&in->lock);
    if (in->tail)
        in->tail->next = item;
    else
        in->head = item;
    in->tail = item;
    pthread_mutex_unlock(&in->lock);
    uv_async_send(&in->async);
}

static void on_closed(uv_handle_t *h)
{
    struct inbox *in = h->data;
    pthread_mutex_destroy(&in->lock);
    free(in);
}

void inbox_close(struct inbox *in)
{
    if (!in)
        return;
    drain(&in->async);
    uv_close((uv_handle_t *)&in->async, on_closed);
}
