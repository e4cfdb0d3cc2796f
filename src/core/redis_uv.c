/* hiredis on our loop, writes gathered per turn: see redis_uv.h. */
#include "core/redis_uv.h"

#include <stdlib.h>

struct redis_uv {
    redisAsyncContext *ac; /* NULL once hiredis let it go */
    uv_poll_t poll;
    uv_idle_t flush;
    int events;   /* what poll watches */
    int flushing; /* inside redisAsyncHandleWrite from the idle phase */
    int open;     /* handles not yet closed */
};

static void on_poll(uv_poll_t *h, int status, int events)
{
    struct redis_uv *u = h->data;
    if (status < 0) { /* libuv stopped watching; hiredis finds the error on its read */
        u->events = 0;
        events = UV_READABLE;
    }
    if (u->ac && (events & UV_READABLE))
        redisAsyncHandleRead(u->ac);
    if (u->ac && (events & UV_WRITABLE))
        redisAsyncHandleWrite(u->ac);
}

static void watch_events(struct redis_uv *u, int events)
{
    if (events == u->events)
        return;
    u->events = events;
    if (events)
        uv_poll_start(&u->poll, events, on_poll);
    else
        uv_poll_stop(&u->poll);
}

static void on_flush(uv_idle_t *h)
{
    struct redis_uv *u = h->data;
    uv_idle_stop(&u->flush);
    if (!u->ac)
        return;
    u->flushing = 1;
    redisAsyncHandleWrite(u->ac); /* may let ac go: u stays until its handles close */
    u->flushing = 0;
}

static void add_read(void *p)
{
    struct redis_uv *u = p;
    watch_events(u, u->events | UV_READABLE);
}

static void del_read(void *p)
{
    struct redis_uv *u = p;
    watch_events(u, u->events & ~UV_READABLE);
}

/* hiredis wants to write. Before the connection is made, and when a write from the idle phase
 * could not go whole, only the socket can say when; otherwise at the end of this turn. */
static void add_write(void *p)
{
    struct redis_uv *u = p;
    if (u->flushing || !(u->ac->c.flags & REDIS_CONNECTED))
        watch_events(u, u->events | UV_WRITABLE);
    else if (!(u->events & UV_WRITABLE))
        uv_idle_start(&u->flush, on_flush);
}

static void del_write(void *p)
{
    struct redis_uv *u = p;
    watch_events(u, u->events & ~UV_WRITABLE);
}

static void on_closed(uv_handle_t *h)
{
    struct redis_uv *u = h->data;
    if (!--u->open)
        free(u);
}

static void cleanup(void *p)
{
    struct redis_uv *u = p;
    u->ac = NULL;
    uv_close((uv_handle_t *)&u->poll, on_closed);
    uv_close((uv_handle_t *)&u->flush, on_closed);
}

int redis_uv_attach(redisAsyncContext *ac, uv_loop_t *loop)
{
    if (ac->ev.data)
        return REDIS_ERR;
    struct redis_uv *u = calloc(1, sizeof *u);
    if (!u)
        return REDIS_ERR;
    if (uv_poll_init(loop, &u->poll, ac->c.fd)) {
        free(u);
        return REDIS_ERR;
    }
    uv_idle_init(loop, &u->flush);
    u->poll.data = u->flush.data = u;
    u->open = 2;
    u->ac = ac;
    ac->ev.data = u;
    ac->ev.addRead = add_read;
    ac->ev.delRead = del_read;
    ac->ev.addWrite = add_write;
    ac->ev.delWrite = del_write;
    ac->ev.cleanup = cleanup;
    return REDIS_OK;
}
