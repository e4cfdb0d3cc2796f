/* The writer's periodic work: see maintenance.h. */
#include "store/maintenance.h"

#include <stddef.h>
#include <stdlib.h>

#include "core/clock.h"
#include "core/log.h"
#include "store/event_log.h"
#include "store/exports.h"
#include "store/installs.h"
#include "store/search.h"

#define TRIM_EVERY_MS  (60 * 1000)
#define INDEX_EVERY_MS 250
#define SWEEP_SLICE    500
/* Consent pages left open: kept an hour past their ten minutes. */
#define CONSENT_KEPT_MS (3600 * 1000)

struct store_maintenance {
    uv_timer_t trim, sweep, index;
    uv_check_t turn;
    int open_handles;
    struct store_writer *writer;
    const struct store_files *files;
    struct store_maintenance_config cfg;
    struct job trim_job, sweep_job, index_job;
    int trimming, sweeping, indexing; /* a job queued and not yet done */
    int index_behind; /* the last catch-up was a full batch: the next goes at the next turn */
    char sweep_cursor[CRYPTO_SHA256_HEX + 1];
};

#define OWNER(job, field) JOB_OF(job, struct store_maintenance, field)

/* Queues job unless the last one of its kind is still queued. */
static void queue(struct store_maintenance *m, struct job *job, int *busy,
                  void (*run)(struct job *, void *), void (*done)(struct job *, int))
{
    if (__atomic_exchange_n(busy, 1, __ATOMIC_ACQ_REL))
        return;
    *job = (struct job){.run = run, .done = done};
    store_writer_submit(m->writer, job);
}

/* ---- the event log's retention ---- */

static void trim_run(struct job *job, void *db)
{
    struct store_maintenance *m = OWNER(job, trim_job);
    int64_t deleted = 0;
    int64_t before = clock_now_ms() - (int64_t)m->cfg.event_retention_hours * 3600 * 1000;
    if (store_events_trim(db, before, &deleted) != STORE_DONE)
        log_error("events: trimming the log failed");
    else if (deleted)
        log_debug("events: %lld past retention trimmed", (long long)deleted);
    if (store_authorize_expire(db, clock_now_ms() - CONSENT_KEPT_MS, &deleted) != STORE_DONE)
        log_error("installs: deleting expired consent sessions failed");
    if (store_exports_expire(db, clock_now_ms(), &deleted) != STORE_DONE)
        log_error("exports: deleting archives past their week failed");
}

static void trim_done(struct job *job, int committed)
{
    (void)committed;
    __atomic_store_n(&OWNER(job, trim_job)->trimming, 0, __ATOMIC_RELEASE);
}

static void on_trim(uv_timer_t *t)
{
    struct store_maintenance *m = t->data;
    queue(m, &m->trim_job, &m->trimming, trim_run, trim_done);
}

/* ---- the search index (SQLite): what was sent since it last caught up, off the send path ---- */

static void index_run(struct job *job, void *db)
{
    int n = store_search_catch_up_at(db, STORE_SEARCH_BATCH);
    if (n < 0)
        log_error("search: indexing the new messages failed");
    __atomic_store_n(&OWNER(job, index_job)->index_behind, n == STORE_SEARCH_BATCH,
                     __ATOMIC_RELEASE);
}

static void index_done(struct job *job, int committed)
{
    (void)committed;
    __atomic_store_n(&OWNER(job, index_job)->indexing, 0, __ATOMIC_RELEASE);
}

static void on_index(uv_timer_t *t)
{
    struct store_maintenance *m = t->data;
    queue(m, &m->index_job, &m->indexing, index_run, index_done);
}

/* ---- files nothing refers to: a slice of the blobs each time ---- */

/* The spool's leftovers of uploads a crash cut short, untouched for the grace period: by the
 * wall clock, as the files' times are (never the tests' moved clock). */
static void spool_sweep(const struct store_maintenance *m, int64_t before)
{
    int n = store_files_sweep_spool(m->files, before);
    if (n > 0)
        log_info("files: %d files of uploads cut short deleted from the spool", n);
}

static void sweep_run(struct job *job, void *db)
{
    struct store_maintenance *m = OWNER(job, sweep_job);
    int64_t before = clock_now_ms() - (int64_t)m->cfg.files_grace_seconds * 1000;
    int n = store_files_sweep_at(m->files, db, before, m->sweep_cursor, SWEEP_SLICE);
    if (n < 0)
        log_error("files: the sweep failed");
    else if (n)
        log_info("files: %d files nothing refers to deleted", n);
    spool_sweep(m, clock_wall_ms() - (int64_t)m->cfg.files_grace_seconds * 1000);
}

static void sweep_done(struct job *job, int committed)
{
    (void)committed;
    __atomic_store_n(&OWNER(job, sweep_job)->sweeping, 0, __ATOMIC_RELEASE);
}

static void on_sweep(uv_timer_t *t)
{
    struct store_maintenance *m = t->data;
    queue(m, &m->sweep_job, &m->sweeping, sweep_run, sweep_done);
}

/* After each turn of the loop: a search backlog goes batch after batch, and the writer runs
 * what the turn queued. */
static void on_turn(uv_check_t *c)
{
    struct store_maintenance *m = c->data;
    if (__atomic_load_n(&m->index_behind, __ATOMIC_ACQUIRE))
        queue(m, &m->index_job, &m->indexing, index_run, index_done);
    store_writer_wake(m->writer);
}

static void timer_start(struct store_maintenance *m, uv_loop_t *loop, uv_timer_t *t, uv_timer_cb cb,
                        uint64_t first, uint64_t every)
{
    uv_timer_init(loop, t);
    t->data = m;
    m->open_handles++;
    if (every)
        uv_timer_start(t, cb, first, every);
}

struct store_maintenance *store_maintenance_start(uv_loop_t *loop, struct store_writer *writer,
                                                  const struct store_files *files,
                                                  const struct store_maintenance_config *cfg)
{
    struct store_maintenance *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->writer = writer;
    m->files = files;
    m->cfg = *cfg;
    spool_sweep(m, clock_wall_ms() - (int64_t)cfg->files_grace_seconds * 1000); /* a crash's */
    uint64_t sweep_ms = (uint64_t)cfg->files_sweep_seconds * 1000;
    timer_start(m, loop, &m->trim, on_trim, 1000, TRIM_EVERY_MS);
    timer_start(m, loop, &m->sweep, on_sweep, sweep_ms, sweep_ms);
    timer_start(m, loop, &m->index, on_index, INDEX_EVERY_MS,
                cfg->search_index ? INDEX_EVERY_MS : 0);
    uv_check_init(loop, &m->turn);
    m->turn.data = m;
    m->open_handles++;
    uv_check_start(&m->turn, on_turn);
    return m;
}

static void on_closed(uv_handle_t *h)
{
    struct store_maintenance *m = h->data;
    m->open_handles--;
}

void store_maintenance_stop(struct store_maintenance *m)
{
    if (!m)
        return;
    uv_close((uv_handle_t *)&m->trim, on_closed);
    uv_close((uv_handle_t *)&m->sweep, on_closed);
    uv_close((uv_handle_t *)&m->index, on_closed);
    uv_close((uv_handle_t *)&m->turn, on_closed);
}

void store_maintenance_free(struct store_maintenance *m)
{
    free(m);
}
