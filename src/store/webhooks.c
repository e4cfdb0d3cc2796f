/* Webhooks: see webhooks.h. */
#include "store/webhooks.h"
#include "store/fields.h"

#include <string.h>

#include "store/rows.h"

static const struct store_col WEBHOOK_COLS[] = {
    {"id", COL_TEXT},
    {"serverId", COL_TEXT},
    {"channelId", COL_TEXT},
    {"name", COL_TEXT},
    {"avatarUrl", COL_TEXT},
    {"creatorId", COL_TEXT},
    {"applicationId", COL_TEXT},
    {"createdAt", COL_TIME},
};
#define WEBHOOK_SELECT                                                                             \
    "SELECT id, server_id, channel_id, name, avatar_url, creator_id, application_id, created_at"   \
    " FROM webhooks"

static const char *SQL_COUNT = "SELECT COUNT(*) FROM webhooks WHERE channel_id = $1";

static int create_job(struct store *db, void *arg)
{
    static const char *SQL =
        "INSERT INTO webhooks (id, server_id, channel_id, name, avatar_url, token_hash,"
        " creator_id, application_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
    struct store_new_webhook *h = arg;
    int64_t n = store__number(db, SQL_COUNT, h->channel_id);
    if (n < 0)
        return STORE_ERR;
    if (n >= WEBHOOKS_PER_CHANNEL)
        return STORE_FULL;
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(h->id), SV_STR(h->server_id), SV_STR(h->channel_id),
                               SV_STR(h->name), SV_STR(h->avatar_url), SV_STR(h->token_hash),
                               SV_STR(h->creator_id), SV_STR(h->application_id), SV_INT(h->now)));
}

int store_webhook_create(struct store_writer *w, struct store_new_webhook *arg)
{
    return store_write(w, create_job, arg);
}

json_t *store_webhook_json(struct store *db, const char *id, int *rc)
{
    return store__get_json(db, WEBHOOK_SELECT " WHERE id = $1", SV_ARGS(SV_STR(id)),
                           STORE_COLS(WEBHOOK_COLS), rc);
}

json_t *store_webhooks_json(struct store *db, const char *server_id, const char *channel_id)
{
    static const char *SQL = WEBHOOK_SELECT " WHERE server_id = $1 AND ($2 = '' OR channel_id = $2)"
                                            " ORDER BY created_at, id";
    return store__list_json(db, SQL,
                            SV_ARGS(SV_STR(server_id), SV_STR(channel_id ? channel_id : "")),
                            STORE_COLS(WEBHOOK_COLS));
}

int store_webhook_find(struct store *db, const char *id, struct store_webhook *out)
{
    static const char *SQL = "SELECT id, server_id, channel_id, name, COALESCE(avatar_url, ''),"
                             " token_hash FROM webhooks WHERE id = $1";
    static const struct store_field FIELDS[] = {
        STORE_FIELD_TEXT(struct store_webhook, id),
        STORE_FIELD_TEXT(struct store_webhook, server_id),
        STORE_FIELD_TEXT(struct store_webhook, channel_id),
        STORE_FIELD_TEXT(struct store_webhook, name),
        STORE_FIELD_TEXT(struct store_webhook, avatar_url),
        STORE_FIELD_TEXT(struct store_webhook, token_hash),
    };
    return store__row_fields(db, SQL, id, STORE_FIELDS(FIELDS), out, sizeof *out);
}

static int change_job(struct store *db, void *arg)
{
    static const char *SQL =
        "UPDATE webhooks SET name = COALESCE($2, name), channel_id = COALESCE($3, channel_id),"
        " avatar_url = CASE WHEN $5 = 1 THEN $4 ELSE avatar_url END WHERE id = $1";
    struct store_webhook_change *ch = arg;
    if (ch->channel_id) {
        int64_t n = store__number(db, SQL_COUNT, ch->channel_id);
        if (n < 0)
            return STORE_ERR;
        if (n >= WEBHOOKS_PER_CHANNEL)
            return STORE_FULL;
    }
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(ch->id), SV_STR(ch->name), SV_STR(ch->channel_id),
                               SV_STR(ch->avatar_url), SV_INT(ch->set_avatar)));
}

int store_webhook_change(struct store_writer *w, struct store_webhook_change *arg)
{
    return store_write(w, change_job, arg);
}

int store_webhook_set_token(struct store_writer *w, const char *id, const char *token_hash)
{
    static const char *SQL = "UPDATE webhooks SET token_hash = $2 WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(id), SV_STR(token_hash)), NULL);
}

int store_webhook_delete(struct store_writer *w, const char *id, int64_t *changes)
{
    static const char *SQL = "DELETE FROM webhooks WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(id)), changes);
}

int store_member_named(struct store *db, const char *server_id, const char *name)
{
    static const char *SQL =
        "SELECT 1 FROM members m JOIN users u ON u.id = m.user_id WHERE m.server_id = $1"
        " AND (lower(u.username) = lower($2) OR lower(u.display_name) = lower($2)"
        "   OR lower(m.nickname) = lower($2)) LIMIT 1";
    return store__exists(db, SQL, SV_ARGS(SV_STR(server_id), SV_STR(name)));
}
