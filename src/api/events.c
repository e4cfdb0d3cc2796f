/* Member events: see events.h. */
#include "api/events.h"

#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "core/log.h"
#include "domain/intents.h"
#include "store/events.h"
#include "store/servers.h"

static void publish(struct api_call *c, const char *name, const char *sid, json_t *payload)
{
    char(*to)[UUID_LEN + 1] = NULL;
    size_t n = 0;
    if (store_event_recipients(c->db, sid, INTENT_MEMBERS_READ, &to, &n) < 0) {
        log_error("events: cannot resolve recipients of %s in %s", name, sid);
        json_decref(payload);
        return;
    }
    char *text = json_dumps(payload, JSON_COMPACT);
    json_decref(payload);
    if (text)
        bus_publish(c->app->bus, name, text, strlen(text), (const char(*)[UUID_LEN + 1]) to, n);
    free(to);
}

void api_event_member_add(struct api_call *c, const char *sid, const char *uid)
{
    int rc;
    json_t *member = store_member_json(c->db, sid, uid, &rc);
    if (!member)
        return;
    json_t *ev = json_pack("{ss}", "serverId", sid);
    json_object_update(ev, member);
    json_object_del(ev, "status");
    json_decref(member);
    publish(c, "GUILD_MEMBER_ADD", sid, ev);
}

void api_event_member_remove(struct api_call *c, const char *sid, const char *uid,
                             const char *reason)
{
    json_t *ev = json_pack("{ssss}", "serverId", sid, "userId", uid);
    if (reason)
        json_object_set_new(ev, "reason", json_string(reason));
    publish(c, "GUILD_MEMBER_REMOVE", sid, ev);
}
