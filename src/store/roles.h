/* Roles in the database, and which members hold them. */
#ifndef PRACA_STORE_ROLES_H
#define PRACA_STORE_ROLES_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

json_t *store_roles_json(struct store *db, const char *sid);
json_t *store_role_json(struct store *db, const char *rid, int *rc);

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
/* Deletes the role, its overwrites, and closes the gap in the positions above it. */
int store_role_delete(struct store_writer *w, const char *rid);
/* Moves role rid to *position (1 = just above @everyone; past the top: the top, written back
 * to *position), the roles in between shifting by one. */
int store_role_move(struct store_writer *w, const char *rid, int64_t *position);
int store_member_role_add(struct store_writer *w, const char *sid, const char *uid,
                          const char *rid);
int store_member_role_remove(struct store_writer *w, const char *sid, const char *uid,
                             const char *rid, int64_t *changes);

#endif
