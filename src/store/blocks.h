/*
 * People a person has blocked: between the two no direct message goes, either way (the API
 * refuses), and the blocker's page collapses the other's messages.
 */
#ifndef PRACA_STORE_BLOCKS_H
#define PRACA_STORE_BLOCKS_H

#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

#define STORE_BLOCKS_MAX 1000 /* per person */

/* uid blocks (on) or unblocks (!on) other; blocking twice is once. */
int store_block_set(struct store_writer *w, const char *uid, const char *other, int on,
                    int64_t now);
/* 1 when either of a and b blocked the other, 0 when neither, < 0 on a storage error. */
int store_blocked_between(struct store *db, const char *a, const char *b);
/* The same for uid and the other person of DM channel cid. */
int store_dm_blocked(struct store *db, const char *cid, const char *uid);
/* How many people uid has blocked, or < 0. */
int64_t store_blocks_count(struct store *db, const char *uid);
/* [{userId, username, displayName, createdAt}] of those uid blocked, newest first; NULL on a
 * storage error. */
json_t *store_blocks_json(struct store *db, const char *uid);

#endif
