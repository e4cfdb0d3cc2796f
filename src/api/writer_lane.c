/*
 * The writer lane: a request whose handler writes runs inside the writer's transaction, with no
 * thread hand-off beyond I/O → writer → I/O. Before it gets there its caller is admitted (from
 * memory on the I/O thread, else on a worker) and, with several nodes, its route's limit is
 * counted ahead in Redis, so the writer never waits on the network; a use counted and not made
 * is given back before the answer goes. Its answer and events are held until the commit (a
 * failed commit turns the answer into a 500 and drops the events).
 */
#include "api/dispatch_parts.h"

#include <stddef.h>
#include <stdlib.h>

#include "api/limits.h"
#include "core/workers.h"
#include "state/ratelimit.h"
#include "state/state.h"
#include "store/writer.h"

struct writer_call {
    struct job job;   /* first: the writer hands it back */
    struct job ahead; /* a worker's part before the writer: see ahead_run */
    struct api_service *svc;
    struct http_exchange *ex;
    struct bus_held events;
    struct ratelimit_taken taken; /* what ahead counted; key "" when nothing */
    struct api_prepared pre;
};

static void writer_call_run(struct job *job, void *db)
{
    struct writer_call *w = (struct writer_call *)job;
    struct api_call c = {.svc = w->svc, .db = db, .held = &w->events, .pre = &w->pre};
    c.taken = w->taken.key[0] ? &w->taken : NULL;
    api__run(&c, w->ex);
    if (!c.taken)
        w->taken.key[0] = '\0'; /* the handler used it */
}

/* On a worker: an allowed use the handler did not make (it refused the request first) is given
 * back before the answer goes, so the caller's next request finds it free. */
static void give_back_run(struct job *job, void *thread_ctx)
{
    (void)thread_ctx;
    struct writer_call *w = JOB_OF(job, struct writer_call, ahead);
    state_ratelimit_give_back(w->svc->limits, &w->taken);
    api__answer(w->ex);
    free(w);
}

static void writer_call_done(struct job *job, int committed)
{
    struct writer_call *w = (struct writer_call *)job;
    api__settle_after_commit(w->svc, w->ex, &w->events, committed);
    if (w->taken.key[0] && w->taken.member[0]) {
        w->ahead.run = give_back_run;
        workers_submit(w->svc->workers, &w->ahead);
        return;
    }
    api__answer(w->ex);
    free(w);
}

enum prepared {
    PREPARED,        /* on to the writer */
    PREPARED_ANSWER, /* answered (the caller may not call the route): the writer is not needed */
    PREPARED_ASK,    /* from memory it cannot tell: again on a worker, with its database */
};

/* Admits the caller before the writer lane: from memory on the I/O thread (db NULL) when the
 * token is known there and its use writes nothing, else on a worker, which may read the token
 * and record a session's use. */
static enum prepared prepare_caller(struct writer_call *w, struct api_call *c, enum api_auth need)
{
    if (api__credential(c))
        return PREPARED_ANSWER;
    w->pre.identity_epoch = state_identity_epoch(w->svc->state);
    if (!c->db) {
        struct store_token_owner owner;
        if (!state_identity_known(w->svc->state, c->me.token_hash, &owner) ||
            (!owner.is_bot && !state_session_fresh(w->svc->state, owner.last_used)))
            return PREPARED_ASK;
        if (api__admit(c, need, &owner))
            return PREPARED_ANSWER;
    } else if (api__authenticate(c, need)) {
        return PREPARED_ANSWER;
    }
    w->pre.admitted = 1;
    w->pre.me = c->me;
    return PREPARED;
}

/* Decides before the writer lane who calls: a caller refused is answered there, and the writer
 * is left the write. A request it cannot place (a malformed parameter) is left whole to the
 * handler, which answers it in its usual order. */
static enum prepared prepare(struct writer_call *w, struct store *db)
{
    struct http_exchange *ex = w->ex;
    const struct http_route *route = ex->route;
    const struct api_route *def = route->handler;
    struct api_call c = {
        .svc = w->svc, .db = db, .req = ex->req, .res = &ex->res, .route = ex->route};
    if (def->auth == API_PUBLIC || api__decode_params(&c, ex->req))
        return PREPARED;
    enum prepared p = prepare_caller(w, &c, def->auth);
    store_read_release(db);
    return p;
}

/* On a worker: the request's preparing when memory could not tell its caller, and with several
 * nodes its route's limit counted in Redis, so that the handler on the writer finds the answer
 * and never waits on the network. */
static void ahead_run(struct job *job, void *thread_ctx)
{
    struct writer_call *w = JOB_OF(job, struct writer_call, ahead);
    if (prepare(w, thread_ctx) == PREPARED_ANSWER) {
        api__answer(w->ex);
        free(w);
        return;
    }
    const struct http_route *route = w->ex->route;
    const struct api_limit *limit = api__limit_ahead(route->handler);
    if (w->pre.admitted && limit && state_ratelimit_shared(w->svc->limits))
        state_ratelimit_take(w->svc->limits, &API_ASK(limit, w->pre.me.user_id), RATELIMIT_AHEAD,
                             &w->taken);
    store_writer_submit(w->svc->writer, &w->job);
}

/* On the I/O thread: Redis counted the route's limit (or did not answer in time, and then the
 * handler counts on this node). */
static void limit_taken(void *arg)
{
    struct writer_call *w = arg;
    store_writer_submit_later(w->svc->writer, &w->job); /* woken once this turn of the loop ends */
}

/* With several nodes, a caller admitted from memory has its route's limit counted in Redis from
 * the I/O thread, without waiting there: 1 when asked (limit_taken goes on), else 0. */
static int limit_ahead(struct writer_call *w)
{
    const struct http_route *route = w->ex->route;
    const struct api_limit *limit = api__limit_ahead(route->handler);
    return w->pre.admitted && limit && state_ratelimit_shared(w->svc->limits) &&
           state_ratelimit_take_async(w->svc->limits, &API_ASK(limit, w->pre.me.user_id), &w->taken,
                                      limit_taken, w) == 0;
}

int api__writer_lane(struct api_service *a, struct http_exchange *ex)
{
    struct writer_call *w = calloc(1, sizeof *w);
    if (!w)
        return -1;
    w->job = (struct job){.run = writer_call_run, .done = writer_call_done};
    w->svc = a;
    w->ex = ex;
    enum prepared p = prepare(w, NULL);
    if (p == PREPARED && limit_ahead(w))
        return 0; /* on to the writer once Redis has counted it */
    if (p == PREPARED_ANSWER) {
        api__answer(ex);
        free(w);
    } else if (p == PREPARED_ASK) {
        w->ahead.run = ahead_run;
        workers_submit(a->workers, &w->ahead);
    } else {
        store_writer_submit_later(a->writer, &w->job); /* woken once this turn of the loop ends */
    }
    return 0;
}
