/*
 * The JSON API's context: the service every handler shares (struct api_service), the call it
 * handles (struct api_call), the route tables, and the lanes and threads it runs on.
 *
 * A handler is straight-line code on a worker thread, or inside the writer's transaction for
 * the routes api__lane puts there: it reads with c->db (its thread's connection), writes through
 * the writer (store_write), reads its input with api/input.h and answers exactly once with one
 * of api/reply.h's helpers.
 */
#ifndef PRACA_API_API_H
#define PRACA_API_API_H
#include <jansson.h>
#include <stdint.h>

#include "core/config.h"
#include "core/uuid.h"
#include "http/request.h"
#include "http/router.h"
#include "http/server.h"
#include "store/db.h"
#include "store/files.h"
#include "store/people.h"
#include "store/writer.h"

struct ratelimit;
struct ratelimit_taken;
struct bus;
struct bus_held;
struct workers;
struct presence;
struct state_voice;
struct state;

/* Shared by every thread; immutable after start except through its own locks. */
struct api_later;
struct endpoints;
struct api_push;
struct api_due;

struct api_service {
    const struct config *cfg;
    struct store_writer *writer;
    struct ratelimit *limits;
    struct bus *bus;
    struct presence *presence;
    struct state_voice *voice;
    struct state *state;     /* what requests read instead of SQL */
    struct console *console; /* the portal's event console */
    struct workers *workers; /* the lanes, set once they run (not owned) */
    struct workers *hashing;
    struct workers *media;   /* uploads: their files' checks and thumbnails, apart from the rest */
    struct workers *exports; /* people's data archives, one at a time, off every request */
    struct mailer *mailer;   /* e-mail (api/mail.h); NULL without --smtp-url (not owned) */
    struct endpoints *endpoints;   /* calls to applications' endpoints (not owned) */
    struct api_push *push;         /* events pushed to applications' endpoints (owned) */
    struct workers *notify;        /* Web Push's lane: one thread (not owned) */
    struct api_web_push *web_push; /* new messages to people's devices (owned) */
    struct api_due *due;           /* scheduled messages and reminders when due (owned) */
    struct directory *directory;   /* the discoverable servers as people browse them (owned) */
    struct http_router router;
    struct store_files files; /* attachments' bytes */
    char site_url[512];       /* origin used for the CSRF check and links */
};

enum api_auth {
    API_PUBLIC, /* no token needed */
    API_PERSON, /* a person's session; bot tokens get 403 */
    API_BOT,    /* a bot token; sessions get 403 */
    API_ANY,    /* a person or a bot */
};

struct api_caller {
    char user_id[UUID_LEN + 1];
    char token_hash[65];
    int is_bot;
    int via_cookie;
    char app_id[UUID_LEN + 1]; /* for a bot: its application */
};

/* A request limit as a successful answer tells it (X-RateLimit-*): name NULL when none. */
struct api_budget {
    const char *name;
    uint32_t limit, remaining;
    int64_t reset_ms;
};

#define API_AT_END_MAX 16

struct api_call {
    struct api_service *svc;
    struct store *db;
    const struct http_request *req;
    struct http_response *res;
    const struct http_route *route;
    struct api_caller me;
    char params[HTTP_MAX_PARAMS][128]; /* route parameters, NUL-terminated */
    json_t *body;                      /* parsed by api__body */
    int answered;
    struct bus_held *held;    /* on the writer lane: events wait here for the commit */
    struct api_budget budget; /* the request limit it passed: told on a success (api/limits.c) */
    struct ratelimit_taken *taken;  /* its route's limit, counted before the writer lane */
    struct api_later *later;        /* set by api__later: the answer comes from a resumption */
    const struct api_prepared *pre; /* on the writer lane: what was decided before it, or NULL */
    /* What the request holds until its handler is done (api__at_end), released then in the
     * reverse order by api__call_end: the server a place read, for one. */
    struct api_at_end {
        void (*fn)(void *arg);
        void *arg;
    } at_end[API_AT_END_MAX];
    int n_at_end;
};

/* Releases arg with fn when the request's handler is done: 0, or -1 (500 answered, nothing
 * taken) when the request holds API_AT_END_MAX things already. */
int api__at_end(struct api_call *c, void (*fn)(void *arg), void *arg);
/* After a handler (or a resumption's): what it held is released and its parsed body let go. */
void api__call_end(struct api_call *c);
/* api__at_end for a JSON value (the request's reference) or a malloc'd block: 0, or -1 when it
 * has answered 500, and then released it at once. */
int api__at_end_json(struct api_call *c, json_t *j);
int api__at_end_free(struct api_call *c, void *p);

/* What is decided about a writer-lane request before it enters the writer lane (dispatch.c):
 * who calls, on the I/O thread from memory, or on a worker when memory does not hold the token
 * (or, with several nodes, when the route's limit is counted in Redis). */
struct api_prepared {
    int admitted;            /* me is the caller, admitted */
    struct api_caller me;    /* set when admitted */
    uint64_t identity_epoch; /* state_identity_epoch before the caller was looked up */
};

typedef void (*api_handler)(struct api_call *c);

/* Where a route's handler runs: what api__lane says of it. */
enum api_lane {
    API_ON_WORKER,  /* may wait on anything: password hashing, endpoints, long reads */
    API_ON_WRITER,  /* reads memory and a few rows, writes, waits on nothing: inside the writer's
                     * transaction, with no thread waiting on another */
    API_ON_HASHING, /* hashes a password (Argon2id, 19 MiB and ~20 ms): a pool of its own
                     * with a short queue, so a flood of logins cannot take the workers */
};

/* How large a body a route takes. A small one is all a caller without a credential, or with
 * one not known in memory, may send; a large one needs a known, valid credential. */
enum api__body {
    API_BODY_SMALL, /* API_BODY_SMALL_MAX */
    API_BODY_LARGE, /* icons as data URLs: API_BODY_LARGE_MAX */
    /* A message's JSON (API_BODY_SMALL_MAX), or multipart/form-data with files: written to the
     * files' spool as it arrives (http/upload.h), each file within --file-max-mb. */
    API_BODY_UPLOAD,
    /* multipart/form-data with one file: a community's export, up to --import-max-mb */
    API_BODY_IMPORT,
};
#define API_BODY_ANONYMOUS_MAX (64u * 1024)        /* public routes, or no credential */
#define API_BODY_SMALL_MAX     (1024u * 1024)      /* everything else */
#define API_BODY_LARGE_MAX     (20u * 1000 * 1000) /* 20 MB */

struct api_route {
    int method;
    const char *pattern;
    api_handler fn;
    enum api_auth auth;
    /* What it does, from which its lane follows (api__lane). */
    unsigned hashes : 1;     /* hashes a password */
    unsigned tells_bots : 1; /* may log a change bots are told of: MESSAGE_CREATE, MESSAGE_UPDATE,
                              * MESSAGE_DELETE in a server, GUILD_MEMBER_ADD, GUILD_MEMBER_REMOVE */
    enum api__body body;
    /* The limit its handler counts (after its own checks, so a refused request counts nothing).
     * A route that changes something and names none counts API_LIMIT_WRITE against its caller,
     * in the dispatcher before the handler; a public one must name one (api__route_limit). */
    const struct api_limit *limit;
};

/* A route table's entry: method (GET, POST, …), path, handler and who may call it, then only
 * what differs from a small body, nothing bots are told and the default limit, by name:
 * API_ROUTE(POST, "/api/…", send, API_ANY, .tells_bots = 1, .limit = &API_LIMIT_SEND). */
#define API_ROUTE(m, path, handler, who, ...)                                                      \
    {                                                                                              \
        .method = HTTP_##m, .pattern = path, .fn = handler, .auth = who, __VA_ARGS__               \
    }

/* The lane a route runs on, by one rule: a password hashed, on the hashing lane; a change bots are
 * told of, by a caller known before the handler runs (not public), on the writer, so that the
 * bot's event is logged in the change's own transaction and the caller's limit is counted
 * before; everything else on a worker. */
enum api_lane api__lane(const struct api_route *route);

/* Route tables, one per resource file; each ends with {0}. */
extern const struct api_route api_auth_routes[];
extern const struct api_route api_account_routes[];
extern const struct api_route api_password_reset_routes[];
extern const struct api_route api_server_routes[];
extern const struct api_route api_directory_routes[];
extern const struct api_route api_emoji_routes[];
extern const struct api_route api_saved_routes[];
extern const struct api_route api_poll_routes[];
extern const struct api_route api_preview_routes[];
extern const struct api_route api_scheduled_routes[];
extern const struct api_route api_channel_routes[];
extern const struct api_route api_role_routes[];
extern const struct api_route api_member_routes[];
extern const struct api_route api_invite_routes[];
extern const struct api_route api_claim_routes[];
extern const struct api_route api_dm_routes[];
extern const struct api_route api_dm_group_routes[];
extern const struct api_route api_dm_mark_routes[];
extern const struct api_route api_block_routes[];
extern const struct api_route api_notification_routes[];
extern const struct api_route api_profile_routes[];
extern const struct api_route api_account_delete_routes[];
extern const struct api_route api_report_routes[];
extern const struct api_route api_export_routes[];
extern const struct api_route api_server_archive_routes[];
extern const struct api_route api_import_routes[];
extern const struct api_route api_email_routes[];
extern const struct api_route api_read_state_routes[];
extern const struct api_route api_typing_routes[];
extern const struct api_route api_media_routes[];
extern const struct api_route api_health_routes[];
extern const struct api_route api_openapi_routes[];
extern const struct api_route api_console_routes[];
extern const struct api_route api_ticket_routes[];
extern const struct api_route api_application_routes[];
extern const struct api_route api_oauth_routes[];
extern const struct api_route api_bot_routes[];
extern const struct api_route api_bot_event_routes[];
extern const struct api_route api_events_config_routes[];
extern const struct api_route api_install_routes[];
extern const struct api_route api_command_routes[];
extern const struct api_route api_command_permission_routes[];
extern const struct api_route api_webhook_routes[];
extern const struct api_route api_webhook_post_routes[];
extern const struct api_route api_limit_routes[];
extern const struct api_route api_audit_routes[];
extern const struct api_route api_search_routes[];
extern const struct api_route api_interaction_routes[];
extern const struct api_route api_message_routes[];
extern const struct api_route api_attachment_routes[];
extern const struct api_route api_interaction_followup_routes[];
extern const struct api_route api_thread_routes[];
extern const struct api_route api_voice_routes[];

/* Every route table above, NULL-terminated. */
extern const struct api_route *const api_route_tables[];

/* A request whose answer waits for something outside (an application's endpoint): the handler
 * calls api__later and returns without answering; whoever it waits on later calls
 * api__later_resume, from any thread, which runs fn on a worker with a call for the same caller
 * and request, and sends what fn answers. NULL when out of memory (answer at once then). */
struct api_later *api__later(struct api_call *c);
void api__later_resume(struct api_later *l, void (*fn)(struct api_call *c, void *arg), void *arg);
/* The same on the writer, inside its transaction (fn must wait on nothing): its writes and the
 * events they publish commit together. */
void api__later_resume_writer(struct api_later *l, void (*fn)(struct api_call *c, void *arg),
                              void *arg);
/* Takes the request back before anything waits on it: the handler answers it itself. */
void api__later_cancel(struct api_call *c);

/* The body of a route that takes JSON only (a cross-site form could post text/plain without
 * asking): NULL when it answered 415 or 400. */
json_t *api__json_body_only(struct api_call *c);

/* Whether password is the caller's (on the hashing lane): 1; else answered (400 on `field`, or
 * 429 after five wrong ones in ten minutes) and 0. */
int api__password_ok(struct api_call *c, const char *password, const char *field);

/* Sets the session cookie to token, or clears it (NULL); Secure on an https site. */
void api__session_cookie(struct api_call *c, const char *token);

/* 200 {user}: the caller's own user object, with its profile, language and presence. */
void api__me_reply(struct api_call *c);

/* The state the API reads beside the database: made by main, shared with the gateway, and
 * freed by main after both. */
struct api_state {
    struct state *state;
    struct ratelimit *limits;
    struct console *console;
    struct presence *presence;
    struct state_voice *voice;
};

/* Builds the router and the API's own parts. Returns 0 or -1. */
int api_service_init(struct api_service *a, const struct config *cfg, struct store_writer *writer,
                     struct bus *bus, const struct api_state *st, const char *site_url);
void api_service_cleanup(struct api_service *a);
/* On the I/O thread, once a request's headers are in: the largest body it may send (see
 * enum api__body). */
size_t api_body_limit(struct api_service *a, struct http_request *req);
/* The largest body any route takes (the HTTP server's own cap). */
size_t api_body_max(const struct config *cfg);
/* For a large route whose credential api_body_limit did not find in memory
 * (HTTP_BODY_LIMIT_ASK): looks it up on a worker, then decides. */
void api_body_limit_ask(struct api_service *a, struct http_limit_ask *ask);
/* On the I/O thread: routes the exchange and hands it to its lane (dispatch.c). */
void api_dispatch(struct api_service *a, struct http_exchange *ex);
/* The hashing lane's threads: --hashing-workers, else one per core (at least 2). */
int api_hashing_threads(const struct config *cfg);
/* Runs a request on a worker (core/workers.h's run function). A worker's context is its own
 * database connection (store_worker_open). */
void api_worker_run(struct job *job, void *thread_ctx);
/* A context for work on a worker that is not an HTTP request (app and db only). */
struct api_call api__thread_call(struct api_service *svc, void *thread_ctx);

#endif
