/*
 * GET /api/applications/:id/console?after=<position>: the portal's event console. Each call
 * keeps the application watched for a minute (state/console.h) and answers what became of the
 * events of its servers since `after`: delivered, or withheld and why. The reasons are the
 * delivery rules as they stand when asked; nothing of an event is shown beyond its type, place
 * and position, so the owner learns nothing the bot could not.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/limits.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/applications.h"
#include "core/clock.h"
#include "core/jsonout.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "state/console.h"
#include "state/presence.h"
#include "state/state.h"
#include "store/event_log.h"
#include "store/installs.h"

/* Where the event log says an event went. */
struct logged {
    int found;
    uint32_t intent;
    char user_id[UUID_LEN + 1];
};

static void logged_row(void *arg, const struct store_event *e)
{
    struct logged *l = arg;
    l->found = 1;
    l->intent = e->intent;
    l->user_id[0] = '\0';
    if (e->user_id)
        snprintf(l->user_id, sizeof l->user_id, "%s", e->user_id);
}

/* Why a bot was not among the recipients, as things stand now; NULL: the event was not for it
 * (someone else's, trimmed, or a server the bot has left). */
static const char *withheld_because(struct api_call *c, const struct store_app *app,
                                    const struct console_entry *e, char *detail, size_t cap)
{
    struct logged l = {0};
    if (store_events_after(c->db, e->position - 1, 1, logged_row, &l) < 0 || !l.found ||
        (l.user_id[0] && strcmp(l.user_id, app->bot_user_id)))
        return NULL;
    /* A place the bot cannot see is not shown at all, whatever else held the event back: its
     * owner learns nothing of what happens there, not even that something did. */
    int found;
    struct state_server *srv = state_server(c->svc->state, c->db, e->server_id, &found);
    const struct state_member *me = srv ? state_server_member(srv, app->bot_user_id) : NULL;
    int64_t ch = srv && e->channel_id[0] ? state_server_channel(srv, e->channel_id) : -1;
    uint64_t perms =
        me && ch >= 0 ? state_server_channel_perms(srv, me, (size_t)ch, clock_now_ms()) : 0;
    int gone = srv && e->channel_id[0] && ch < 0;
    state_server_unref(srv);
    if (!me || gone || (ch >= 0 && !(perms & PERM_VER_CANAL)))
        return NULL;
    if (app->suspended) {
        snprintf(detail, cap, "Aplicação suspensa");
        return "suspended";
    }
    for (int i = 0; i < INTENT_COUNT; i++)
        if ((l.intent & (1u << i)) && !(app->intents & (1u << i))) {
            snprintf(detail, cap, "Intent %s desligada", rule_intent_name(i));
            return "intent_off";
        }
    snprintf(detail, cap, "Fora dos destinatários quando o evento saiu");
    return "not_recipient";
}

static json_t *entry_json(struct api_call *c, const struct store_app *app,
                          const struct console_entry *e)
{
    char detail[96] = "Entregue", position[24];
    const char *reason = NULL;
    if (e->outcome == CONSOLE_NOT_CONNECTED) {
        reason = "not_connected";
        snprintf(detail, sizeof detail, "Bot não conectado");
    } else if (e->outcome == CONSOLE_NOT_RECIPIENT &&
               !(reason = withheld_because(c, app, e, detail, sizeof detail))) {
        return NULL;
    }
    snprintf(position, sizeof position, "%llu", (unsigned long long)e->position);
    return json_pack("{sssssosssososbsoss}", "position", position, "type", e->type, "kind",
                     e->kind[0] ? json_string(e->kind) : json_null(), "serverId", e->server_id,
                     "channelId", e->channel_id[0] ? json_string(e->channel_id) : json_null(), "at",
                     jsonout_time(e->at), "delivered", reason == NULL, "reason",
                     reason ? json_string(reason) : json_null(), "detail", detail);
}

/* The servers the application is installed in, for the gateway to pick events by. */
static struct idset *servers_of(struct api_call *c, const char *app_id)
{
    json_t *list = store_app_installs_json(c->db, app_id);
    struct idset *set = list ? idset_new(json_array_size(list) + 1) : NULL;
    size_t i;
    json_t *row;
    json_array_foreach(list, i, row) if (set)
        idset_add(set, json_string_value(json_object_get(row, "serverId")));
    json_decref(list);
    return set;
}

/* With several nodes an event whose bot had no socket on the recording node was delivered if
 * the bot was connected to another: presence answers, read within a poll of the event, and
 * that answer is kept. */
static void settle_elsewhere(struct api_call *c, const struct store_app *app,
                             struct console_entry *got, size_t n)
{
    int asked = 0, elsewhere = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i].outcome != CONSOLE_NOT_HERE)
            continue;
        if (!asked++)
            elsewhere = state_presence_online_anywhere(c->svc->presence, app->bot_user_id);
        got[i].outcome = elsewhere ? CONSOLE_DELIVERED : CONSOLE_NOT_CONNECTED;
        state_console_settle(c->svc->console, app->id, got[i].position, got[i].outcome);
    }
}

static void console(struct api_call *c)
{
    long long after = 0;
    if (api__query_position(c, "after", &after))
        return;
    struct store_app app;
    if (api__owned_app(c, &app))
        return;
    struct idset *servers = app.bot_user_id[0] ? servers_of(c, app.id) : NULL;
    if (app.bot_user_id[0] && !servers) {
        store_app_cleanup(&app);
        api__internal(c);
        return;
    }
    int watching = servers && state_console_watch(c->svc->console, app.id, app.bot_user_id, servers,
                                                  clock_now_ms()) == 0;
    struct console_entry *got = calloc(CONSOLE_KEPT, sizeof *got);
    size_t n =
        got ? state_console_read(c->svc->console, app.id, (uint64_t)after, got, CONSOLE_KEPT) : 0;
    settle_elsewhere(c, &app, got, n);
    json_t *events = json_array();
    uint64_t next = (uint64_t)after;
    for (size_t i = 0; i < n; i++) {
        next = got[i].position;
        json_t *item = entry_json(c, &app, &got[i]);
        if (item)
            json_array_append_new(events, item);
    }
    free(got);
    char next_text[24];
    snprintf(next_text, sizeof next_text, "%llu", (unsigned long long)next);
    api__reply(c, 200,
               json_pack("{sosbss}", "events", events, "watching", watching, "next", next_text));
    store_app_cleanup(&app);
}

const struct api_route api_console_routes[] = {
    API_ROUTE(GET, "/api/applications/:id/console", console, API_PERSON),
    {0},
};
