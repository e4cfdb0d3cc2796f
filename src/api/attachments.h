/*
 * Files attached to messages: the files of a multipart send or edit turned into attachments
 * (type from the bytes, metadata stripped, size and thumbnail of images, stored under their
 * hash), attachment://name references resolved, and the attachment objects of the message.
 */
#ifndef PRACA_API_ATTACHMENTS_H
#define PRACA_API_ATTACHMENTS_H
#include <jansson.h>

#include "api/api.h"
#include "store/attachments.h"

/* What api__files_take allocates is the request's (api__at_end): nothing to release. */
struct api_files {
    struct store_attachment *items; /* kept ones (an edit), then new ones */
    size_t n;
    json_t *objects; /* their attachment objects, in the same order */
    json_t *names;   /* file name as sent → URL, for attachment:// (new files only) */
    struct store_attachment_set set;
    int changed; /* an edit: the attachments are not the message's old ones */
};

/* Whether the request came as a multipart upload (its files are in c->req->upload). */
int api__files_sent(const struct api_call *c);
/* Takes the upload's files for a message in server sid (NULL: a DM): the per-account upload
 * limit, the server's quota, then each file checked and stored. old: on an edit, the message's
 * attachment objects and the body's "attachments" (absent keeps all; [{id}] keeps those);
 * NULL on a send. 0, or -1 when it has answered. */
int api__files_take(struct api_call *c, const char *sid, const char *mid, json_t *old, json_t *body,
                    struct api_files *out);
/* The files of message mid (objects: its attachment objects) as new attachments of another
 * message, each a row of its own naming the same blob (a forward's copy): no upload, no quota.
 * 0, or -1 when it has answered. */
int api__files_copy(struct api_call *c, const char *mid, json_t *objects, struct api_files *f);
/* Replaces every "url" that reads attachment://<name> in embeds and components by the URL of
 * the file sent under that name. 0, or -1 when it has answered (400: no such file). */
int api__files_resolve(struct api_call *c, const struct api_files *f, json_t *embeds,
                       json_t *components);
/* The attachment objects as stored text (malloc'd), or NULL for none. */
char *api__files_json(const struct api_files *f);

/* A new empty file in the spool: its descriptor, its path in out. */
int api__spool_file(const struct api_service *a, const char *kind, char *out, size_t cap);
/* Stores the file at path (which is gone afterwards) as a blob, recorded at once so that the
 * sweep finds it if nothing keeps it: its hash and size; 0, or -1. */
int api__file_keep(struct api_call *c, const char *path, char hash[CRYPTO_SHA256_HEX + 1],
                   size_t *size);
/* Answers with the blob's bytes (Range, ETag, cached for a year: a blob never changes), shown
 * inline or downloaded as name by type; none when name is NULL. */
void api__blob_send(struct api_call *c, const char *hash, const char *type, const char *name);

#endif
