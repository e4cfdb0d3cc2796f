/*
 * A request's last stage when its answer waits on something outside (an application's
 * endpoint): the exchange is kept, no thread is, and the answer is resumed on a worker, or on
 * the writer when what it writes and the events it publishes must commit together.
 */
#include "api/dispatch_parts.h"

#include <stddef.h>
#include <stdlib.h>

#include "api/reply.h"
#include "core/workers.h"
#include "store/writer.h"

struct api_later {
    struct job job; /* first: resumed on a worker */
    struct api_service *svc;
    struct http_exchange *ex;
    struct api_caller me;
    void (*fn)(struct api_call *c, void *arg);
    void *arg;
};

struct api_later *api__later(struct api_call *c)
{
    struct api_later *l = calloc(1, sizeof *l);
    struct http_exchange *ex =
        (struct http_exchange *)((char *)c->res - offsetof(struct http_exchange, res));
    if (!l || c->held) { /* never on the writer lane: it holds a transaction */
        free(l);
        return NULL;
    }
    l->svc = c->svc;
    l->ex = ex;
    l->me = c->me;
    c->later = l;
    return l;
}

void api__later_cancel(struct api_call *c)
{
    free(c->later);
    c->later = NULL;
}

static void later_run(struct job *job, void *thread_ctx)
{
    struct api_later *l = (struct api_later *)job;
    struct api_call c = api__thread_call(l->svc, thread_ctx);
    c.req = l->ex->req;
    c.res = &l->ex->res;
    c.route = l->ex->route;
    c.me = l->me;
    l->fn(&c, l->arg);
    if (!c.answered)
        api__internal(&c);
    api__call_end(&c);
    store_read_release(c.db);
    api__answer(l->ex);
    free(l);
}

/* A resumption on the writer, inside its transaction: its events wait for the commit. */
struct later_on_writer {
    struct job job; /* first */
    struct api_later *later;
    struct bus_held events;
};

static void later_writer_run(struct job *job, void *db)
{
    struct later_on_writer *w = (struct later_on_writer *)job;
    struct api_later *l = w->later;
    struct api_call c = {.svc = l->svc,
                         .db = db,
                         .held = &w->events,
                         .req = l->ex->req,
                         .res = &l->ex->res,
                         .route = l->ex->route,
                         .me = l->me};
    l->fn(&c, l->arg);
    if (!c.answered)
        api__internal(&c);
    api__call_end(&c);
}

static void later_writer_done(struct job *job, int committed)
{
    struct later_on_writer *w = (struct later_on_writer *)job;
    struct api_later *l = w->later;
    api__answer_after_commit(l->svc, l->ex, &w->events, committed);
    free(l);
    free(w);
}

void api__later_resume_writer(struct api_later *l, void (*fn)(struct api_call *c, void *arg),
                              void *arg)
{
    struct later_on_writer *w = calloc(1, sizeof *w);
    if (!w) {
        api__later_resume(l, fn, arg);
        return;
    }
    l->fn = fn;
    l->arg = arg;
    w->later = l;
    w->job = (struct job){.run = later_writer_run, .done = later_writer_done};
    store_writer_submit(l->svc->writer, &w->job);
}

void api__later_resume(struct api_later *l, void (*fn)(struct api_call *c, void *arg), void *arg)
{
    l->fn = fn;
    l->arg = arg;
    l->job.run = later_run;
    workers_submit(l->svc->workers, &l->job);
}
