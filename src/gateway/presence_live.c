/* Presence changes published live: see presence_live.h. */
#include "gateway/presence_live.h"
#include "gateway/jobs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "core/log.h"
#include "state/watchers.h"
#include "state/presence.h"

/* The gateway's part for presence, behind its pointer. */
struct presence_live {
    struct map noted; /* user id → why: presence to announce */
    struct map later; /* user id → the tick after which to look at it again */
    struct map held;  /* user id → &CHANGED: offline here, not said yet (the grace) */
    uintptr_t ticks;  /* sweeps so far */
    int busy;         /* a presence job is on a worker */
    uv_timer_t timer; /* the next presence job's start */
    int timer_made;   /* on first use: a gateway that fails to start has no handle to close */
};

/* What a noted user's value says: a change here, or the second look. */
static char CHANGED, SECOND_LOOK;

struct presence_job {
    struct gateway_job base; /* first */
    size_t n;
    struct {
        char user_id[UUID_LEN + 1];
        int second_look;
        const char *status;
        json_t *activity;       /* shown with it (NULL: none) */
        struct idset *watchers; /* NULL: nobody to tell */
    } users[PRESENCE_LIVE_BATCH];
};

static void on_worker(struct gateway_job *j, void *thread_ctx)
{
    struct presence_job *p = (struct presence_job *)j;
    for (size_t i = 0; i < p->n; i++) {
        const char *id = p->users[i].user_id;
        if (state_presence_shown_many(j->gw->presence, &id, 1, &p->users[i].status,
                                      &p->users[i].activity) ||
            !(p->users[i].watchers = state_presence_watchers(j->gw->state, thread_ctx, id,
                                                             j->gw->presence_people_max)))
            log_error("gateway: %s's presence was not announced", id);
    }
}

static void schedule(struct gateway *gw);

/* A user gone offline here is looked at again once the grace is over: 1 when held. One held
 * already (gone again after coming back within a batch) stays held, and is sure to be looked
 * at again. */
static int hold(struct gateway *gw, const char *id)
{
    struct presence_live *pl = gw->presence_live;
    uintptr_t ticks = ((uintptr_t)gw->presence_grace_ms + GATEWAY_SWEEP_MS - 1) / GATEWAY_SWEEP_MS;
    void *again = (void *)(pl->ticks + ticks);
    if (!ticks)
        return 0;
    if (map_get(&pl->held, id) && map_get(&pl->later, id))
        return 1; /* held already, and to be looked at again */
    if (!map_set(&pl->later, id, again) && !map_set(&pl->held, id, &CHANGED))
        return 1;
    map_remove(&pl->held, id);
    return 0; /* no memory: said at once */
}

static void answered(struct gateway_job *j)
{
    struct presence_job *p = (struct presence_job *)j;
    struct gateway *gw = j->gw;
    for (size_t i = 0; i < p->n; i++) {
        const char *id = p->users[i].user_id;
        struct idset *to = p->users[i].watchers;
        const char *status = p->users[i].status;
        int offline = !strcmp(status, "offline");
        if (!to) {
            /* not read: logged on the worker */
        } else if (map_get(&gw->presence_live->held, id) && !offline) {
            /* back within the grace: nobody was told they had gone, nor needs telling */
            map_remove(&gw->presence_live->held, id);
            map_remove(&gw->presence_live->later, id);
        } else if (offline && !p->users[i].second_look && hold(gw, id)) {
            /* said once the grace is over, if they are still gone */
        } else if (!map_get(&gw->users, id) && !offline) {
            /* connected elsewhere only: still online to everyone, nothing said */
            if (!p->users[i].second_look &&
                map_set(&gw->presence_live->later, id,
                        (void *)(uintptr_t)(gw->presence_live->ticks + 1)))
                log_error("gateway: %s's presence not looked at again: no memory", id);
        } else {
            map_remove(&gw->presence_live->held, id);
            /* the member lists on every node, and the people who share a small server */
            json_t *shown = p->users[i].activity ? p->users[i].activity : json_null();
            struct bus_control said = {.activity = json_incref(p->users[i].activity)};
            slice_copy(slice_from(id), said.user, sizeof said.user);
            slice_copy(slice_from(status), said.status, sizeof said.status);
            bus_publish_control(gw->bus, BUS_KIND_PRESENCE, &said, NULL, 0);
            if (idset_count(to))
                bus_publish_json(
                    gw->bus, "PRESENCE_UPDATE",
                    json_pack("{sssssO}", "userId", id, "status", status, "activity", shown),
                    idset_ref(to), 0);
        }
        json_decref(p->users[i].activity);
        idset_unref(to);
    }
    free(p);
    gw->presence_live->busy = 0;
    if (gw->presence_live->noted.count)
        schedule(gw);
}

static void take_one(const char *user_id, void *value, void *arg)
{
    struct presence_job *p = arg;
    if (p->n < PRESENCE_LIVE_BATCH) {
        memcpy(p->users[p->n].user_id, user_id, UUID_LEN + 1);
        p->users[p->n++].second_look = value == &SECOND_LOOK;
    }
}

/* The next batch, unless one is on a worker or nothing is noted. */
static void start(struct gateway *gw)
{
    if (gw->presence_live->busy || !gw->presence_live->noted.count || gw->draining)
        return;
    struct presence_job *p = calloc(1, sizeof *p);
    if (!p) {
        log_error("gateway: presence changes not announced: no memory");
        return;
    }
    map_each(&gw->presence_live->noted, take_one, p);
    for (size_t i = 0; i < p->n; i++)
        map_remove(&gw->presence_live->noted, p->users[i].user_id);
    p->base.work = on_worker;
    p->base.done = answered;
    gw->presence_live->busy = 1;
    gateway__run(gw, &p->base);
}

static void on_timer(uv_timer_t *t)
{
    start(t->data);
}

/* A batch PRESENCE_LIVE_WAIT_MS from now, unless one is on its way: connects that come one
 * at a time share a worker's round trip. */
static void schedule(struct gateway *gw)
{
    struct presence_live *p = gw->presence_live;
    if (p->busy || gw->draining)
        return;
    if (!p->timer_made) {
        uv_timer_init(gw->loop, &p->timer);
        p->timer.data = gw;
        p->timer_made = 1;
    }
    if (!uv_is_active((uv_handle_t *)&p->timer))
        uv_timer_start(&p->timer, on_timer, PRESENCE_LIVE_WAIT_MS, 0);
}

void gateway__presence_note(struct gateway *gw, const char *user_id)
{
    if (strlen(user_id) != UUID_LEN)
        return;
    if (map_set(&gw->presence_live->noted, user_id, &CHANGED))
        log_error("gateway: %s's presence change not announced: no memory", user_id);
    schedule(gw);
}

void gateway__presence_chosen(struct gateway *gw, const struct bus_control *c)
{
    if (!gw->presence_live->busy)
        return; /* a batch that starts later reads the status as chosen */
    if (c->user[0] && c->chosen)
        gateway__presence_note(gw, c->user);
}

/* A user whose second look is due, unless a change here noted them meanwhile. */
static int due(void *value, void *arg)
{
    return (uintptr_t)value < *(const uintptr_t *)arg;
}

struct walk {
    struct gateway *gw;
    uintptr_t now;
};

static void queue_due(const char *user_id, void *value, void *arg)
{
    struct walk *w = arg;
    if (due(value, &w->now) && !map_get(&w->gw->presence_live->noted, user_id) &&
        map_set(&w->gw->presence_live->noted, user_id, &SECOND_LOOK))
        log_error("gateway: %s's presence not looked at again: no memory", user_id);
}

void gateway__presence_tick(struct gateway *gw)
{
    struct walk w = {gw, ++gw->presence_live->ticks};
    if (!gw->presence_live->later.count)
        return;
    map_each(&gw->presence_live->later, queue_due, &w);
    map_remove_if(&gw->presence_live->later, due, &w.now, NULL);
    if (gw->presence_live->noted.count)
        schedule(gw);
}

int gateway__presence_init(struct gateway *gw)
{
    struct presence_live *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    map_init(&p->noted);
    map_init(&p->later);
    map_init(&p->held);
    gw->presence_live = p;
    return 0;
}

static void on_timer_closed(uv_handle_t *h)
{
    (void)h;
}

void gateway__presence_close(struct gateway *gw)
{
    if (gw->presence_live->timer_made)
        uv_close((uv_handle_t *)&gw->presence_live->timer, on_timer_closed);
}

void gateway__presence_cleanup(struct gateway *gw)
{
    if (!gw->presence_live)
        return;
    map_cleanup(&gw->presence_live->noted);
    map_cleanup(&gw->presence_live->later);
    map_cleanup(&gw->presence_live->held);
    free(gw->presence_live);
    gw->presence_live = NULL;
}
