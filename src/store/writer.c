/* Group-commit writer: see writer.h. */
#include "store/writer.h"
#include "core/thread_name.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/log.h"
#include "store/event_log.h"
#include "store/savepoints.h"
#include "store/snapshot.h"
#include "store/write_batch.h"

#define FOREIGN_CHECK_MS 1000 /* how often commits by other processes are looked for */
#define CHANGED_MAX      4096 /* servers named per batch; past it, everything is dropped */
#define TRANSACTION_JOBS 256  /* bounds how long the first job of a batch waits for its commit */

/* Set on the writer thread: store_write there runs inline. */
static _Thread_local struct store_writer *running_here;

/* A plain write: a job whose waiter sleeps until it is done. */
struct write_req {
    struct job job;
    struct store_writer *w;
    store_write_fn fn;
    void *arg;
    int result;
    int done;
    pthread_cond_t done_cond; /* each waiter is woken alone, not the whole pool */
};

/* Prepared once on the writer's connection (store__exec caches by SQL address). */
static const char *SQL_ROLLBACK = "ROLLBACK";

struct store_writer {
    struct store *db;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* writer: work arrived */
    struct job *head, *tail;
    int stopping;
    int unwoken;               /* jobs queued by store_writer_submit_later since the last signal */
    store_change_fn on_change; /* set before the first write */
    store_changed_fn on_changed;
    void *on_change_arg;
    int64_t data_version, checked_at;
    struct store_writer_stats stats; /* under lock */
    /* The batch being committed: the servers its writes changed. */
    char (*changed)[STORE_CHANGE_MAX];
    size_t nchanged;
    int changed_all;
    int told; /* its changes were told: on_changed is due before its waiters wake */
    /* With on_changed: the batches whose waiters wait for it, in commit order, woken by the
     * settler thread (under lock). */
    pthread_t settler;
    pthread_cond_t settle;
    struct settling *settle_head, *settle_tail;
    int settling; /* the settler holds batches taken from the queue */
    int settler_runs;
};

/* A committed batch whose waiters wake after on_changed. */
struct settling {
    struct settling *next;
    struct job *jobs;
    int committed;
    int told;
};

static void note_change(void *arg, const char *sid)
{
    struct store_writer *w = arg;
    if (w->nchanged == CHANGED_MAX) {
        w->changed_all = 1;
        return;
    }
    if (slice_copy(slice_from(sid), w->changed[w->nchanged], sizeof w->changed[0]))
        w->changed_all = 1;
    else
        w->nchanged++;
}

/* After the commit, before anyone is woken: a handler then reads its own writes. */
static void announce_changes(struct store_writer *w)
{
    if (w->on_change && (w->changed_all || w->nchanged)) {
        if (w->changed_all)
            w->on_change(w->on_change_arg, NULL);
        else
            for (size_t i = 0; i < w->nchanged; i++)
                w->on_change(w->on_change_arg, w->changed[i]);
        w->told = 1;
    }
    w->nchanged = 0;
    w->changed_all = 0;
}

/* Commits made by another process (praca admin) move the connection's data_version. */
static void check_foreign(struct store_writer *w)
{
    int64_t now = clock_now_ms();
    if (now - w->checked_at < FOREIGN_CHECK_MS)
        return;
    w->checked_at = now;
    int64_t v = store__data_version(w->db);
    /* Unreadable (the database is away) says nothing changed: taking it for a change dropped
     * every identity in memory, and a bot connecting during an outage was then refused. */
    if (v < 0)
        return;
    if (v != w->data_version && w->on_change)
        w->on_change(w->on_change_arg, NULL);
    w->data_version = v;
}

static int write_in_savepoint(struct store_writer *w, store_write_fn fn, void *arg)
{
    /* A disk-full or I/O error can roll the batch's transaction back under us; a savepoint
     * then would open a transaction of its own and commit alone, behind the batch's back. */
    if (!store__in_transaction(w->db))
        return STORE_ERR;
    store__set_wrote(w->db, 1);
    store__savepoint_open(w->db);
    size_t events = store__events_waiting(w->db);
    int result = fn(w->db, arg);
    int keep = result >= 0 && !store__failed(w->db);
    if (!keep)
        store__events_forget(w->db, events);
    store__savepoint_close(w->db, keep);
    return result;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The jobs queued since the batch was taken: they join the open transaction, so one commit (its
 * WAL writes and its wake-ups) serves them too instead of a transaction of their own. */
static struct job *take_queued(struct store_writer *w)
{
    pthread_mutex_lock(&w->lock);
    struct job *more = w->head;
    w->head = w->tail = NULL;
    pthread_mutex_unlock(&w->lock);
    return more;
}

/* Runs jobs from the front of *queue in one transaction, until the queue is empty, a job
 * changed what the state holds or TRANSACTION_JOBS have run; jobs queued meanwhile join it.
 * The jobs run are cut off *queue and returned; *committed tells whether their transaction
 * committed. */
static struct job *run_transaction(struct store_writer *w, struct job **queue, int *committed)
{
    struct job *ran = *queue, *last = NULL;
    int began = store__begin_write(w->db) == STORE_DONE;
    int lost = 0;
    uint64_t start = now_ns(), waited = 0, jobs = 0;
    for (struct job *j = ran; j; j = j->next) {
        last = j;
        jobs++;
        waited += start > j->queued_ns ? start - j->queued_ns : 0;
        store__set_wrote(w->db, 0);
        if (!began)
            continue;
        j->run(j, w->db);
        if ((lost = !store__in_transaction(w->db)))
            break; /* rolled back by SQLite (disk full, I/O): these jobs failed, not the rest */
        if (store_changes_pending(w->db))
            break; /* the state must follow before the next job reads it */
        if (!j->next && jobs < TRANSACTION_JOBS)
            j->next = take_queued(w);
    }
    *queue = last->next;
    last->next = NULL;
    pthread_mutex_lock(&w->lock);
    w->stats.transactions++;
    w->stats.jobs += jobs;
    w->stats.wait_ns += waited;
    w->stats.queued -= jobs;
    pthread_mutex_unlock(&w->lock);
    if (lost) {
        store__write_batch_forget(w->db);
        log_error("writer: the transaction was rolled back by the database; %s",
                  "its requests fail, the next ones start afresh");
        *committed = 0;
        return ran;
    }
    *committed = began;
    if (began && store__changes_take(w->db, note_change, w) != STORE_DONE)
        w->changed_all = 1;
    if (began && store__write_batch_commit(w->db) != STORE_DONE) {
        log_error("writer: commit failed; batch rolled back");
        store__exec(w->db, SQL_ROLLBACK, NULL, 0);
        store__write_batch_forget(w->db);
        *committed = 0;
    }
    if (*committed)
        store__after_commit(w->db);  /* before anyone hears "done" */
    if (!began && store_reachable()) /* an unreachable database was logged once already */
        log_error("writer: cannot begin a transaction");
    announce_changes(w);
    return ran;
}

static void wake_jobs(struct job *ran, int committed)
{
    for (struct job *j = ran, *next; j; j = next) {
        next = j->next; /* done may free j */
        j->done(j, committed);
    }
}

/* The settler: takes every batch queued, tells on_changed once if any of them changed
 * something (its wait covers them all), then wakes their waiters in commit order. */
static void *settler_main(void *p)
{
    struct store_writer *w = p;
    thread_name("praca-settler");
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->settle_head && w->settler_runs)
            pthread_cond_wait(&w->settle, &w->lock);
        struct settling *list = w->settle_head;
        if (!list)
            break;
        w->settle_head = w->settle_tail = NULL;
        w->settling = 1;
        pthread_mutex_unlock(&w->lock);
        int told = 0;
        for (struct settling *s = list; s; s = s->next)
            told |= s->told;
        if (told)
            w->on_changed(w->on_change_arg);
        for (struct settling *s = list, *next; s; s = next) {
            next = s->next;
            wake_jobs(s->jobs, s->committed);
            free(s);
        }
        pthread_mutex_lock(&w->lock);
        w->settling = 0;
        pthread_cond_broadcast(&w->settle); /* a writer out of memory may wait for this */
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* Hands a batch to the settler when it changed something, or when batches before it still wait
 * there (their waiters wake first). 0 when handed, -1 when its waiters may wake now. */
static int settle_later(struct store_writer *w, struct job *ran, int committed)
{
    int told = w->told;
    w->told = 0;
    if (!w->settler_runs)
        return -1;
    pthread_mutex_lock(&w->lock);
    int behind = w->settle_head || w->settling;
    struct settling *s = told || behind ? malloc(sizeof *s) : NULL;
    if (s) {
        *s = (struct settling){.jobs = ran, .committed = committed, .told = told};
        if (w->settle_tail)
            w->settle_tail->next = s;
        else
            w->settle_head = s;
        w->settle_tail = s;
        pthread_cond_broadcast(&w->settle);
    } else if (told || behind) {
        /* Out of memory: the batches before it wake first, then it, after on_changed here. */
        while (w->settle_head || w->settling)
            pthread_cond_wait(&w->settle, &w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    if (!s && told)
        w->on_changed(w->on_change_arg);
    return s ? 0 : -1;
}

static void run_batch(struct store_writer *w, struct job *queue)
{
    while (queue) {
        int committed;
        struct job *ran = run_transaction(w, &queue, &committed);
        if (settle_later(w, ran, committed))
            wake_jobs(ran, committed);
    }
}

static void *writer_main(void *p)
{
    struct store_writer *w = p;
    thread_name("praca-writer");
    running_here = w;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (!w->head && !w->stopping) {
            struct timespec until = clock_deadline(1000);
            if (pthread_cond_timedwait(&w->wake, &w->lock, &until)) {
                pthread_mutex_unlock(&w->lock);
                check_foreign(w);
                pthread_mutex_lock(&w->lock);
            }
        }
        struct job *batch = w->head;
        w->head = w->tail = NULL;
        pthread_mutex_unlock(&w->lock);
        if (!batch)
            break;
        check_foreign(w);
        run_batch(w, batch);
    }
    return NULL;
}

struct store_writer *store_writer_new(const char *path)
{
    return store_writer_new_durable(path, 0);
}

struct store_writer *store_writer_new_durable(const char *path, int full)
{
    struct store_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->changed = malloc(CHANGED_MAX * sizeof *w->changed);
    if (!w->changed || store_open(path, &w->db) != STORE_DONE ||
        store__write_batch_new(w->db) != STORE_DONE ||
        (full && store__sync_full(w->db) != STORE_DONE) ||
        store__changes_begin(w->db) != STORE_DONE) {
        store_close(w->db);
        free(w->changed);
        free(w);
        return NULL;
    }
    w->data_version = store__data_version(w->db);
    w->checked_at = clock_now_ms();
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->settle, NULL);
    if (pthread_create(&w->thread, NULL, writer_main, w)) {
        store_close(w->db);
        free(w->changed);
        free(w);
        return NULL;
    }
    return w;
}

void store_writer_on_change(struct store_writer *w, store_change_fn fn, store_changed_fn done,
                            void *arg)
{
    pthread_mutex_lock(&w->lock);
    w->on_change = fn;
    w->on_changed = done;
    w->on_change_arg = arg;
    pthread_mutex_unlock(&w->lock);
    if (done && !w->settler_runs) {
        w->settler_runs = 1;
        if (pthread_create(&w->settler, NULL, settler_main, w)) {
            log_error("writer: no thread for the settler; commits wait for the other nodes");
            w->settler_runs = 0;
        }
    }
}

static void enqueue(struct store_writer *w, struct job *job, int wake)
{
    job->next = NULL;
    job->queued_ns = now_ns();
    pthread_mutex_lock(&w->lock);
    w->stats.queued++;
    if (w->tail)
        w->tail->next = job;
    else
        w->head = job;
    w->tail = job;
    w->unwoken = !wake;
    if (wake)
        pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
}

void store_writer_submit(struct store_writer *w, struct job *job)
{
    enqueue(w, job, 1);
}

void store_writer_submit_later(struct store_writer *w, struct job *job)
{
    enqueue(w, job, 0);
}

void store_writer_wake(struct store_writer *w)
{
    pthread_mutex_lock(&w->lock);
    if (w->unwoken)
        pthread_cond_signal(&w->wake);
    w->unwoken = 0;
    pthread_mutex_unlock(&w->lock);
}

static void write_req_run(struct job *job, void *db)
{
    struct write_req *r = (struct write_req *)job;
    (void)db;
    r->result = write_in_savepoint(r->w, r->fn, r->arg);
}

static void write_req_done(struct job *job, int committed)
{
    struct write_req *r = (struct write_req *)job;
    struct store_writer *w = r->w;
    pthread_mutex_lock(&w->lock);
    if (!committed)
        r->result = STORE_ERR;
    r->done = 1;
    pthread_cond_signal(&r->done_cond); /* r lives on the waiter's stack: last touch */
    pthread_mutex_unlock(&w->lock);
}

int store_write(struct store_writer *w, store_write_fn fn, void *arg)
{
    if (running_here == w)
        return write_in_savepoint(w, fn, arg);
    /* Reads after this write must see it: end the caller's read snapshot first. */
    store__read_release_current();
    struct write_req r = {
        .job = {.run = write_req_run, .done = write_req_done}, .w = w, .fn = fn, .arg = arg};
    pthread_cond_init(&r.done_cond, NULL);
    store_writer_submit(w, &r.job);
    pthread_mutex_lock(&w->lock);
    while (!r.done)
        pthread_cond_wait(&r.done_cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
    pthread_cond_destroy(&r.done_cond);
    return r.result;
}

void store_writer_stats(struct store_writer *w, struct store_writer_stats *out)
{
    pthread_mutex_lock(&w->lock);
    *out = w->stats;
    pthread_mutex_unlock(&w->lock);
    /* The checkpoints' thread was started with the connection, before the writer's: what it
     * reports is behind its own lock and an atomic. */
    store__checkpoints(w->db, &out->checkpoints);
}

void store_writer_free(struct store_writer *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    if (w->settler_runs) { /* after the writer: it drains what the writer handed it */
        pthread_mutex_lock(&w->lock);
        w->settler_runs = 0;
        pthread_cond_broadcast(&w->settle);
        pthread_mutex_unlock(&w->lock);
        pthread_join(w->settler, NULL);
    }
    store_close(w->db);
    free(w->changed);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->wake);
    pthread_cond_destroy(&w->settle);
    free(w);
}

struct exec_arg {
    const char *sql;
    const struct store_val *args;
    size_t nargs;
    int64_t changes;
};

static int exec_fn(struct store *db, void *p)
{
    struct exec_arg *a = p;
    int rc = store__exec(db, a->sql, a->args, a->nargs);
    a->changes = store__changes(db);
    return rc;
}

int store__write_exec(struct store_writer *w, const char *sql, const struct store_val *args,
                      size_t nargs, int64_t *changes)
{
    struct exec_arg a = {sql, args, nargs, 0};
    int rc = store_write(w, exec_fn, &a);
    if (changes)
        *changes = a.changes;
    return rc;
}

int store__write_delete_chunks(struct store_writer *w, const char *sql, const char *id)
{
    int64_t changes;
    int rc;
    do
        rc = store__write_exec(w, sql, SV_ARGS(SV_STR(id)), &changes);
    while (rc >= 0 && changes > 0);
    return rc;
}
