/*
 * Events pushed over HTTP (api/event_push.c): each application's events endpoint, its cursor
 * (the last position delivered or passed over), the lease that makes one node its pusher, and
 * the delivery log the portal shows.
 */
#ifndef PRACA_STORE_EVENT_PUSH_H
#define PRACA_STORE_EVENT_PUSH_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

#define STORE_PUSH_URL_MAX      512
#define STORE_PUSH_ATTEMPTS_MAX 100 /* delivery log rows kept per application */

/* What a pusher holds while its lease lasts. */
struct store_push {
    char app_id[UUID_LEN + 1];
    char node[UUID_LEN + 1];
    int64_t generation; /* in: the one the pusher holds; out: the stored one */
    int64_t replays;    /* out: how many times the owner set the cursor */
    uint64_t cursor;    /* in: how far the pusher got; out: where to go on from */
    int64_t now, lease_until;
    /* out: */
    char url[STORE_PUSH_URL_MAX + 1];
    char secret[65];
    char bot_user_id[UUID_LEN + 1];
};

/* Takes or renews the lease of p->app_id for p->node until p->lease_until, unless another node
 * holds an unexpired one or pushing is off (no URL, paused, no bot, no signing secret). While
 * the node held it with the same generation, the stored cursor becomes p->cursor; otherwise p
 * gets the stored cursor and generation. 1 held, 0 not, or an error (< 0). On the writer. */
int store_push_claim(struct store_writer *w, struct store_push *p);

struct store_push_attempt {
    const char *app_id, *node;
    int64_t generation;
    int64_t replays;      /* as the batch was read (struct store_push) */
    uint64_t first, last; /* positions the batch covered */
    int events, gap, status;
    int64_t latency_ms, now;
    const char *error;
    int delivered; /* a 2xx: the cursor moves to `last` */
};
/* Logs an attempt (the application's oldest past STORE_PUSH_ATTEMPTS_MAX go) and, when it
 * delivered, moves the cursor to `last` unless the owner set it since the batch was read (a
 * replay). On the writer. 1 when it delivered and the pusher still holds the application as it
 * read it (lease and generation): it goes on; 0 otherwise (it reads again); or an error. */
int store_push_record(struct store_writer *w, const struct store_push_attempt *a);

/* The applications that push (a URL, not paused): calls fn with each ID. STORE_DONE or an
 * error. */
int store_push_apps(struct store *db, void (*fn)(void *arg, const char *app_id), void *arg);

/* The owner's changes. Each moves the generation and frees the lease, so the pusher reads
 * again. A new URL (NULL: push no more) starts at the log's last position when none was set. */
int store_push_set_url(struct store_writer *w, const char *app_id, const char *url);
int store_push_set_paused(struct store_writer *w, const char *app_id, int paused);
int store_push_replay(struct store_writer *w, const char *app_id, uint64_t after);

/* {eventsEndpointUrl, paused, cursor, deliveries: [latest first]}; NULL on an error. */
json_t *store_push_json(struct store *db, const char *app_id, int limit);

#endif
