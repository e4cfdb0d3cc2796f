/* New messages' rows held until the next statement: see message_rows.h. */
#include "store/message_rows.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/jsonout.h"
#include "core/log.h"
#include "core/vec.h"
#include "store/engine.h"
#include "store/write_batch.h"

#define ROWS_BYTES ((size_t)256 << 20)

/* The rows as the elements of one JSON array ("{…},{…}"), handed to the database as one
 * parameter, and the channels they go to as another. */
struct store_row_batch {
    struct buf rows, channels;
    size_t count, cap;
    size_t *row_ends, *channel_ends; /* each buffer's length after each row */
};

int store__message_row_may_wait(const struct store *db, const struct store_new_message *m)
{
    return db->batch && db->engine->rows_at_commit && !m->nonce && !(m->files && m->files->n) &&
           !m->poll && !m->forward;
}

static struct store_row_batch *batch_of(struct store *db)
{
    struct store_write_batch *w = db->batch;
    if (!w->rows && (w->rows = calloc(1, sizeof *w->rows))) {
        buf_init(&w->rows->rows, ROWS_BYTES);
        buf_init(&w->rows->channels, ROWS_BYTES);
    }
    return w->rows;
}

static int reserve(struct store_row_batch *b)
{
    if (b->count < b->cap)
        return 0;
    size_t cap = b->cap ? 2 * b->cap : 64;
    size_t *rows = realloc(b->row_ends, cap * sizeof *rows);
    if (rows)
        b->row_ends = rows;
    size_t *channels = rows ? realloc(b->channel_ends, cap * sizeof *channels) : NULL;
    if (!channels)
        return -1;
    b->channel_ends = channels;
    b->cap = cap;
    return 0;
}

int store__message_row_hold(struct store *db, const struct store_new_message *m)
{
    struct store_row_batch *b = batch_of(db);
    if (!b || reserve(b))
        return STORE_ERR;
    size_t rows_mark = b->rows.len, channels_mark = b->channels.len;
    const struct store_message_webhook *hook = m->webhook;
    struct jsonout_obj o;
    if (b->count)
        buf_append(&b->rows, ",", 1);
    jsonout_obj_begin(&o, &b->rows); /* a key left out is read as NULL */
    jsonout_obj_str(&o, "id", m->id);
    jsonout_obj_str(&o, "c", m->channel_id);
    jsonout_obj_str_opt(&o, "tp", m->thread_parent_id);
    jsonout_obj_str(&o, "s", m->server_id);
    jsonout_obj_str(&o, "au", m->author_id);
    jsonout_obj_str_opt(&o, "ap", m->application_id);
    jsonout_obj_str(&o, "ty", m->type);
    jsonout_obj_str(&o, "co", m->content);
    jsonout_obj_str_opt(&o, "e", m->embeds_json);
    jsonout_obj_str_opt(&o, "cm", m->components_json);
    jsonout_obj_int(&o, "f", m->flags);
    jsonout_obj_str_opt(&o, "cn", m->command_name);
    jsonout_obj_str_opt(&o, "ci", m->command_invoker_id);
    jsonout_obj_str_opt(&o, "r", m->reply_to_id);
    jsonout_obj_str(&o, "mu", m->mentions_json);
    jsonout_obj_str(&o, "mr", m->role_ids_json);
    jsonout_obj_int(&o, "me", m->everyone);
    jsonout_obj_int(&o, "at", m->now);
    jsonout_obj_str_opt(&o, "a", m->attachments_json);
    jsonout_obj_str_opt(&o, "w", hook ? hook->id : NULL);
    jsonout_obj_str_opt(&o, "wn", hook ? hook->name : NULL);
    jsonout_obj_str_opt(&o, "wa", hook ? hook->avatar_url : NULL);
    int rc = jsonout_obj_end(&o);
    if (!rc) {
        if (b->count)
            rc = buf_append(&b->channels, ",", 1);
        rc = rc || buf_append(&b->channels, "\"", 1) ||
             buf_append_str(&b->channels, m->channel_id) || buf_append(&b->channels, "\"", 1);
    }
    if (rc) {
        b->rows.len = rows_mark;
        b->channels.len = channels_mark;
        return STORE_ERR;
    }
    b->row_ends[b->count] = b->rows.len;
    b->channel_ends[b->count++] = b->channels.len;
    return STORE_DONE;
}

size_t store__message_rows_held(const struct store *db)
{
    return db->batch && db->batch->rows ? db->batch->rows->count : 0;
}

void store__message_rows_forget(struct store *db, size_t keep)
{
    struct store_row_batch *b = db->batch ? db->batch->rows : NULL;
    if (!b || keep >= b->count)
        return;
    b->count = keep;
    b->rows.len = keep ? b->row_ends[keep - 1] : 0;
    b->channels.len = keep ? b->channel_ends[keep - 1] : 0;
}

/* Drops the first n rows; the others move to the front. */
static void drop_front(struct store_row_batch *b, size_t n)
{
    if (n >= b->count) {
        b->count = 0;
        b->rows.len = b->channels.len = 0;
        return;
    }
    size_t rows_cut = b->row_ends[n - 1] + 1, channels_cut = b->channel_ends[n - 1] + 1; /* "," */
    memmove(b->rows.data, b->rows.data + rows_cut, b->rows.len - rows_cut);
    memmove(b->channels.data, b->channels.data + channels_cut, b->channels.len - channels_cut);
    b->rows.len -= rows_cut;
    b->channels.len -= channels_cut;
    for (size_t i = n; i < b->count; i++) {
        b->row_ends[i - n] = b->row_ends[i] - rows_cut;
        b->channel_ends[i - n] = b->channel_ends[i] - channels_cut;
    }
    b->count -= n;
}

/* Wraps the first n elements of a list as a JSON array. */
static int array_of(struct buf *out, const struct buf *list, size_t len)
{
    return buf_append(out, "[", 1) || buf_append(out, list->data, len) || buf_append(out, "]", 1);
}

int store__message_rows_insert(struct store *db, size_t n)
{
    /* The channels are locked first (FOR KEY SHARE): one deleted by a commit that came first
     * is not found, and its rows are left out; none can be deleted before this one commits,
     * which is what keeps messages to existing channels (no foreign key: migration 026). */
    static const char *SQL =
        "INSERT INTO messages (id, channel_id, thread_parent_id, server_id, author_id,"
        " application_id, type, content, embeds, components, flags, command_name,"
        " command_invoker_id, reply_to_id, mentions, mentioned_role_ids, mentions_everyone,"
        " created_at, attachments, webhook_id, author_name, author_avatar)"
        " SELECT r.id, r.c, r.tp, r.s, r.au, r.ap, r.ty, r.co, r.e, r.cm, r.f, r.cn, r.ci, r.r,"
        " r.mu, r.mr, r.me, r.at, r.a, r.w, r.wn, r.wa FROM json_to_recordset($1::json) AS r(id"
        " text, c text, tp text, s text, au text, ap text, ty text, co text, e text, cm text,"
        " f bigint, cn text, ci text, r text, mu text, mr text, me bigint, at bigint, a text,"
        " w text, wn text, wa text) WHERE r.c IN (SELECT id FROM channels WHERE id IN"
        " (SELECT json_array_elements_text($2::json)) FOR KEY SHARE)";
    struct store_row_batch *b = db->batch ? db->batch->rows : NULL;
    if (!b || !b->count || !n)
        return STORE_DONE;
    if (n > b->count)
        n = b->count;
    struct buf rows, channels;
    buf_init(&rows, ROWS_BYTES + 2);
    buf_init(&channels, ROWS_BYTES + 2);
    int rc = array_of(&rows, &b->rows, b->row_ends[n - 1]) ||
                     array_of(&channels, &b->channels, b->channel_ends[n - 1])
                 ? STORE_ERR
                 : store__exec_later_args(
                       db, SQL,
                       SV_ARGS(SV_STRN(rows.data, rows.len), SV_STRN(channels.data, channels.len)));
    if (rc == STORE_DONE && !store__runs_later(db) && store__changes(db) < (int64_t)n)
        log_info("store: %lld of %zu new messages left out: their channels were deleted",
                 (long long)((int64_t)n - store__changes(db)), n);
    buf_cleanup(&rows);
    buf_cleanup(&channels);
    drop_front(b, n);
    return rc;
}

void store__message_rows_free(struct store *db)
{
    struct store_row_batch *b = db->batch ? db->batch->rows : NULL;
    if (!b)
        return;
    buf_cleanup(&b->rows);
    buf_cleanup(&b->channels);
    free(b->row_ends);
    free(b->channel_ends);
    free(b);
    db->batch->rows = NULL;
}
