/* Logged events in position order, each once: see sequence.h. */
#include "gateway/sequence.h"
#include "gateway/deliver.h"
#include "gateway/jobs.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/vec.h"
#include "core/clock.h"
#include "core/log.h"
#include "state/entitle.h"
#include "store/event_log.h"

#define TICK_MS     100
#define GAP_WAIT_MS 300   /* a hole waits this long for its events to come by the relay */
#define TAIL_TICKS  10    /* ticks between looks at the log's last position */
#define WAITING_MAX 20000 /* events kept ahead of a hole; past it, they are read from the log */
#define READ_MAX    1000  /* events read from the log per job */

struct sequence {
    struct gateway *gw;
    uint64_t delivered;        /* every position up to here is done with */
    uint64_t known;            /* the highest position known to exist */
    struct bus_event *waiting; /* past delivered + 1, in position order */
    size_t count, cap;
    int64_t hole_since; /* when known first passed delivered, 0 when it does not */
    int reading;        /* a read of the log is on a worker */
    int stopped;
    unsigned ticks;
    uv_timer_t tick;
};

static void release(struct bus_event *ev)
{
    free(ev->payload);
    idset_unref(ev->to);
}

/* Delivers what follows delivered without a hole, and forgets what is behind it. */
static void drain(struct sequence *s)
{
    size_t used = 0;
    for (; used < s->count && s->waiting[used].position <= s->delivered + 1; used++) {
        struct bus_event *ev = &s->waiting[used];
        if (ev->position == s->delivered + 1) {
            if (ev->to) /* none: nobody may have it now */
                gateway__fan_out(s->gw, ev);
            s->delivered = ev->position;
        }
        release(ev);
    }
    if (used) {
        s->count -= used;
        memmove(s->waiting, s->waiting + used, s->count * sizeof *s->waiting);
    }
    if (s->delivered >= s->known)
        s->hole_since = 0;
    else if (!s->hole_since)
        s->hole_since = clock_mono_ms();
}

/* Keeps a copy of ev (payload copied, `to` referenced) in position order, once. */
static void keep(struct sequence *s, const struct bus_event *ev)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->waiting[mid].position < ev->position)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->count && s->waiting[lo].position == ev->position)
        return; /* here already */
    if (VEC_RESERVE(s->waiting, s->count, s->cap, 64))
        return; /* read from the log later */
    char *payload = malloc(ev->payload_len + 1);
    if (!payload)
        return;
    memcpy(payload, ev->payload, ev->payload_len);
    payload[ev->payload_len] = '\0';
    memmove(s->waiting + lo + 1, s->waiting + lo, (s->count - lo) * sizeof *s->waiting);
    s->waiting[lo] = *ev;
    s->waiting[lo].payload = payload;
    s->waiting[lo].to = ev->to ? idset_ref(ev->to) : NULL;
    s->waiting[lo].next = NULL;
    s->count++;
}

void gateway__sequence_accept(struct sequence *s, const struct bus_event *ev)
{
    if (ev->position <= s->delivered)
        return; /* delivered already: relayed twice, or read from the log first */
    if (ev->position > s->known)
        s->known = ev->position;
    if (ev->position == s->delivered + 1 && (!s->count || s->waiting[0].position > ev->position)) {
        if (ev->to)
            gateway__fan_out(s->gw, ev);
        s->delivered = ev->position;
    } else if (s->count < WAITING_MAX) {
        keep(s, ev); /* past the cap it is read from the log with the hole */
    }
    drain(s);
}

/* ---- reading a hole from the event log ---- */

struct read_job {
    struct gateway_job base;
    struct sequence *seq;
    uint64_t after;
    int tail_only; /* only the log's last position */
    uint64_t first, last;
    struct bus_event *events;
    size_t count, cap;
    struct entitle entitle;
};

static void read_one(void *arg, const struct store_event *e)
{
    struct read_job *r = arg;
    if (VEC_RESERVE(r->events, r->count, r->cap, 64))
        return;
    struct bus_event *ev = &r->events[r->count];
    memset(ev, 0, sizeof *ev);
    ev->position = e->position;
    slice_copy(slice_from(e->type), ev->name, sizeof ev->name);
    ev->to = state_event_audience(&r->entitle, e);
    ev->payload = malloc(e->len + 1);
    if (!ev->payload) {
        idset_unref(ev->to);
        return;
    }
    memcpy(ev->payload, e->payload, e->len);
    ev->payload[e->len] = '\0';
    ev->payload_len = e->len;
    r->count++;
}

static void read_log(struct gateway_job *j, void *thread_ctx)
{
    struct read_job *r = (struct read_job *)j;
    struct store *db = thread_ctx;
    store_read_release(db); /* a snapshot taken now holds every position before a waiting one */
    r->entitle = (struct entitle){.state = j->gw->state, .db = db, .fresh = 1};
    if (store_events_bounds(db, &r->first, &r->last) == STORE_DONE && !r->tail_only &&
        r->last > r->after)
        store_events_after(db, r->after, READ_MAX, read_one, r);
    state_entitle_done(&r->entitle);
    store_read_release(db);
}

static void log_read(struct gateway_job *j)
{
    struct read_job *r = (struct read_job *)j;
    struct sequence *s = r->seq;
    s->reading = 0;
    if (r->last > s->known)
        s->known = r->last;
    if (r->tail_only) {
        drain(s); /* starts the wait on a hole at the end */
    } else {
        uint64_t before = s->delivered;
        for (size_t i = 0; i < r->count; i++)
            if (r->events[i].position > s->delivered)
                keep(s, &r->events[i]);
        /* What the log no longer holds (retention passed it) cannot come: go past it. */
        uint64_t next = r->first > s->delivered + 1 ? r->first
                        : !r->count && s->count     ? s->waiting[0].position
                                                    : 0;
        if (next && s->delivered < s->known) {
            log_error("gateway: events %llu to %llu are not in the log; they are skipped",
                      (unsigned long long)s->delivered + 1, (unsigned long long)next - 1);
            s->delivered = next - 1;
        }
        drain(s);
        if (s->delivered > before)
            log_info("gateway: %llu events after %llu came from the event log, not the relay",
                     (unsigned long long)(s->delivered - before), (unsigned long long)before);
    }
    for (size_t i = 0; i < r->count; i++)
        release(&r->events[i]);
    free(r->events);
    free(r);
}

static void start_read(struct sequence *s, int tail_only)
{
    struct read_job *r = calloc(1, sizeof *r);
    if (!r)
        return;
    r->seq = s;
    r->after = s->delivered;
    r->tail_only = tail_only;
    r->base.work = read_log;
    r->base.done = log_read;
    s->reading = 1;
    log_debug("gateway: reading the event log after %llu (%s; %zu waiting, %llu known)",
              (unsigned long long)s->delivered, tail_only ? "its end" : "a hole", s->count,
              (unsigned long long)s->known);
    gateway__run(s->gw, &r->base);
}

static void on_tick(uv_timer_t *t)
{
    struct sequence *s = t->data;
    s->ticks++;
    if (s->reading || s->stopped)
        return;
    int64_t now = clock_mono_ms();
    if (s->hole_since && (now - s->hole_since >= GAP_WAIT_MS || s->count >= WAITING_MAX))
        start_read(s, 0);
    else if (!s->hole_since && s->ticks % TAIL_TICKS == 0)
        start_read(s, 1);
}

struct sequence *gateway__sequence_new(struct gateway *gw, uint64_t delivered)
{
    struct sequence *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->gw = gw;
    s->delivered = s->known = delivered;
    uv_timer_init(gw->loop, &s->tick);
    s->tick.data = s;
    uv_timer_start(&s->tick, on_tick, TICK_MS, TICK_MS);
    return s;
}

void gateway__sequence_start_at(struct sequence *s, uint64_t delivered)
{
    s->delivered = s->known = delivered;
}

static void on_closed(uv_handle_t *h)
{
    (void)h; /* freed by gateway__sequence_free */
}

void gateway__sequence_stop(struct sequence *s)
{
    if (!s || s->stopped)
        return;
    s->stopped = 1;
    uv_close((uv_handle_t *)&s->tick, on_closed);
}

void gateway__sequence_free(struct sequence *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++)
        release(&s->waiting[i]);
    free(s->waiting);
    free(s);
}
