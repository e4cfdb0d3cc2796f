/*
 * Polls on messages: the poll a message was sent with, its counts per answer, and each person's
 * own choices. A vote replaces the voter's choices and moves the counts by increments, so votes
 * on one poll from several writers (nodes) add up exactly.
 */
#ifndef PRACA_STORE_POLLS_H
#define PRACA_STORE_POLLS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

struct store_new_poll {
    const char *question, *answers_json; /* as domain/poll_rules.h keeps them */
    int multiple;
    size_t n_answers;
    int64_t ends_at;
    const char *view_json; /* the poll as the new message shows it (store__poll_row's shape) */
};
/* Inside the insert of message_id (its transaction). */
int store__poll_insert_at(struct store *db, const char *message_id, const char *channel_id,
                          const struct store_new_poll *p);

/* What a vote is checked against: 1 when message_id has a poll, 0 when not, < 0 on error. */
struct store_poll_head {
    int64_t ends_at;
    int multiple;
    size_t n_answers;
};
int store_poll_head(struct store *db, const char *message_id, struct store_poll_head *out);

/* user_id's choices become answers (n of them, none: the vote is taken back). STORE_MISSING when
 * the message has no poll, STORE_REFUSED when it ended before now. */
struct store_poll_vote {
    const char *message_id, *user_id;
    const int *answers;
    size_t n;
    int64_t now;
};
int store_poll_vote(struct store_writer *w, struct store_poll_vote *v);

/* Ends the poll at now: changes 1, or 0 when it had ended already; STORE_MISSING when none. */
struct store_poll_end {
    const char *message_id;
    int64_t now;
    int64_t changes;
};
int store_poll_end(struct store_writer *w, struct store_poll_end *e);

/* The poll object of a MESSAGE_SELECT-style row whose poll columns start at col (null when the
 * message has none): {question, answers: [{id, text, emoji, count: 0}], multiple, endsAt, ended,
 * voters, myVotes: []}; counts and the reader's choices come with store__polls_attach. */
json_t *store__poll_row(struct store_stmt *st, int col, int64_t now);
/* Fills in counts (and, for uid non-NULL, myVotes) of the polls among messages, which live in
 * channel_id. STORE_DONE or an error. */
int store__polls_attach(struct store *db, const char *channel_id, json_t *messages,
                        const char *uid);
/* Fills in uid's own choices (myVotes) of the polls among messages (a page as
 * store_messages_page answers it). STORE_DONE or an error. */
int store_polls_mine(struct store *db, json_t *messages, const char *uid);
/* The poll of message_id with its counts and uid's choices; NULL when none (*rc STORE_DONE). */
json_t *store_poll_json(struct store *db, const char *message_id, const char *uid, int *rc);

#endif
