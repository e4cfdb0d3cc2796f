/* Gateway tickets: see tickets.h. */
#include "state/tickets.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/map.h"
#include "core/pace.h"
#include "state/tickets_shared.h"

struct ticket {
    char token_hash[CRYPTO_SHA256_HEX + 1];
    char user_id[40];
    int64_t expires;
};

struct tickets {
    pthread_mutex_t lock;
    struct pace pace;      /* tickets issued a second, as the gateway admits sessions */
    struct map by_ticket;  /* ticket → struct ticket */
    struct map by_account; /* user ID → its outstanding tickets (a count in the pointer) */
    int shared;
    struct redis_url redis;
};

struct tickets *state__tickets_new(void)
{
    struct tickets *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    map_init(&t->by_ticket);
    map_init(&t->by_account);
    return t;
}

static void free_value(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    free(value);
}

void state__tickets_free(struct tickets *t)
{
    if (!t)
        return;
    map_each(&t->by_ticket, free_value, NULL);
    map_cleanup(&t->by_ticket);
    map_cleanup(&t->by_account);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* Under the lock: the account's count of outstanding tickets moves by delta. */
static uintptr_t count_account(struct tickets *t, const char *user_id, int delta)
{
    uintptr_t n = (uintptr_t)map_get(&t->by_account, user_id);
    if (delta < 0 && n == 0)
        return 0;
    n += (uintptr_t)(intptr_t)delta;
    if (n == 0)
        map_remove(&t->by_account, user_id);
    else if (map_set(&t->by_account, user_id, (void *)n))
        return UINTPTR_MAX;
    return n;
}

struct sweep_arg {
    struct tickets *t;
    int64_t now;
};

static int lapsed(void *value, void *arg)
{
    struct sweep_arg *a = arg;
    struct ticket *v = value;
    if (v->expires > a->now)
        return 0;
    count_account(a->t, v->user_id, -1);
    return 1;
}

/* Under the lock, when full: drops every lapsed ticket. */
static void sweep(struct tickets *t, int64_t now)
{
    struct sweep_arg a = {t, now};
    map_remove_if(&t->by_ticket, lapsed, &a, free);
}

int state_tickets_issue(struct tickets *t, const char *token_hash, const char *user_id, int64_t now,
                        char ticket[CRYPTO_TOKEN_LEN + 1])
{
    struct ticket *v = malloc(sizeof *v);
    if (!v || strlen(token_hash) != CRYPTO_SHA256_HEX || strlen(user_id) >= sizeof v->user_id) {
        free(v);
        return -1;
    }
    pthread_mutex_lock(&t->lock);
    int paced = pace_take(&t->pace, now);
    pthread_mutex_unlock(&t->lock);
    if (!paced) {
        free(v);
        return -3;
    }
    memcpy(v->token_hash, token_hash, sizeof v->token_hash);
    memcpy(v->user_id, user_id, strlen(user_id) + 1);
    v->expires = now + TICKET_TTL_MS;
    crypto_token(ticket);
    if (t->shared && state__tickets_shared_put(&t->redis, ticket, token_hash) == 0) {
        free(v);
        return 0;
    }
    pthread_mutex_lock(&t->lock);
    if (t->by_ticket.count >= TICKETS_MAX ||
        (uintptr_t)map_get(&t->by_account, user_id) >= TICKETS_PER_ACCOUNT)
        sweep(t, now);
    int rc = -1;
    if ((uintptr_t)map_get(&t->by_account, user_id) >= TICKETS_PER_ACCOUNT)
        rc = -2;
    else if (t->by_ticket.count < TICKETS_MAX && count_account(t, user_id, 1) != UINTPTR_MAX &&
             !(rc = map_set(&t->by_ticket, ticket, v)))
        rc = 0;
    else
        count_account(t, user_id, -1);
    pthread_mutex_unlock(&t->lock);
    if (rc)
        free(v);
    return rc;
}

int state_tickets_redeem(struct tickets *t, const char *ticket, int64_t now,
                         char token_hash[CRYPTO_SHA256_HEX + 1])
{
    if (strlen(ticket) != CRYPTO_TOKEN_LEN)
        return 0;
    pthread_mutex_lock(&t->lock);
    struct ticket *v = map_remove(&t->by_ticket, ticket);
    if (v)
        count_account(t, v->user_id, -1);
    pthread_mutex_unlock(&t->lock);
    int ok = v && v->expires > now;
    if (ok)
        memcpy(token_hash, v->token_hash, CRYPTO_SHA256_HEX + 1);
    free(v);
    if (!v && t->shared) /* kept in Redis, or by this node while Redis was away */
        ok = state__tickets_shared_take(&t->redis, ticket, token_hash) == 1;
    return ok;
}

void state_tickets_pace(struct tickets *t, double per_s)
{
    pthread_mutex_lock(&t->lock);
    t->pace = (struct pace){.per_s = per_s};
    pthread_mutex_unlock(&t->lock);
}

int state_tickets_share(struct tickets *t, const char *redis_url)
{
    if (redis_url_parse(redis_url, &t->redis))
        return -1;
    t->shared = 1;
    return 0;
}

int state_tickets_shared(const struct tickets *t)
{
    return t->shared;
}
