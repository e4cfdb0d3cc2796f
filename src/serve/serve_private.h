/* What the files of serve/ share: the running service's parts, started in order by serve.c,
 * told of commits by news.c, drained and stopped by drain.c. */
#ifndef PRACA_SERVE_PRIVATE_H
#define PRACA_SERVE_PRIVATE_H
#include <uv.h>

#include "api/api.h"
#include "core/config.h"
#include "core/workers.h"
#include "ops/observe.h"
#include "store/event_log.h"

#define GATEWAY_BODY_LIMIT (1000u * 1000) /* Engine.IO's maxHttpBufferSize */

struct serve {
    struct config cfg;
    uv_loop_t *loop;
    uv_signal_t sigterm, sigint;
    uv_timer_t grace;  /* polling clients collect their disconnect before HTTP closes */
    uv_timer_t forget; /* servers not asked for leave memory */
    uv_timer_t push;   /* events pushed to applications' endpoints */
    uv_timer_t due;    /* scheduled messages and reminders */
    struct store_maintenance *maintenance; /* the writer's periodic work */
    struct store_writer *writer;
    int grace_ticks;
    struct http_server *http;
    struct http_server *metrics_http; /* --metrics-listen */
    struct observe observe;
    struct workers *workers;
    struct workers *hashing;     /* password hashing, apart from the workers */
    struct workers *media;       /* uploads, apart from the workers */
    struct workers *exports;     /* people's data archives */
    struct workers *notify;      /* Web Push's lane */
    struct mailer *mailer;       /* e-mail, with --smtp-url */
    struct endpoints *endpoints; /* calls to applications' interactions endpoints */
    struct bus *bus;
    struct relay *relay; /* several nodes (--redis-url): the other nodes' events and changes */
    char log_name[STORE_EVENTS_NAME_LEN + 1]; /* several nodes: the deployment's Redis keys */
    struct gateway *gateway;
    struct conformance *conformance; /* instead of the gateway, with --conformance */
    struct presence *presence;
    struct state_voice *voice;
    struct api_service *svc;
    struct state *state; /* what requests read instead of SQL; follows the writer's news */
    struct ratelimit *limits;
    struct console *console;
    int stopping;
};

/* news.c: a commit's news, to the state, voice rights and the sweep (and the other nodes). */
void serve__on_change(void *arg, const char *sid);
void serve__on_change_shared(void *arg, const char *sid);
void serve__on_changed_shared(void *arg);
/* news.c: several nodes' voice sessions, this node's out and the others' in. */
void serve__share_voice(struct serve *s);

/* drain.c: SIGTERM and SIGINT drain the service; serve__stop frees it (failed: a start that
 * did not finish, whose handles are closed here). */
void serve__signals_start(struct serve *s);
void serve__stop(struct serve *s, struct api_service *api, int app_ready, int failed);

/* Where a drain writes who was online, for the next start (gateway/presence_carry.h). */
void serve__carry_path(const struct serve *s, char *out, size_t cap);

#endif
