/* A person's data archives (migration 036): the rows that follow one being made, and the pages
 * of what goes in it, read a page at a time so that an archive of any size costs flat memory. */
#ifndef PRACA_STORE_EXPORTS_H
#define PRACA_STORE_EXPORTS_H
#include <jansson.h>

#include "core/crypto.h"
#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

#define STORE_EXPORT_PAGE     1000
#define STORE_EXPORT_KEPT_MS  (7LL * 24 * 3600 * 1000)
#define STORE_EXPORT_STALE_MS (3600LL * 1000) /* a pending one this old was cut short */

struct store_export_start {
    const char *id, *user_id;
    int64_t now;
    const char *server_id; /* a server's archive (store/archive.h), or NULL: the person's data */
};
/* A new pending archive, unless one younger than STORE_EXPORT_STALE_MS is pending for the person
 * (STORE_REFUSED): one at a time, of any kind. */
int store_export_start(struct store_writer *w, struct store_export_start *s);

struct store_export_finish {
    const char *id;
    const char *blob; /* NULL: it failed */
    int64_t size, now;
};
int store_export_finish(struct store_writer *w, struct store_export_finish *f);

/* The person's newest archives of their data (server_id NULL) or of a server they made, at most
 * 5: [{id, status, size, createdAt, readyAt}] (a pending one past STORE_EXPORT_STALE_MS shows as
 * failed). NULL on error. */
json_t *store_exports_json(struct store *db, const char *user_id, const char *server_id,
                           int64_t now);
/* A ready archive the person made (of their data, or of server_id): 1 (blob and size filled),
 * 0 none, < 0 error. */
int store_export_blob(struct store *db, const char *user_id, const char *server_id, const char *id,
                      char blob[CRYPTO_SHA256_HEX + 1], int64_t *size);
/* Archives past STORE_EXPORT_KEPT_MS go (their blobs then go with the files sweep). */
int store_exports_expire(struct store *db, int64_t now, int64_t *deleted);

/* Calls fn with each row of a page as an object; *after gets the last ID. The rows' count, or
 * < 0 on error. The person's own messages (anywhere), then a DM's messages (anyone's). */
int store_export_messages(struct store *db, const char *user_id, char after[UUID_LEN + 1],
                          void (*fn)(void *arg, json_t *row), void *arg);
int store_export_dm_messages(struct store *db, const char *channel_id, char after[UUID_LEN + 1],
                             void (*fn)(void *arg, json_t *row), void *arg);
/* The files the person uploaded: [{id, messageId, channelId, filename, contentType, size, blob,
 * createdAt}], oldest first. NULL on error. */
json_t *store_export_uploads(struct store *db, const char *user_id);

#endif
