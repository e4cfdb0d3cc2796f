/* Configuration: see config.h. One table drives flags, env names and the value parsers. */
#include "core/config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

enum kind { K_STR, K_INT, K_BOOL, K_DOUBLE };

struct option {
    const char *flag;
    const char *env;
    enum kind kind;
    size_t offset;
    size_t size; /* of a string field */
    long long min, max;
};

#define STR(f, e, field)                                                                           \
    {                                                                                              \
        f, e, K_STR, offsetof(struct config, field), sizeof(((struct config *)0)->field), 0, 0     \
    }
#define INT(f, e, field, lo, hi)                                                                   \
    {                                                                                              \
        f, e, K_INT, offsetof(struct config, field), 0, lo, hi                                     \
    }
#define BOOL(f, e, field)                                                                          \
    {                                                                                              \
        f, e, K_BOOL, offsetof(struct config, field), 0, 0, 1                                      \
    }

static const struct option options[] = {
    STR("--host", "PRACA_HOST", host),
    INT("--port", "PRACA_PORT", port, 0, 65535),
    STR("--data", "PRACA_DATA", data),
    STR("--site-url", "PRACA_SITE_URL", site_url),
    STR("--smtp-url", "PRACA_SMTP_URL", smtp_url),
    STR("--mail-from", "PRACA_MAIL_FROM", mail_from),
    STR("--push-contact", "PRACA_PUSH_CONTACT", push_contact),
    STR("--join-on-signup", "PRACA_JOIN_ON_SIGNUP", join_on_signup),
    STR("--stun-url", "PRACA_STUN_URL", stun_urls),
    STR("--turn-url", "PRACA_TURN_URL", turn_urls),
    STR("--turn-secret", "PRACA_TURN_SECRET", turn_secret),
    INT("--turn-ttl-seconds", "PRACA_TURN_TTL_SECONDS", turn_ttl_seconds, 10, 86400),
    BOOL("--voice-relay-only", "PRACA_VOICE_RELAY_ONLY", voice_relay_only),
    STR("--sfu-url", "PRACA_SFU_URL", sfu_url),
    STR("--sfu-ws-url", "PRACA_SFU_WS_URL", sfu_ws_url),
    STR("--sfu-secret", "PRACA_SFU_SECRET", sfu_secret),
    INT("--voice-mesh-max", "PRACA_VOICE_MESH_MAX", voice_mesh_max, 0, 100),
    STR("--database-url", "PRACA_DATABASE_URL", database_url),
    STR("--redis-url", "PRACA_REDIS_URL", redis_url),
    STR("--redis-streams", "PRACA_REDIS_STREAMS", redis_streams),
    INT("--workers", "PRACA_WORKERS", workers, 1, 256),
    INT("--media-workers", "PRACA_MEDIA_WORKERS", media_workers, 1, 64),
    INT("--media-queue", "PRACA_MEDIA_QUEUE", media_queue, 0, 100000),
    INT("--hashing-workers", "PRACA_HASHING_WORKERS", hashing_workers, 0, 256),
    INT("--hashing-queue", "PRACA_HASHING_QUEUE", hashing_queue, 0, 100000),
    INT("--search-scan-rows", "PRACA_SEARCH_SCAN_ROWS", search_scan_rows, 10, 10000000),
    INT("--directory-refresh-seconds", "PRACA_DIRECTORY_REFRESH_SECONDS", directory_refresh_seconds,
        0, 86400),
    INT("--server-emoji-max", "PRACA_SERVER_EMOJI_MAX", server_emoji_max, 1, 10000),
    INT("--server-bots-max", "PRACA_SERVER_BOTS_MAX", server_bots_max, 1, 1000000),
    {"--rate-limit-scale", "PRACA_RATE_LIMIT_SCALE", K_DOUBLE,
     offsetof(struct config, rate_limit_scale), 0, 0, 0},
    BOOL("--conformance", "PRACA_CONFORMANCE", conformance),
    BOOL("--allow-private-endpoints", "PRACA_ALLOW_PRIVATE_ENDPOINTS", allow_private_endpoints),
    INT("--header-timeout-ms", "PRACA_HEADER_TIMEOUT_MS", header_timeout_ms, 100, 600000),
    INT("--idle-timeout-ms", "PRACA_IDLE_TIMEOUT_MS", idle_timeout_ms, 100, 3600000),
    INT("--body-timeout-ms", "PRACA_BODY_TIMEOUT_MS", body_timeout_ms, 100, 600000),
    BOOL("--test-clock", "PRACA_TEST_CLOCK", test_clock),
    STR("--test-web-version", "PRACA_TEST_WEB_VERSION", test_web_version),
    INT("--ping-interval-ms", "PRACA_PING_INTERVAL_MS", ping_interval_ms, 100, 300000),
    INT("--ping-timeout-ms", "PRACA_PING_TIMEOUT_MS", ping_timeout_ms, 100, 300000),
    INT("--log-level", "PRACA_LOG_LEVEL", log_level, 0, 3),
    INT("--max-connections", "PRACA_MAX_CONNECTIONS", max_connections, 0, 10000000),
    INT("--body-budget-mb", "PRACA_BODY_BUDGET_MB", body_budget_mb, 1, 65536),
    INT("--registrations-per-address", "PRACA_REGISTRATIONS_PER_ADDRESS", registrations_per_address,
        0, 1000000),
    INT("--logins-per-address", "PRACA_LOGINS_PER_ADDRESS", logins_per_address, 0, 1000000),
    STR("--metrics-listen", "PRACA_METRICS_LISTEN", metrics_listen),
    STR("--trusted-proxy", "PRACA_TRUSTED_PROXY", trusted_proxy),
    BOOL("--access-log", "PRACA_ACCESS_LOG", access_log),
    STR("--log-format", "PRACA_LOG_FORMAT", log_format),
    STR("--sync", "PRACA_SYNC", sync),
    INT("--event-retention-hours", "PRACA_EVENT_RETENTION_HOURS", event_retention_hours, 1,
        24 * 365),
    INT("--events-retry-ms", "PRACA_EVENTS_RETRY_MS", events_retry_ms, 100, 600000),
    INT("--presence-people-max", "PRACA_PRESENCE_PEOPLE_MAX", presence_people_max, 1, 1000000),
    INT("--sessions-per-second", "PRACA_SESSIONS_PER_SECOND", sessions_per_second, 0, 1000000),
    INT("--presence-carry-ms", "PRACA_PRESENCE_CARRY_MS", presence_carry_ms, 0, 600000),
    INT("--presence-grace-ms", "PRACA_PRESENCE_GRACE_MS", presence_grace_ms, 0, 600000),
    INT("--session-idle-days", "PRACA_SESSION_IDLE_DAYS", session_idle_days, 1, 3650),
    STR("--files", "PRACA_FILES", files),
    STR("--files-store", "PRACA_FILES_STORE", files_store),
    INT("--file-max-mb", "PRACA_FILE_MAX_MB", file_max_mb, 1, 4096),
    INT("--account-quota-mb", "PRACA_ACCOUNT_QUOTA_MB", account_quota_mb, 1, 100000000),
    INT("--files-per-message", "PRACA_FILES_PER_MESSAGE", files_per_message, 1, 100),
    INT("--server-quota-mb", "PRACA_SERVER_QUOTA_MB", server_quota_mb, 1, 100000000),
    INT("--uploads-per-minute", "PRACA_UPLOADS_PER_MINUTE", uploads_per_minute, 1, 100000),
    INT("--files-sweep-seconds", "PRACA_FILES_SWEEP_SECONDS", files_sweep_seconds, 1, 86400),
    INT("--upload-budget-mb", "PRACA_UPLOAD_BUDGET_MB", upload_budget_mb, 1, 10000000),
    INT("--import-max-mb", "PRACA_IMPORT_MAX_MB", import_max_mb, 0, 100000),
    INT("--imports-at-once", "PRACA_IMPORTS_AT_ONCE", imports_at_once, 1, 64),
    /* At least a minute: a stored file waits for its message's transaction, and a sweep in
     * between must not take it. */
    INT("--files-grace-seconds", "PRACA_FILES_GRACE_SECONDS", files_grace_seconds, 60, 604800),
    INT("--max-connections-per-address", "PRACA_MAX_CONNECTIONS_PER_ADDRESS",
        max_connections_per_address, 0, 10000000),
};

const char *config_store_target(const struct config *c)
{
    return c->database_url[0] ? c->database_url : c->data;
}

void config_defaults(struct config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->host, sizeof c->host, "127.0.0.1");
    c->port = 8080;
    snprintf(c->data, sizeof c->data, "./praca.db");
    c->workers = 16;
    c->media_workers = 2;
    c->media_queue = 16;
    c->hashing_workers = 0; /* the machine's cores */
    c->hashing_queue = 64;
    c->search_scan_rows = 10000;
    c->directory_refresh_seconds = 60;
    c->server_emoji_max = 100;
    c->server_bots_max = 25000;
    c->rate_limit_scale = 1.0;
    c->header_timeout_ms = 10000;
    c->idle_timeout_ms = 60000;
    c->body_timeout_ms = 30000;
    c->ping_interval_ms = 25000;
    c->ping_timeout_ms = 20000;
    c->log_level = 1;
    c->body_budget_mb = 256;
    c->session_idle_days = 30;
    c->turn_ttl_seconds = 600;
    c->voice_mesh_max = 6;
    c->event_retention_hours = 24;
    c->events_retry_ms = 1000;
    c->presence_people_max = 1000;
    c->presence_grace_ms = 5000;
    c->sessions_per_second = 1000;
    c->presence_carry_ms = 60000;
    c->access_log = 1;
    snprintf(c->log_format, sizeof c->log_format, "text");
    snprintf(c->sync, sizeof c->sync, "normal");
    c->registrations_per_address = 20;
    c->logins_per_address = 30;
    c->max_connections_per_address = 256;
    c->file_max_mb = 25;
    c->account_quota_mb = 10000;
    c->files_per_message = 10;
    c->server_quota_mb = 10 * 1000;
    c->uploads_per_minute = 30;
    c->files_sweep_seconds = 600;
    c->files_grace_seconds = 3600;
    c->upload_budget_mb = 4096;
    c->import_max_mb = 1024;
    c->imports_at_once = 1;
}

static int set(struct config *c, const struct option *o, const char *value, char *err, int errlen)
{
    char *field = (char *)c + o->offset;
    long long v;
    switch (o->kind) {
    case K_STR:
        if (slice_copy(slice_from(value), field, o->size)) {
            snprintf(err, (size_t)errlen, "%s: valor longo demais", o->flag);
            return CONFIG_ERROR;
        }
        return CONFIG_OK;
    case K_BOOL:
        if (!strcmp(value, "1") || !strcmp(value, "true")) {
            *(int *)field = 1;
            return CONFIG_OK;
        }
        if (!strcmp(value, "0") || !strcmp(value, "false") || !*value) {
            *(int *)field = 0;
            return CONFIG_OK;
        }
        break;
    case K_INT:
        if (slice_to_i64(slice_from(value), o->min, o->max, &v) == 0) {
            *(int *)field = (int)v;
            return CONFIG_OK;
        }
        break;
    case K_DOUBLE: {
        char *end;
        double d = strtod(value, &end);
        if (*value && !*end && d > 0 && d <= 1e6) {
            *(double *)field = d;
            return CONFIG_OK;
        }
        break;
    }
    }
    snprintf(err, (size_t)errlen, "%s: valor inválido '%s'", o->flag, value);
    return CONFIG_ERROR;
}

int config_from_env(struct config *c, char *err, int errlen)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        const char *v = getenv(options[i].env);
        if (v && set(c, &options[i], v, err, errlen))
            return CONFIG_ERROR;
    }
    return CONFIG_OK;
}

int config_from_args(struct config *c, int argc, char **argv, int from, char **positional,
                     int *npositional, char *err, int errlen)
{
    *npositional = 0;
    for (int i = from; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0) {
            if (*npositional == CONFIG_POSITIONAL_MAX) {
                snprintf(err, (size_t)errlen, "argumentos demais");
                return CONFIG_ERROR;
            }
            positional[(*npositional)++] = argv[i];
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t namelen = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct option *o = NULL;
        for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
            if (strlen(options[k].flag) == namelen && !strncmp(options[k].flag, arg, namelen))
                o = &options[k];
        if (!o) {
            /* Flags of subcommands (e.g. admin --reason) are positional words for the caller. */
            if (*npositional == CONFIG_POSITIONAL_MAX) {
                snprintf(err, (size_t)errlen, "argumentos demais");
                return CONFIG_ERROR;
            }
            positional[(*npositional)++] = argv[i];
            continue;
        }
        const char *value;
        if (eq)
            value = eq + 1;
        else if (o->kind == K_BOOL)
            value = "1";
        else if (i + 1 < argc)
            value = argv[++i];
        else {
            snprintf(err, (size_t)errlen, "%s: falta o valor", o->flag);
            return CONFIG_ERROR;
        }
        if (set(c, o, value, err, errlen))
            return CONFIG_ERROR;
    }
    return CONFIG_OK;
}

/* The usage text: data, kept beside the flags it lists. */
static const char USAGE[] =
    "usage: praca <command> [flags]\n"
    "\n"
    "commands:\n"
    "  serve                         start the service (applies migrations first)\n"
    "  migrate                       apply database migrations and exit\n"
    "  admin suspend <appId> --reason <text>\n"
    "                                suspend an application (works while serving)\n"
    "  admin unsuspend <appId>       lift a suspension\n"
    "  admin apps|people [--limit N] list applications or people, newest first\n"
    "  admin revoke-sessions <user>  sign a person out everywhere (ID or username)\n"
    "  admin reset-password <user>   print a one-time link to set a new password\n"
    "  backup FILE                   copy the database, online, into FILE\n"
    "  import FORMAT PATH --owner USERNAME [--server NAME]\n"
    "                                a community's history: discord, slack, mattermost,\n"
    "                                praca-archive (docs/importing.md)\n"
    "  export --server ID FILE       a server as a portable archive, for import\n"
    "                                praca-archive on another Praça\n"
    "  routes [markdown]             every API route: caller, lane, body, limit\n"
    "  --help                        this text (also after a command)\n"
    "  --version                     the version of this build\n"
    "\n"
    "flags (environment variable in brackets; a flag wins):\n"
    "  --host HOST                   [PRACA_HOST] listen address (127.0.0.1)\n"
    "  --port PORT                   [PRACA_PORT] listen port (8080; 0 = any free port)\n"
    "  --data FILE                   [PRACA_DATA] SQLite file (./praca.db)\n"
    "  --site-url URL                [PRACA_SITE_URL] public origin (the listening origin)\n"
    "  --smtp-url URL                [PRACA_SMTP_URL] smtp[s]://user:pass@host:port: "
    "e-mail\n"
    "                                for verified addresses and password resets (none)\n"
    "  --mail-from ADDRESS           [PRACA_MAIL_FROM] the From: of those e-mails\n"
    "  --stun-url URL,…              [PRACA_STUN_URL] stun:host:port for voice in the\n"
    "                                browser (none)\n"
    "  --turn-url URL,…              [PRACA_TURN_URL] turn:host:port?transport=udp,…: a\n"
    "                                TURN server for voice (none), with --turn-secret\n"
    "  --turn-secret SECRET          [PRACA_TURN_SECRET] TURN's static-auth-secret\n"
    "  --turn-ttl-seconds N          [PRACA_TURN_TTL_SECONDS] a TURN credential holds\n"
    "                                this long (600); pages renew theirs\n"
    "  --voice-relay-only            [PRACA_VOICE_RELAY_ONLY] voice only through TURN:\n"
    "                                nobody learns another's address (off)\n"
    "  --sfu-url URL                 [PRACA_SFU_URL] http://…/janus: Janus's HTTP API,\n"
    "                                Praça's alone; larger calls go through it (none)\n"
    "  --sfu-ws-url URL              [PRACA_SFU_WS_URL] ws[s]://…: Janus's WebSocket as\n"
    "                                pages reach it\n"
    "  --sfu-secret SECRET           [PRACA_SFU_SECRET] Janus's token_auth_secret and\n"
    "                                the VideoRoom's admin_key (16 characters or more)\n"
    "  --voice-mesh-max N            [PRACA_VOICE_MESH_MAX] calls of more participants\n"
    "                                go through the SFU (6); 0: every call\n"
    "  --database-url URL            [PRACA_DATABASE_URL] postgres://…: the data in "
    "PostgreSQL\n"
    "  --redis-url URL               [PRACA_REDIS_URL] redis://…: several nodes (with\n"
    "                                --database-url)\n"
    "  --redis-streams URL,…         [PRACA_REDIS_STREAMS] the event stream's shards, one\n"
    "                                per Redis URL (the --redis-url alone)\n"
    "  --workers N                   [PRACA_WORKERS] request worker threads (16)\n"
    "  --media-workers N             [PRACA_MEDIA_WORKERS] threads for uploads (their\n"
    "                                files checked, thumbnails made) (2)\n"
    "  --media-queue N               [PRACA_MEDIA_QUEUE] uploads waiting for one, past\n"
    "                                which 503 (16)\n"
    "  --hashing-workers N           [PRACA_HASHING_WORKERS] threads that hash passwords\n"
    "                                (sign-ups, sign-ins), 19 MiB each (0: one per core)\n"
    "  --hashing-queue N             [PRACA_HASHING_QUEUE] sign-ins waiting for one, past\n"
    "                                which 503 with Retry-After (64)\n"
    "  --search-scan-rows N          [PRACA_SEARCH_SCAN_ROWS] messages a search without\n"
    "                                words examines per call (10000)\n"
    "  --rate-limit-scale X          [PRACA_RATE_LIMIT_SCALE] factor on every limit (1)\n"
    "  --conformance                 [PRACA_CONFORMANCE] Socket.IO conformance mode\n"
    "  --allow-private-endpoints     [PRACA_ALLOW_PRIVATE_ENDPOINTS] allow loopback and\n"
    "                                private interaction endpoint URLs\n"
    "  --header-timeout-ms MS        [PRACA_HEADER_TIMEOUT_MS] request head deadline "
    "(10000)\n"
    "  --body-timeout-ms MS          [PRACA_BODY_TIMEOUT_MS] longest pause in a body "
    "(30000)\n"
    "  --idle-timeout-ms MS          [PRACA_IDLE_TIMEOUT_MS] keep-alive idle limit (60000)\n"
    "  --ping-interval-ms MS         [PRACA_PING_INTERVAL_MS] gateway heartbeat (25000)\n"
    "  --ping-timeout-ms MS          [PRACA_PING_TIMEOUT_MS] gateway pong deadline (20000)\n"
    "  --body-budget-mb N            [PRACA_BODY_BUDGET_MB] request bodies held at once,\n"
    "                                all connections together (256)\n"
    "  --max-connections N           [PRACA_MAX_CONNECTIONS] open connections at most\n"
    "                                (0: the open-files limit less 256)\n"
    "  --max-connections-per-address N\n"
    "                                [PRACA_MAX_CONNECTIONS_PER_ADDRESS] from one peer\n"
    "                                address at most (256; 0: no cap; a --trusted-proxy\n"
    "                                is never capped)\n"
    "  --event-retention-hours N     [PRACA_EVENT_RETENTION_HOURS] how long delivered\n"
    "                                events are kept for resuming connections (24)\n"
    "  --events-retry-ms MS          [PRACA_EVENTS_RETRY_MS] an events endpoint that "
    "failed\n"
    "                                is tried again after this, doubling up to 5 min\n"
    "                                (1000)\n"
    "  --presence-people-max N       [PRACA_PRESENCE_PEOPLE_MAX] a server of up to N "
    "people\n"
    "                                tells them each other's presence; a larger one only\n"
    "                                to the pages showing the person in its member list\n"
    "                                (1000)\n"
    "  --sessions-per-second N       [PRACA_SESSIONS_PER_SECOND] new gateway sessions a\n"
    "                                second, a second's worth at once; past it 503 with\n"
    "                                Retry-After: 1 (1000; 0: no limit)\n"
    "  --presence-carry-ms MS        [PRACA_PRESENCE_CARRY_MS] after a restart, who was\n"
    "                                online stays so this long while pages come back (60000;\n"
    "                                0: off; one node)\n"
    "  --presence-grace-ms MS        [PRACA_PRESENCE_GRACE_MS] one whose last connection\n"
    "                                closed is said offline only if none came back by\n"
    "                                then (5000; 0: at once)\n"
    "  --session-idle-days N         [PRACA_SESSION_IDLE_DAYS] a session unused this long\n"
    "                                expires (30)\n"
    "  --registrations-per-address N [PRACA_REGISTRATIONS_PER_ADDRESS] accounts made from\n"
    "                                one address per hour (20; 0: no limit)\n"
    "  --logins-per-address N        [PRACA_LOGINS_PER_ADDRESS] login attempts from one\n"
    "                                address per minute (30; 0: no limit)\n"
    "  --files DIR                   [PRACA_FILES] attachments' folder (files/ beside the\n"
    "                                SQLite file; ./praca-files with PostgreSQL)\n"
    "  --files-store disk|database   [PRACA_FILES_STORE] where attachments' bytes live "
    "(disk;\n"
    "                                database by default with PostgreSQL)\n"
    "  --file-max-mb N               [PRACA_FILE_MAX_MB] bytes per attached file (25)\n"
    "  --files-per-message N         [PRACA_FILES_PER_MESSAGE] files per message (10)\n"
    "  --server-quota-mb N           [PRACA_SERVER_QUOTA_MB] files per server (10000)\n"
    "  --account-quota-mb N          [PRACA_ACCOUNT_QUOTA_MB] files one account attached,\n"
    "                                DMs included (10000)\n"
    "  --uploads-per-minute N        [PRACA_UPLOADS_PER_MINUTE] messages with files per\n"
    "                                account per minute (30)\n"
    "  --upload-budget-mb N          [PRACA_UPLOAD_BUDGET_MB] uploads arriving at once, "
    "all\n"
    "                                connections (4096)\n"
    "  --import-max-mb N             [PRACA_IMPORT_MAX_MB] a community's export uploaded\n"
    "                                from the page (1024; 0 = imports only by command)\n"
    "  --imports-at-once N           [PRACA_IMPORTS_AT_ONCE] imports from the page running\n"
    "                                at once on this node (1)\n"
    "  --files-sweep-seconds N       [PRACA_FILES_SWEEP_SECONDS] how often unreferenced\n"
    "                                files are deleted (600)\n"
    "  --files-grace-seconds N       [PRACA_FILES_GRACE_SECONDS] an upload no message took\n"
    "                                yet is kept this long (3600; 60 at least)\n"
    "  --log-format text|json        [PRACA_LOG_FORMAT] log lines as text or JSON (text)\n"
    "  --sync normal|full            [PRACA_SYNC] SQLite: full flushes every commit to the\n"
    "                                disk before answering (normal)\n"
    "  --access-log=0|1              [PRACA_ACCESS_LOG] a line per answer and gateway\n"
    "                                connect (1)\n"
    "  --trusted-proxy ADDRESS       [PRACA_TRUSTED_PROXY] a reverse proxy whose\n"
    "                                X-Forwarded-For names the client (none)\n"
    "  --metrics-listen HOST:PORT    [PRACA_METRICS_LISTEN] serve Prometheus metrics at\n"
    "                                /metrics there (off)\n"
    "  --log-level N                 [PRACA_LOG_LEVEL] 0 debug, 1 info, 2 warn, 3 error "
    "(1)\n"
    "  --test-clock                  [PRACA_TEST_CLOCK] test only: POST /api/test/clock\n"
    "  --test-web-version V          [PRACA_TEST_WEB_VERSION] test only: the service\n"
    "                                worker's version, to try an update\n";

const char *config_usage(void)
{
    return USAGE;
}
