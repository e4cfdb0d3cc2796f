/* What api/web_push.c (the queue and who is told) and api/web_push_send.c (encryption, the
 * requests and their retries) share. */
#ifndef PRACA_API_WEB_PUSH_PRIVATE_H
#define PRACA_API_WEB_PUSH_PRIVATE_H
#include <pthread.h>
#include <stdatomic.h>

#include "api/web_push.h"
#include "core/job.h"
#include "core/map.h"
#include "core/webpush.h"
#include "store/web_push.h"

/* One new message, as the observer copied it. */
struct wp_message {
    struct wp_message *next;
    struct bus_where where;
    struct idset *to; /* who may read it (one reference, or NULL) */
    int reminder;     /* a REMINDER_DUE for where.user, not a message */
    size_t len;
    char payload[]; /* its JSON, NUL-terminated */
};

/* One encrypted message for one device, in flight or waiting to be tried again. */
struct wp_send {
    struct job job; /* the notify lane's, for the answer */
    struct api_web_push *wp;
    struct wp_send *next; /* in the retries */
    char endpoint[STORE_PUSH_ENDPOINT_MAX + 1];
    char service[300]; /* the endpoint's origin: the VAPID audience */
    char authorization[WEBPUSH_VAPID_MAX];
    const char *urgency; /* a static string */
    int tries;
    int64_t due; /* monotonic ms, while it waits */
    size_t len;
    unsigned char body[];
};

struct api_web_push {
    struct api_service *svc;
    pthread_mutex_t mu;
    struct wp_message *head, *tail; /* under mu */
    size_t queued;
    int draining, counting, stopping;
    struct job drain, count;
    struct wp_send *retries;                /* under mu */
    struct wp_send *waiting, *waiting_tail; /* under mu: for a call to end, oldest first */
    size_t nwaiting;
    atomic_long devices; /* subscriptions anywhere at the last count; -1 before one */
    atomic_ulong added;  /* devices registered here so far */
    int64_t counted_at;  /* monotonic ms (the I/O thread's) */
    /* The notify lane's own: */
    struct webpush_keys keys;
    int64_t keys_at;  /* monotonic ms when read; read again each minute (a rotation) */
    struct map vapid; /* service origin -> struct wp_vapid */
    struct {
        atomic_ulong queued, dropped, sent, accepted, failed, gone, retried;
    } n;
};

/* web_push_send.c: encrypts text for device sub and sends it (on the notify lane). */
void api__web_push_send(struct api_web_push *wp, const struct store_push_sub *sub, const char *text,
                        size_t len, const char *urgency);
/* The VAPID cache's entries, freed with the whole. */
void api__web_push_vapid_free(struct api_web_push *wp);
/* The I/O thread: resubmits the retries that are due. */
void api__web_push_retry_due(struct api_web_push *wp, int64_t now);

#endif
