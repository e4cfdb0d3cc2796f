/* Messages: see messages.h. */
#include "store/messages.h"

#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/jsonout.h"
#include "domain/emoji.h"
#include "store/message_rows.h"
#include "store/previews.h"
#include "store/rows.h"
#include "store/writer.h"

static const struct store_col MESSAGE_COLS[] = {
    {"id", COL_TEXT},
    {"serverId", COL_TEXT},
    {"channelId", COL_TEXT},
    {"threadId", COL_TEXT},
    {"fromId", COL_TEXT},
    {"content", COL_TEXT},
    {"type", COL_TEXT},
    {"createdAt", COL_TIME},
    {"editedAt", COL_TIME},
    {"embeds", COL_JSON},
    {"components", COL_JSON},
    {"flags", COL_INT},
    {"applicationId", COL_TEXT},
    {"commandName", COL_TEXT},
    {"commandInvokerId", COL_TEXT},
    {"replyToId", COL_TEXT},
};
static const struct store_col REPLY_COLS[] = {
    {"id", COL_TEXT}, {"fromId", COL_TEXT}, {"kind", COL_TEXT}, {"preview", COL_TEXT}};
static const struct store_col MENTION_COLS[] = {
    {"mentions", COL_JSON}, {"mentionsEveryone", COL_BOOL}, {"mentionedRoleIds", COL_JSON}};
#define VIEW_MAX ((size_t)16 * 1024 * 1024) /* far above any message a draft allows */

#define MESSAGE_SELECT                                                                             \
    "SELECT m.id, m.server_id, COALESCE(m.thread_parent_id, m.channel_id),"                        \
    " CASE WHEN m.thread_parent_id IS NOT NULL THEN m.channel_id END, m.author_id, m.content,"     \
    " m.type, m.created_at, m.edited_at, m.embeds, m.components, m.flags, m.application_id,"       \
    " m.command_name, m.command_invoker_id, m.reply_to_id,"                                        \
    " r.id, r.author_id, r.type, substr(r.content, 1, 100),"                                       \
    " m.mentions, m.mentions_everyone, m.mentioned_role_ids, m.pinned, m.attachments,"             \
    " m.webhook_id, m.author_name, m.author_avatar,"                                               \
    " p.question, p.answers, p.multiple, p.ends_at, p.voters, " STORE_FORWARD_COLS                 \
    " FROM messages m LEFT JOIN messages r ON r.id = m.reply_to_id"                                \
    " LEFT JOIN polls p ON p.message_id = m.id LEFT JOIN forwards f ON f.message_id = m.id"

#define POLL_COL    28
#define FORWARD_COL 33

/* Builds the Message object from a MESSAGE_SELECT row (reactions and poll counts filled in
 * later). */
static json_t *message_row(struct store_stmt *st, int64_t now)
{
    json_t *m = store__row_json(st, 0, STORE_COLS(MESSAGE_COLS));
    json_object_set_new(m, "replyTo",
                        store__is_null(st, 16) ? json_null()
                                               : store__row_json(st, 16, STORE_COLS(REPLY_COLS)));
    json_t *mentions = store__row_json(st, 20, STORE_COLS(MENTION_COLS));
    json_object_update(m, mentions);
    json_decref(mentions);
    json_object_set_new(m, "reactions", json_array());
    json_object_set_new(m, "pinned", json_boolean(store__int(st, 23)));
    json_t *files = store__is_null(st, 24)
                        ? NULL
                        : json_loadb(store__text(st, 24), store__text_len(st, 24), 0, NULL);
    json_object_set_new(m, "attachments", json_is_array(files) ? files : json_array());
    if (files && !json_is_array(files))
        json_decref(files);
    json_object_set_new(
        m, "webhook",
        store__is_null(st, 25)
            ? json_null()
            : json_pack("{s:s%,s:s%,s:o}", "id", store__text(st, 25),
                        (size_t)store__text_len(st, 25), "name", store__text(st, 26),
                        (size_t)store__text_len(st, 26), "avatarUrl",
                        store__is_null(st, 27)
                            ? json_null()
                            : json_stringn(store__text(st, 27), store__text_len(st, 27))));
    json_object_set_new(m, "poll", store__poll_row(st, POLL_COL, now));
    json_object_set_new(m, "forwarded", store__forward_row(st, FORWARD_COL));
    json_object_set_new(m, "previews", json_array());
    return m;
}

/* Reaction rows (message_id, emoji, custom_emoji_id, user_id) grouped into elements, by
 * message ID, in the order of first appearance. Each row finds its element through a map
 * keyed by message and reaction, so the fold is linear in the rows. */
static int fold_reactions(struct store_stmt *st, json_t *by_message)
{
    json_t *elements = json_object(); /* "mid\x1femoji\x1fcustom" → element (borrowed) */
    struct buf key;
    buf_init(&key, 512);
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        const char *mid = store__text(st, 0), *emoji = store__text(st, 1),
                   *custom = store__text(st, 2), *user = store__text(st, 3);
        key.len = 0;
        if (buf_appendf(&key, "%s\x1f%s\x1f%s", mid, emoji, custom) || buf_append(&key, "", 1)) {
            rc = STORE_ERR;
            break;
        }
        json_t *el = json_object_get(elements, key.data);
        if (!el) {
            json_t *list = json_object_get(by_message, mid);
            if (!list) {
                list = json_array();
                json_object_set_new(by_message, mid, list);
            }
            el = json_pack("{s:o, s:o, s:i, s:[]}", "emoji",
                           *emoji ? json_string(emoji) : json_null(), "customEmojiId",
                           *custom ? json_string(custom) : json_null(), "count", 0, "userIds");
            json_array_append_new(list, el);
            json_object_set(elements, key.data, el);
        }
        json_t *users = json_object_get(el, "userIds");
        json_array_append_new(users, json_string(user));
        json_object_set_new(el, "count", json_integer((json_int_t)json_array_size(users)));
    }
    store__finish(st);
    buf_cleanup(&key);
    json_decref(elements);
    return rc;
}

json_t *store_reactions_json(struct store *db, const char *message_id)
{
    static const char *SQL = "SELECT message_id, emoji, custom_emoji_id, user_id FROM reactions"
                             " WHERE message_id = $1 ORDER BY created_at, user_id";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(message_id)));
    if (!st)
        return NULL;
    json_t *by = json_object();
    if (fold_reactions(st, by) != STORE_DONE) {
        json_decref(by);
        return NULL;
    }
    json_t *list = json_object_get(by, message_id);
    json_t *out = list ? json_incref(list) : json_array();
    json_decref(by);
    return out;
}

json_t *store_message_json(struct store *db, const char *id, int *rc)
{
    static const char *SQL = MESSAGE_SELECT " WHERE m.id = $1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(id)));
    if (!st) {
        *rc = STORE_ERR;
        return NULL;
    }
    json_t *m = NULL;
    char channel[UUID_LEN + 1] = "";
    if ((*rc = store__step(st)) == STORE_ROW) {
        m = message_row(st, clock_now_ms());
        store__text_copy(st, 2, channel, sizeof channel);
        if (!store__is_null(st, 3)) /* a thread's message lives in the thread */
            store__text_copy(st, 3, channel, sizeof channel);
    }
    store__finish(st);
    if (m) {
        json_t *one = json_pack("[O]", m);
        int polls = store__polls_attach(db, channel, one, NULL);
        if (polls == STORE_DONE)
            polls = store__previews_attach(db, channel, one);
        json_decref(one);
        json_t *reactions = polls == STORE_DONE ? store_reactions_json(db, id) : NULL;
        if (!reactions) {
            json_decref(m);
            *rc = STORE_ERR;
            return NULL;
        }
        json_object_set_new(m, "reactions", reactions);
    }
    return m;
}

int store_message_ref(struct store *db, const char *id, struct store_message_ref *out)
{
    static const char *SQL =
        "SELECT channel_id, author_id, COALESCE(application_id, '') FROM messages WHERE id = $1";
    memset(out, 0, sizeof *out);
    int found;
    struct store_stmt *st = store__row(db, SQL, id, &found);
    if (st) {
        store__text_copy(st, 0, out->channel_id, sizeof out->channel_id);
        store__text_copy(st, 1, out->author_id, sizeof out->author_id);
        store__text_copy(st, 2, out->application_id, sizeof out->application_id);
        store__finish(st);
    }
    return found;
}

json_t *store_message_by_nonce(struct store *db, const char *author_id, const char *nonce,
                               int64_t now, int *rc)
{
    static const char *SQL = "SELECT id FROM messages WHERE author_id = $1 AND nonce = $2"
                             " AND created_at > $3";
    static const struct store_col COLS[] = {{"id", COL_TEXT}};
    json_t *row = store__get_json(
        db, SQL, SV_ARGS(SV_STR(author_id), SV_STR(nonce), SV_INT(now - MESSAGE_NONCE_TTL_MS)),
        STORE_COLS(COLS), rc);
    const char *id = json_string_value(json_object_get(row, "id"));
    json_t *m = id ? store_message_json(db, id, rc) : NULL;
    json_decref(row);
    return m;
}

int store_message_in_channel(struct store *db, const char *id, const char *channel_id)
{
    static const char *SQL = "SELECT 1 FROM messages WHERE id = $1 AND channel_id = $2";
    return store__exists(db, SQL, SV_ARGS(SV_STR(id), SV_STR(channel_id)));
}

int store_message_insert_at(struct store *db, struct store_new_message *m)
{
#define INSERT_ONE                                                                                 \
    "INSERT INTO messages (id, channel_id, thread_parent_id, server_id, author_id,"                \
    " application_id, type, content, embeds, components, flags, command_name,"                     \
    " command_invoker_id, reply_to_id, mentions, mentioned_role_ids, mentions_everyone,"           \
    " created_at, attachments, webhook_id, author_name, author_avatar, nonce)"
#define VALUES_ONE                                                                                 \
    " $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,"       \
    " $20, $21, $22, $23"
    static const char *SQL = INSERT_ONE " VALUES (" VALUES_ONE ")";
    /* No foreign key on PostgreSQL: the channel is locked here, and its absence leaves nothing. */
    static const char *SQL_LOCKING = INSERT_ONE
        " SELECT" VALUES_ONE " WHERE EXISTS (SELECT 1 FROM channels WHERE id = $2 FOR KEY SHARE)";
#undef INSERT_ONE
#undef VALUES_ONE
    /* A nonce is held a day: an older message gives it up to this one. */
    static const char *SQL_EXPIRE = "UPDATE messages SET nonce = NULL WHERE author_id = $1"
                                    " AND nonce = $2 AND created_at <= $3";
    if (m->nonce) {
        int expired = store__exec(
            db, SQL_EXPIRE,
            SV_ARGS(SV_STR(m->author_id), SV_STR(m->nonce), SV_INT(m->now - MESSAGE_NONCE_TTL_MS)));
        if (expired != STORE_DONE)
            return expired;
    }
    if (store__message_row_may_wait(db, m))
        return store__message_row_hold(db, m);
    int rc = store__exec(
        db, store__messages_lock_channel(db) ? SQL_LOCKING : SQL,
        SV_ARGS(SV_STR(m->id), SV_STR(m->channel_id), SV_STR(m->thread_parent_id),
                SV_STR(m->server_id), SV_STR(m->author_id), SV_STR(m->application_id),
                SV_STR(m->type), SV_STR(m->content), SV_STR(m->embeds_json),
                SV_STR(m->components_json), SV_INT(m->flags), SV_STR(m->command_name),
                SV_STR(m->command_invoker_id), SV_STR(m->reply_to_id), SV_STR(m->mentions_json),
                SV_STR(m->role_ids_json), SV_INT(m->everyone), SV_INT(m->now),
                SV_STR(m->attachments_json), SV_STR(m->webhook ? m->webhook->id : NULL),
                SV_STR(m->webhook ? m->webhook->name : NULL),
                SV_STR(m->webhook ? m->webhook->avatar_url : NULL), SV_STR(m->nonce)));
    if (rc == STORE_CONSTRAINT && m->nonce)
        return STORE_TAKEN; /* that nonce made a message already: the caller answers with it */
    if (rc == STORE_DONE && store__messages_lock_channel(db) && store__changes(db) != 1)
        return STORE_MISSING; /* the channel was deleted by a commit that came first */
    if (rc == STORE_DONE && m->files && m->files->n)
        rc = store_attachments_put_at(db, m->files, m->id, m->channel_id, m->server_id, m->now);
    if (rc == STORE_DONE && m->poll)
        rc = store__poll_insert_at(db, m->id, m->channel_id, m->poll);
    if (rc == STORE_DONE && m->forward)
        rc = store__forward_insert_at(db, m->id, m->forward);
    return rc;
}

STORE_WRITE_AS(store_message_insert, struct store_new_message, store_message_insert_at)

static int message_edit_job(struct store *db, void *arg)
{
    static const char *SQL =
        "UPDATE messages SET content = $2, embeds = $3, components = $4, flags = $5,"
        " mentions = $6, mentioned_role_ids = $7, mentions_everyone = $8, edited_at = $9"
        " WHERE id = $1";
    static const char *FILES = "UPDATE messages SET attachments = $2 WHERE id = $1";
    const struct store_message_edit *e = arg;
    int rc =
        store__exec(db, SQL,
                    SV_ARGS(SV_STR(e->id), SV_STR(e->content), SV_STR(e->embeds_json),
                            SV_STR(e->components_json), SV_INT(e->flags), SV_STR(e->mentions_json),
                            SV_STR(e->role_ids_json), SV_INT(e->everyone), SV_INT(e->now)));
    if (rc == STORE_DONE && e->files)
        rc = store__exec(db, FILES, SV_ARGS(SV_STR(e->id), SV_STR(e->attachments_json)));
    if (rc == STORE_DONE && e->files)
        rc = store_attachments_put_at(db, e->files, e->id, e->channel_id, e->server_id, e->now);
    return rc;
}

int store_message_edit(struct store_writer *w, const struct store_message_edit *e)
{
    return store_write(w, message_edit_job, (void *)e);
}

int store_message_delete(struct store_writer *w, const char *id, int64_t *changes)
{
    static const char *SQL = "DELETE FROM messages WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(id)), changes);
}

/* Runs a page query (newest first) appending rows to out; returns the row count or < 0. */
static int page_rows(struct store *db, const char *sql, const char *channel_id, const char *bound,
                     int64_t limit, json_t *out)
{
    struct store_stmt *st =
        store__query(db, sql, SV_ARGS(SV_STR(channel_id), SV_STR(bound), SV_INT(limit)));
    if (!st)
        return STORE_ERR;
    int rc, n = 0;
    int64_t now = clock_now_ms();
    while ((rc = store__step(st)) == STORE_ROW) {
        json_array_append_new(out, message_row(st, now));
        n++;
    }
    store__finish(st);
    return rc == STORE_DONE ? n : rc;
}

static int attach_reactions(struct store *db, const char *channel_id, json_t *page)
{
    static const char *SQL = "SELECT message_id, emoji, custom_emoji_id, user_id FROM reactions"
                             " WHERE channel_id = $1 AND message_id >= $2 AND message_id <= $3"
                             " ORDER BY message_id, created_at, user_id";
    size_t n = json_array_size(page);
    if (!n)
        return STORE_DONE;
    const char *lo = json_string_value(json_object_get(json_array_get(page, 0), "id"));
    const char *hi = json_string_value(json_object_get(json_array_get(page, n - 1), "id"));
    struct store_stmt *st =
        store__query(db, SQL, SV_ARGS(SV_STR(channel_id), SV_STR(lo), SV_STR(hi)));
    if (!st)
        return STORE_ERR;
    json_t *by = json_object();
    int rc = fold_reactions(st, by);
    size_t i;
    json_t *m;
    json_array_foreach(page, i, m)
    {
        json_t *list = json_object_get(by, json_string_value(json_object_get(m, "id")));
        if (list)
            json_object_set(m, "reactions", list);
    }
    json_decref(by);
    return rc;
}

static void reverse(json_t *a)
{
    size_t n = json_array_size(a);
    for (size_t i = 0; i < n / 2; i++) {
        json_t *x = json_incref(json_array_get(a, i));
        json_array_set(a, i, json_array_get(a, n - 1 - i));
        json_array_set_new(a, n - 1 - i, x);
    }
}

json_t *store_messages_page(struct store *db, const char *channel_id, enum store_page_mode mode,
                            const char *bound, int64_t limit, int *has_more)
{
    static const char *SQL_OLDER = MESSAGE_SELECT " WHERE m.channel_id = $1 AND m.id < $2"
                                                  " ORDER BY m.id DESC LIMIT $3";
    static const char *SQL_NEWER = MESSAGE_SELECT " WHERE m.channel_id = $1 AND m.id >= $2"
                                                  " ORDER BY m.id LIMIT $3";
    /* "Latest" is "older than anything": every UUID sorts below "g". */
    const char *top = mode == PAGE_LATEST ? "g" : bound;
    json_t *older = json_array();
    int64_t want_older = mode == PAGE_AROUND ? limit / 2 : limit;
    int n = page_rows(db, SQL_OLDER, channel_id, top, want_older + 1, older);
    if (n < 0) {
        json_decref(older);
        return NULL;
    }
    *has_more = n > want_older;
    if (*has_more)
        json_array_remove(older, json_array_size(older) - 1);
    reverse(older);
    if (mode == PAGE_AROUND) {
        json_t *newer = json_array();
        int64_t want_newer = limit - want_older;
        int k = page_rows(db, SQL_NEWER, channel_id, bound, want_newer + 1, newer);
        if (k < 0) {
            json_decref(older);
            json_decref(newer);
            return NULL;
        }
        if (k > want_newer) {
            *has_more = 1;
            json_array_remove(newer, json_array_size(newer) - 1);
        }
        json_array_extend(older, newer);
        json_decref(newer);
    }
    if (attach_reactions(db, channel_id, older) != STORE_DONE ||
        store__polls_attach(db, channel_id, older, NULL) != STORE_DONE ||
        store__previews_attach(db, channel_id, older) != STORE_DONE) {
        json_decref(older);
        return NULL;
    }
    return older;
}

/* The one integer a query answers (0 with no row); < 0 on error. */
static int64_t one_int(struct store *db, const char *sql, const struct store_val *args,
                       size_t nargs)
{
    struct store_stmt *st = store__query(db, sql, args, nargs);
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    int64_t v = rc == STORE_ROW ? store__int(st, 0) : 0;
    store__finish(st);
    return rc == STORE_ROW || rc == STORE_DONE ? v : rc;
}

/* Each step reads or writes one row of reaction_kinds (at most RULE_EMOJI_PER_MESSAGE for the
 * cap): the cost does not grow with the people who reacted. */
static int reaction_toggle_at(struct store *db, struct store_reaction_toggle *t)
{
    static const char *SQL_DELETE =
        "DELETE FROM reactions WHERE message_id = $1 AND emoji = $2 AND custom_emoji_id = $3"
        " AND user_id = $4";
    static const char *SQL_INSERT =
        "INSERT INTO reactions (message_id, channel_id, emoji, custom_emoji_id, user_id,"
        " created_at) VALUES ($1, $5, $2, $3, $4, $6)";
    static const char *SQL_KIND_COUNT = "SELECT count FROM reaction_kinds WHERE message_id = $1"
                                        " AND emoji = $2 AND custom_emoji_id = $3";
    static const char *SQL_KINDS = "SELECT count(*) FROM reaction_kinds WHERE message_id = $1";
    static const char *SQL_KIND_ADD =
        "INSERT INTO reaction_kinds (message_id, emoji, custom_emoji_id, count)"
        " VALUES ($1, $2, $3, 1) ON CONFLICT (message_id, emoji, custom_emoji_id)"
        " DO UPDATE SET count = reaction_kinds.count + 1";
    static const char *SQL_KIND_SUB =
        "UPDATE reaction_kinds SET count = count - 1"
        " WHERE message_id = $1 AND emoji = $2 AND custom_emoji_id = $3";
    static const char *SQL_KIND_GONE = "DELETE FROM reaction_kinds WHERE message_id = $1"
                                       " AND emoji = $2 AND custom_emoji_id = $3 AND count <= 0";
    const char *emoji = t->emoji ? t->emoji : "",
               *custom = t->custom_emoji_id ? t->custom_emoji_id : "";
    struct store_val kind[] = {SV_STR(t->message_id), SV_STR(emoji), SV_STR(custom)};
    int rc = store__exec(
        db, SQL_DELETE,
        SV_ARGS(SV_STR(t->message_id), SV_STR(emoji), SV_STR(custom), SV_STR(t->user_id)));
    if (rc != STORE_DONE)
        return rc;
    t->added = store__changes(db) == 0;
    if (!t->added) {
        if ((rc = store__exec(db, SQL_KIND_SUB, kind, 3)) != STORE_DONE ||
            (rc = store__exec(db, SQL_KIND_GONE, kind, 3)) != STORE_DONE)
            return rc;
    } else {
        int64_t have = one_int(db, SQL_KIND_COUNT, kind, 3);
        int64_t kinds = have == 0 ? one_int(db, SQL_KINDS, kind, 1) : 0;
        if (have < 0 || kinds < 0)
            return STORE_ERR;
        if (kinds >= RULE_EMOJI_PER_MESSAGE)
            return STORE_FULL;
        if ((rc = store__exec(db, SQL_INSERT,
                              SV_ARGS(SV_STR(t->message_id), SV_STR(emoji), SV_STR(custom),
                                      SV_STR(t->user_id), SV_STR(t->channel_id),
                                      SV_INT(t->now)))) != STORE_DONE ||
            (rc = store__exec(db, SQL_KIND_ADD, kind, 3)) != STORE_DONE)
            return rc;
    }
    t->count = one_int(db, SQL_KIND_COUNT, kind, 3);
    return t->count < 0 ? STORE_ERR : STORE_DONE;
}

static int reaction_toggle_job(struct store *db, void *arg)
{
    return reaction_toggle_at(db, arg);
}

json_t *store_messages_pinned(struct store *db, const char *channel_id)
{
    static const char *SQL = MESSAGE_SELECT " WHERE m.channel_id = $1 AND m.pinned = 1"
                                            " ORDER BY m.id DESC LIMIT $2";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(channel_id), SV_INT(PINS_MAX)));
    if (!st)
        return NULL;
    json_t *out = json_array();
    int rc;
    int64_t now = clock_now_ms();
    while ((rc = store__step(st)) == STORE_ROW)
        json_array_append_new(out, message_row(st, now));
    store__finish(st);
    if (rc != STORE_DONE || store__polls_attach(db, channel_id, out, NULL) != STORE_DONE ||
        store__previews_attach(db, channel_id, out) != STORE_DONE) {
        json_decref(out);
        return NULL;
    }
    return out;
}

int store_reaction_toggle(struct store_writer *w, struct store_reaction_toggle *t)
{
    return store_write(w, reaction_toggle_job, t);
}

static int pin_toggle_at(struct store *db, struct store_pin_toggle *t)
{
    static const char *SQL_STATE = "SELECT pinned FROM messages WHERE id = $1";
    static const char *SQL_COUNT =
        "SELECT count(*) FROM messages WHERE channel_id = $1 AND pinned = 1";
    static const char *SQL_SET = "UPDATE messages SET pinned = $2 WHERE id = $1";
    struct store_stmt *st = store__query(db, SQL_STATE, SV_ARGS(SV_STR(t->message_id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    int pinned = rc == STORE_ROW && store__int(st, 0);
    store__finish(st);
    if (rc != STORE_ROW)
        return rc == STORE_DONE ? STORE_MISSING : rc;
    if (!pinned) {
        st = store__query(db, SQL_COUNT, SV_ARGS(SV_STR(t->channel_id)));
        if (!st)
            return STORE_ERR;
        rc = store__step(st);
        int64_t count = store__int(st, 0);
        store__finish(st);
        if (rc != STORE_ROW)
            return rc;
        if (count >= PINS_MAX)
            return STORE_FULL;
    }
    t->pinned = !pinned;
    return store__exec(db, SQL_SET, SV_ARGS(SV_STR(t->message_id), SV_INT(t->pinned)));
}

STORE_WRITE_AS(store_pin_toggle, struct store_pin_toggle, pin_toggle_at)

int store__member_by_username(struct store *db, const char *sid, const char *username,
                              char id[UUID_LEN + 1])
{
    static const char *SQL = "SELECT u.id FROM users u JOIN members m ON m.user_id = u.id"
                             " WHERE u.username = $2 AND m.server_id = $1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(sid), SV_STR(username)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW)
        store__text_copy(st, 0, id, UUID_LEN + 1);
    store__finish(st);
    return store_found(rc);
}

json_t *store__mentionable_roles(struct store *db, const char *sid)
{
    static const char *SQL = "SELECT id, name FROM roles WHERE server_id = $1 AND mentionable = 1"
                             " AND position > 0 ORDER BY position DESC";
    static const struct store_col COLS[] = {{"id", COL_TEXT}, {"name", COL_TEXT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(sid)), STORE_COLS(COLS));
}

int store_thread_create_at(struct store *db, struct store_new_thread *t)
{
    static const char *SQL =
        "INSERT INTO channels (id, server_id, parent_id, type, name, origin_message_id, created_at)"
        " VALUES ($1, $2, $3, 'thread', $4, $5, $6)";
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(t->id), SV_STR(t->server_id), SV_STR(t->parent_id),
                                 SV_STR(t->name), SV_STR(t->origin_message_id), SV_INT(t->now)));
    return rc == STORE_CONSTRAINT ? STORE_TAKEN : rc;
}

STORE_WRITE_AS(store_thread_create, struct store_new_thread, store_thread_create_at)

json_t *store_reply_target(struct store *db, const char *id, const char *channel_id, int *rc)
{
    static const char *SQL = "SELECT id, author_id, type, substr(content, 1, 100) FROM messages"
                             " WHERE id = $1 AND channel_id = $2";
    return store__get_json(db, SQL, SV_ARGS(SV_STR(id), SV_STR(channel_id)), STORE_COLS(REPLY_COLS),
                           rc);
}

char *store_message_view_text(const struct store_new_message *m, const json_t *reply_to,
                              size_t *len)
{
    const char *thread = m->thread_parent_id;
    struct buf b;
    buf_init(&b, VIEW_MAX);
    struct jsonout_obj o;
    jsonout_obj_begin(&o, &b);
    jsonout_obj_str(&o, "id", m->id);
    jsonout_obj_str(&o, "serverId", m->server_id);
    jsonout_obj_str(&o, "channelId", thread ? thread : m->channel_id);
    jsonout_obj_str(&o, "threadId", thread ? m->channel_id : NULL);
    jsonout_obj_str(&o, "fromId", m->author_id);
    jsonout_obj_str(&o, "content", m->content ? m->content : "");
    jsonout_obj_str(&o, "type", m->type);
    jsonout_obj_time(&o, "createdAt", m->now);
    jsonout_obj_raw(&o, "editedAt", NULL, "null");
    jsonout_obj_raw(&o, "embeds", m->embeds_json, "null");
    jsonout_obj_raw(&o, "components", m->components_json, "null");
    jsonout_obj_int(&o, "flags", m->flags);
    jsonout_obj_str(&o, "applicationId", m->application_id);
    jsonout_obj_str(&o, "commandName", m->command_name);
    jsonout_obj_str(&o, "commandInvokerId", m->command_invoker_id);
    jsonout_obj_str(&o, "replyToId", m->reply_to_id);
    jsonout_obj_value(&o, "replyTo", reply_to);
    jsonout_obj_raw(&o, "mentions", m->mentions_json, "null");
    jsonout_obj_bool(&o, "mentionsEveryone", m->everyone);
    jsonout_obj_raw(&o, "mentionedRoleIds", m->role_ids_json, "null");
    jsonout_obj_raw(&o, "reactions", "[]", NULL);
    jsonout_obj_bool(&o, "pinned", 0);
    jsonout_obj_raw(&o, "attachments", m->attachments_json, "[]");
    json_t *webhook =
        m->webhook
            ? json_pack("{ssssso}", "id", m->webhook->id, "name", m->webhook->name, "avatarUrl",
                        m->webhook->avatar_url ? json_string(m->webhook->avatar_url) : json_null())
            : NULL;
    jsonout_obj_value(&o, "webhook", webhook);
    json_decref(webhook);
    jsonout_obj_raw(&o, "poll", m->poll ? m->poll->view_json : NULL, "null");
    jsonout_obj_raw(&o, "forwarded", m->forward ? m->forward->view_json : NULL, "null");
    jsonout_obj_raw(&o, "previews", "[]", NULL); /* they come later (MESSAGE_PREVIEWS_UPDATE) */
    if (jsonout_obj_end(&o) != BUF_OK) {
        buf_cleanup(&b);
        return NULL;
    }
    return buf_detach(&b, len);
}
