/* Events pushed over HTTP: see event_push.h. */
#include "api/event_push.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/endpoint.h"
#include "api/event_page.h"
#include "bus/bus.h"
#include "core/clock.h"
#include "core/vec.h"
#include "core/buf.h"
#include "core/log.h"
#include "core/workers.h"
#include "store/event_push.h"

/* A batch passes PUSH_BATCH_BYTES by its last event at most. */
#define PUSH_BODY_MAX (8u * 1024 * 1024)
/* Looked at this often even when this node published nothing new: another node's events may
 * come by the log alone. */
#define PUSH_SCAN_EVERY_MS 1000

/* One application that pushes. Only `busy`, `listed` and `changed` are shared (under the
 * mutex); the rest belongs to the job that set `busy`. */
struct push_app {
    char id[UUID_LEN + 1];
    int busy, listed, changed;
    int held; /* the lease is this node's until lease_until (wall clock) */
    int64_t lease_until, generation, replays;
    uint64_t cursor;
    unsigned long seen; /* the bus's count when the log was last found read to its end */
    int more;           /* the last page stopped before the log's end */
    int failures;       /* in a row */
    int64_t not_before, scanned_at; /* monotonic */
    char url[STORE_PUSH_URL_MAX + 1], secret[65], bot_user_id[UUID_LEN + 1];
};

struct api_push {
    struct api_service *svc;
    pthread_mutex_t mu;
    struct push_app **apps; /* sorted by ID */
    size_t n;
    char node[UUID_LEN + 1];
    int listing, stopping;
    int64_t next_list;
    struct job list_job;
};

/* A worker's turn with one application, and the batch it sent. */
struct push_job {
    struct job job;
    struct api_push *push;
    struct push_app *app;
    unsigned long published;
    uint64_t first, last;
    int events, gap, more;
    int sent;
    long status;
    int64_t latency_ms;
};

static int by_id(const void *key, const void *item)
{
    return strcmp(key, (*(struct push_app *const *)item)->id);
}

static void release(struct push_job *j)
{
    pthread_mutex_lock(&j->push->mu);
    j->app->busy = 0;
    pthread_mutex_unlock(&j->push->mu);
    free(j);
}

/* --- the list of applications that push, read again every PUSH_RELIST_MS --- */

struct listed {
    char (*ids)[UUID_LEN + 1];
    size_t n, cap;
};

static void list_one(void *arg, const char *id)
{
    struct listed *l = arg;
    if (l->n >= PUSH_APPS_MAX || VEC_RESERVE(l->ids, l->n, l->cap, 64))
        return;
    snprintf(l->ids[l->n++], UUID_LEN + 1, "%s", id);
}

static int id_order(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The new list: the sorted IDs merged with the entries held (a busy one stays until it ends). */
static void list_merge(struct api_push *p, const struct listed *l)
{
    struct push_app **next = calloc(l->n + p->n + 1, sizeof *next);
    if (!next)
        return;
    size_t i = 0, k = 0, out = 0;
    while (i < p->n || k < l->n) {
        int cmp = i == p->n ? 1 : k == l->n ? -1 : strcmp(p->apps[i]->id, l->ids[k]);
        if (cmp < 0) { /* no longer pushes */
            struct push_app *a = p->apps[i++];
            a->listed = 0;
            if (a->busy)
                next[out++] = a;
            else
                free(a);
        } else if (cmp == 0) {
            p->apps[i]->listed = 1;
            next[out++] = p->apps[i++];
            k++;
        } else {
            struct push_app *a = calloc(1, sizeof *a);
            if (a) {
                snprintf(a->id, sizeof a->id, "%s", l->ids[k]);
                a->listed = 1;
                next[out++] = a;
            }
            k++;
        }
    }
    free(p->apps);
    p->apps = next;
    p->n = out;
}

static void list_run(struct job *job, void *thread_ctx)
{
    struct api_push *p = JOB_OF(job, struct api_push, list_job);
    struct listed l = {0};
    struct store *db = (struct store *)thread_ctx;
    int rc = store_push_apps(db, list_one, &l);
    store_read_release(db); /* the worker's next job reads afresh */
    if (l.n) /* in byte order, as the merge and the lookups compare (not the database's) */
        qsort(l.ids, l.n, sizeof *l.ids, id_order);
    pthread_mutex_lock(&p->mu);
    if (rc == STORE_DONE)
        list_merge(p, &l);
    p->listing = 0;
    pthread_mutex_unlock(&p->mu);
    free(l.ids);
}

/* --- one application's turn --- */

static int claim(struct api_push *p, struct push_app *a, int64_t wall)
{
    struct store_push sp = {.generation = a->generation,
                            .cursor = a->cursor,
                            .now = wall,
                            .lease_until = wall + PUSH_LEASE_MS};
    snprintf(sp.app_id, sizeof sp.app_id, "%s", a->id);
    snprintf(sp.node, sizeof sp.node, "%s", p->node);
    if (store_push_claim(p->svc->writer, &sp) != 1)
        return 0;
    a->held = 1;
    a->lease_until = sp.lease_until;
    a->generation = sp.generation;
    a->replays = sp.replays;
    a->cursor = sp.cursor;
    memcpy(a->url, sp.url, sizeof a->url);
    memcpy(a->secret, sp.secret, sizeof a->secret);
    memcpy(a->bot_user_id, sp.bot_user_id, sizeof a->bot_user_id);
    return 1;
}

static void answered(void *arg, int sent, struct endpoint_result *r);

/* The batch's body: {"type": "events", "applicationId", "events": [EVENTS_GAP?, …], "next"},
 * the page's events spliced in as the log holds them. NULL without memory. */
static char *batch_body(const struct push_app *a, const struct api_event_page *pg,
                        const struct buf *events, size_t *len)
{
    struct buf b;
    buf_init(&b, PUSH_BODY_MAX);
    int rc = buf_appendf(&b, "{\"type\":\"events\",\"applicationId\":\"%s\",\"events\":[", a->id);
    if (pg->oldest) /* its position is the last one trimmed */
        rc |= buf_appendf(
            &b,
            "{\"position\":\"%llu\",\"type\":\"EVENTS_GAP\",\"data\":{\"after\":\"%llu\","
            "\"oldestPosition\":\"%llu\"}}%s",
            (unsigned long long)(pg->oldest - 1), (unsigned long long)a->cursor,
            (unsigned long long)pg->oldest, pg->count ? "," : "");
    if (events->len)
        rc |= buf_append(&b, events->data, events->len);
    rc |= buf_appendf(&b, "],\"next\":\"%llu\"}", (unsigned long long)pg->next);
    if (rc != BUF_OK) {
        buf_cleanup(&b);
        return NULL;
    }
    return buf_detach(&b, len);
}

/* Reads the next page and sends it; 1 when a batch is in flight (the job lives on). */
static int send_page(struct push_job *j, struct store *db)
{
    struct api_push *p = j->push;
    struct push_app *a = j->app;
    struct api_event_page pg;
    struct buf events;
    buf_init(&events, PUSH_BODY_MAX);
    a->scanned_at = clock_mono_ms();
    int failed = api__event_page(db, p->svc->state, a->bot_user_id, a->cursor, PUSH_BATCH_EVENTS,
                                 PUSH_BATCH_BYTES, &events, &pg);
    store_read_release(db); /* the worker's next job reads afresh */
    if (failed || (!pg.count && !pg.oldest)) {
        buf_cleanup(&events);
        if (failed) {
            a->not_before = clock_mono_ms() + 1000;
            return 0;
        }
        a->cursor = pg.next; /* nothing for this bot: passed over */
        a->more = pg.more;
        if (!pg.more)
            a->seen = j->published;
        return 0;
    }
    j->first = a->cursor + 1;
    j->last = pg.next;
    j->events = (int)pg.count + (pg.oldest != 0);
    j->gap = pg.oldest != 0;
    j->more = pg.more;
    size_t len = 0;
    char *text = batch_body(a, &pg, &events, &len);
    buf_cleanup(&events);
    int rc = -1;
    pthread_mutex_lock(&p->mu);
    if (text && !p->stopping)
        rc = api__endpoint_call(p->svc->endpoints, a->id, a->url, a->secret, text, len,
                                p->svc->cfg->allow_private_endpoints, answered, j);
    pthread_mutex_unlock(&p->mu);
    free(text);
    if (rc)
        a->not_before = clock_mono_ms() + 1000; /* the application's calls are all taken */
    return rc == 0;
}

static void turn_run(struct job *job, void *thread_ctx)
{
    struct push_job *j = (struct push_job *)job;
    struct api_push *p = j->push;
    struct push_app *a = j->app;
    pthread_mutex_lock(&p->mu);
    int changed = a->changed, stopping = p->stopping;
    a->changed = 0;
    pthread_mutex_unlock(&p->mu);
    if (changed)
        a->held = a->failures = 0;
    int64_t wall = clock_wall_ms();
    if (!stopping && (!a->held || a->lease_until - wall < PUSH_RENEW_MS) && !claim(p, a, wall)) {
        a->held = 0; /* another node pushes it, or pushing is off: look again later */
        a->not_before = clock_mono_ms() + PUSH_RELIST_MS;
    }
    if (stopping || !a->held || !send_page(j, (struct store *)thread_ctx))
        release(j);
}

static int64_t backoff_ms(const struct api_push *p, int failures)
{
    int64_t ms = p->svc->cfg->events_retry_ms;
    for (int i = 1; i < failures && ms < PUSH_RETRY_MAX_MS; i++)
        ms *= 2;
    return ms < PUSH_RETRY_MAX_MS ? ms : PUSH_RETRY_MAX_MS;
}

static void record_run(struct job *job, void *thread_ctx)
{
    struct push_job *j = (struct push_job *)job;
    struct api_push *p = j->push;
    struct push_app *a = j->app;
    int delivered = j->sent == 0 && j->status >= 200 && j->status < 300;
    char error[64] = "";
    if (j->sent)
        snprintf(error, sizeof error, "sem resposta (tempo esgotado ou conexão recusada)");
    else if (!delivered)
        snprintf(error, sizeof error, "HTTP %ld", j->status);
    struct store_push_attempt at = {.app_id = a->id,
                                    .node = p->node,
                                    .generation = a->generation,
                                    .replays = a->replays,
                                    .first = j->first,
                                    .last = j->last,
                                    .events = j->events,
                                    .gap = j->gap,
                                    .status = (int)j->status,
                                    .latency_ms = j->latency_ms,
                                    .now = clock_now_ms(),
                                    .error = error[0] ? error : NULL,
                                    .delivered = delivered};
    int holds = store_push_record(p->svc->writer, &at);
    if (delivered) {
        a->cursor = j->last;
        a->failures = 0;
        a->more = j->more;
        if (holds != 1)
            a->held = 0; /* the owner changed something, or another node took over: read again */
    } else {
        a->failures++;
        a->not_before = clock_mono_ms() + backoff_ms(p, a->failures);
    }
    j->job.run = turn_run;
    pthread_mutex_lock(&p->mu);
    int go_on = delivered && a->held && j->more && !p->stopping && !a->changed;
    pthread_mutex_unlock(&p->mu);
    if (!go_on || !send_page(j, (struct store *)thread_ctx))
        release(j);
}

/* On the endpoints' thread: the answer goes to a worker. */
static void answered(void *arg, int sent, struct endpoint_result *r)
{
    struct push_job *j = arg;
    j->sent = sent;
    j->status = r->status;
    j->latency_ms = r->latency_ms;
    api__endpoint_result_cleanup(r);
    j->job.run = record_run;
    workers_submit(j->push->svc->workers, &j->job);
}

/* --- the tick --- */

static int due(const struct push_app *a, unsigned long published, int64_t mono, int64_t wall)
{
    if (a->busy || !a->listed || mono < a->not_before)
        return 0;
    return a->changed || !a->held || a->more || a->seen != published ||
           a->lease_until - wall < PUSH_RENEW_MS || mono - a->scanned_at >= PUSH_SCAN_EVERY_MS;
}

void api_push_tick(struct api_push *p)
{
    int64_t mono = clock_mono_ms(), wall = clock_wall_ms();
    unsigned long published = bus_published(p->svc->bus);
    pthread_mutex_lock(&p->mu);
    if (!p->stopping && !p->listing && mono >= p->next_list) {
        p->listing = 1;
        p->next_list = mono + PUSH_RELIST_MS;
        p->list_job = (struct job){.run = list_run};
        workers_submit(p->svc->workers, &p->list_job);
    }
    for (size_t i = 0; i < p->n && !p->stopping; i++) {
        struct push_app *a = p->apps[i];
        struct push_job *j = due(a, published, mono, wall) ? calloc(1, sizeof *j) : NULL;
        if (!j)
            continue;
        a->busy = 1;
        *j = (struct push_job){.job.run = turn_run, .push = p, .app = a, .published = published};
        workers_submit(p->svc->workers, &j->job);
    }
    pthread_mutex_unlock(&p->mu);
}

void api__push_changed(struct api_push *p, const char *app_id)
{
    pthread_mutex_lock(&p->mu);
    struct push_app **found = p->n ? bsearch(app_id, p->apps, p->n, sizeof *p->apps, by_id) : NULL;
    if (found) {
        (*found)->changed = 1;
        (*found)->not_before = 0;
    }
    p->next_list = 0; /* a new one is found at the next tick */
    pthread_mutex_unlock(&p->mu);
}

struct api_push *api_push_new(struct api_service *svc)
{
    struct api_push *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->svc = svc;
    pthread_mutex_init(&p->mu, NULL);
    uuid_v7(p->node);
    return p;
}

void api_push_stop(struct api_push *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stopping = 1;
    pthread_mutex_unlock(&p->mu);
}

void api_push_free(struct api_push *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->apps[i]);
    free(p->apps);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
