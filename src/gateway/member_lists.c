/* Member lists for people's pages: see member_lists.h. */
#include "gateway/member_lists.h"
#include "gateway/jobs.h"
#include "gateway/member_list_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/log.h"
#include "domain/permissions.h"
#include "socketio/server.h"
#include "state/member_list.h"
#include "state/presence.h"
#include "state/state.h"

#define RANGE_ROWS      STATE_MEMBER_LIST_RANGE_MAX
#define RANGE_START_MAX 10000000 /* past any server's rows */

struct list_sub {
    struct conn *c;
    struct list_slot *slot;
    size_t starts[LISTS_RANGES];
    int nranges;
    json_t *sent[LISTS_RANGES]; /* the rows last sent (a reference) */
    int waiting;                /* for the list's first build: ack_id is still to answer */
    int64_t ack_id;
    struct list_sub *next;
};

/* The gateway's part for member lists, behind its pointer. */
struct lists {
    struct map slots; /* "server/channel" → struct list_slot */
    uv_timer_t timer; /* their tick, while there are any */
    size_t members;   /* members held in all of them */
    int timer_made;   /* on first use: a gateway that fails to start has no handle to close */
};

struct list_slot {
    struct gateway *gw;
    char key[2 * UUID_LEN + 2];
    char sid[UUID_LEN + 1], cid[UUID_LEN + 1];
    struct state_member_list *list; /* NULL until first built */
    struct list_sub *subs;
    uint64_t seen;       /* state_server_changed's count */
    int busy;            /* a job is on a worker */
    int rebuild;         /* the next job builds the list whole */
    int dirty;           /* rows changed since the last flush */
    struct map noted;    /* user ID → struct noted: presence heard while a job is out */
    struct map ranges;   /* "start" → the rows last made (json) */
    json_t *summary;     /* the counts last made */
    int64_t empty_since; /* when the last subscriber left (0: someone is subscribed) */
    size_t members;      /* counted in gw->lists->members */
};

/* A presence heard while the slot's job is out, applied when it is back. */
struct noted {
    const char *status; /* a static string */
    json_t *activity;   /* the custom status shown (NULL: none) */
    int activity_said;  /* the change said what it is (else it stays as it was) */
};

static void free_noted(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    struct noted *n = value;
    json_decref(n->activity);
    free(n);
}

static void forget_noted(struct list_slot *slot)
{
    map_each(&slot->noted, free_noted, NULL);
    map_cleanup(&slot->noted);
}

/* The node's count of members held follows the slot's list. */
static void count_members(struct list_slot *slot)
{
    size_t now = slot->list ? state_member_list_members(slot->list) : 0;
    slot->gw->lists->members = slot->gw->lists->members - slot->members + now;
    slot->members = now;
}

/* ---- the worker's part ---- */

struct list_job {
    struct gateway_job base;
    struct list_slot *slot;
    struct state_server *from; /* the list's version, when it may follow by difference */
    struct state_member_list_delta *delta;
    struct state_member_list *built;
    const char *error; /* the list could not be made: why, in the page's words */
};

static void job_on_worker(struct gateway_job *j, void *thread_ctx)
{
    struct list_job *lj = (struct list_job *)j;
    struct store *db = thread_ctx;
    int found = 0;
    struct state_server *srv = state_server(j->gw->state, db, lj->slot->sid, &found);
    store_read_release(db);
    if (!srv) {
        lj->error = found < 0 ? "Erro interno; tente de novo" : "Servidor não encontrado";
        return;
    }
    if (lj->from)
        lj->delta =
            state_member_list_delta(lj->from, srv, gateway__list_status_one, j->gw->presence);
    if (!lj->delta) {
        lj->built = gateway__list_build(j->gw->presence, srv, lj->slot->cid);
        if (!lj->built)
            lj->error = state_server_channel(srv, lj->slot->cid) < 0
                            ? "Canal não encontrado"
                            : "Erro interno; tente de novo";
    }
    state_server_unref(srv);
}

static void job_done(struct gateway_job *j);

static void start_job(struct gateway *gw, struct list_slot *slot)
{
    struct list_job *lj = calloc(1, sizeof *lj);
    if (!lj) {
        log_error("gateway: member list of %s not brought up to date: no memory", slot->key);
        return;
    }
    lj->slot = slot;
    if (slot->list && !slot->rebuild)
        lj->from = state_member_list_version(slot->list);
    slot->rebuild = 0;
    slot->busy = 1;
    lj->base.work = job_on_worker;
    lj->base.done = job_done;
    gateway__run(gw, &lj->base);
}

/* ---- answering pages ---- */

/* Whether uid may see the slot's channel in the list's version. */
static int may_see(const struct list_slot *slot, const char *uid)
{
    struct state_server *v = state_member_list_version(slot->list);
    const struct state_member *m = state_server_member(v, uid);
    int64_t ch = state_server_channel(v, slot->cid);
    int sees = m && ch >= 0 && (state_server_channel_perms(v, m, (size_t)ch, 0) & PERM_VER_CANAL);
    state_server_unref(v);
    return sees;
}

/* The rows of the range at start, as last made (made now if nobody asked before). */
static json_t *rows_at(struct list_slot *slot, size_t start)
{
    char key[24];
    snprintf(key, sizeof key, "%zu", start);
    json_t *rows = map_get(&slot->ranges, key);
    if (!rows && (rows = state_member_list_range(slot->list, start, start + RANGE_ROWS - 1)) &&
        map_set(&slot->ranges, key, rows)) {
        json_decref(rows);
        rows = NULL;
    }
    return rows;
}

/* The counts, and the sub's ranges (all of them, or those changed since last sent). */
static json_t *payload_for(struct list_slot *slot, struct list_sub *sub, int all)
{
    json_t *p = json_copy(slot->summary);
    json_t *ranges = json_array();
    if (!p || !ranges || json_object_set_new(p, "ranges", ranges)) {
        json_decref(p);
        return NULL;
    }
    json_object_set_new(p, "serverId", json_string(slot->sid));
    json_object_set_new(p, "channelId", json_string(slot->cid));
    for (int i = 0; i < sub->nranges; i++) {
        json_t *rows = rows_at(slot, sub->starts[i]);
        if (!rows || (!all && rows == sub->sent[i]))
            continue;
        json_array_append_new(ranges, json_pack("{s[II]sO}", "range", (json_int_t)sub->starts[i],
                                                (json_int_t)(sub->starts[i] + RANGE_ROWS - 1),
                                                "rows", rows));
        json_decref(sub->sent[i]);
        sub->sent[i] = json_incref(rows);
    }
    return p;
}

static void answer(struct sio_socket *sock, int64_t ack_id, json_t *payload, const char *error)
{
    if (ack_id < 0) {
        json_decref(payload);
        return;
    }
    if (!error && !payload)
        error = "Erro interno; tente de novo";
    json_t *args = error ? json_pack("[{ss}]", "error", error) : json_pack("[o]", payload);
    if (error)
        json_decref(payload);
    if (args)
        sio_socket_ack(sock, ack_id, args, NULL, 0);
    json_decref(args);
}

static void emit(struct sio_socket *sock, json_t *payload)
{
    json_t *args = payload ? json_pack("[so]", "MEMBER_LIST_UPDATE", payload) : NULL;
    if (args)
        sio_socket_emit(sock, args, NULL, 0);
    json_decref(args);
}

/* ---- subscriptions ---- */

static void sub_free(struct list_sub *sub)
{
    for (int i = 0; i < sub->nranges; i++)
        json_decref(sub->sent[i]);
    free(sub);
}

/* Takes sub out of its slot (the connection keeps no subscription). */
static void unlink_sub(struct list_sub *sub)
{
    struct list_slot *slot = sub->slot;
    struct list_sub **pp = &slot->subs;
    while (*pp && *pp != sub)
        pp = &(*pp)->next;
    if (*pp)
        *pp = sub->next;
    if (!slot->subs)
        slot->empty_since = clock_now_ms();
    sub->c->list_sub = NULL;
    sub_free(sub);
}

static void free_rows(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    json_decref(value);
}

static void slot_free(struct list_slot *slot)
{
    state_member_list_free(slot->list);
    slot->list = NULL;
    count_members(slot);
    forget_noted(slot);
    map_each(&slot->ranges, free_rows, NULL);
    map_cleanup(&slot->ranges);
    json_decref(slot->summary);
    free(slot);
}

/* The counts and every subscribed range made again; each page told what changed for it. */
static void flush(struct list_slot *slot)
{
    slot->dirty = 0;
    json_t *summary = state_member_list_summary(slot->list);
    int counts_changed = summary && !json_equal(summary, slot->summary);
    if (summary) {
        json_decref(slot->summary);
        slot->summary = summary;
    }
    /* Only ranges someone holds are made again; the others are forgotten. */
    struct map old = slot->ranges;
    map_init(&slot->ranges);
    for (struct list_sub *sub = slot->subs; sub; sub = sub->next)
        for (int i = 0; i < sub->nranges && !sub->waiting; i++) {
            char key[24];
            snprintf(key, sizeof key, "%zu", sub->starts[i]);
            if (map_get(&slot->ranges, key))
                continue;
            json_t *before = map_get(&old, key);
            json_t *now = state_member_list_range(slot->list, sub->starts[i],
                                                  sub->starts[i] + RANGE_ROWS - 1);
            if (before && now && json_equal(before, now)) {
                json_decref(now);
                now = json_incref(before);
            }
            if (now && map_set(&slot->ranges, key, now))
                json_decref(now);
        }
    map_each(&old, free_rows, NULL);
    map_cleanup(&old);
    for (struct list_sub *sub = slot->subs, *next; sub; sub = next) {
        next = sub->next;
        if (sub->waiting)
            continue;
        if (!may_see(slot, sub->c->user_id)) { /* left, or no longer sees the channel */
            unlink_sub(sub);
            continue;
        }
        int changed = counts_changed;
        for (int i = 0; i < sub->nranges && !changed; i++)
            changed = rows_at(slot, sub->starts[i]) != sub->sent[i];
        if (changed)
            emit(sub->c->sock, payload_for(slot, sub, 0));
    }
}

/* The list is there: the pages waiting for it are answered (or refused). */
static void answer_waiting(struct list_slot *slot)
{
    for (struct list_sub *sub = slot->subs, *next; sub; sub = next) {
        next = sub->next;
        if (!sub->waiting)
            continue;
        sub->waiting = 0;
        struct sio_socket *sock = sub->c->sock;
        int64_t ack_id = sub->ack_id;
        if (!may_see(slot, sub->c->user_id)) {
            unlink_sub(sub);
            answer(sock, ack_id, NULL, "Canal não encontrado");
        } else {
            answer(sock, ack_id, payload_for(slot, sub, 1), NULL);
        }
    }
}

static void refuse_waiting(struct list_slot *slot, const char *error)
{
    for (struct list_sub *sub = slot->subs, *next; sub; sub = next) {
        next = sub->next;
        struct sio_socket *sock = sub->c->sock;
        int64_t ack_id = sub->ack_id;
        if (sub->waiting) {
            unlink_sub(sub);
            answer(sock, ack_id, NULL, error);
        }
    }
}

static void apply_noted(const char *user_id, void *value, void *arg)
{
    struct list_slot *slot = arg;
    const struct noted *n = value;
    if (state_member_list_presence(slot->list, user_id, n->status))
        slot->dirty = 1;
    if (n->activity_said && state_member_list_activity(slot->list, user_id, n->activity))
        slot->dirty = 1;
}

static void job_done(struct gateway_job *j)
{
    struct list_job *lj = (struct list_job *)j;
    struct list_slot *slot = lj->slot;
    slot->busy = 0;
    if (lj->error) {
        log_warn("gateway: member list %s: %s", slot->key, lj->error);
        refuse_waiting(slot, lj->error);
        if (slot->list && strcmp(lj->error, "Servidor não encontrado"))
            slot->rebuild = 1; /* try again at the next tick */
        else
            while (slot->subs) /* the server is gone: so are its lists' pages */
                unlink_sub(slot->subs);
    } else if (lj->delta) {
        int rc = state_member_list_apply(slot->list, lj->delta);
        lj->delta = NULL;
        slot->dirty |= rc != 0;
        slot->rebuild = rc < 0;
    } else {
        state_member_list_free(slot->list);
        slot->list = lj->built;
        slot->dirty = 1;
    }
    count_members(slot);
    if (slot->list && !lj->error && !slot->rebuild) {
        map_each(&slot->noted, apply_noted, slot);
        if (slot->dirty || !slot->summary)
            flush(slot); /* the counts first: the waiting pages' answers carry them */
        answer_waiting(slot);
    }
    forget_noted(slot);
    state_server_unref(lj->from);
    state_member_list_delta_free(lj->delta);
    free(lj);
}

static void parse(json_t *payload, const char **sid, const char **cid, size_t *starts, int *n,
                  const char **error)
{
    json_t *s = json_object_get(payload, "serverId");
    json_t *ranges = json_object_get(payload, "ranges");
    *sid = json_string_value(s);
    *cid = json_string_value(json_object_get(payload, "channelId"));
    *error = !json_is_object(payload)                   ? "payload: deve ser um objeto"
             : !s                                       ? "serverId: obrigatório"
             : json_is_null(s)                          ? NULL
             : !*sid || !uuid_valid(*sid, strlen(*sid)) ? "serverId: deve ser um UUID ou null"
             : !*cid || !uuid_valid(*cid, strlen(*cid)) ? "channelId: deve ser um UUID"
             : !json_is_array(ranges) || !json_array_size(ranges)
                 ? "ranges: deve ser uma lista de intervalos"
             : json_array_size(ranges) > LISTS_RANGES ? "ranges: no máximo 3 intervalos"
                                                      : NULL;
    *n = 0;
    for (size_t i = 0; !*error && *sid && i < json_array_size(ranges); i++) {
        json_t *r = json_array_get(ranges, i);
        json_int_t a = json_integer_value(json_array_get(r, 0));
        json_int_t b = json_integer_value(json_array_get(r, 1));
        if (json_array_size(r) != 2 || !json_is_integer(json_array_get(r, 0)) ||
            !json_is_integer(json_array_get(r, 1)) || a < 0 || a > RANGE_START_MAX ||
            a % RANGE_ROWS || b != a + RANGE_ROWS - 1)
            *error = "ranges: cada intervalo é [início, início + 99], com início múltiplo de 100";
        else
            starts[(*n)++] = (size_t)a;
    }
}

static void on_tick(uv_timer_t *t);

static struct list_slot *slot_for(struct gateway *gw, const char *sid, const char *cid)
{
    char key[2 * UUID_LEN + 2];
    snprintf(key, sizeof key, "%s/%s", sid, cid);
    struct list_slot *slot = map_get(&gw->lists->slots, key);
    if (slot || gw->lists->slots.count >= LISTS_MAX || gw->lists->members >= LISTS_ROWS_MAX ||
        !(slot = calloc(1, sizeof *slot)))
        return slot;
    slot->gw = gw;
    memcpy(slot->key, key, sizeof key);
    memcpy(slot->sid, sid, UUID_LEN + 1);
    memcpy(slot->cid, cid, UUID_LEN + 1);
    map_init(&slot->noted);
    map_init(&slot->ranges);
    state_server_changed(gw->state, sid, &slot->seen); /* the build reads what is newer */
    if (map_set(&gw->lists->slots, key, slot)) {
        slot_free(slot);
        return NULL;
    }
    slot->empty_since = clock_now_ms();
    if (!gw->lists->timer_made) {
        uv_timer_init(gw->loop, &gw->lists->timer);
        gw->lists->timer.data = gw;
        gw->lists->timer_made = 1;
    }
    if (!uv_is_active((uv_handle_t *)&gw->lists->timer))
        uv_timer_start(&gw->lists->timer, on_tick, LISTS_TICK_MS, LISTS_TICK_MS);
    return slot;
}

void gateway__lists_subscribe(struct gateway *gw, struct conn *c, json_t *payload, int64_t ack_id)
{
    const char *sid, *cid, *error;
    size_t starts[LISTS_RANGES];
    int n;
    parse(payload, &sid, &cid, starts, &n, &error);
    if (!error && c->is_bot)
        error = "members:subscribe: só para pessoas (um bot lê GET /api/bot/servers/:sid/members)";
    if (error) {
        answer(c->sock, ack_id, NULL, error);
        return;
    }
    if (c->list_sub)
        unlink_sub(c->list_sub);
    if (!sid) { /* serverId null: no list any more */
        answer(c->sock, ack_id, json_pack("{sb}", "ok", 1), NULL);
        return;
    }
    struct list_slot *slot = gw->draining ? NULL : slot_for(gw, sid, cid);
    struct list_sub *sub = slot ? calloc(1, sizeof *sub) : NULL;
    if (!sub) {
        answer(c->sock, ack_id, NULL, "Listas de membros indisponíveis agora; tente de novo");
        return;
    }
    sub->c = c;
    sub->slot = slot;
    sub->nranges = n;
    memcpy(sub->starts, starts, sizeof starts);
    sub->ack_id = ack_id;
    sub->next = slot->subs;
    slot->subs = sub;
    slot->empty_since = 0;
    c->list_sub = sub;
    sub->waiting = 1; /* answered once the list is up to date */
    if (slot->busy)
        return;
    if (slot->list && !slot->rebuild && !state_server_changed(gw->state, sid, &slot->seen))
        answer_waiting(slot);
    else
        start_job(gw, slot);
}

void gateway__lists_leave(struct gateway *gw, struct conn *c)
{
    (void)gw;
    if (c->list_sub)
        unlink_sub(c->list_sub);
}

struct presence_arg {
    const char *user_id, *status;
    json_t *activity;  /* NULL: none */
    int activity_said; /* the change carried its custom status */
};

/* Keeps a presence heard while the slot's job is out: 0, or -1 when out of memory. */
static int note(struct list_slot *slot, const struct presence_arg *p)
{
    struct noted *n = map_get(&slot->noted, p->user_id);
    if (!n) {
        if (!(n = calloc(1, sizeof *n)) || map_set(&slot->noted, p->user_id, n)) {
            free(n);
            return -1;
        }
    }
    n->status = p->status;
    if (p->activity_said) {
        json_decref(n->activity);
        n->activity = json_incref(p->activity);
        n->activity_said = 1;
    }
    return 0;
}

static void presence_each(const char *key, void *value, void *arg)
{
    (void)key;
    struct list_slot *slot = value;
    const struct presence_arg *p = arg;
    if (slot->busy && note(slot, p))
        log_error("gateway: %s's presence lost for a member list: no memory", p->user_id);
    if (!slot->list)
        return;
    int changed = state_member_list_presence(slot->list, p->user_id, p->status);
    if (p->activity_said)
        changed |= state_member_list_activity(slot->list, p->user_id, p->activity);
    if (changed) {
        slot->dirty = 1;
        gateway__lists_soon(slot->gw);
    }
}

void gateway__lists_presence(struct gateway *gw, const struct bus_control *c)
{
    if (!gw->lists->slots.count || !c->user[0])
        return;
    struct presence_arg a = {c->user, gateway__list_status_name(c->status), c->activity, 1};
    map_each(&gw->lists->slots, presence_each, &a);
}

/* ---- the tick ---- */

static int gone(void *value, void *arg)
{
    struct list_slot *slot = value;
    int64_t now = *(const int64_t *)arg;
    return !slot->subs && !slot->busy && slot->empty_since &&
           (now - slot->empty_since >= LISTS_KEEP_MS || slot->gw->lists->members > LISTS_ROWS_KEEP);
}

static void release_slot(void *value)
{
    slot_free(value);
}

static void tick_each(const char *key, void *value, void *arg)
{
    (void)key;
    struct gateway *gw = arg;
    struct list_slot *slot = value;
    if (slot->busy || !slot->list)
        return;
    if (slot->rebuild || (slot->subs && state_server_changed(gw->state, slot->sid, &slot->seen)))
        start_job(gw, slot);
    else if (slot->dirty)
        flush(slot);
}

static void on_tick(uv_timer_t *t)
{
    struct gateway *gw = t->data;
    int64_t now = clock_now_ms();
    map_remove_if(&gw->lists->slots, gone, &now, release_slot);
    if (!gw->draining)
        map_each(&gw->lists->slots, tick_each, gw);
    if (!gw->lists->slots.count)
        uv_timer_stop(t);
}

void gateway__lists_soon(struct gateway *gw)
{
    uv_timer_t *t = &gw->lists->timer;
    if (gw->lists->slots.count && !gw->draining && uv_is_active((uv_handle_t *)t) &&
        uv_timer_get_due_in(t) > LISTS_SOON_MS)
        uv_timer_start(t, on_tick, LISTS_SOON_MS, LISTS_TICK_MS);
}

int gateway__lists_init(struct gateway *gw)
{
    struct lists *l = calloc(1, sizeof *l);
    if (!l)
        return -1;
    map_init(&l->slots);
    gw->lists = l;
    return 0;
}

static void on_closed(uv_handle_t *h)
{
    (void)h;
}

void gateway__lists_close(struct gateway *gw)
{
    if (gw->lists->timer_made)
        uv_close((uv_handle_t *)&gw->lists->timer, on_closed);
}

static void free_slot(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    struct list_slot *slot = value;
    while (slot->subs)
        unlink_sub(slot->subs);
    slot_free(slot);
}

void gateway__lists_cleanup(struct gateway *gw)
{
    if (!gw->lists)
        return;
    map_each(&gw->lists->slots, free_slot, NULL);
    map_cleanup(&gw->lists->slots);
    free(gw->lists);
    gw->lists = NULL;
}
