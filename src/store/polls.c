/* Polls: see polls.h. */
#include "store/polls.h"

#include <string.h>

#include "core/clock.h"
#include "core/log.h"

int store__poll_insert_at(struct store *db, const char *message_id, const char *channel_id,
                          const struct store_new_poll *p)
{
    static const char *SQL = "INSERT INTO polls (message_id, channel_id, question, answers,"
                             " multiple, ends_at, voters) VALUES ($1, $2, $3, $4, $5, $6, 0)";
    static const char *SQL_ANSWER =
        "INSERT INTO poll_answers (message_id, answer_id, votes) VALUES ($1, $2, 0)";
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(message_id), SV_STR(channel_id), SV_STR(p->question),
                                 SV_STR(p->answers_json), SV_INT(p->multiple), SV_INT(p->ends_at)));
    for (size_t id = 1; rc == STORE_DONE && id <= p->n_answers; id++)
        rc = store__exec(db, SQL_ANSWER, SV_ARGS(SV_STR(message_id), SV_INT((int64_t)id)));
    return rc;
}

int store_poll_head(struct store *db, const char *message_id, struct store_poll_head *out)
{
    static const char *SQL =
        "SELECT ends_at, multiple, (SELECT count(*) FROM poll_answers a"
        " WHERE a.message_id = p.message_id) FROM polls p WHERE message_id = $1";
    int found;
    struct store_stmt *st = store__row(db, SQL, message_id, &found);
    if (!st)
        return found < 0 ? found : 0;
    out->ends_at = store__int(st, 0);
    out->multiple = store__int(st, 1) != 0;
    out->n_answers = (size_t)store__int(st, 2);
    store__finish(st);
    return 1;
}

/* Moves one answer's count by delta. */
static int count_move(struct store *db, const char *message_id, int answer_id, int delta)
{
    static const char *SQL = "UPDATE poll_answers SET votes = votes + $3"
                             " WHERE message_id = $1 AND answer_id = $2";
    return store__exec(db, SQL, SV_ARGS(SV_STR(message_id), SV_INT(answer_id), SV_INT(delta)));
}

/* Takes back user_id's choices, moving their counts down; *had tells whether there were any. */
static int choices_drop(struct store *db, const struct store_poll_vote *v, int *had)
{
    static const char *SQL = "DELETE FROM poll_votes WHERE message_id = $1 AND user_id = $2"
                             " RETURNING answer_id";
    struct store_stmt *st =
        store__query(db, SQL, SV_ARGS(SV_STR(v->message_id), SV_STR(v->user_id)));
    if (!st)
        return STORE_ERR;
    int was[64], n = 0, rc;
    while ((rc = store__step(st)) == STORE_ROW)
        if (n < (int)(sizeof was / sizeof was[0]))
            was[n++] = (int)store__int(st, 0);
    store__finish(st);
    *had = n > 0;
    for (int i = 0; rc == STORE_DONE && i < n; i++)
        rc = count_move(db, v->message_id, was[i], -1);
    return rc;
}

static int poll_vote_at(struct store *db, struct store_poll_vote *v)
{
    static const char *SQL_ENDS = "SELECT ends_at FROM polls WHERE message_id = $1";
    static const char *SQL_ADD =
        "INSERT INTO poll_votes (message_id, user_id, answer_id) VALUES ($1, $2, $3)";
    static const char *SQL_VOTERS = "UPDATE polls SET voters = voters + $2 WHERE message_id = $1";
    int found;
    struct store_stmt *st = store__row(db, SQL_ENDS, v->message_id, &found);
    if (!st)
        return found < 0 ? STORE_ERR : STORE_MISSING;
    int64_t ends_at = store__int(st, 0);
    store__finish(st);
    if (v->now >= ends_at)
        return STORE_REFUSED;
    int had = 0;
    int rc = choices_drop(db, v, &had);
    for (size_t i = 0; rc == STORE_DONE && i < v->n; i++) {
        rc = store__exec(db, SQL_ADD,
                         SV_ARGS(SV_STR(v->message_id), SV_STR(v->user_id), SV_INT(v->answers[i])));
        if (rc == STORE_DONE)
            rc = count_move(db, v->message_id, v->answers[i], 1);
    }
    int voters = (v->n > 0) - had; /* a first choice adds a voter; taking all back removes one */
    if (rc == STORE_DONE && voters)
        rc = store__exec(db, SQL_VOTERS, SV_ARGS(SV_STR(v->message_id), SV_INT(voters)));
    return rc;
}

STORE_WRITE_AS(store_poll_vote, struct store_poll_vote, poll_vote_at)

static int poll_end_at(struct store *db, struct store_poll_end *e)
{
    static const char *SQL = "UPDATE polls SET ends_at = $2 WHERE message_id = $1 AND ends_at > $2";
    static const char *SQL_ANY = "SELECT 1 FROM polls WHERE message_id = $1";
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(e->message_id), SV_INT(e->now)));
    e->changes = rc == STORE_DONE ? store__changes(db) : 0;
    if (rc != STORE_DONE || e->changes)
        return rc;
    int any = store__exists(db, SQL_ANY, SV_ARGS(SV_STR(e->message_id)));
    return any < 0 ? STORE_ERR : any ? STORE_DONE : STORE_MISSING;
}

STORE_WRITE_AS(store_poll_end, struct store_poll_end, poll_end_at)

json_t *store__poll_row(struct store_stmt *st, int col, int64_t now)
{
    if (store__is_null(st, col))
        return json_null();
    json_t *answers = json_loadb(store__text(st, col + 1), store__text_len(st, col + 1), 0, NULL);
    if (!json_is_array(answers)) {
        log_error("polls: the answers of a poll are not a list");
        json_decref(answers);
        answers = json_array();
    }
    size_t i;
    json_t *a;
    json_array_foreach(answers, i, a) json_object_set_new(a, "count", json_integer(0));
    int64_t ends_at = store__int(st, col + 3);
    char at[CLOCK_ISO_LEN + 1];
    clock_format_iso(ends_at, at);
    return json_pack("{s:s%,s:o,s:b,s:s,s:b,s:I,s:[]}", "question", store__text(st, col),
                     (size_t)store__text_len(st, col), "answers", answers, "multiple",
                     store__int(st, col + 2) != 0, "endsAt", at, "ended", now >= ends_at, "voters",
                     (json_int_t)store__int(st, col + 4), "myVotes");
}

/* message ID → its poll (borrowed), for the messages that have one. */
static json_t *polls_by_id(json_t *messages)
{
    json_t *by = json_object();
    size_t i;
    json_t *m;
    json_array_foreach(messages, i, m)
    {
        json_t *poll = json_object_get(m, "poll");
        const char *id = json_string_value(json_object_get(m, "id"));
        if (json_is_object(poll) && id)
            json_object_set(by, id, poll);
    }
    return by;
}

/* Rows (message_id, answer_id[, votes]) folded into the polls: a count, or one of the reader's
 * choices when the row has no votes column. */
static int fold(struct store_stmt *st, json_t *by, int counts)
{
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        json_t *poll = json_object_get(by, store__text(st, 0));
        int64_t answer = store__int(st, 1);
        if (!poll)
            continue;
        if (counts) {
            json_t *a = json_array_get(json_object_get(poll, "answers"), (size_t)(answer - 1));
            json_object_set_new(a, "count", json_integer(store__int(st, 2)));
        } else {
            json_array_append_new(json_object_get(poll, "myVotes"), json_integer(answer));
        }
    }
    store__finish(st);
    return rc;
}

/* The smallest and largest ID of the messages with a poll (by holds them). */
static void id_range(json_t *by, const char **lo, const char **hi)
{
    const char *k;
    json_t *v;
    *lo = *hi = NULL;
    json_object_foreach(by, k, v)
    {
        if (!*lo || strcmp(k, *lo) < 0)
            *lo = k;
        if (!*hi || strcmp(k, *hi) > 0)
            *hi = k;
    }
}

static int attach_counts(struct store *db, const char *channel_id, json_t *by)
{
    static const char *SQL =
        "SELECT a.message_id, a.answer_id, a.votes FROM poll_answers a"
        " JOIN polls p ON p.message_id = a.message_id"
        " WHERE p.channel_id = $1 AND p.message_id >= $2 AND p.message_id <= $3";
    const char *lo, *hi;
    id_range(by, &lo, &hi);
    if (!lo)
        return STORE_DONE;
    struct store_stmt *st =
        store__query(db, SQL, SV_ARGS(SV_STR(channel_id), SV_STR(lo), SV_STR(hi)));
    return st ? fold(st, by, 1) : STORE_ERR;
}

static int attach_mine(struct store *db, const char *uid, json_t *by)
{
    static const char *SQL = "SELECT message_id, answer_id FROM poll_votes"
                             " WHERE user_id = $1 AND message_id >= $2 AND message_id <= $3"
                             " ORDER BY message_id, answer_id";
    const char *lo, *hi;
    id_range(by, &lo, &hi);
    if (!lo)
        return STORE_DONE;
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(uid), SV_STR(lo), SV_STR(hi)));
    return st ? fold(st, by, 0) : STORE_ERR;
}

int store__polls_attach(struct store *db, const char *channel_id, json_t *messages, const char *uid)
{
    json_t *by = polls_by_id(messages);
    int rc = attach_counts(db, channel_id, by);
    if (rc == STORE_DONE && uid)
        rc = attach_mine(db, uid, by);
    json_decref(by);
    return rc;
}

int store_polls_mine(struct store *db, json_t *messages, const char *uid)
{
    json_t *by = polls_by_id(messages);
    int rc = attach_mine(db, uid, by);
    json_decref(by);
    return rc;
}

json_t *store_poll_json(struct store *db, const char *message_id, const char *uid, int *rc)
{
    static const char *SQL = "SELECT question, answers, multiple, ends_at, voters, channel_id"
                             " FROM polls WHERE message_id = $1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(message_id)));
    if (!st) {
        *rc = STORE_ERR;
        return NULL;
    }
    json_t *poll = NULL;
    char channel[64] = "";
    if ((*rc = store__step(st)) == STORE_ROW) {
        poll = store__poll_row(st, 0, clock_now_ms());
        store__text_copy(st, 5, channel, sizeof channel);
    }
    store__finish(st);
    if (!poll)
        return NULL;
    json_t *one = json_pack("[{s:s,s:O}]", "id", message_id, "poll", poll);
    *rc = store__polls_attach(db, channel, one, uid);
    json_decref(one);
    if (*rc != STORE_DONE) {
        json_decref(poll);
        return NULL;
    }
    return poll;
}
