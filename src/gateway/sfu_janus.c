/* Janus's VideoRoom over its HTTP API: see sfu_janus.h. */
#include "gateway/sfu_janus.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"

#define REPLY_MAX    ((size_t)256 << 10) /* a room's participants, listed, fit many times */
#define TIMEOUT_MS   3000L
#define PLUGIN       "janus.plugin.videoroom"
#define PUBLISHERS   1000 /* every participant publishes (a call's own limit is above) */
#define NO_SESSION   458
#define NO_HANDLE    459
#define ROOM_EXISTS  427
#define NO_SUCH_ROOM 426
#define NO_SUCH_FEED 428

struct sfu_janus {
    CURL *curl;
    char *url, *secret;
    uint64_t session, handle; /* 0 until made */
    unsigned long transactions;
};

int gateway__janus_signed_token(const char *secret, int64_t expires_at, char out[SFU_TOKEN_MAX])
{
    unsigned char mac[32];
    int n = snprintf(out, SFU_TOKEN_MAX, "%lld,janus," PLUGIN, (long long)expires_at);
    if (n < 0 || n + 30 >= SFU_TOKEN_MAX) /* ":" and 28 of base64 */
        return -1;
    int len = crypto_hmac("SHA1", secret, strlen(secret), out, (size_t)n, mac);
    if (len != 20)
        return -1;
    out[n] = ':';
    crypto_base64(mac, (size_t)len, out + n + 1);
    return 0;
}

struct sfu_janus *gateway__janus_open(const char *api_url, const char *secret)
{
    struct sfu_janus *j = calloc(1, sizeof *j);
    if (!j || !(j->curl = curl_easy_init()) || !(j->url = strdup(api_url)) ||
        !(j->secret = strdup(secret))) {
        gateway__janus_close(j);
        return NULL;
    }
    return j;
}

void gateway__janus_close(struct sfu_janus *j)
{
    if (!j)
        return;
    if (j->curl)
        curl_easy_cleanup(j->curl);
    free(j->url);
    free(j->secret);
    free(j);
}

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
    struct buf *b = arg;
    return buf_append(b, data, size * n) ? 0 : size * n;
}

/* POSTs body (taken) to the API's path under the session and handle given (0: not under
 * one); the reply's JSON, or NULL when Janus could not be reached or answered no JSON. */
static json_t *post(struct sfu_janus *j, uint64_t session, uint64_t handle, json_t *body)
{
    char url[1024], transaction[24], token[SFU_TOKEN_MAX];
    int n = session && handle ? snprintf(url, sizeof url, "%s/%llu/%llu", j->url,
                                         (unsigned long long)session, (unsigned long long)handle)
            : session ? snprintf(url, sizeof url, "%s/%llu", j->url, (unsigned long long)session)
                      : snprintf(url, sizeof url, "%s", j->url);
    snprintf(transaction, sizeof transaction, "praca-%lu", ++j->transactions);
    if (n < 0 || (size_t)n >= sizeof url || !body ||
        gateway__janus_signed_token(j->secret, clock_now_ms() / 1000 + 60, token) ||
        json_object_set_new(body, "transaction", json_string(transaction)) ||
        json_object_set_new(body, "token", json_string(token))) {
        json_decref(body);
        return NULL;
    }
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    if (!text)
        return NULL;
    struct buf reply;
    buf_init(&reply, REPLY_MAX);
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    curl_easy_reset(j->curl);
    curl_easy_setopt(j->curl, CURLOPT_URL, url);
    curl_easy_setopt(j->curl, CURLOPT_POSTFIELDS, text);
    curl_easy_setopt(j->curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(j->curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(j->curl, CURLOPT_WRITEDATA, &reply);
    curl_easy_setopt(j->curl, CURLOPT_TIMEOUT_MS, TIMEOUT_MS);
    curl_easy_setopt(j->curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(j->curl, CURLOPT_PROTOCOLS_STR, "http,https");
    CURLcode rc = curl_easy_perform(j->curl);
    json_t *out = rc == CURLE_OK ? json_loadb(reply.data, reply.len, 0, NULL) : NULL;
    if (rc != CURLE_OK)
        log_error("sfu: %s: %s", j->url, curl_easy_strerror(rc));
    curl_slist_free_all(headers);
    buf_cleanup(&reply);
    free(text);
    return out;
}

/* The error code of Janus's own answer ("janus": "error"), or 0. */
static int core_error(const json_t *reply)
{
    return json_integer_value(json_object_get(json_object_get(reply, "error"), "code"));
}

/* Makes the session and the VideoRoom handle when they are not there. 0, or -1. */
static int attach(struct sfu_janus *j)
{
    if (!j->session) {
        json_t *r = post(j, 0, 0, json_pack("{ss}", "janus", "create"));
        j->session = json_integer_value(json_object_get(json_object_get(r, "data"), "id"));
        j->handle = 0;
        json_decref(r);
    }
    if (j->session && !j->handle) {
        json_t *r =
            post(j, j->session, 0, json_pack("{ssss}", "janus", "attach", "plugin", PLUGIN));
        j->handle = json_integer_value(json_object_get(json_object_get(r, "data"), "id"));
        if (core_error(r) == NO_SESSION)
            j->session = 0;
        json_decref(r);
    }
    return j->session && j->handle ? 0 : -1;
}

/* Sends a VideoRoom request (body taken); its answer's data (a new reference), or NULL when
 * Janus could not be reached. A session or handle Janus forgot is made again, once. */
static json_t *request(struct sfu_janus *j, json_t *body)
{
    for (int attempt = 0; attempt < 2 && body; attempt++) {
        if (attach(j))
            break;
        json_t *r =
            post(j, j->session, j->handle, json_pack("{sssO}", "janus", "message", "body", body));
        int code = core_error(r);
        if (code == NO_SESSION || code == NO_HANDLE) {
            j->session = code == NO_SESSION ? 0 : j->session;
            j->handle = 0;
            json_decref(r);
            continue;
        }
        json_t *data = json_object_get(json_object_get(r, "plugindata"), "data");
        json_incref(data);
        json_decref(r);
        json_decref(body);
        if (!data && code)
            log_error("sfu: Janus refused a request (%d)", code);
        return data;
    }
    json_decref(body);
    return NULL;
}

/* A request's outcome: 0 when it succeeded or failed with one of the codes given (up to two;
 * 0 for none), else -1. */
static int outcome(json_t *data, int fine, int also_fine)
{
    int code = (int)json_integer_value(json_object_get(data, "error_code"));
    int rc = !data                                                                 ? -1
             : !code || (fine && code == fine) || (also_fine && code == also_fine) ? 0
                                                                                   : -1;
    if (data && code && rc)
        log_error("sfu: %s", json_string_value(json_object_get(data, "error")));
    json_decref(data);
    return rc;
}

static int kick(struct sfu_janus *j, const struct sfu_room *room, uint64_t feed)
{
    return outcome(
        request(j, json_pack("{sssIsssI}", "request", "kick", "room", (json_int_t)room->id,
                             "secret", room->secret, "id", (json_int_t)feed)),
        NO_SUCH_FEED, NO_SUCH_ROOM);
}

int gateway__janus_admit(struct sfu_janus *j, const struct sfu_room *room, const char *token,
                         uint64_t replaced)
{
    json_t *created =
        request(j, json_pack("{sssIsssssis[s]sbsbssss}", "request", "create", "room",
                             (json_int_t)room->id, "admin_key", j->secret, "secret", room->secret,
                             "publishers", PUBLISHERS, "allowed", token, "permanent", 0,
                             "is_private", 1, "audiocodec", "opus", "videocodec", "vp8"));
    int code = (int)json_integer_value(json_object_get(created, "error_code"));
    int rc = outcome(created, ROOM_EXISTS, 0);
    if (!rc && code == ROOM_EXISTS)
        rc = outcome(request(j, json_pack("{sssIsssss[s]}", "request", "allowed", "room",
                                          (json_int_t)room->id, "secret", room->secret, "action",
                                          "add", "allowed", token)),
                     0, 0);
    if (!rc && replaced)
        rc = kick(j, room, replaced);
    return rc;
}

static int among(uint64_t feed, const uint64_t *keep, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (keep[i] == feed)
            return 1;
    return 0;
}

int gateway__janus_drop(struct sfu_janus *j, const struct sfu_room *room, const char *token,
                        uint64_t feed, const uint64_t *keep, size_t nkeep)
{
    int rc = outcome(
        request(j, json_pack("{sssIsssss[s]}", "request", "allowed", "room", (json_int_t)room->id,
                             "secret", room->secret, "action", "remove", "allowed", token)),
        NO_SUCH_ROOM, 0);
    rc |= kick(j, room, feed);
    json_t *listed = request(
        j, json_pack("{sssI}", "request", "listparticipants", "room", (json_int_t)room->id));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(listed, "participants"), i, p)
    {
        json_int_t id = json_integer_value(json_object_get(p, "id"));
        if (id > 0 && (uint64_t)id != feed && !among((uint64_t)id, keep, nkeep))
            rc |= kick(j, room, (uint64_t)id);
    }
    json_decref(listed);
    return rc;
}

int gateway__janus_destroy(struct sfu_janus *j, const struct sfu_room *room)
{
    return outcome(request(j, json_pack("{sssIss}", "request", "destroy", "room",
                                        (json_int_t)room->id, "secret", room->secret)),
                   NO_SUCH_ROOM, 0);
}
