/* Presence, live to people: see presence.h. */
#include "domain/text.h"
#include "api/presence.h"

#include <stdlib.h>
#include <string.h>

#include "api/events.h"
#include "api/reply.h"
#include "api/limits.h"
#include "api/input.h"
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
    json_t *activity = NULL;
    struct idset *set = state_presence_watchers(c->svc->state, c->db, user_id,
                                                (size_t)c->svc->cfg->presence_people_max);
    if (!set || state_presence_shown_many(c->svc->presence, &user_id, 1, &status, &activity)) {
        log_error("presence: %s's new status was not announced", user_id);
        idset_unref(set);
        return;
    }
    /* The status and the custom status shown with it (null: none, or offline). */
    json_t *shown = activity ? activity : json_null();
    /* chosen: a connect's announce read before this choice is looked at again (presence_live.h) */
    struct bus_control chosen = {.activity = json_incref(activity), .chosen = 1};
    slice_copy(slice_from(user_id), chosen.user, sizeof chosen.user);
    slice_copy(slice_from(status), chosen.status, sizeof chosen.status);
    api__event_control(c, BUS_KIND_PRESENCE, &chosen);
    if (!idset_count(set))
        idset_unref(set);
    else
        api__event_to_people(
            c, "PRESENCE_UPDATE", set,
            json_pack("{sssssO}", "userId", user_id, "status", status, "activity", shown));
    json_decref(activity);
}

#define CUSTOM_EXPIRY_MAX_MS (30LL * 24 * 3600 * 1000)

/* A custom status's emoji (up to 32 bytes, no control characters) and expiresAt (an ISO time
 * within 30 days) into clean: 0, or -1 when it has answered 400. */
static int custom_extras(struct api_call *c, json_t *activity, json_t *clean)
{
    const char *emoji = NULL, *expires = NULL;
    int64_t at;
    if (api__in_str(c, activity, "emoji", 1, 32, API_IN_NULLABLE, &emoji) < 0 ||
        api__in_str(c, activity, "expiresAt", 1, 40, API_IN_NULLABLE, &expires) < 0)
        return -1;
    if (emoji && rule_text_has_control(emoji, strlen(emoji), 0)) {
        api__bad(c, "activity.emoji", "não pode ter caracteres de controle");
        return -1;
    }
    if (expires && (clock_parse(expires, strlen(expires), &at) || at <= clock_now_ms() ||
                    at > clock_now_ms() + CUSTOM_EXPIRY_MAX_MS)) {
        api__bad(c, "activity.expiresAt", "deve ser uma data ISO 8601 nos próximos 30 dias");
        return -1;
    }
    if (emoji)
        json_object_set_new(clean, "emoji", json_string(emoji));
    if (expires) {
        char iso[CLOCK_ISO_LEN + 1];
        clock_format_iso(at, iso);
        json_object_set_new(clean, "expiresAt", json_string(iso));
    }
    return 0;
}

/* PUT /api/bot/presence and /api/users/@me/presence: the status shown while the caller is
 * connected, and an activity (for a person, type custom: the status text). */
void api__presence_put(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *status;
    if (!body || api__in_str(c, body, "status", 0, 16, API_IN_REQUIRED, &status) < 0)
        return;
    if (strcmp(status, "online") && strcmp(status, "idle") && strcmp(status, "dnd") &&
        strcmp(status, "invisible")) {
        api__bad(c, "status", "deve ser online, idle, dnd ou invisible");
        return;
    }
    json_t *activity = json_object_get(body, "activity");
    json_t *clean = NULL;
    if (activity && !json_is_null(activity)) {
        const char *type, *name;
        if (!json_is_object(activity)) {
            api__bad(c, "activity", "deve ser um objeto");
            return;
        }
        if (api__in_str(c, activity, "type", 0, 16, API_IN_REQUIRED, &type) < 0 ||
            api__in_str(c, activity, "name", 1, 128, API_IN_REQUIRED, &name) < 0)
            return;
        if (strcmp(type, "playing") && strcmp(type, "listening") && strcmp(type, "watching") &&
            strcmp(type, "custom")) {
            api__bad(c, "activity.type", "deve ser playing, listening, watching ou custom");
            return;
        }
        clean = json_pack("{ssss}", "type", type, "name", name);
        if (!strcmp(type, "custom") && custom_extras(c, activity, clean)) {
            json_decref(clean);
            return;
        }
    }
    if (api__limit_hit(c, &API_LIMIT_PRESENCE)) {
        json_decref(clean);
        return;
    }
    state_presence_set(c->svc->presence, c->me.user_id, status, clean);
    json_decref(clean);
    api__presence_announce(c, c->me.user_id);
    api__reply(c, 200,
               json_pack("{so}", "presence", state_presence_json(c->svc->presence, c->me.user_id)));
}
