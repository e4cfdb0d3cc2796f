/*
 * Roles in the database, and which members hold them.
 *
 * The column `position` is an order key, not the API's position: keys leave gaps and may be
 * negative, so a new role (or a bot's) is placed just above @everyone by one insert, whatever
 * the server holds, instead of moving every role up. The API's position (the rank: @everyone 0,
 * then 1, 2 … upward, ties by ID) is computed where a role is shown or compared.
 */
#ifndef PRACA_STORE_ROLES_H
#define PRACA_STORE_ROLES_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

/* @everyone's key: below every key a role can be given. */
#define STORE_ROLE_EVERYONE_KEY "-4611686018427387904"
/* The key of a new lowest role of server $<n> (a subquery): one below the lowest, in one index
 * probe. */
#define STORE_ROLE_NEW_KEY(server)                                                                 \
    "(COALESCE((SELECT position FROM roles WHERE server_id = " server                              \
    " AND position > " STORE_ROLE_EVERYONE_KEY " ORDER BY position LIMIT 1), 0) - 1)"
/* The rank of role row `r` among its server's roles, as a column: how many are below it
 * (@everyone included), ties ordered by ID, the smaller above. */
#define STORE_ROLE_RANK(r)                                                                         \
    "(SELECT count(*) FROM roles b WHERE b.server_id = " r ".server_id AND (b.id = b.server_id"    \
    " OR b.position < " r ".position OR (b.position = " r ".position AND b.id > " r ".id))"        \
    " AND b.id <> " r ".id)"

json_t *store_roles_json(struct store *db, const char *sid);
json_t *store_role_json(struct store *db, const char *rid, int *rc);

/* Role rid's order key: 1 found, 0 no such role, < 0 an error. */
int store_role_key(struct store *db, const char *rid, int64_t *key);
/* What a handler decides a role by: its server, whether an application manages it, its key. */
struct store_role_ref {
    char server_id[37];
    int managed;
    int64_t key;
};
/* 1 found, 0 no such role, < 0 an error. */
int store_role_ref(struct store *db, const char *rid, struct store_role_ref *out);
/* The rank a role keyed `key` has in server sid: how many roles are keyed below (@everyone
 * included). STORE_DONE or an error. */
int store_role_rank_of_key(struct store *db, const char *sid, int64_t key, int64_t *rank);

struct store_new_role {
    const char *id, *server_id, *name;
    int64_t permissions, color, now;
    int mentionable, hoist;
};
int store_role_create(struct store_writer *w, struct store_new_role *arg);
/* What a role update sets: NULL or -1 keeps a field as it is. */
struct store_role_change {
    const char *name;
    int64_t permissions, color;
    int mentionable, hoist;
};
int store_role_update(struct store_writer *w, const char *rid, const struct store_role_change *ch);
/* Deletes the role and its overwrites (the roles above go down a rank, their keys unchanged). */
int store_role_delete(struct store_writer *w, const char *rid);
/* Moves role rid to rank *position (1 = just above @everyone; past the top: the top, written
 * back to *position), the roles in between moving a rank toward its old place. The server's
 * keys are written again as 1…n where they differ: a move is an owner's act, rare. */
int store_role_move(struct store_writer *w, const char *rid, int64_t *position);
int store_member_role_add(struct store_writer *w, const char *sid, const char *uid,
                          const char *rid);
int store_member_role_remove(struct store_writer *w, const char *sid, const char *uid,
                             const char *rid, int64_t *changes);

#endif
