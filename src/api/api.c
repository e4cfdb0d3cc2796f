/*
 * The API's shared context: the application's state, the route tables, the worker threads'
 * connections and route parameters. Requests come in through dispatch.c.
 */
#include "api/due.h"
#include "api/api.h"
#include "api/event_push.h"
#include "api/web_push.h"
#include "api/reply.h"
#include "api/input.h"
#include "state/console.h"

#include <http_parser.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "api/limits.h"
#include "state/ratelimit.h"
#include "state/tickets.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/crypto.h"
#include "core/log.h"
#include "state/directory.h"
#include "state/state.h"
#include "store/people.h"

#define TOKEN_MAX 256

/* Routes are matched in this order, the first match winning (http/router.h). */
const struct api_route *const api_route_tables[] = {
    api_health_routes, /* one table per resource file */
    api_auth_routes,
    api_account_routes,
    api_password_reset_routes,
    api_server_routes,
    api_directory_routes,
    api_emoji_routes,
    api_saved_routes,
    api_scheduled_routes,
    api_channel_routes,
    api_role_routes,
    api_member_routes,
    api_invite_routes,
    api_claim_routes,
    api_dm_routes,
    api_dm_group_routes,
    api_dm_mark_routes,
    api_block_routes,
    api_notification_routes,
    api_profile_routes,
    api_account_delete_routes,
    api_report_routes,
    api_export_routes,
    api_server_archive_routes,
    api_import_routes,
    api_email_routes,
    api_read_state_routes,
    api_typing_routes,
    api_media_routes,
    api_application_routes,
    api_oauth_routes,
    api_bot_routes,
    api_bot_event_routes,
    api_events_config_routes,
    api_install_routes,
    api_message_routes,
    api_poll_routes,
    api_preview_routes,
    api_attachment_routes,
    api_interaction_followup_routes,
    api_thread_routes,
    api_command_routes,
    api_command_permission_routes,
    api_webhook_routes,
    api_webhook_post_routes,
    api_limit_routes,
    api_audit_routes,
    api_search_routes,
    api_interaction_routes,
    api_voice_routes,
    api_openapi_routes,
    api_console_routes,
    api_ticket_routes,
    NULL,
};

/* --join-on-signup: server IDs, comma-separated, 10 at most. */
static int join_on_signup_ok(const char *list)
{
    int n = 0;
    for (const char *at = list; *at; n++) {
        size_t len = strcspn(at, ",");
        if (len != UUID_LEN || !uuid_valid(at, len) || n == 10) {
            log_error("--join-on-signup: server IDs separated by commas, 10 at most");
            return 0;
        }
        at += len + (at[len] == ',');
    }
    return 1;
}

int api_service_init(struct api_service *a, const struct config *cfg, struct store_writer *writer,
                     struct bus *bus, const struct api_state *st, const char *site_url)
{
    memset(a, 0, sizeof *a);
    a->cfg = cfg;
    a->writer = writer;
    a->bus = bus;
    a->state = st->state;
    a->limits = st->limits;
    a->console = st->console;
    a->presence = st->presence;
    a->voice = st->voice;
    if (slice_copy(slice_from(site_url), a->site_url, sizeof a->site_url) ||
        store_files_configure(&a->files, cfg) || !join_on_signup_ok(cfg->join_on_signup))
        return -1;
    if (!(a->push = api_push_new(a)) || !(a->web_push = api_web_push_new(a)) ||
        !(a->due = api_due_new(a)) ||
        !(a->directory = state_directory_new(cfg->directory_refresh_seconds * INT64_C(1000))))
        return -1;
    http_router_init(&a->router);
    for (size_t t = 0; api_route_tables[t]; t++)
        for (const struct api_route *r = api_route_tables[t]; r->pattern; r++)
            if (http_router_add(&a->router, r->method, r->pattern, r)) {
                log_error("api: bad route pattern %s", r->pattern);
                return -1;
            }
    return 0;
}

void api_service_cleanup(struct api_service *a)
{
    http_router_cleanup(&a->router);
    api_push_free(a->push);
    a->push = NULL;
    api_web_push_free(a->web_push);
    a->web_push = NULL;
    api_due_free(a->due);
    a->due = NULL;
    state_directory_free(a->directory);
    a->directory = NULL;
}

struct api_call api__thread_call(struct api_service *svc, void *thread_ctx)
{
    return (struct api_call){.svc = svc, .db = thread_ctx};
}

const char *api__param(struct api_call *c, const char *name)
{
    int i = http_route_param_index(c->route, name);
    return i < 0 ? "" : c->params[i];
}

const char *api__param_id(struct api_call *c, const char *name, const char *not_found)
{
    const char *v = api__param(c, name);
    if (!uuid_valid(v, strlen(v))) {
        api__error(c, 404, not_found);
        return NULL;
    }
    return v;
}
