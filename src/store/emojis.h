/*
 * A server's own emoji: made, renamed, deleted (the row kept with its name, its picture let
 * go), listed, and whether someone may use one (an emoji of that server, or of a server they
 * are in).
 */
#ifndef PRACA_STORE_EMOJIS_H
#define PRACA_STORE_EMOJIS_H
#include <jansson.h>
#include <stdint.h>

#include "core/crypto.h"
#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

struct store_new_emoji {
    const char *id, *server_id, *name, *created_by;
    int animated;
    char blob[CRYPTO_SHA256_HEX + 1];
    int64_t max; /* emoji a server may hold */
    int64_t now;
};
/* STORE_DONE; STORE_TAKEN when the server has one of that name; STORE_FULL at max. */
int store_emoji_create(struct store_writer *w, struct store_new_emoji *e);

struct store_emoji_rename {
    const char *server_id, *id, *name;
};
/* STORE_DONE; STORE_MISSING no such emoji there; STORE_TAKEN the name is another's. */
int store_emoji_rename(struct store_writer *w, struct store_emoji_rename *r);
/* STORE_DONE; STORE_MISSING no such emoji there (or deleted already). */
int store_emoji_delete(struct store_writer *w, const char *server_id, const char *id);

/* A server's emoji, oldest first: [{id, name, animated, url, createdBy, createdAt}], or NULL. */
json_t *store_emojis_json(struct store *db, const char *server_id);
/* One emoji, deleted or not: {id, name, animated, serverId, url (null once deleted)}; NULL with
 * *rc 0 when there is none, < 0 on an error. */
json_t *store_emoji_json(struct store *db, const char *id, int *rc);
/* The picture of an emoji that is not deleted: 1 (blob, animated out), 0 none, < 0 error. */
int store_emoji_blob(struct store *db, const char *id, char blob[CRYPTO_SHA256_HEX + 1],
                     int *animated);
/* 1 when uid may react with emoji id in server sid (NULL: a conversation): the emoji is not
 * deleted and is sid's, or that of a server uid is in. 0 not, < 0 an error. */
int store_emoji_usable(struct store *db, const char *id, const char *sid, const char *uid);

/* 1 when uid reacted to message mid with the custom emoji id (so may take it back, even once
 * the emoji is deleted). 0 not, < 0 an error. */
int store_emoji_reacted(struct store *db, const char *mid, const char *id, const char *uid);

#endif
