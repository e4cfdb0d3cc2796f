/* Interactions endpoint: see endpoint.h. */
#include "api/endpoint.h"
#include "core/thread_name.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdint.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/map.h"
#include "domain/urls.h"

int api_endpoint_global_init(void)
{
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

void api_endpoint_global_cleanup(void)
{
    curl_global_cleanup();
}

void api__endpoint_signature(const char *secret, int64_t ts, const char *body, size_t len,
                             char out[72])
{
    struct buf msg;
    buf_init(&msg, len + 32);
    buf_appendf(&msg, "%lld.", (long long)ts);
    buf_append(&msg, body, len);
    unsigned char mac[32] = {0};
    crypto_hmac("SHA256", secret, strlen(secret), msg.data, msg.len, mac);
    buf_cleanup(&msg);
    memcpy(out, "sha256=", 7);
    crypto_hex(mac, sizeof mac, out + 7);
}

/* One call: its handle, what it sends, what came back so far, who to tell. */
struct call {
    CURL *easy;
    struct curl_slist *headers;
    struct buf answer;
    int allow_private;
    int is_fetch, is_push;
    int partial_ok, cut; /* a page: its first bytes are enough (cut: the rest was not read) */
    char app_id[64];     /* or "fetch:" and the person's ID, or "page:" and the site */
    int64_t started;
    endpoint_done_fn done;
    void *arg;
    struct call *next;
};

struct endpoints {
    pthread_t thread;
    pthread_mutex_t lock;
    CURLM *multi;
    struct call *incoming; /* submitted, not yet added to multi */
    struct map per_app;    /* app id -> calls in flight (a count in the pointer) */
    size_t in_flight;
    size_t fetches; /* of which media fetches */
    size_t pushes;  /* of which Web Push messages */
    int stopping;
};

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    struct call *c = arg;
    size_t len = size * n;
    if (buf_append(&c->answer, data, len) < 0) {
        c->cut = c->partial_ok;
        return 0; /* over the call's body_max: stops the transfer */
    }
    return len;
}

/* Checked on the resolved address, so a public name cannot lead to a private address. */
static curl_socket_t open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
    struct call *c = arg;
    (void)purpose;
    if (!c->allow_private && rule_url_address_is_private((const struct sockaddr *)&a->addr))
        return CURL_SOCKET_BAD;
    return socket(a->family, a->socktype, a->protocol);
}

static void call_free(struct call *c)
{
    if (!c)
        return;
    curl_easy_cleanup(c->easy);
    curl_slist_free_all(c->headers);
    buf_cleanup(&c->answer);
    free(c);
}

/* A call to url with what every call shares: the answer kept up to body_max, timeout_ms. */
static struct call *call_open(const char *url, int allow_private, size_t body_max, long timeout_ms)
{
    struct call *c = calloc(1, sizeof *c);
    if (!c || !(c->easy = curl_easy_init())) {
        free(c);
        return NULL;
    }
    c->allow_private = allow_private;
    buf_init(&c->answer, body_max);
    CURL *e = c->easy;
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    /* Never through a proxy from the environment (http_proxy …): the address checked for
     * privacy must be the endpoint's own. */
    curl_easy_setopt(e, CURLOPT_PROXY, "");
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, c);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, c);
    curl_easy_setopt(e, CURLOPT_PRIVATE, c);
    return c;
}

/* c POSTs body (copied) with those headers. */
static void post(struct call *c, const char *const *headers, size_t n, const void *body, size_t len)
{
    for (size_t i = 0; i < n; i++)
        c->headers = curl_slist_append(c->headers, headers[i]);
    curl_easy_setopt(c->easy, CURLOPT_HTTPHEADER, c->headers);
    curl_easy_setopt(c->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    curl_easy_setopt(c->easy, CURLOPT_COPYPOSTFIELDS, body);
}

static struct call *call_new(const char *url, const char *secret, const char *body, size_t len,
                             int allow_private)
{
    struct call *c = call_open(url, allow_private, ENDPOINT_BODY_MAX, ENDPOINT_TIMEOUT_MS);
    if (!c)
        return NULL;
    int64_t ts = clock_now_ms() / 1000;
    char signature[72], header_ts[64], header_sig[96];
    api__endpoint_signature(secret, ts, body, len, signature);
    snprintf(header_ts, sizeof header_ts, "X-Signature-Timestamp: %lld", (long long)ts);
    snprintf(header_sig, sizeof header_sig, "X-Signature-256: %s", signature);
    const char *headers[] = {"Content-Type: application/json", "User-Agent: Praca-Interactions/1",
                             "Expect:", header_ts, header_sig};
    post(c, headers, sizeof headers / sizeof headers[0], body, len);
    return c;
}

/* Under the lock: the application's count moves by delta; returns it before the move. */
static uintptr_t count_app(struct endpoints *e, const char *app_id, int delta)
{
    uintptr_t n = (uintptr_t)map_get(&e->per_app, app_id);
    uintptr_t next = delta > 0 ? n + 1 : n - 1;
    if (next)
        map_set(&e->per_app, app_id, (void *)next);
    else
        map_remove(&e->per_app, app_id);
    return n;
}

static void finish(struct endpoints *e, struct call *c, CURLcode rc)
{
    struct endpoint_result r = {.latency_ms = clock_mono_ms() - c->started};
    if (rc == CURLE_WRITE_ERROR && c->cut)
        rc = CURLE_OK; /* a page read as far as it is read */
    if (rc == CURLE_OK) {
        const char *type = NULL;
        curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &r.status);
        if (curl_easy_getinfo(c->easy, CURLINFO_CONTENT_TYPE, &type) != CURLE_OK || !type ||
            slice_copy(slice_from(type), r.content_type, sizeof r.content_type))
            r.content_type[0] = '\0';
        r.body = buf_detach(&c->answer, &r.body_len); /* NUL-terminated, or NULL */
    }
    curl_multi_remove_handle(e->multi, c->easy);
    pthread_mutex_lock(&e->lock);
    count_app(e, c->app_id, -1);
    e->in_flight--;
    e->fetches -= (size_t)c->is_fetch;
    e->pushes -= (size_t)c->is_push;
    pthread_mutex_unlock(&e->lock);
    c->done(c->arg, rc == CURLE_OK ? 0 : -1, &r);
    call_free(c);
}

static void *endpoints_main(void *arg)
{
    struct endpoints *e = arg;
    thread_name("praca-endpoints");
    for (;;) {
        pthread_mutex_lock(&e->lock);
        struct call *fresh = e->incoming;
        e->incoming = NULL;
        int stop = e->stopping && !e->in_flight;
        pthread_mutex_unlock(&e->lock);
        if (stop)
            break;
        for (struct call *c = fresh, *next; c; c = next) {
            next = c->next;
            c->started = clock_mono_ms();
            CURLMcode added = curl_multi_add_handle(e->multi, c->easy);
            if (added != CURLM_OK)
                finish(e, c, CURLE_FAILED_INIT);
        }
        int running, left;
        curl_multi_perform(e->multi, &running);
        CURLMsg *m;
        while ((m = curl_multi_info_read(e->multi, &left))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            struct call *c;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&c);
            finish(e, c, m->data.result);
        }
        curl_multi_poll(e->multi, NULL, 0, 1000, NULL);
    }
    return NULL;
}

struct endpoints *api_endpoints_new(void)
{
    struct endpoints *e = calloc(1, sizeof *e);
    if (!e || !(e->multi = curl_multi_init())) {
        free(e);
        return NULL;
    }
    pthread_mutex_init(&e->lock, NULL);
    map_init(&e->per_app);
    if (pthread_create(&e->thread, NULL, endpoints_main, e)) {
        curl_multi_cleanup(e->multi);
        pthread_mutex_destroy(&e->lock);
        free(e);
        return NULL;
    }
    return e;
}

void api_endpoints_free(struct endpoints *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->lock);
    e->stopping = 1;
    pthread_mutex_unlock(&e->lock);
    curl_multi_wakeup(e->multi);
    pthread_join(e->thread, NULL);
    curl_multi_cleanup(e->multi);
    map_cleanup(&e->per_app);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

/* Queues c for the calls' thread when its key (c->app_id) and the totals leave room. */
static int submit(struct endpoints *e, struct call *c, size_t per_key, endpoint_done_fn done,
                  void *arg)
{
    c->done = done;
    c->arg = arg;
    pthread_mutex_lock(&e->lock);
    int room = !e->stopping && e->in_flight < ENDPOINT_TOTAL &&
               (!c->is_fetch || e->fetches < FETCH_TOTAL) &&
               (!c->is_push || e->pushes < PUSH_SERVICE_TOTAL) &&
               (uintptr_t)map_get(&e->per_app, c->app_id) < per_key;
    if (room) {
        count_app(e, c->app_id, +1);
        e->in_flight++;
        e->fetches += (size_t)c->is_fetch;
        e->pushes += (size_t)c->is_push;
        c->next = e->incoming;
        e->incoming = c;
    }
    pthread_mutex_unlock(&e->lock);
    if (!room) {
        call_free(c);
        return -1;
    }
    curl_multi_wakeup(e->multi);
    return 0;
}

int api__endpoint_call(struct endpoints *e, const char *app_id, const char *url, const char *secret,
                       const char *body, size_t len, int allow_private, endpoint_done_fn done,
                       void *arg)
{
    struct call *c = call_new(url, secret, body, len, allow_private);
    if (!c || slice_copy(slice_from(app_id), c->app_id, sizeof c->app_id)) {
        call_free(c);
        return -1;
    }
    return submit(e, c, ENDPOINT_PER_APP, done, arg);
}

/* A GET saying who asks and what it takes. */
static void call_get(struct call *c, const char *agent, const char *accept)
{
    c->headers = curl_slist_append(NULL, agent);
    c->headers = curl_slist_append(c->headers, accept);
    curl_easy_setopt(c->easy, CURLOPT_HTTPHEADER, c->headers);
    curl_easy_setopt(c->easy, CURLOPT_HTTPGET, 1L);
}

int api__endpoint_fetch(struct endpoints *e, const char *user_id, const char *url,
                        int allow_private, endpoint_done_fn done, void *arg)
{
    struct call *c = call_open(url, allow_private, FETCH_BODY_MAX, FETCH_TIMEOUT_MS);
    if (!c)
        return -1;
    c->is_fetch = 1;
    snprintf(c->app_id, sizeof c->app_id, "fetch:%s", user_id);
    call_get(c, "User-Agent: Praca-Media/1", "Accept: image/*");
    return submit(e, c, FETCH_PER_PERSON, done, arg);
}

int api__endpoint_page(struct endpoints *e, const char *url, int allow_private,
                       endpoint_done_fn done, void *arg)
{
    char site[56] = "";
    const char *host = strstr(url, "://");
    if (host)
        snprintf(site, sizeof site, "%.*s", (int)strcspn(host + 3, "/?#"), host + 3);
    struct call *c = call_open(url, allow_private, PAGE_BODY_MAX, PAGE_TIMEOUT_MS);
    if (!c)
        return -1;
    c->is_fetch = 1;
    c->partial_ok = 1;
    snprintf(c->app_id, sizeof c->app_id, "page:%s", site);
    call_get(c, "User-Agent: Praca-Preview/1", "Accept: text/html,application/xhtml+xml");
    /* Each hop's address is checked again as its connection opens (open_socket). */
    curl_easy_setopt(c->easy, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c->easy, CURLOPT_MAXREDIRS, (long)PAGE_REDIRECTS_MAX);
    curl_easy_setopt(c->easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    return submit(e, c, PAGE_PER_SITE, done, arg);
}

int api__endpoint_push(struct endpoints *e, const char *service, const char *url,
                       const char *authorization, const char *urgency, const void *body, size_t len,
                       int allow_private, endpoint_done_fn done, void *arg)
{
    struct call *c = call_open(url, allow_private, PUSH_SERVICE_BODY_MAX, PUSH_SERVICE_TIMEOUT_MS);
    if (!c)
        return -1;
    c->is_push = 1;
    snprintf(c->app_id, sizeof c->app_id, "push:%.57s", service);
    char auth[800], urg[40];
    snprintf(auth, sizeof auth, "Authorization: %s", authorization);
    snprintf(urg, sizeof urg, "Urgency: %s", urgency);
    /* A day to reach a device that is off: a chat message older than that is news no more. */
    const char *headers[] = {"Content-Type: application/octet-stream",
                             "Content-Encoding: aes128gcm",
                             "TTL: 86400",
                             "User-Agent: Praca-Push/1",
                             "Expect:",
                             auth,
                             urg};
    post(c, headers, sizeof headers / sizeof headers[0], body, len);
    return submit(e, c, PUSH_PER_SERVICE, done, arg);
}

void api__endpoint_result_cleanup(struct endpoint_result *r)
{
    free(r->body);
    r->body = NULL;
}
