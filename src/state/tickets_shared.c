/* Gateway tickets in Redis: see tickets_shared.h. */
#include "state/tickets_shared.h"

#include <string.h>

#include "core/log.h"
#include "state/tickets.h"

#define WHO       "tickets"
#define MEANWHILE "tickets are kept by this node meanwhile"

static void key_of(const char *ticket, char key[CRYPTO_SHA256_HEX + 1])
{
    crypto_sha256_hex(ticket, strlen(ticket), key);
}

int state__tickets_shared_put(const struct redis_url *u, const char *ticket, const char *token_hash)
{
    redisContext *c = redis_thread(u, WHO, MEANWHILE);
    if (!c)
        return -1;
    char key[CRYPTO_SHA256_HEX + 1];
    key_of(ticket, key);
    redisReply *r = redis_thread_reply(
        WHO, c, redisCommand(c, "SET praca:ticket:%s %s PX %d", key, token_hash, TICKET_TTL_MS));
    freeReplyObject(r);
    return r ? 0 : -1;
}

int state__tickets_shared_take(const struct redis_url *u, const char *ticket,
                               char token_hash[CRYPTO_SHA256_HEX + 1])
{
    redisContext *c = redis_thread(u, WHO, MEANWHILE);
    if (!c)
        return -1;
    char key[CRYPTO_SHA256_HEX + 1];
    key_of(ticket, key);
    redisReply *r = redis_thread_reply(WHO, c, redisCommand(c, "GETDEL praca:ticket:%s", key));
    if (!r)
        return -1;
    int found = r->type == REDIS_REPLY_STRING && r->len == CRYPTO_SHA256_HEX;
    if (found)
        memcpy(token_hash, r->str, CRYPTO_SHA256_HEX + 1);
    freeReplyObject(r);
    return found;
}
