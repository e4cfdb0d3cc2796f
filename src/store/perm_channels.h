/*
 * Channels as the permission checks read them: where each sits (its server, its parent, its
 * type) and its overwrites, as structs, for the handlers that decide something about a channel
 * rather than answer with it (store/channels.h gives the JSON they answer with).
 */
#ifndef PRACA_STORE_PERM_CHANNELS_H
#define PRACA_STORE_PERM_CHANNELS_H
#include <stddef.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"

struct store_perm_overwrite {
    char channel_id[UUID_LEN + 1], target_id[UUID_LEN + 1];
    int is_member; /* 0: a role's */
    uint64_t allow, deny;
};

struct store_perm_channel {
    char id[UUID_LEN + 1];
    char server_id[UUID_LEN + 1]; /* "" for a conversation */
    char parent_id[UUID_LEN + 1]; /* a channel's category, a thread's channel; "" for none */
    char type[16];                /* text, forum, voice, thread, category, dm */
    const struct store_perm_overwrite *overwrites; /* its own (a thread has none) */
    size_t noverwrites;
};

/* Rows by ID, and the overwrites they point into: one owner, store_perm_channels_cleanup. */
struct store_perm_channels {
    struct store_perm_channel *list;
    struct store_perm_overwrite *overwrites;
    size_t n, noverwrites;
};

/* Channel, thread, category or conversation cid: 1 found (out->list[0]), 0 none, < 0 error. */
int store_perm_channel_read(struct store *db, const char *cid, struct store_perm_channels *out);
/* Server sid's channels and categories, threads aside: STORE_DONE or an error. */
int store_perm_channels_of_server(struct store *db, const char *sid,
                                  struct store_perm_channels *out);
/* The row with that ID, or NULL. */
const struct store_perm_channel *store_perm_channels_find(const struct store_perm_channels *rows,
                                                          const char *id);
void store_perm_channels_cleanup(struct store_perm_channels *rows);

#endif
