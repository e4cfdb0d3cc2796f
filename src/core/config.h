/*
 * Runtime configuration: defaults, then PRACA_* environment variables, then command-line flags
 * (a flag wins over the environment). See `praca --help` and README.md.
 */
#ifndef PRACA_CORE_CONFIG_H
#define PRACA_CORE_CONFIG_H

struct config {
    char host[256];
    int port; /* 0 = any free port */
    char data[1024];
    char site_url[512];       /* empty = the listening origin */
    char smtp_url[1024];      /* smtp[s]://user:pass@host:port; empty = Praça sends no e-mail */
    char mail_from[256];      /* the From: of its e-mails */
    char join_on_signup[512]; /* server IDs every new account joins, comma-separated (10 at most) */
    char push_contact[256];   /* Web Push's VAPID subject (mailto: or https:); "" = site_url */
    /* Voice: where browsers find each other (ICE servers, comma-separated URLs). */
    char stun_urls[1024];  /* stun:host:port,…; "" = none (host candidates only, or TURN's) */
    char turn_urls[1024];  /* turn[s]:host:port?transport=…,…; "" = no TURN */
    char turn_secret[256]; /* TURN's shared secret (coturn's static-auth-secret) */
    int turn_ttl_seconds;  /* how long a TURN credential handed out holds */
    int voice_relay_only;  /* browsers reach each other only through TURN (no IPs shown) */
    /* Voice past a mesh: an SFU (Janus's VideoRoom). */
    char sfu_url[1024];    /* Janus's HTTP API, for Praça alone; "" = every call a mesh */
    char sfu_ws_url[1024]; /* Janus's WebSocket as pages reach it */
    char sfu_secret[256];  /* Janus's token_auth_secret and the VideoRoom's admin_key */
    int voice_mesh_max;    /* more participants than this: the call goes through the SFU */
    char database_url[1024];
    char redis_url[1024];
    char redis_streams[8192]; /* the event stream's shards, comma-separated; empty = redis_url */
    int workers;
    int media_workers;    /* threads of the uploads' lane (files checked, thumbnails made) */
    int media_queue;      /* uploads waiting for one of them, past which 503 */
    int hashing_workers;  /* threads hashing passwords; 0: one per core */
    int hashing_queue;    /* sign-ins waiting for one of them, past which 503 */
    int search_scan_rows; /* messages one search without words examines at most */
    int directory_refresh_seconds; /* how old the server directory's listing may be */
    int server_bots_max;           /* bots installed in one server at most */
    int server_emoji_max;          /* a server's own emoji at most */
    double rate_limit_scale;
    int conformance;
    int allow_private_endpoints;
    int header_timeout_ms;     /* a request's headers must arrive within this */
    int idle_timeout_ms;       /* a keep-alive connection with nothing to do closes after this */
    int body_timeout_ms;       /* longest silence while a body is arriving */
    int test_clock;            /* enables POST /api/test/clock (tests only) */
    char test_web_version[40]; /* the service worker's version instead of the pages' hash (tests) */
    int ping_interval_ms;      /* Engine.IO heartbeat */
    int ping_timeout_ms;
    int log_level;
    int max_connections;             /* 0 = the open-files limit less a reserve */
    int max_connections_per_address; /* 0 = no cap per address */
    int body_budget_mb;              /* request bodies held at once, all connections */
    char metrics_listen[300];        /* HOST:PORT of the metrics listener; "" = none */
    char trusted_proxy[64];          /* its X-Forwarded-For names the client; "" = none */
    int access_log;
    char log_format[8];        /* text | json */
    char sync[8];              /* normal | full: SQLite's fsync per commit or not */
    int event_retention_hours; /* the event log keeps this much */
    int events_retry_ms;       /* an events endpoint's first retry; doubles after */
    int presence_people_max;   /* servers up to this size tell presence to all their people */
    int presence_grace_ms;     /* a reconnect within this is no offline-online pair */
    int sessions_per_second;   /* new gateway sessions admitted a second (0 = any) */
    int presence_carry_ms;     /* who was online before a restart stays so while pages come back */
    int session_idle_days;     /* a session unused this long expires */
    int registrations_per_address; /* accounts registered per address per hour (0 = any) */
    int logins_per_address;        /* login attempts per address per minute (0 = any) */
    /* Attachments: */
    char files[1024];        /* the files' folder; "" = beside the SQLite file, or ./praca-files */
    char files_store[16];    /* disk | database ("" = disk on SQLite, database on PostgreSQL) */
    int file_max_mb;         /* bytes per file, in MB */
    int account_quota_mb;    /* every file one account attached, in MB */
    int files_per_message;   /* files per message */
    int server_quota_mb;     /* bytes of files per server, in MB */
    int uploads_per_minute;  /* messages with files per account per minute */
    int files_sweep_seconds; /* how often unreferenced files are looked for */
    int files_grace_seconds; /* an upload not in a message yet is kept this long */
    int upload_budget_mb;    /* uploads' files in flight, all connections, in MB */
    int import_max_mb;       /* a community's export uploaded from the page, in MB (0: none) */
    int imports_at_once;     /* imports from the page running at once on this node */
};

enum config_result { CONFIG_OK = 0, CONFIG_ERROR = -1 };

void config_defaults(struct config *c);
/* Where the data lives: the PostgreSQL URL when one is set, else the SQLite file. */
const char *config_store_target(const struct config *c);
/* Reads PRACA_* variables. Returns CONFIG_ERROR with a message in err on a bad value. */
int config_from_env(struct config *c, char *err, int errlen);
/* Reads flags from argv[from..argc); unknown flags are errors. Positional words are left for
 * the caller: they are collected in positional[] (at most CONFIG_POSITIONAL_MAX). */
#define CONFIG_POSITIONAL_MAX 16
int config_from_args(struct config *c, int argc, char **argv, int from, char **positional,
                     int *npositional, char *err, int errlen);
/* The text printed by `praca --help`. */
const char *config_usage(void);

#endif
