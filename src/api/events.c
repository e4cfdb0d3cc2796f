/* Member and message events: see events.h. */
#include "core/jsonout.h"
#include "api/events.h"

#include "api/access.h"
#include "api/voice.h"

#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "core/log.h"
#include "core/clock.h"
#include "domain/intents.h"
#include "state/state.h"
#include "store/servers.h"

/* Serializes and hands to the bus (after the commit on the writer lane); takes payload and
 * the reference to `to`. */
static void send_to(struct api_call *c, const char *name, json_t *payload, struct idset *to)
{
    char *text = jsonout_dump(payload, NULL);
    json_decref(payload);
    if (text && c->held)
        bus_hold(c->held, name, text, strlen(text), to);
    else if (text)
        bus_publish(c->app->bus, name, text, strlen(text), to);
    else
        idset_unref(to);
}

struct idset *api_audience(struct api_call *c, const char *sid, const char *cid, uint32_t intent,
                           int *failed)
{
    int found;
    struct state_server *srv = state_server(c->app->state, c->db, sid, &found);
    *failed = found < 0;
    if (!srv)
        return NULL;
    int64_t channel = cid ? state_server_channel(srv, cid) : -1;
    struct idset *to = cid && channel < 0
                           ? idset_new(0)
                           : state_server_audience(srv, channel, intent, clock_now_ms());
    *failed = to == NULL;
    state_server_unref(srv);
    return to;
}

static void publish(struct api_call *c, const char *name, const char *sid, json_t *payload)
{
    int failed;
    struct idset *to = api_audience(c, sid, NULL, INTENT_MEMBERS_READ, &failed);
    if (!to) {
        if (failed)
            log_error("events: cannot resolve recipients of %s in %s", name, sid);
        json_decref(payload);
        return;
    }
    send_to(c, name, payload, to);
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
    api_voice_review_server(c, sid);
}

void api_event_message(struct api_call *c, const char *name, struct state_server *srv,
                       int64_t channel, json_t *payload)
{
    struct idset *to = state_server_audience(srv, channel, INTENT_MESSAGES_READ, clock_now_ms());
    if (!to) {
        log_error("events: cannot resolve recipients of %s", name);
        json_decref(payload);
        return;
    }
    send_to(c, name, payload, to);
}

void api_event_to_user(struct api_call *c, const char *name, const char *user_id, json_t *payload)
{
    struct idset *to = idset_new(1);
    if (!to || idset_add(to, user_id)) {
        idset_unref(to);
        json_decref(payload);
        return;
    }
    send_to(c, name, payload, to);
}

void api_event_disconnect(struct api_call *c, const char *user_id, const char *token_hash)
{
    json_t *payload = token_hash ? json_pack("{ss}", "tokenHash", token_hash) : json_object();
    api_event_to_user(c, BUS_DISCONNECT, user_id, payload);
}

void api_event_disconnect_others(struct api_call *c, const char *user_id, const char *keep_hash)
{
    api_event_to_user(c, BUS_DISCONNECT, user_id, json_pack("{ss}", "keepTokenHash", keep_hash));
}
