/* Resuming from the event log: see resume.h. */
#include "gateway/resume.h"
#include "gateway/jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "gateway/recovery.h"
#include "socketio/packet.h"
#include "socketio/server.h"
#include "state/entitle.h"
#include "store/event_log.h"

#define REPLAY_SLACK   ((size_t)1 << 20) /* the ring's top-up and live events meanwhile */
#define REPLAY_READ_MS 60000

struct resume_job {
    struct gateway_job base;
    char socket_id[32];
    char user_id[UUID_LEN + 1];
    char pid[RECOVERY_PID_MAX];
    uint64_t offset;
    uint64_t first, last; /* the log's bounds when read */
    uint64_t upto;        /* the last position looked at */
    long rows;
    struct buf packets; /* each replayed packet, NUL-separated */
    size_t count;
    int failed;
    struct entitle entitle;
};

static void keep_event(void *arg, const struct store_event *e)
{
    struct resume_job *r = arg;
    r->upto = e->position;
    if (!state_entitled(&r->entitle, r->user_id, e))
        return;
    if (sio_encode_event(&r->packets, e->type, e->payload, e->len, e->position) ||
        buf_append(&r->packets, "", 1))
        r->failed = 1;
    else
        r->count++;
}

static void read_log(struct gateway_job *j, void *thread_ctx)
{
    struct resume_job *r = (struct resume_job *)j;
    struct store *db = thread_ctx;
    r->entitle = (struct entitle){.state = j->gw->state, .db = db};
    r->upto = r->offset;
    if (store_events_bounds(db, &r->first, &r->last) != STORE_DONE)
        r->failed = 1;
    else
        r->rows = store_events_after(db, r->offset, RESUME_MAX, keep_event, r);
    if (r->rows < 0)
        r->failed = 1;
    state_entitle_done(&r->entitle);
    store_read_release(db);
}

/* Where a replay goes. A send can end the connection (a reader too slow for what is replayed
 * is dropped, and its socket and conn freed), so after a send that failed the socket is looked
 * up again by its ID; once it is gone, nothing more is sent nor touched. */
struct replay_target {
    struct gateway *gw;
    const char *socket_id;
    struct sio_socket *sock; /* NULL once the connection is gone */
};

static void replay_send(struct replay_target *t, const char *packet, size_t len)
{
    if (t->sock && sio_socket_send_packet(t->sock, packet, len))
        t->sock = sio_server_find(t->gw->sio, t->socket_id);
}

/* A gateway__recovery_replay callback: one event from the ring, with its offset. */
static void replay_from_ring(void *target, uint64_t seq, const char *name, const char *payload,
                             size_t len)
{
    struct replay_target *t = target;
    struct buf packet;
    if (!t->sock)
        return;
    buf_init(&packet, len + 96);
    if (!sio_encode_event(&packet, name, payload, len, seq))
        replay_send(t, packet.data, packet.len);
    buf_cleanup(&packet);
}

static void replay_ready(struct gateway_job *j)
{
    struct resume_job *r = (struct resume_job *)j;
    struct gateway *gw = j->gw;
    struct replay_target t = {gw, r->socket_id, sio_server_find(gw->sio, r->socket_id)};
    if (t.sock && sio_socket_data(t.sock) && !gw->draining) {
        sio_connect_accept_pid(t.sock, r->pid);
        t.sock = sio_server_find(gw->sio, r->socket_id);
        /* Retention passed events after the offset (what is left still comes), or there is more
         * than we replay, or the offset is from another log: a gap, never silence. */
        int expired = r->first > r->offset + 1;
        int skip = r->failed || (r->rows >= RESUME_MAX && r->upto < r->last) || r->offset > r->last;
        if (expired || skip) {
            char packet[160];
            int n = snprintf(packet, sizeof packet,
                             "2[\"EVENTS_GAP\",{\"after\":\"%llu\",\"oldestPosition\":\"%llu\"}]",
                             (unsigned long long)r->offset, (unsigned long long)r->first);
            replay_send(&t, packet, (size_t)n);
        }
        /* The replay is already in memory: handed over whole, with a minute to be read (the
         * packets' framing and the ring's top-up on top), rather than the reader dropped for
         * being behind on a burst it asked for. */
        if (t.sock && r->count && !skip)
            sio_socket_allow(t.sock, r->packets.len + r->count * 16 + REPLAY_SLACK, REPLAY_READ_MS);
        for (size_t i = 0, at = 0; i < r->count && !skip && t.sock; i++) {
            const char *p = r->packets.data + at;
            size_t len = strlen(p);
            replay_send(&t, p, len);
            at += len + 1;
        }
        /* What was delivered while the log was read: from the ring, after what was replayed;
         * events read from the log and still on their way to the gateway are not sent twice. */
        uint64_t from = skip ? gateway__recovery_last(gw->recovery) : r->upto;
        if (t.sock)
            gateway__recovery_replay(gw->recovery, from, r->user_id, replay_from_ring, &t);
        struct conn *c = t.sock ? sio_socket_data(t.sock) : NULL;
        if (c) {
            c->since = gateway__recovery_last(gw->recovery);
            c->resumed_upto = from > c->since ? from : c->since;
            c->replaying = 0;
        }
    }
    buf_cleanup(&r->packets);
    free(r);
}

void gateway__resume_from_log(struct gateway *gw, struct conn *c, const char *pid, uint64_t offset)
{
    struct resume_job *r = calloc(1, sizeof *r);
    if (!r) {
        sio_connect_result(c->sock, 0, "Sem memória");
        return;
    }
    c->replaying = 1;
    memcpy(c->pid, pid, sizeof c->pid);
    memcpy(r->socket_id, sio_socket_id(c->sock), sizeof r->socket_id);
    memcpy(r->user_id, c->user_id, sizeof r->user_id);
    memcpy(r->pid, pid, sizeof r->pid);
    r->offset = offset;
    buf_init(&r->packets, 256u * 1024 * 1024);
    r->base.work = read_log;
    r->base.done = replay_ready;
    gateway__run(gw, &r->base);
}
