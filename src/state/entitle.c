/* Entitlement to logged events: see entitle.h. */
#include "state/entitle.h"

#include <string.h>

#include "core/clock.h"
#include "core/idset.h"
#include "state/server.h"

int state_entitled(struct entitle *e, const char *user_id, const struct store_event *ev)
{
    if (ev->user_id)
        return !strcmp(ev->user_id, user_id);
    if (!ev->stream)
        return 0;
    if (!e->srv || strcmp(e->srv->id, ev->stream)) {
        state_entitle_done(e);
        int found;
        e->srv = state_server(e->state, e->db, ev->stream, &found);
        if (!e->srv)
            return 0;
    }
    int64_t channel = ev->channel_id ? state_server_channel(e->srv, ev->channel_id) : -1;
    if (ev->channel_id && channel < 0)
        return 0; /* the channel is gone */
    struct idset *to = state_server_audience(e->srv, channel, ev->intent, clock_now_ms());
    int yes = to && idset_has(to, user_id);
    idset_unref(to);
    return yes;
}

void state_entitle_done(struct entitle *e)
{
    if (e->srv)
        state_server_unref(e->srv);
    e->srv = NULL;
}
