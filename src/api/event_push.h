/*
 * Events pushed over HTTP: for each application with an events endpoint, the events its bot
 * would receive on the gateway are POSTed there, signed like interactions, in position order,
 * up to PUSH_BATCH_EVENTS (or PUSH_BATCH_BYTES of payload) a batch, with the last position
 * looked at as the cursor. A 2xx moves the cursor; anything else is tried again after a backoff
 * that doubles from --events-retry-ms up to PUSH_RETRY_MAX_MS, for as long as the log keeps the
 * events; past its retention the next batch starts with EVENTS_GAP.
 *
 * One batch in flight per application, on the endpoints thread. Which node pushes an
 * application is decided by a lease in the database (store/event_push.h), taken for
 * PUSH_LEASE_MS and renewed while it pushes. A tick on the I/O thread (every PUSH_TICK_MS)
 * hands each application with something new to a worker.
 */
#ifndef PRACA_API_EVENT_PUSH_H
#define PRACA_API_EVENT_PUSH_H

#define PUSH_TICK_MS      100
#define PUSH_BATCH_EVENTS 100
#define PUSH_BATCH_BYTES  (512 * 1024)
#define PUSH_RETRY_MAX_MS (5 * 60 * 1000)
#define PUSH_LEASE_MS     30000
#define PUSH_RENEW_MS     20000 /* renewed once less than this is left */
#define PUSH_RELIST_MS    5000  /* the list of applications that push is read again */
#define PUSH_APPS_MAX     10000 /* applications pushed by one node */

struct api_service;
struct api_push;

struct api_push *api_push_new(struct api_service *svc);
/* After api_push_stop and once the workers are gone. NULL is fine. */
void api_push_free(struct api_push *p);
/* On the I/O thread, every PUSH_TICK_MS. */
void api_push_tick(struct api_push *p);
/* Before the endpoints thread stops: no batch is sent from then on. */
void api_push_stop(struct api_push *p);
/* Any thread: the owner changed app_id's endpoint (URL, pause, resume, replay); it is read again
 * at the next tick. */
void api__push_changed(struct api_push *p, const char *app_id);

#endif
