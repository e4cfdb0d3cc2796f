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
#include "store/servers.h"

/* The people of user_id's servers (the first PRESENCE_SERVERS_MAX, none of more than
 * --presence-people-max people), but user_id; NULL on error. */
static struct idset *watchers(struct api_call *c, const char *user_id)
{
    json_t *ids = store_server_ids_of_member(c->db, user_id, PRESENCE_SERVERS_MAX);
    size_t n = json_array_size(ids);
    struct idset **people = ids ? calloc(n ? n : 1, sizeof *people) : NULL;
    for (size_t i = 0; people && i < n; i++) {
        int found;
        const char *sid = json_string_value(json_object_get(json_array_get(ids, i), "id"));
        struct state_server *srv = state_server(c->svc->state, c->db, sid, &found);
        people[i] = srv ? state_server_people(srv, -1, clock_now_ms()) : NULL;
        state_server_unref(srv);
    }
    struct idset *all =
        people ? idset_union(people, n, (size_t)c->svc->cfg->presence_people_max, user_id) : NULL;
    for (size_t i = 0; people && i < n; i++)
        idset_unref(people[i]);
    free(people);
    json_decref(ids);
    return all;
}

struct idset *api_presence_watchers(void *thread_ctx, const char *user_id)
{
    struct api_call c = api__thread_call(thread_ctx);
    struct idset *set = watchers(&c, user_id);
    store_read_release(c.db);
    return set;
}

void api__presence_announce(struct api_call *c, const char *user_id)
{
    const char *status;
    struct idset *set = watchers(c, user_id);
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
