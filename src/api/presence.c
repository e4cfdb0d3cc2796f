/* Presence, live to people: see presence.h. */
#include "api/presence.h"

#include <stdlib.h>
#include <string.h>

#include "api/events.h"
#include "bus/bus.h"
#include "core/clock.h"
#include "core/log.h"
#include "state/presence.h"
#include "state/server.h"
#include "state/state.h"
#include "state/watchers.h"
#include "store/servers.h"

void api__presence_announce(struct api_call *c, const char *user_id)
{
    const char *status;
    struct idset *set = state_presence_watchers(c->svc->state, c->db, user_id,
                                                (size_t)c->svc->cfg->presence_people_max);
    if (!set || state_presence_statuses(c->svc->presence, &user_id, 1, &status)) {
        log_error("presence: %s's new status was not announced", user_id);
        idset_unref(set);
        return;
    }
    api__event_control(c, BUS_PRESENCE, json_pack("{ssss}", "userId", user_id, "status", status));
    if (!idset_count(set))
        idset_unref(set);
    else
        api__event_to_people(c, "PRESENCE_UPDATE", set,
                             json_pack("{ssss}", "userId", user_id, "status", status));
}
