/* Entitlement to logged events: see entitle.h. */
#include "state/entitle.h"

#include <string.h>

#include "core/clock.h"
#include "core/idset.h"
#include "state/server.h"

/* The snapshot of ev's server, and its channel's index in *channel (-1: server-wide); 0 when
 * the server or the channel is gone. */
static int place(struct entitle *e, const struct store_event *ev, int64_t *channel)
{
    if (!e->srv || strcmp(e->srv->id, ev->stream)) {
        state_entitle_done(e);
        if (e->fresh)
            state__forget(e->state, ev->stream);
        int found;
        e->srv = state_server(e->state, e->db, ev->stream, &found);
        if (!e->srv)
            return 0;
    }
    *channel = ev->channel_id ? state_server_channel(e->srv, ev->channel_id) : -1;
    return !ev->channel_id || *channel >= 0;
}

int state_entitled(struct entitle *e, const char *user_id, const struct store_event *ev)
{
    if (ev->redacted)
        return 0;
    if (ev->user_id)
        return !strcmp(ev->user_id, user_id);
    int64_t channel;
    if (!ev->stream || !place(e, ev, &channel))
        return 0;
    /* As it went out live: bots by intent and channel, people by channel (a person's page
     * resumes too). */
    struct idset *to =
        state_server_audience_with_people(e->srv, channel, ev->intent, clock_now_ms());
    int yes = to && idset_has(to, user_id);
    idset_unref(to);
    /* Nothing from before one came in: a bot installed today, or installed again after an
     * uninstall, replays nothing of the time it was not there. */
    const struct state_member *m = yes ? state_server_member(e->srv, user_id) : NULL;
    if (m && ev->at < m->joined_at)
        yes = 0;
    return yes;
}

struct idset *state_event_audience(struct entitle *e, const struct store_event *ev)
{
    int64_t channel;
    if (ev->redacted)
        return NULL;
    if (ev->user_id) {
        struct idset *to = idset_new(1);
        if (to && idset_add(to, ev->user_id)) {
            idset_unref(to);
            return NULL;
        }
        return to;
    }
    if (!ev->stream || !place(e, ev, &channel))
        return NULL;
    return state_server_audience_with_people(e->srv, channel, ev->intent, clock_now_ms());
}

void state_entitle_done(struct entitle *e)
{
    if (e->srv)
        state_server_unref(e->srv);
    e->srv = NULL;
}
