/*
 * The event log: every event the gateway delivers, with its position (commit order), where it
 * happened and who may receive it, kept for the retention window so connections can resume.
 */
#ifndef PRACA_STORE_EVENT_LOG_H
#define PRACA_STORE_EVENT_LOG_H
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"

struct store_event {
    const char *type;
    const char *stream;     /* server ID, or NULL for an event addressed to user_id */
    const char *channel_id; /* NULL: server-wide */
    uint32_t intent;        /* the intent bit a bot needs; 0 none */
    const char *user_id;    /* the one recipient, or NULL */
    const char *payload;
    size_t len;
    int64_t at;
    uint64_t position; /* filled by store_events_after */
    uint64_t seq;      /* its place in its stream (gap-free per server); 0 without a stream */
    int redacted;      /* filled by store_events_after: its message was deleted, never replay it */
    const char *message_id; /* the message it is about (its publisher's header), or NULL */
};

/* Appends e (on the writer's connection, inside its transaction); *position gets its place.
 * A message's edit or deletion redacts the message's earlier events in the same transaction
 * (store/event_redact.h).
 * With several writers (store__positions_at_commit) the place is given just before the commit
 * (store__events_flush), so positions follow commit order: *position must then stay valid until
 * the transaction ends, and stays 0 for an event forgotten with its savepoint. */
int store_event_append(struct store *db, const struct store_event *e, uint64_t *position);
/* The writer's side of giving positions at commit: how many events wait for theirs (a
 * savepoint's mark); forgetting those after a mark (the savepoint rolled back); giving them
 * their positions (the last statement before COMMIT); dropping them (store_close). Without
 * positions at commit nothing waits and these do nothing. */
size_t store__events_waiting(const struct store *db);
void store__events_forget(struct store *db, size_t keep);
int store__events_flush(struct store *db);
/* Gives them their positions and commits the transaction (store__commit): with nothing else to
 * run after it, the positions' statement takes the COMMIT along in its round trip. STORE_DONE
 * when both went well; on a failure nothing is committed and the caller rolls back. */
int store__events_flush_commit(struct store *db);
void store__events_discard(struct store *db);
/* Calls fn with each event after position `after`, oldest first, at most limit of them.
 * Returns how many, or < 0. The strings live until fn returns. */
long store_events_after(struct store *db, uint64_t after, long limit,
                        void (*fn)(void *arg, const struct store_event *e), void *arg);
/* The first and last positions kept (0 and 0 when the log is empty). */
int store_events_bounds(struct store *db, uint64_t *first, uint64_t *last);
#define STORE_EVENTS_NAME_LEN 16
/* The log's name (STORE_EVENTS_NAME_LEN hex digits), given at random by the first caller and the
 * same for every node since. STORE_DONE or STORE_ERR. */
int store_events_name(struct store *db, char name[STORE_EVENTS_NAME_LEN + 1]);
/* Deletes events older than before (ms); *deleted gets how many. */
int store_events_trim(struct store *db, int64_t before, int64_t *deleted);

#endif
