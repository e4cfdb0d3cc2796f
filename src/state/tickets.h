/*
 * Gateway tickets: a page signed in with the HttpOnly session cookie cannot read its session
 * token, so it asks for a ticket (POST /api/gateway/ticket) and puts that in its Socket.IO
 * CONNECT instead. A ticket stands for the session that asked for it, is good once, and lapses
 * after TICKET_TTL_MS. At most TICKETS_MAX are outstanding. Thread-safe.
 */
#ifndef PRACA_STATE_TICKETS_H
#define PRACA_STATE_TICKETS_H
#include <stdint.h>

#include "core/crypto.h"
#include "core/redis.h"

#define TICKET_TTL_MS       60000
#define TICKETS_MAX         65536 /* about 6 MiB at most */
#define TICKETS_PER_ACCOUNT 8     /* so it takes 8,192 accounts to fill them */

struct tickets;
struct tickets *state__tickets_new(void);
void state__tickets_free(struct tickets *t);
/* Tickets are issued at most per_s a second on this node (<= 0: no pace, the default), the pace
 * the gateway admits new sessions at (--sessions-per-second): past it a page waits before it
 * holds a ticket, rather than after, when the ticket would lapse unused. Before any ticket. */
void state_tickets_pace(struct tickets *t, double per_s);
/* A new ticket for the session whose token hashes to token_hash, of account user_id. Returns 0,
 * -1 when TICKETS_MAX are outstanding (or out of memory), -2 when the account has
 * TICKETS_PER_ACCOUNT outstanding (kept in this node's memory; in Redis they lapse alone), -3
 * past the pace. */
int state_tickets_issue(struct tickets *t, const char *token_hash, const char *user_id, int64_t now,
                        char ticket[CRYPTO_TOKEN_LEN + 1]);
/* Uses the ticket up: 1 and the session's token hash, or 0 (unknown, used or lapsed). On
 * several nodes it may ask Redis: call it from a worker then (state_tickets_shared). */
int state_tickets_redeem(struct tickets *t, const char *ticket, int64_t now,
                         char token_hash[CRYPTO_SHA256_HEX + 1]);

/* Several nodes: tickets are kept in Redis at redis_url (a page may ask one node and connect
 * to another), in this node's memory while Redis cannot be reached. -1 when the URL is not
 * redis://…. Before any ticket. */
int state_tickets_share(struct tickets *t, const char *redis_url);
int state_tickets_shared(const struct tickets *t);

#endif
