/* Attachments' rows: see attachments.h. */
#include "store/attachments.h"
#include "store/fields.h"

#include <string.h>

int store_attachments_put_at(struct store *db, const struct store_attachment_set *set,
                             const char *message_id, const char *channel_id, const char *server_id,
                             int64_t now)
{
    static const char *DROP = "DELETE FROM attachments WHERE message_id = $1";
    static const char *ADD =
        "INSERT INTO attachments (id, message_id, channel_id, server_id, uploader_id, blob,"
        " thumb_blob, filename, content_type, size, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";
    int rc = store__exec(db, DROP, SV_ARGS(SV_STR(message_id)));
    for (size_t i = 0; rc == STORE_DONE && i < set->n; i++) {
        const struct store_attachment *a = &set->items[i];
        rc = store_files_claim_at(set->files, db, a->blob, a->size, now);
        if (rc == STORE_DONE && a->thumb[0])
            rc = store_files_claim_at(set->files, db, a->thumb, a->thumb_size, now);
        if (rc == STORE_DONE)
            rc = store__exec(db, ADD,
                             SV_ARGS(SV_STR(a->id), SV_STR(message_id), SV_STR(channel_id),
                                     SV_STR(server_id), SV_STR(set->uploader_id), SV_STR(a->blob),
                                     SV_STR(a->thumb[0] ? a->thumb : NULL), SV_STR(a->filename),
                                     SV_STR(a->content_type), SV_INT(a->size), SV_INT(now)));
    }
    return rc;
}

#define ROW_COLS                                                                                   \
    "a.id, a.blob, COALESCE(a.thumb_blob, ''), a.filename, a.content_type, a.size,"                \
    " COALESCE(b.size, 0)"

static void read_row(struct store_stmt *st, struct store_attachment *a)
{
    static const struct store_field FIELDS[] = {
        STORE_FIELD_TEXT(struct store_attachment, id),
        STORE_FIELD_TEXT(struct store_attachment, blob),
        STORE_FIELD_TEXT(struct store_attachment, thumb),
        STORE_FIELD_TEXT(struct store_attachment, filename),
        STORE_FIELD_TEXT(struct store_attachment, content_type),
        STORE_FIELD_INT(struct store_attachment, size),
        STORE_FIELD_INT(struct store_attachment, thumb_size),
    };
    store__read_fields(st, STORE_FIELDS(FIELDS), a);
}

int store_attachment_get(struct store *db, const char *id, struct store_attachment_row *out)
{
    static const char *SQL =
        "SELECT " ROW_COLS ", a.message_id, a.channel_id, COALESCE(a.server_id, '')"
        " FROM attachments a LEFT JOIN blobs b ON b.hash = a.thumb_blob WHERE a.id = $1";
    memset(out, 0, sizeof *out);
    int found;
    struct store_stmt *st = store__row(db, SQL, id, &found);
    if (st) {
        read_row(st, &out->a);
        store__text_copy(st, 7, out->message_id, sizeof out->message_id);
        store__text_copy(st, 8, out->channel_id, sizeof out->channel_id);
        store__text_copy(st, 9, out->server_id, sizeof out->server_id);
        store__finish(st);
    }
    return found;
}

int store_attachment_of_message(struct store *db, const char *message_id, const char *id,
                                struct store_attachment *out)
{
    static const char *SQL = "SELECT " ROW_COLS " FROM attachments a"
                             " LEFT JOIN blobs b ON b.hash = a.thumb_blob"
                             " WHERE a.id = $1 AND a.message_id = $2";
    memset(out, 0, sizeof *out);
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(id), SV_STR(message_id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW)
        read_row(st, out);
    store__finish(st);
    return rc == STORE_ROW ? 1 : rc;
}

int64_t store_attachments_server_bytes(struct store *db, const char *server_id)
{
    static const char *SQL = "SELECT COALESCE(SUM(size), 0) FROM attachments WHERE server_id = $1";
    return store__number(db, SQL, server_id);
}

int64_t store_attachments_uploader_bytes(struct store *db, const char *user_id)
{
    static const char *SQL =
        "SELECT COALESCE(SUM(size), 0) FROM attachments WHERE uploader_id = $1";
    return store__number(db, SQL, user_id);
}
