/* An import's writes: see imports.h. */
#include "store/imports.h"

#include "store/roles.h"

int store_import_transaction(struct store *db, int (*fn)(struct store *db, void *arg), void *arg)
{
    if (store__exec(db, store__sql_begin_write(db), NULL, 0) != STORE_DONE)
        return -1;
    if (fn(db, arg) || store__exec(db, STORE__SQL_COMMIT, NULL, 0) != STORE_DONE) {
        store__exec(db, "ROLLBACK", NULL, 0);
        return -1;
    }
    return 0;
}

int store_import_begin_at(struct store *db, const struct store_import *im)
{
    static const char *SQL_SERVER = "INSERT INTO servers (id, name, owner_id, created_at)"
                                    " VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING";
    static const char *SQL_EVERYONE =
        "INSERT INTO roles (id, server_id, name, permissions, position, created_at)"
        " VALUES ($1, $1, '@everyone', $2, " STORE_ROLE_EVERYONE_KEY ", $3)"
        " ON CONFLICT (id) DO NOTHING";
    static const char *SQL_OWNER = "INSERT INTO members (server_id, user_id, joined_at)"
                                   " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    static const char *SQL_IMPORT =
        "INSERT INTO imports (id, format, source, server_id, owner_id, started_at)"
        " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING";
    static const char *SQL_OWNED = "SELECT 1 FROM servers WHERE id = $1 AND owner_id = $2";
    int rc = store__exec(db, SQL_SERVER,
                         SV_ARGS(SV_STR(im->server_id), SV_STR(im->server_name),
                                 SV_STR(im->owner_id), SV_INT(im->now)));
    if (rc == STORE_DONE && store__changes(db) == 0) { /* resumed: still the owner's? */
        int owned =
            store__exists(db, SQL_OWNED, SV_ARGS(SV_STR(im->server_id), SV_STR(im->owner_id)));
        if (owned <= 0)
            return owned < 0 ? owned : STORE_TAKEN;
    }
    if (rc == STORE_DONE)
        rc = store__exec(
            db, SQL_EVERYONE,
            SV_ARGS(SV_STR(im->server_id), SV_INT(im->everyone_perms), SV_INT(im->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_OWNER,
                         SV_ARGS(SV_STR(im->server_id), SV_STR(im->owner_id), SV_INT(im->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_IMPORT,
                         SV_ARGS(SV_STR(im->id), SV_STR(im->format), SV_STR(im->source),
                                 SV_STR(im->server_id), SV_STR(im->owner_id), SV_INT(im->now)));
    return rc;
}

int store_import_progress_at(struct store *db, const char *import_id, int64_t n, int finished,
                             int64_t now)
{
    static const char *SQL = "UPDATE imports SET messages = messages + $2,"
                             " finished_at = CASE WHEN $3 = 1 THEN $4 ELSE finished_at END"
                             " WHERE id = $1";
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(import_id), SV_INT(n), SV_INT(finished), SV_INT(now)));
}

int store_import_channel_at(struct store *db, const struct store_import_channel *c)
{
    static const char *SQL_CATEGORY =
        "INSERT INTO categories (id, server_id, name, position, created_at)"
        " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING";
    static const char *SQL_CHANNEL =
        "INSERT INTO channels (id, server_id, parent_id, type, name, topic, position,"
        " origin_message_id, category_id, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING";
    if (c->is_category)
        return store__exec(db, SQL_CATEGORY,
                           SV_ARGS(SV_STR(c->id), SV_STR(c->server_id), SV_STR(c->name),
                                   SV_INT(c->position), SV_INT(c->now)));
    return store__exec(db, SQL_CHANNEL,
                       SV_ARGS(SV_STR(c->id), SV_STR(c->server_id), SV_STR(c->parent_id),
                               SV_STR(c->type        ? c->type
                                      : c->parent_id ? "thread"
                                                     : "text"),
                               SV_STR(c->name), SV_STR(c->topic), SV_INT(c->position),
                               SV_STR(c->origin_id), SV_STR(c->category_id), SV_INT(c->now)));
}

int store_import_overwrite_at(struct store *db, const char *channel_id, const char *target_id,
                              const char *type, int64_t allow, int64_t deny)
{
    static const char *SQL = "INSERT INTO overwrites (channel_id, target_id, type, allow, deny)"
                             " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
    return store__exec(
        db, SQL,
        SV_ARGS(SV_STR(channel_id), SV_STR(target_id), SV_STR(type), SV_INT(allow), SV_INT(deny)));
}

int store_import_person_at(struct store *db, const char *user_id, const char *username,
                           const char *display_name, const char *email, const char *server_id,
                           int64_t now)
{
    static const char *SQL_USER =
        "INSERT INTO users (id, username, display_name, imported, imported_email, created_at)"
        " VALUES ($1, $2, $3, 1, $5, $4) ON CONFLICT (id) DO NOTHING";
    static const char *SQL_MEMBER = "INSERT INTO members (server_id, user_id, joined_at)"
                                    " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    int rc = store__exec(db, SQL_USER,
                         SV_ARGS(SV_STR(user_id), SV_STR(username), SV_STR(display_name),
                                 SV_INT(now), SV_STR(email)));
    int existed = rc == STORE_DONE && store__changes(db) == 0;
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_MEMBER, SV_ARGS(SV_STR(server_id), SV_STR(user_id), SV_INT(now)));
    return rc == STORE_DONE && existed ? STORE_TAKEN : rc;
}

int store_import_role_at(struct store *db, const struct store_import_role *r)
{
    static const char *SQL =
        "INSERT INTO roles (id, server_id, name, permissions, color, position,"
        " hoist, mentionable, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING";
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(r->id), SV_STR(r->server_id), SV_STR(r->name),
                               SV_INT(r->permissions), SV_INT(r->color), SV_INT(r->key),
                               SV_INT(r->hoist), SV_INT(r->mentionable), SV_INT(r->now)));
}

int store_import_everyone_at(struct store *db, const char *server_id, int64_t permissions)
{
    static const char *SQL = "UPDATE roles SET permissions = $2 WHERE id = $1 AND server_id = $1";
    return store__exec(db, SQL, SV_ARGS(SV_STR(server_id), SV_INT(permissions)));
}

int store_import_member_role_at(struct store *db, const char *server_id, const char *user_id,
                                const char *role_id)
{
    static const char *SQL = "INSERT INTO member_roles (server_id, user_id, role_id)"
                             " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    return store__exec(db, SQL, SV_ARGS(SV_STR(server_id), SV_STR(user_id), SV_STR(role_id)));
}

int store_import_message_at(struct store *db, const struct store_import_message *m)
{
    static const char *SQL =
        "INSERT INTO messages (id, channel_id, thread_parent_id, server_id, author_id, type,"
        " content, reply_to_id, pinned, created_at, edited_at, attachments)"
        " VALUES ($1, $2, $3, $4, $5, 'text', $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO "
        "NOTHING";
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(m->id), SV_STR(m->channel_id), SV_STR(m->thread_parent_id),
                                 SV_STR(m->server_id), SV_STR(m->author_id), SV_STR(m->content),
                                 SV_STR(m->reply_to_id), SV_INT(m->pinned), SV_INT(m->at),
                                 m->edited_at ? SV_INT(m->edited_at) : SV_NULLV,
                                 SV_STR(m->attachments)));
    return rc == STORE_DONE && store__changes(db) == 0 ? STORE_TAKEN : rc;
}

int store_import_reaction_at(struct store *db, const char *message_id, const char *channel_id,
                             const char *emoji, const char *user_id, int64_t at)
{
    static const char *SQL =
        "INSERT INTO reactions (message_id, channel_id, emoji, user_id, created_at)"
        " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(message_id), SV_STR(channel_id), SV_STR(emoji),
                               SV_STR(user_id), SV_INT(at)));
}

int store_import_message_known(struct store *db, const char *id)
{
    static const char *SQL = "SELECT 1 FROM messages WHERE id = $1";
    return store__exists(db, SQL, SV_ARGS(SV_STR(id)));
}

int store_import_avatar_at(struct store *db, const char *user_id, const char *large,
                           const char *small)
{
    static const char *SQL = "UPDATE users SET avatar = $2, avatar_small = $3"
                             " WHERE id = $1 AND imported = 1 AND avatar IS NULL";
    return store__exec(db, SQL, SV_ARGS(SV_STR(user_id), SV_STR(large), SV_STR(small)));
}
