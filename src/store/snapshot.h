/*
 * Everything the in-memory state holds about one server, read in one pass: the server row, its
 * roles, channels with their overwrites, members with their roles, and installed bots. The
 * reader hands each row to a visitor (strings valid only during the call), so the state layer
 * builds its own structures without this layer knowing them.
 */
#ifndef PRACA_STORE_SNAPSHOT_H
#define PRACA_STORE_SNAPSHOT_H
#include <stdint.h>

#include "core/uuid.h"
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
    int mentionable, hoist;
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
    const char *name; /* as shown in the server: the nickname, else the display name */
};

struct store_bot_row {
    const char *user_id, *app_id;
    uint32_t intents;
    int suspended;
    /* Its managed role ("" if none), kept with the bot rather than with the server's roles, so
     * an install reads one row, not the server's shape. */
    const char *role_id;
    uint64_t role_perms;
    int64_t role_key; /* order key, store/roles.h */
};

/* Called in this order: server, roles made by people (highest first; bots' managed roles come
 * with the bots), channels, overwrites (by
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

/* What a walk reads: the shape (server, roles, channels, overwrites), the members (members,
 * member roles, bots), or both. */
enum { STORE_WALK_SHAPE = 1, STORE_WALK_MEMBERS = 2, STORE_WALK_ALL = 3 };
/* 1 the server was walked, 0 no such server, < 0 a storage error or a visitor's error. The
 * server row is always read first (v->server may be NULL when only its existence matters). */
int store_server_walk(struct store *db, const char *sid, int parts,
                      const struct store_server_visitor *v, void *arg);
/* One member of server sid, then that member's roles: 1 a member, 0 not one, < 0 an error. */
int store_server_member_walk(struct store *db, const char *sid, const char *uid,
                             const struct store_server_visitor *v, void *arg);
/* Application app_id's bot in server sid: 1 installed (v->bot called), 0 not, < 0 an error. */
int store_server_install_walk(struct store *db, const char *sid, const char *app_id,
                              const struct store_server_visitor *v, void *arg);

/* Tracks on the writer's connection which servers a transaction changes: store__changes_begin
 * once after opening it, store__changes_take before each COMMIT. Rolled-back savepoints take
 * their marks with them. */
int store__changes_begin(struct store *db);
/* 1 when the open transaction has changed a server (or identities) so far, else 0. */
int store_changes_pending(struct store *db);
/* What a change names:
 *   - a server ID: its shape (settings, roles, channels, overwrites) or its existence;
 *   - "m:<server>:<user>": that member (joined, left, roles, timeout, its user's fields);
 *   - "a:<server>:<application>": that application's install there (intents, suspension);
 *   - "f:<server>": so many of its members or installs that it is read again whole;
 *   - "t:" and a token's hash: that token changed or went;
 *   - "": every identity may have changed (suspensions).
 * At most STORE_CHANGE_MAX bytes with the NUL. */
#define STORE_CHANGE_MAX     80
#define STORE_CHANGE_TOKEN   "t:"
#define STORE_CHANGE_MEMBER  "m:"
#define STORE_CHANGE_INSTALL "a:"
#define STORE_CHANGE_WHOLE   "f:"
/* The server a change names (into sid) and, for a member or install, whose (into who, else "";
 * "*" for a server to read again whole).
 * Returns 0, or -1 for a token or identities mark or one that does not parse. */
int store_change_parse(const char *mark, char sid[UUID_LEN + 1], char who[UUID_LEN + 1]);
/* Calls fn for each change since the last take, then forgets them. Returns STORE_DONE or an
 * error. */
int store__changes_take(struct store *db, void (*fn)(void *arg, const char *server_id), void *arg);
/* The same without forgetting them: what the open transaction has changed so far. */
int store_changes_peek(struct store *db, void (*fn)(void *arg, const char *mark), void *arg);

#endif
