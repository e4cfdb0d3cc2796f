/*
 * Web Push: a new message reaches the devices of the people it concerns with their pages
 * closed. The bus shows this node each message it publishes, after its commit (bus_set_observer);
 * the observer copies it onto a bounded queue and returns, so a send never waits for a push.
 * One thread of its own (the `notify` lane) decides who is told (domain/notify_rules.h: levels,
 * mutes, mentions, "não perturbe", a room being read), encrypts one message per device
 * (core/webpush.h) and hands it to the outbound HTTP thread (api/endpoint.h). Only the node
 * that published a message pushes it, so several nodes push each one once. On one node, while
 * no device is subscribed anywhere, the observer copies nothing (the count is read every 5 s,
 * and a registration here counts at once); with several, every message is looked at.
 *
 * A push service's 404 or 410 forgets the subscription; no answer, a 429 or a 5xx is tried
 * again after 1 s, 4 s and 16 s (a Retry-After up to a minute wins), then dropped.
 */
#ifndef PRACA_API_WEB_PUSH_H
#define PRACA_API_WEB_PUSH_H
#include <stdint.h>

#include "bus/bus.h"

#define WEB_PUSH_QUEUE_MAX   10000 /* messages waiting to be looked at; past it they are dropped */
#define WEB_PUSH_TRIES       4     /* the first and three more */
#define WEB_PUSH_TEXT_MAX    200   /* bytes of a message's first line in a notification */
#define WEB_PUSH_WAITING_MAX 20000 /* encrypted messages waiting for a call (about 40 MB) */

struct api_service;
struct api_web_push;

/* Counters since the start (any thread). */
struct api_web_push_stats {
    unsigned long queued, dropped;              /* messages */
    unsigned long sent, accepted, failed, gone; /* push requests; gone: subscriptions forgotten */
    unsigned long retried;
};

struct api_web_push *api_web_push_new(struct api_service *svc);
/* The bus observer (bus_set_observer); user is the api_web_push. */
void api_web_push_observe(void *user, const struct bus_event *ev);
/* On the I/O thread, every PUSH_TICK_MS (api/event_push.h): retries that are due leave. */
void api_web_push_tick(struct api_web_push *wp);
/* Before the endpoints thread stops: nothing is sent from then on. */
void api_web_push_stop(struct api_web_push *wp);
/* Once the notify lane and the endpoints thread are gone. NULL is fine. */
void api_web_push_free(struct api_web_push *wp);
void api_web_push_stats(struct api_web_push *wp, struct api_web_push_stats *out);
/* A device was registered here: messages are looked at from now on (any thread). */
void api__web_push_device_added(struct api_web_push *wp);

#endif
