/*
 * Redacting a message's logged events, in the transaction of its edit or deletion: a deleted
 * message's MESSAGE_CREATE and MESSAGE_UPDATE rows are never replayed again, and an edited one's
 * carry the new text, so nobody resuming from the log reads what was deleted or edited away.
 * Rows kept by reference (store__event_by_reference) need none of it: the replay reads the
 * message as it is, or finds it gone.
 */
#ifndef PRACA_STORE_EVENT_REDACT_H
#define PRACA_STORE_EVENT_REDACT_H
#include <stddef.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/event_log.h"

/* The message a MESSAGE_CREATE, MESSAGE_UPDATE or MESSAGE_DELETE is about (e->message_id, as its
 * publisher set it); 1 found, 0 for any other event. */
int store__event_message_id(const struct store_event *e, char out[UUID_LEN + 1]);
/* 1 when e is logged by reference to its message (message_id): a server's MESSAGE_CREATE or
 * MESSAGE_UPDATE, whose payload is the message as stored. Its row keeps an empty payload, and a
 * replay reads the message as it is then (store_events_after): the log does not hold a second
 * copy of every message, and never replays text edited or deleted away. */
int store__event_by_reference(const struct store_event *e);
/* 1 when e redacts earlier events (an edit or a deletion). */
int store__event_redacts(const struct store_event *e);
/* Redacts the earlier events of message_id as e (its edit or deletion) asks. */
int store__event_redact(struct store *db, const struct store_event *e, const char *message_id);

#endif
