/* Gateway tickets: see tickets.h. */
#include "state/tickets.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/map.h"
#include "state/tickets_shared.h"

struct ticket {
    char token_hash[CRYPTO_SHA256_HEX + 1];
    int64_t expires;
};

struct tickets {
    pthread_mutex_t lock;
    struct map by_ticket; /* ticket → struct ticket */
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
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static int lapsed(void *value, void *arg)
{
    return ((struct ticket *)value)->expires <= *(const int64_t *)arg;
}

/* Under the lock, when full: drops every lapsed ticket. */
static void sweep(struct tickets *t, int64_t now)
{
    map_remove_if(&t->by_ticket, lapsed, &now, free);
}

int state_tickets_issue(struct tickets *t, const char *token_hash, int64_t now,
                        char ticket[CRYPTO_TOKEN_LEN + 1])
{
    struct ticket *v = malloc(sizeof *v);
    if (!v || strlen(token_hash) != CRYPTO_SHA256_HEX) {
        free(v);
        return -1;
    }
    memcpy(v->token_hash, token_hash, sizeof v->token_hash);
    v->expires = now + TICKET_TTL_MS;
    crypto_token(ticket);
    if (t->shared && state__tickets_shared_put(&t->redis, ticket, token_hash) == 0) {
        free(v);
        return 0;
    }
    pthread_mutex_lock(&t->lock);
    if (t->by_ticket.count >= TICKETS_MAX)
        sweep(t, now);
    int rc = t->by_ticket.count < TICKETS_MAX ? map_set(&t->by_ticket, ticket, v) : -1;
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
    pthread_mutex_unlock(&t->lock);
    int ok = v && v->expires > now;
    if (ok)
        memcpy(token_hash, v->token_hash, CRYPTO_SHA256_HEX + 1);
    free(v);
    if (!v && t->shared) /* kept in Redis, or by this node while Redis was away */
        ok = state__tickets_shared_take(&t->redis, ticket, token_hash) == 1;
    return ok;
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
