/* Web Push, a message's way to a device: encrypted, authorized, sent, tried again or forgotten.
 * See web_push.h. */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/endpoint.h"
#include "api/web_push_private.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"
#include "core/workers.h"

#define VAPID_LIFE_S  (12 * 3600) /* RFC 8292 allows up to a day */
#define VAPID_RENEW_S 3600        /* a cached token is renewed this long before it ends */

struct wp_vapid {
    char header[WEBPUSH_VAPID_MAX];
    int64_t until; /* unix seconds */
};

static void vapid_free(const char *key, void *value, void *arg)
{
    (void)key, (void)arg;
    free(value);
}

void api__web_push_vapid_free(struct api_web_push *wp)
{
    map_each(&wp->vapid, vapid_free, NULL);
}

/* The origin of an endpoint (scheme://host[:port]), the audience its token names. */
static int service_of(const char *endpoint, char *out, size_t cap)
{
    const char *host = strstr(endpoint, "://");
    if (!host)
        return -1;
    size_t len = (size_t)(host + 3 - endpoint) + strcspn(host + 3, "/?#");
    if (len >= cap)
        return -1;
    memcpy(out, endpoint, len);
    out[len] = '\0';
    return 0;
}

/* The push service's Authorization header: made once per service and kept while it lasts. */
static const char *vapid_for(struct api_web_push *wp, const char *service)
{
    int64_t now = clock_wall_ms() / 1000;
    struct wp_vapid *v = map_get(&wp->vapid, service);
    if (v && v->until - now > VAPID_RENEW_S)
        return v->header;
    if (!v) {
        if (wp->vapid.count >= 1000) /* a few services exist; bound the cache all the same */
            return NULL;
        if (!(v = calloc(1, sizeof *v)) || map_set(&wp->vapid, service, v)) {
            free(v);
            return NULL;
        }
    }
    const char *subject =
        wp->svc->cfg->push_contact[0] ? wp->svc->cfg->push_contact : wp->svc->site_url;
    if (webpush_vapid(&wp->keys, service, subject, now + VAPID_LIFE_S, v->header)) {
        v->until = 0;
        return NULL;
    }
    v->until = now + VAPID_LIFE_S;
    return v->header;
}

static void submit(struct wp_send *s);

/* A call ended: the oldest message waiting for one goes (api__endpoint_push refused it while
 * the service had PUSH_PER_SERVICE in flight, or all of them PUSH_SERVICE_TOTAL). */
static void pump(struct api_web_push *wp)
{
    pthread_mutex_lock(&wp->mu);
    struct wp_send *next = wp->stopping ? NULL : wp->waiting;
    if (next) {
        wp->waiting = next->next;
        if (!wp->waiting)
            wp->waiting_tail = NULL;
        wp->nwaiting--;
    }
    pthread_mutex_unlock(&wp->mu);
    if (next)
        submit(next);
}

/* On the notify lane: the push service forgot the subscription. */
static void gone_run(struct job *job, void *thread_ctx)
{
    struct wp_send *s = JOB_OF(job, struct wp_send, job);
    (void)thread_ctx;
    if (store_push_sub_gone(s->wp->svc->writer, s->endpoint) != STORE_DONE)
        log_warn("web push: a subscription the push service forgot could not be deleted");
    free(s);
}

/* 1 s, 4 s, 16 s. */
static int64_t backoff_ms(int tries)
{
    int64_t ms = 1000;
    for (int i = 1; i < tries; i++)
        ms *= 4;
    return ms;
}

/* On the endpoints thread. */
static void answered(void *arg, int sent, struct endpoint_result *r)
{
    struct wp_send *s = arg;
    struct api_web_push *wp = s->wp;
    long status = sent ? 0 : r->status;
    api__endpoint_result_cleanup(r);
    if (status >= 200 && status < 300) {
        atomic_fetch_add(&wp->n.accepted, 1);
        free(s);
        pump(wp);
        return;
    }
    pthread_mutex_lock(&wp->mu);
    int stopping = wp->stopping;
    int again =
        !stopping && s->tries < WEB_PUSH_TRIES && (status == 0 || status == 429 || status >= 500);
    if (again) {
        s->due = clock_mono_ms() + backoff_ms(s->tries);
        s->next = wp->retries;
        wp->retries = s;
    }
    pthread_mutex_unlock(&wp->mu);
    if (again)
        atomic_fetch_add(&wp->n.retried, 1);
    else if ((status == 404 || status == 410) && !stopping) {
        atomic_fetch_add(&wp->n.gone, 1);
        s->job = (struct job){.run = gone_run};
        workers_submit(wp->svc->notify, &s->job);
    } else {
        atomic_fetch_add(&wp->n.failed, 1);
        if (status)
            log_info("web push: %s answered %ld; message dropped", s->service, status);
        free(s);
    }
    pump(wp);
}

static void submit(struct wp_send *s)
{
    struct api_web_push *wp = s->wp;
    s->tries++;
    if (!api__endpoint_push(wp->svc->endpoints, s->service, s->endpoint, s->authorization,
                            s->urgency, s->body, s->len, wp->svc->cfg->allow_private_endpoints,
                            answered, s)) {
        atomic_fetch_add(&wp->n.sent, 1);
        return;
    }
    /* Every call it may have is taken: it waits for one to end (pump), within a bound. */
    s->tries--;
    pthread_mutex_lock(&wp->mu);
    int room = !wp->stopping && wp->nwaiting < WEB_PUSH_WAITING_MAX;
    if (room) {
        s->next = NULL;
        if (wp->waiting_tail)
            wp->waiting_tail->next = s;
        else
            wp->waiting = s;
        wp->waiting_tail = s;
        wp->nwaiting++;
    }
    pthread_mutex_unlock(&wp->mu);
    if (!room) {
        atomic_fetch_add(&wp->n.failed, 1);
        free(s);
    }
}

void api__web_push_send(struct api_web_push *wp, const struct store_push_sub *sub, const char *text,
                        size_t len, const char *urgency)
{
    struct wp_send *s = calloc(1, sizeof *s + len + WEBPUSH_OVERHEAD);
    struct webpush_keys sender;
    unsigned char salt[WEBPUSH_SALT_LEN];
    crypto_random(salt, sizeof salt);
    const char *authorization = NULL;
    if (!s || service_of(sub->endpoint, s->service, sizeof s->service) ||
        !(authorization = vapid_for(wp, s->service)) || webpush_keys_new(&sender) ||
        webpush_encrypt(sub->p256dh, sub->auth, &sender, salt, text, len, s->body, &s->len)) {
        atomic_fetch_add(&wp->n.failed, 1);
        free(s);
        return;
    }
    s->wp = wp;
    s->urgency = urgency;
    memcpy(s->endpoint, sub->endpoint, sizeof s->endpoint);
    snprintf(s->authorization, sizeof s->authorization, "%s", authorization);
    pthread_mutex_lock(&wp->mu);
    int stopping = wp->stopping;
    pthread_mutex_unlock(&wp->mu);
    if (stopping)
        free(s);
    else
        submit(s);
}

void api__web_push_retry_due(struct api_web_push *wp, int64_t now)
{
    struct wp_send *due = NULL;
    pthread_mutex_lock(&wp->mu);
    for (struct wp_send **at = &wp->retries; *at;) {
        struct wp_send *s = *at;
        if (s->due <= now || wp->stopping) {
            *at = s->next;
            s->next = due;
            due = s;
        } else
            at = &s->next;
    }
    int stopping = wp->stopping;
    pthread_mutex_unlock(&wp->mu);
    for (struct wp_send *s = due, *next; s; s = next) {
        next = s->next;
        if (stopping)
            free(s);
        else
            submit(s);
    }
}
