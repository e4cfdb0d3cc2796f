/*
 * Attachments' rows: one per file of a message, naming its stored blob (store/files.h). Who
 * may read one follows the message's channel; a message's deletion takes its rows with it
 * (the sweep then deletes blobs nothing refers to).
 */
#ifndef PRACA_STORE_ATTACHMENTS_H
#define PRACA_STORE_ATTACHMENTS_H
#include <stdint.h>

#include "core/crypto.h"
#include "core/uuid.h"
#include "store/db.h"
#include "store/files.h"

struct store_attachment {
    char id[UUID_LEN + 1];
    char blob[CRYPTO_SHA256_HEX + 1];
    char thumb[CRYPTO_SHA256_HEX + 1]; /* "" when none */
    char filename[256];
    char content_type[128];
    int64_t size, thumb_size;
};

/* Where a message's attachments go, inside the writer's transaction of the message. */
struct store_attachment_set {
    const struct store_files *files;
    const struct store_attachment *items;
    size_t n;
    const char *uploader_id;
};

/* Replaces message_id's rows by set (claiming each blob): STORE_DONE, STORE_MISSING when a
 * blob's bytes were swept meanwhile, or < 0. */
int store_attachments_put_at(struct store *db, const struct store_attachment_set *set,
                             const char *message_id, const char *channel_id, const char *server_id,
                             int64_t now);

struct store_attachment_row {
    struct store_attachment a;
    char message_id[UUID_LEN + 1];
    char channel_id[UUID_LEN + 1];
    char server_id[UUID_LEN + 1]; /* "" in a DM */
};
/* 1 found, 0 not, < 0 an error. */
int store_attachment_get(struct store *db, const char *id, struct store_attachment_row *out);
/* The attachment id of message_id: 1 found (out filled), 0 not, < 0 an error. */
int store_attachment_of_message(struct store *db, const char *message_id, const char *id,
                                struct store_attachment *out);
/* Bytes of files the server's messages hold; < 0 on an error. */
int64_t store_attachments_server_bytes(struct store *db, const char *server_id);
/* The bytes of every file the user attached, in servers and DMs (their quota); < 0 on error. */
int64_t store_attachments_uploader_bytes(struct store *db, const char *user_id);

#endif
