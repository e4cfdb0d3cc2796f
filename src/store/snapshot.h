/*
 * Everything the in-memory state holds about one server, read in one pass: the server row, its
 * roles, channels with their overwrites, members with their roles, and installed bots. The
 * reader hands each row to a visitor (strings valid only during the call), so the state layer
 * builds its own structures without this layer knowing them.
 */
#ifndef PRACA_STORE_SNAPSHOT_H
#define PRACA_STORE_SNAPSHOT_H
#include <stdint.h>

#include "store/db.h"

struct store_server_row {
    const char *owner_id;
    int verification_level, requires_2fa, requires_rules;
    const char *automod_words; /* JSON array text */
    int64_t automod_max;       /* -1 = no mention limit */
    uint64_t everyone;         /* @everyone's bits */
};

struct store_role_row {
    const char *id, *name;
    uint64_t perms;
    int64_t position;
    int mentionable;
};

struct store_channel_row {
    const char *id, *type, *parent_id; /* parent_id NULL unless a thread */
};

struct store_overwrite_row {
    const char *channel_id, *target_id;
    int is_member;
    uint64_t allow, deny;
};

struct store_member_row {
    const char *user_id, *username;
    int is_bot, mfa_enabled;
    int64_t account_created_at, joined_at, timeout_until, rules_accepted_at; /* 0 = none */
};

struct store_bot_row {
    const char *user_id, *app_id;
    uint32_t intents;
    int suspended;
};

/* Called in this order: server, roles (highest position first), channels, overwrites (by
 * channel), members, member roles, bots. A visitor returning < 0 stops the walk. */
struct store_server_visitor {
    int (*server)(void *arg, const struct store_server_row *r);
    int (*role)(void *arg, const struct store_role_row *r);
    int (*channel)(void *arg, const struct store_channel_row *r);
    int (*overwrite)(void *arg, const struct store_overwrite_row *r);
    int (*member)(void *arg, const struct store_member_row *r);
    int (*member_role)(void *arg, const char *user_id, const char *role_id);
    int (*bot)(void *arg, const struct store_bot_row *r);
};

/* 1 the server was walked, 0 no such server, < 0 a storage error or a visitor's error. */
int store_server_walk(struct store *db, const char *sid, const struct store_server_visitor *v,
                      void *arg);

/* Tracks on the writer's connection which servers a transaction changes: store__changes_begin
 * once after opening it, store__changes_take before each COMMIT. Rolled-back savepoints take
 * their marks with them. */
int store__changes_begin(struct store *db);
/* 1 when the open transaction has changed a server (or identities) so far, else 0. */
int store_changes_pending(struct store *db);
/* What a change names: a server ID, "t:" and a token's hash (that token changed or went), or ""
 * (every identity may have changed: suspensions). At most STORE_CHANGE_MAX bytes with the NUL. */
#define STORE_CHANGE_MAX   72
#define STORE_CHANGE_TOKEN "t:"
/* Calls fn for each change since the last take, then forgets them. Returns STORE_DONE or an
 * error. */
int store__changes_take(struct store *db, void (*fn)(void *arg, const char *server_id), void *arg);

#endif
