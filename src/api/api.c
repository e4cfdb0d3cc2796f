/*
 * The API's shared context: the application's state, the route tables, the worker threads'
 * connections and route parameters. Requests come in through dispatch.c.
 */
#include "api/api.h"
#include "api/event_push.h"
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
#include "state/state.h"
#include "store/people.h"

#define TOKEN_MAX 256

#define WORKER_CACHE_KIB 256 /* per worker: what requests read most is in the state */

struct worker {
    struct api_service *svc;
    struct store *db;
};

/* Routes are matched in this order, the first match winning (http/router.h). */
const struct api_route *const api_route_tables[] = {
    api_health_routes, /* one table per resource file */
    api_auth_routes,
    api_account_routes,
    api_server_routes,
    api_channel_routes,
    api_role_routes,
    api_member_routes,
    api_invite_routes,
    api_dm_routes,
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

/* Where attachments' bytes go: --files, else a folder beside the SQLite file (or ./praca-files
 * with PostgreSQL); in the database with PostgreSQL unless --files-store says otherwise. */
static int files_init(struct api_service *a, const struct config *cfg)
{
    char root[1024];
    const char *slash = strrchr(cfg->data, '/');
    if (cfg->files[0])
        snprintf(root, sizeof root, "%s", cfg->files);
    else if (cfg->database_url[0])
        snprintf(root, sizeof root, "./praca-files");
    else if (slash)
        snprintf(root, sizeof root, "%.*s/files", (int)(slash - cfg->data), cfg->data);
    else
        snprintf(root, sizeof root, "files");
    enum store_files_kind kind = cfg->database_url[0] ? STORE_FILES_DATABASE : STORE_FILES_DISK;
    if (!strcmp(cfg->files_store, "disk"))
        kind = STORE_FILES_DISK;
    else if (!strcmp(cfg->files_store, "database"))
        kind = STORE_FILES_DATABASE;
    else if (cfg->files_store[0]) {
        log_error("--files-store: disk or database, not '%s'", cfg->files_store);
        return -1;
    }
    if (kind == STORE_FILES_DATABASE && !cfg->database_url[0]) {
        log_error("--files-store database: only with PostgreSQL (--database-url)");
        return -1;
    }
    return store_files_init(&a->files, kind, root);
}

int api_service_init(struct api_service *a, const struct config *cfg, struct store_writer *writer,
                     struct bus *bus, struct presence *presence, struct state_voice *voice,
                     const char *site_url)
{
    memset(a, 0, sizeof *a);
    a->cfg = cfg;
    a->writer = writer;
    a->bus = bus;
    a->presence = presence;
    a->voice = voice;
    if (slice_copy(slice_from(site_url), a->site_url, sizeof a->site_url) || files_init(a, cfg))
        return -1;
    a->limits = state_ratelimit_new(cfg->rate_limit_scale);
    a->state = state_new();
    a->console = state_console_new();
    a->push = api_push_new(a);
    if (!a->limits || !a->state || !a->console || !a->push)
        return -1;
    if (cfg->redis_url[0] && (state_ratelimit_share(a->limits, cfg->redis_url) ||
                              state_tickets_share(state_tickets(a->state), cfg->redis_url)))
        return -1;
    http_router_init(&a->router);
    for (size_t t = 0; api_route_tables[t]; t++)
        for (const struct api_route *r = api_route_tables[t]; r->pattern; r++)
            if (http_router_add(&a->router, r->method, r->pattern, r)) {
                log_error("api: bad route pattern %s", r->pattern);
                return -1;
            }
    return api__limits_ahead_valid();
}

void api_service_cleanup(struct api_service *a)
{
    http_router_cleanup(&a->router);
    state_ratelimit_free(a->limits);
    a->limits = NULL;
    state_free(a->state);
    a->state = NULL;
    state_console_free(a->console);
    a->console = NULL;
    api_push_free(a->push);
    a->push = NULL;
}

void *api_worker_init(void *app, int index)
{
    struct api_service *a = app;
    (void)index;
    struct worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->svc = a;
    if (store_open(config_store_target(a->cfg), &w->db) != STORE_DONE) {
        free(w);
        return NULL;
    }
    store_read_batching(w->db, 1);
    store_cache_kib(w->db, WORKER_CACHE_KIB);
    return w;
}

void api_worker_cleanup(void *thread_ctx)
{
    struct worker *w = thread_ctx;
    store_close(w->db);
    free(w);
}

struct store *api_thread_store(void *thread_ctx)
{
    return ((struct worker *)thread_ctx)->db;
}

struct api_call api__thread_call(void *thread_ctx)
{
    struct worker *w = thread_ctx;
    return (struct api_call){.svc = w->svc, .db = w->db};
}

#define DAY_MS (24 * 60 * 60 * 1000LL)
/* A session's use is written at most this often: it is a write, and expiry counts in days. */
#define SESSION_TOUCH_MS (60 * 60 * 1000LL)

int api__session_expired(struct api_service *a, const char *token_hash, int64_t last_used)
{
    int64_t now = clock_now_ms();
    if (now - last_used > a->cfg->session_idle_days * DAY_MS) {
        store_token_delete(a->writer, token_hash);
        return 1;
    }
    if (now - last_used > SESSION_TOUCH_MS &&
        store_session_touch(a->writer, token_hash, now) == STORE_DONE)
        state_identity_used(a->state, token_hash, now);
    return 0;
}

int api_identity(void *thread_ctx, const char *token_hash, struct store_token_owner *out)
{
    struct worker *w = thread_ctx;
    int found = state_identity(w->svc->state, w->db, token_hash, out);
    store_read_release(w->db);
    if (found == 1 && !out->is_bot && api__session_expired(w->svc, token_hash, out->last_used))
        return 0;
    return found;
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
