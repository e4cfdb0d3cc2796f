/*
 * Gateway tickets in Redis, for several nodes: one key per ticket, named by the ticket's SHA-256
 * (what Redis holds cannot be used as a ticket), holding the session's token hash, lapsing
 * after TICKET_TTL_MS, taken with GETDEL so that only one node can use it. Blocking, on the
 * calling thread's own connection (core/redis.h).
 */
#ifndef PRACA_STATE_TICKETS_SHARED_H
#define PRACA_STATE_TICKETS_SHARED_H
#include "core/crypto.h"
#include "core/redis.h"

/* 0, or -1 when Redis could not keep it. */
int state__tickets_shared_put(const struct redis_url *u, const char *ticket,
                              const char *token_hash);
/* 1 and the token hash, 0 when Redis has no such ticket (unknown, used or lapsed), -1 when
 * Redis could not answer. */
int state__tickets_shared_take(const struct redis_url *u, const char *ticket,
                               char token_hash[CRYPTO_SHA256_HEX + 1]);

#endif
