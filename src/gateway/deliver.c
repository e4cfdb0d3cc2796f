/*
 * Delivery: see deliver.h. An event is serialized once and the same bytes are written to each
 * recipient's sockets; each frame is made only when a connected recipient needs it.
 */
#include "gateway/deliver.h"

#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/map.h"
#include "gateway/member_lists.h"
#include "gateway/reach.h"
#include "gateway/recovery.h"
#include "socketio/packet.h"
#include "socketio/server.h"
#include "state/console.h"

/* One event's frames, each made on first need: the plain one, and one with the recovery offset
 * (1 made, -1 failed, 0 not yet). A node with none of the audience connected makes neither. */
struct frames {
    struct sio_prepared plain, with_offset;
    int have_plain, have_offset;
    const struct bus_event *ev;
    uint64_t seq;
    char only_viewing[UUID_LEN + 1]; /* a server's typing: only the pages with that room open */
};

/* 2["NAME",payload] (with the offset when seq is not 0): the same bytes for everyone. */
static int make_frame(const struct bus_event *ev, uint64_t seq, struct sio_prepared *out)
{
    struct buf packet;
    buf_init(&packet, ev->payload_len + 96);
    int rc = sio_encode_event(&packet, ev->name, ev->payload, ev->payload_len, seq) ||
             sio_prepare(out, packet.data, packet.len);
    buf_cleanup(&packet);
    return rc;
}

/* To each of a user's connections that the event is for. */
static void send_to_user(struct gateway *gw, struct conn *first, void *arg)
{
    struct frames *f = arg;
    for (struct conn *c = first, *next; c; c = next) {
        next = c->next; /* a slow reader may be dropped while we write */
        if (c->replaying || (f->seq && f->seq <= c->resumed_upto))
            continue; /* it comes (or came) with the replay */
        if (f->only_viewing[0] && strcmp(c->viewing, f->only_viewing))
            continue;
        gw->stats.deliveries++;
        int plain = !c->recovery || !f->seq;
        int *have = plain ? &f->have_plain : &f->have_offset;
        struct sio_prepared *frame = plain ? &f->plain : &f->with_offset;
        if (!*have)
            *have = make_frame(f->ev, plain ? 0 : f->seq, frame) ? -1 : 1;
        if (*have > 0)
            sio_socket_send_prepared(c->sock, frame);
    }
}

/* ---- the portal's event console: what became of each event for a watched bot ---- */

struct console_arg {
    struct gateway *gw;
    const struct idset *to;
};

static enum console_outcome console_outcome_of(void *arg, const char *bot_user_id)
{
    struct console_arg *a = arg;
    if (!idset_has(a->to, bot_user_id))
        return CONSOLE_NOT_RECIPIENT;
    if (map_get(&a->gw->users, bot_user_id))
        return CONSOLE_DELIVERED;
    return a->gw->sequence ? CONSOLE_NOT_HERE
                           : CONSOLE_NOT_CONNECTED; /* another node may hold it */
}

/* Only while an owner has the console open: an event in a server, where its header says. */
static void note_for_console(struct gateway *gw, const struct bus_event *ev)
{
    if (!ev->where.server[0])
        return;
    struct console_entry e = {.position = ev->position, .at = clock_now_ms()};
    memcpy(e.server_id, ev->where.server, sizeof ev->where.server);
    memcpy(e.channel_id, ev->where.channel, sizeof ev->where.channel);
    if (!slice_copy(slice_from(ev->name), e.type, sizeof e.type)) {
        /* What kind of interaction, or a deferred answer still thinking: shape, never content
         * (the one thing read from the payload, and only while a console is open). */
        json_t *p = json_loadb(ev->payload, ev->payload_len, 0, NULL);
        const char *kind = !strcmp(ev->name, "INTERACTION_CREATE")
                               ? json_string_value(json_object_get(p, "type"))
                           : (json_integer_value(json_object_get(p, "flags")) & 128) ? "thinking"
                                                                                     : NULL;
        if (kind && slice_copy(slice_from(kind), e.kind, sizeof e.kind))
            e.kind[0] = '\0';
        json_decref(p);
        struct console_arg arg = {gw, ev->to};
        state_console_record(gw->console, &e, console_outcome_of, &arg);
    }
}

void gateway__fan_out(struct gateway *gw, const struct bus_event *ev)
{
    struct frames f = {.ev = ev};
    /* A server's typing goes only to the pages with its room open (the thread, or the
     * channel); a DM's to both of its people's pages. */
    if (ev->where.server[0] && !strcmp(ev->name, "TYPING_START"))
        memcpy(f.only_viewing, ev->where.room, sizeof f.only_viewing);
    if ((!strcmp(ev->name, "GUILD_MEMBER_ADD") || !strcmp(ev->name, "GUILD_MEMBER_REMOVE") ||
         !strcmp(ev->name, "SERVER_UPDATE")))
        gateway__lists_soon(gw); /* the state has the change already: lists follow it now */
    /* Logged events carry their log position as the offset; live-only ones none. */
    f.seq = ev->position
                ? gateway__recovery_record_at(gw->recovery, ev->position, ev->name, ev->payload,
                                              ev->payload_len, ev->to, clock_now_ms())
                : 0;
    gw->stats.events++;
    gw->stats.recipients += idset_count(ev->to);
    if (ev->position && gw->console && state_console_watching(gw->console))
        note_for_console(gw, ev);
    gateway__reach_each(gw, ev->to, send_to_user, &f);
    if (f.have_plain > 0)
        sio_prepared_cleanup(&f.plain);
    if (f.have_offset > 0)
        sio_prepared_cleanup(&f.with_offset);
}
