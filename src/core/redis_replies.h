/*
 * hiredis replies built in one block per connection instead of one allocation per element: a
 * stream read's reply is a few objects per field of each entry, and allocating and freeing them
 * one by one was most of what following a busy stream cost. A connection's reply lives until
 * hiredis frees it (after its callback); the next one reuses the block.
 */
#ifndef PRACA_CORE_REDIS_REPLIES_H
#define PRACA_CORE_REDIS_REPLIES_H
#include <hiredis/hiredis.h>

struct redis_replies;

/* NULL when out of memory. */
struct redis_replies *redis_replies_new(void);
/* The reader builds its replies in r from now on. Only for a connection whose replies are never
 * kept past their callback (hiredis's asynchronous contexts free each after it), and r must
 * outlive the reader. */
void redis_replies_use(struct redis_replies *r, redisReader *reader);
/* Once no reader uses it. redis_replies_free(NULL) does nothing. */
void redis_replies_free(struct redis_replies *r);

#endif
