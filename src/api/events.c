/* Member events: see events.h. */
#include "api/events.h"

#include "api/access.h"
#include "api/voice.h"

#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "gateway/gateway.h"
#include "core/log.h"
#include "core/clock.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "store/events.h"
#include "store/servers.h"

static void send_to(struct api_call *c, const char *name, json_t *payload,
                    const char (*to)[UUID_LEN + 1], size_t n)
{
    char *text = json_dumps(payload, JSON_COMPACT);
    json_decref(payload);
    if (text)
        bus_publish(c->app->bus, name, text, strlen(text), to, n);
}

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
    api_voice_review_server(c, sid);
}

int api_bots_seeing(struct api_call *c, const char *sid, uint64_t everyone, json_t *channel,
                    uint32_t intent, char (**out)[UUID_LEN + 1], size_t *nout)
{
    struct store_bot_standing *bots;
    size_t n;
    *out = NULL;
    *nout = 0;
    if (store_bot_standings(c->db, sid, intent, &bots, &n) < 0)
        return -1;
    char(*to)[UUID_LEN + 1] = n ? malloc(n * sizeof *to) : NULL;
    if (n && !to) {
        store_bot_standings_free(bots, n);
        return -1;
    }
    size_t k = 0;
    struct perm_overwrite ow[CHANNEL_OVERWRITES_MAX];
    size_t n_overwrites = api_channel_overwrites(channel, ow, sizeof ow / sizeof ow[0]);
    int64_t now = clock_now_ms();
    for (size_t i = 0; i < n; i++) {
        const char *role_ids[250];
        for (size_t r = 0; r < bots[i].nroles; r++)
            role_ids[r] = bots[i].role_ids[r];
        struct perm_overwrites folded;
        perm_overwrites_fold(ow, n_overwrites, sid, role_ids, bots[i].nroles, bots[i].bot_user_id,
                             &folded);
        struct perm_member m = {.timed_out = bots[i].timeout_until > now,
                                .everyone = everyone,
                                .roles = bots[i].role_perms,
                                .nroles = bots[i].nroles};
        if (perm_channel(&m, &folded) & PERM_VER_CANAL)
            memcpy(to[k++], bots[i].bot_user_id, UUID_LEN + 1);
    }
    store_bot_standings_free(bots, n);
    *out = to;
    *nout = k;
    return 0;
}

void api_event_message(struct api_call *c, const char *name, const struct access *a,
                       json_t *channel, json_t *payload)
{
    char(*to)[UUID_LEN + 1];
    size_t n;
    if (api_bots_seeing(c, a->server_id, a->s.everyone, channel, INTENT_MESSAGES_READ, &to, &n)) {
        log_error("events: cannot resolve recipients of %s", name);
        json_decref(payload);
        return;
    }
    send_to(c, name, payload, (const char(*)[UUID_LEN + 1]) to, n);
    free(to);
}

void api_event_to_user(struct api_call *c, const char *name, const char *user_id, json_t *payload)
{
    char to[1][UUID_LEN + 1];
    if (slice_copy(slice_from(user_id), to[0], sizeof to[0])) {
        json_decref(payload);
        return;
    }
    send_to(c, name, payload, (const char(*)[UUID_LEN + 1]) to, 1);
}

void api_event_disconnect(struct api_call *c, const char *user_id, const char *token_hash)
{
    json_t *payload = token_hash ? json_pack("{ss}", "tokenHash", token_hash) : json_object();
    api_event_to_user(c, GATEWAY_DISCONNECT, user_id, payload);
}
