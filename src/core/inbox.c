/* Loop inbox: see inbox.h. */
#include "core/inbox.h"

#include <pthread.h>
#include <stdlib.h>

struct inbox {
    uv_async_t async;
    pthread_mutex_t lock;
    struct inbox_item *head, *tail;
    int shut;          /* posts refused */
    int free_on_close; /* inbox_close: nobody frees it afterwards */
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

int inbox_post_list(struct inbox *in, struct inbox_item *first, struct inbox_item *last)
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

int inbox_post(struct inbox *in, struct inbox_item *item)
{
    return inbox_post_list(in, item, item);
}

static void on_closed(uv_handle_t *h)
{
    struct inbox *in = h->data;
    if (in->free_on_close)
        inbox_free(in);
}

void inbox_close(struct inbox *in)
{
    if (!in)
        return;
    drain(&in->async);
    in->free_on_close = 1;
    uv_close((uv_handle_t *)&in->async, on_closed);
}

void inbox_shut(struct inbox *in)
{
    if (!in)
        return;
    pthread_mutex_lock(&in->lock);
    in->shut = 1;
    pthread_mutex_unlock(&in->lock);
    drain(&in->async);
    uv_close((uv_handle_t *)&in->async, on_closed);
}

void inbox_free(struct inbox *in)
{
    if (!in)
        return;
    pthread_mutex_destroy(&in->lock);
    free(in);
}
