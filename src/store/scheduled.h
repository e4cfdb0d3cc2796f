/*
 * What a person set to happen later: messages to be sent at a time (scheduled_messages) and
 * reminders for themselves (reminders). Both are taken when due by the node that claims them
 * first (a lease: claimed_until), so a node that stops halfway leaves them to the next one.
 */
#ifndef PRACA_STORE_SCHEDULED_H
#define PRACA_STORE_SCHEDULED_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

struct store_new_scheduled {
    const char *id, *user_id, *server_id, *channel_id, *content; /* server_id NULL: a DM */
    int64_t send_at, now, max; /* max: pending ones a person keeps */
};
/* STORE_DONE, or STORE_FULL at max. */
int store_scheduled_create(struct store_writer *w, struct store_new_scheduled *s);
/* uid's pending and failed messages, the soonest first: [{id, serverId, channelId, content,
 * sendAt, createdAt, state, error, messageId}]. NULL on error. */
json_t *store_scheduled_list(struct store *db, const char *uid);
/* One of them; NULL when none (*rc STORE_DONE). */
json_t *store_scheduled_get(struct store *db, const char *uid, const char *id, int *rc);
/* A new text or time (NULL / 0: kept) for a pending or failed one, which is pending again.
 * STORE_MISSING when uid has no such one unsent. */
struct store_scheduled_patch {
    const char *id, *user_id, *content;
    int64_t send_at;
};
int store_scheduled_update(struct store_writer *w, struct store_scheduled_patch *p);
/* Cancels an unsent one: STORE_MISSING when uid has none such. */
struct store_scheduled_ref {
    const char *id, *user_id;
};
int store_scheduled_delete(struct store_writer *w, struct store_scheduled_ref *r);

/* The messages due at now and not claimed, the oldest first, at most limit: [{id, userId,
 * serverId, channelId, content, sendAt}]; NULL on error. */
json_t *store_scheduled_due(struct store *db, int64_t now, int64_t limit);
/* Claims a due message until `until`: changes 1 when this caller has it. */
struct store_claim {
    const char *id;
    int64_t now, until, changes;
};
int store_scheduled_claim(struct store_writer *w, struct store_claim *c);
/* Ends it: sent (message_id) or failed (error). */
struct store_scheduled_end {
    const char *id, *message_id, *error;
};
int store_scheduled_end(struct store_writer *w, struct store_scheduled_end *e);
/* How many wait (any person's), for the metrics and the bench. < 0 on error. */
int64_t store_scheduled_pending(struct store *db);

struct store_new_reminder {
    const char *id, *user_id, *message_id, *note; /* message_id NULL: about nothing but note */
    int64_t remind_at, now, max;
};
int store_reminder_create(struct store_writer *w, struct store_new_reminder *r);
/* uid's pending reminders, the soonest first: [{id, messageId, note, remindAt, createdAt,
 * serverId, channelId, threadId}], the last three where its message is (null without one). */
json_t *store_reminders_list(struct store *db, const char *uid);
/* Deletes one of uid's: STORE_MISSING when none. */
int store_reminder_delete(struct store_writer *w, struct store_scheduled_ref *r);
/* The reminders due, as store_scheduled_due: [{id, userId, messageId, note, remindAt}]. */
json_t *store_reminders_due(struct store *db, int64_t now, int64_t limit);
int store_reminder_claim(struct store_writer *w, struct store_claim *c);
/* A reminder told: it goes (a writer job's function, with the event that tells it). */
int store_reminder_done_at(struct store *db, void *id);

#endif
