/*
 * A page of the event log as one bot may read it now: the events after a position that the
 * bot is entitled to (state/entitle.h), each {position, type, data}, and where the next page
 * starts. Shared by GET /api/bot/events and the pusher of events endpoints (api/event_push.c).
 */
#ifndef PRACA_API_EVENT_PAGE_H
#define PRACA_API_EVENT_PAGE_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"

struct state;
struct buf;

struct api_event_page {
    json_t *events;  /* [{position, type, data}] (owned); NULL in text mode */
    size_t count;    /* events in the page */
    uint64_t next;   /* the last position looked at: the next page starts after it */
    uint64_t oldest; /* the log's first position when events after `after` were trimmed
                      * (a gap), else 0 */
    int more;        /* the page stopped before the log's end */
};

/* Reads up to `limit` events for user_id after `after`, stopping too once their payloads pass
 * `bytes`. With text (text mode) each event is appended there as JSON text, commas between
 * them, its stored payload as is (a pusher sends it on without parsing it); otherwise they are
 * out->events. 0, or -1 on a storage error (nothing to release then). */
int api__event_page(struct store *db, struct state *state, const char *user_id, uint64_t after,
                    long limit, size_t bytes, struct buf *text, struct api_event_page *out);

#endif
