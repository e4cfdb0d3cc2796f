/* Incoming webhooks of channels: create, list, change, rotate the token, delete, and find one
 * by ID to check the token a post carries. */
#ifndef PRACA_STORE_WEBHOOKS_H
#define PRACA_STORE_WEBHOOKS_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

#define WEBHOOKS_PER_CHANNEL 15

/* Argument of store_webhook_create: STORE_FULL when the channel has WEBHOOKS_PER_CHANNEL. */
struct store_new_webhook {
    const char *id, *server_id, *channel_id, *name, *avatar_url, *token_hash;
    const char *creator_id, *application_id; /* application_id NULL for a person */
    int64_t now;
};
int store_webhook_create(struct store_writer *w, struct store_new_webhook *arg);

/* The Webhook object {id, serverId, channelId, name, avatarUrl, creatorId, applicationId,
 * createdAt}; NULL when unknown (*rc STORE_DONE) or on error. */
json_t *store_webhook_json(struct store *db, const char *id, int *rc);
/* A server's webhooks, or one channel's (channel_id not NULL), oldest first. */
json_t *store_webhooks_json(struct store *db, const char *server_id, const char *channel_id);

/* What a post needs, read at once. 1 found, 0 not, < 0 error. */
struct store_webhook {
    char id[UUID_LEN + 1];
    char server_id[UUID_LEN + 1];
    char channel_id[UUID_LEN + 1];
    char name[4 * 80 + 1];
    char avatar_url[2048 + 1];
    char token_hash[65];
};
int store_webhook_find(struct store *db, const char *id, struct store_webhook *out);

/* Changes what is given (NULL keeps): name, avatar (set_avatar: avatar_url, NULL clears it),
 * channel (STORE_FULL when the new channel is full). */
struct store_webhook_change {
    const char *id, *name, *channel_id, *avatar_url;
    int set_avatar;
};
int store_webhook_change(struct store_writer *w, struct store_webhook_change *arg);
int store_webhook_set_token(struct store_writer *w, const char *id, const char *token_hash);
int store_webhook_delete(struct store_writer *w, const char *id, int64_t *changes);

/* 1 when a member of the server goes by that name (username, display name or nickname, case
 * aside), 0 when none does, < 0 on error: a webhook's post may not show it. */
int store_member_named(struct store *db, const char *server_id, const char *name);

#endif
