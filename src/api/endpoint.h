/*
 * Outbound HTTP: signed JSON POSTs to an application's interactions endpoint, the GETs of the
 * media proxy (api/media.c) and of link previews (api/previews.c; those alone follow redirects),
 * and Web Push messages to push services (api/web_push.c). http and https only, no proxy, private
 * addresses refused unless the operator allows them. Calls run on a thread of their own (libcurl's
 * multi interface), never on a request worker, with at most ENDPOINT_PER_APP in flight per
 * application and FETCH_PER_PERSON per person.
 */
#ifndef PRACA_API_ENDPOINT_H
#define PRACA_API_ENDPOINT_H
#include <stddef.h>
#include <stdint.h>

#define ENDPOINT_TIMEOUT_MS     3000
#define ENDPOINT_BODY_MAX       (1000 * 1000)
#define ENDPOINT_PER_APP        8    /* calls in flight per application */
#define ENDPOINT_TOTAL          1024 /* calls in flight, all applications */
#define FETCH_TIMEOUT_MS        5000
#define FETCH_BODY_MAX          (4 * 1000 * 1000)
#define FETCH_PER_PERSON        2  /* so it takes 16 people to fill every slot */
#define FETCH_TOTAL             32 /* so fetched bodies hold at most 128 MB */
#define PAGE_TIMEOUT_MS         4000
#define PAGE_BODY_MAX           (512 * 1024) /* a page's first bytes: its <head> is in them */
#define PAGE_PER_SITE           4            /* pages read at once from one site */
#define PAGE_REDIRECTS_MAX      3
#define PUSH_SERVICE_TIMEOUT_MS 10000
#define PUSH_SERVICE_BODY_MAX   4096 /* a push service's answer says little */
#define PUSH_PER_SERVICE        64   /* in flight to one push service (its origin) */
#define PUSH_SERVICE_TOTAL      256  /* so pushes never hold every call */

struct endpoint_result {
    long status;        /* the HTTP status; 0 when there was no answer */
    int64_t latency_ms; /* from the start of the request to the end of the answer */
    char *body;         /* the answer's body, NUL-terminated (owned); NULL when none */
    size_t body_len;
    char content_type[96]; /* as the answer said it, or "" */
};

/* Call once at start, before any thread uses libcurl. */
int api_endpoint_global_init(void);
void api_endpoint_global_cleanup(void);

/* The signature headers' value for body at unix time ts: "sha256=" + hex HMAC-SHA256 of
 * "<ts>.<body>" with secret. out must hold 72 bytes. */
void api__endpoint_signature(const char *secret, int64_t ts, const char *body, size_t len,
                             char out[72]);

/* Told when a call ends, on the calls' thread (hand the work elsewhere at once): sent is 0 when an
 * answer came (any status), -1 otherwise (timeout, refused address, connection error). The
 * result is the callee's to clean up. */
typedef void (*endpoint_done_fn)(void *arg, int sent, struct endpoint_result *result);

struct endpoints;

/* Starts the calls' thread; NULL when it cannot. */
struct endpoints *api_endpoints_new(void);
/* Waits for the calls in flight (each ends within ENDPOINT_TIMEOUT_MS), then stops. NULL is
 * fine. */
void api_endpoints_free(struct endpoints *e);
/* POSTs body (copied) to url, signed with secret, for application app_id. Returns 0 (done will
 * be told), or -1 when that application already has ENDPOINT_PER_APP calls in flight, or all
 * of them ENDPOINT_TOTAL, or out of memory (done will not be told). */
int api__endpoint_call(struct endpoints *e, const char *app_id, const char *url, const char *secret,
                       const char *body, size_t len, int allow_private, endpoint_done_fn done,
                       void *arg);
/* GETs url for person user_id (at most FETCH_PER_PERSON of theirs, FETCH_TOTAL in all, in flight;
 * FETCH_TIMEOUT_MS; a body over FETCH_BODY_MAX fails the call). As api__endpoint_call otherwise. */
int api__endpoint_fetch(struct endpoints *e, const char *user_id, const char *url,
                        int allow_private, endpoint_done_fn done, void *arg);
/* GETs the page at url for a link preview: at most PAGE_PER_SITE from its site and FETCH_TOTAL
 * fetches in all in flight, PAGE_TIMEOUT_MS, up to PAGE_REDIRECTS_MAX redirects (each to http(s),
 * each address checked), its first PAGE_BODY_MAX bytes (a longer page is cut there, not failed).
 * As api__endpoint_call otherwise. */
int api__endpoint_page(struct endpoints *e, const char *url, int allow_private,
                       endpoint_done_fn done, void *arg);
/* POSTs a Web Push message (body, encrypted: aes128gcm) to a subscription's url at the push
 * service whose origin is service, with its VAPID authorization and urgency (RFC 8030 §5.3), at
 * most PUSH_PER_SERVICE to one service and PUSH_SERVICE_TOTAL in all in flight. As
 * api__endpoint_call otherwise. */
int api__endpoint_push(struct endpoints *e, const char *service, const char *url,
                       const char *authorization, const char *urgency, const void *body, size_t len,
                       int allow_private, endpoint_done_fn done, void *arg);
void api__endpoint_result_cleanup(struct endpoint_result *r);

#endif
