/* A call on the SFU: see voice_sfu.h. */
#include "gateway/voice_sfu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto.h"
#include "core/log.h"
#include "core/uuid.h"
#include "gateway/jobs.h"
#include "state/voice.h"

#define JS_SAFE (((uint64_t)1 << 53) - 1)

const char *gateway_sfu_problem(const struct voice_sfu *sfu)
{
    if (!sfu->api_url || !*sfu->api_url)
        return NULL;
    if (strncmp(sfu->api_url, "http://", 7) && strncmp(sfu->api_url, "https://", 8))
        return "--sfu-url: Janus's HTTP API, http:// or https://";
    if (!sfu->ws_url || (strncmp(sfu->ws_url, "ws://", 5) && strncmp(sfu->ws_url, "wss://", 6)))
        return "--sfu-url needs --sfu-ws-url, Janus's WebSocket as pages reach it (ws:// or "
               "wss://)";
    if (!sfu->secret || strlen(sfu->secret) < 16)
        return "--sfu-url needs --sfu-secret of 16 characters or more (Janus's token_auth_secret)";
    return NULL;
}

/* The HMAC-SHA256 of "what\nchannel[\nuser]" under the secret. */
static int mac_of(const char *secret, const char *what, const char *channel_id, const char *user_id,
                  unsigned char out[32])
{
    char msg[16 + 2 * (UUID_LEN + 1)];
    int n = snprintf(msg, sizeof msg, "%s\n%s%s%s", what, channel_id, user_id ? "\n" : "",
                     user_id ? user_id : "");
    if (n < 0 || (size_t)n >= sizeof msg)
        return -1;
    return crypto_hmac("SHA256", secret, strlen(secret), msg, (size_t)n, out) == 32 ? 0 : -1;
}

static uint64_t number_of(const unsigned char mac[32])
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | mac[i];
    v &= JS_SAFE;
    return v ? v : 1;
}

int gateway__sfu_ids(const char *secret, const char *channel_id, const char *user_id,
                     struct sfu_ids *out)
{
    unsigned char mac[32];
    if (!secret || !*secret || !channel_id || !user_id ||
        !uuid_valid(channel_id, strlen(channel_id)) || !uuid_valid(user_id, strlen(user_id)))
        return -1;
    if (mac_of(secret, "room", channel_id, NULL, mac))
        return -1;
    out->room.id = number_of(mac);
    if (mac_of(secret, "room-secret", channel_id, NULL, mac))
        return -1;
    crypto_hex(mac, 16, out->room.secret);
    if (mac_of(secret, "feed", channel_id, user_id, mac))
        return -1;
    out->feed = number_of(mac);
    if (mac_of(secret, "token", channel_id, user_id, mac))
        return -1;
    crypto_hex(mac, 16, out->token);
    return 0;
}

/* ---- which calls are on the SFU (I/O thread) ---- */

int gateway__sfu_on(struct gateway *gw, const char *channel_id, size_t n)
{
    if (!gw->sfu_lane)
        return 0;
    if (!n) {
        map_remove(&gw->sfu_calls, channel_id);
        return 0;
    }
    if (map_get(&gw->sfu_calls, channel_id))
        return 1;
    if (gw->sfu.mesh_max && n <= (size_t)gw->sfu.mesh_max)
        return 0;
    if (map_set(&gw->sfu_calls, channel_id, gw)) {
        log_error("voice: out of memory moving channel %s's call to the SFU", channel_id);
        return 0;
    }
    return 1;
}

json_t *gateway__sfu_media_json(struct gateway *gw, const struct voice_session *list, size_t n)
{
    json_t *feeds = json_array(), *bots = json_array();
    for (size_t i = 0; feeds && bots && i < n; i++) {
        struct sfu_ids ids;
        if (list[i].is_bot)
            json_array_append_new(bots, json_string(list[i].user_id));
        else if (!gateway__sfu_ids(gw->sfu.secret, list[i].channel_id, list[i].user_id, &ids))
            json_array_append_new(feeds, json_pack("{sssI}", "userId", list[i].user_id, "feedId",
                                                   (json_int_t)ids.feed));
    }
    if (!feeds || !bots) {
        json_decref(feeds);
        json_decref(bots);
        return NULL;
    }
    return json_pack("{sssoso}", "media", "sfu", "feeds", feeds, "bots", bots);
}

json_t *gateway__sfu_join_json(struct gateway *gw, const struct voice_session *s, int64_t now_ms)
{
    struct sfu_ids ids;
    char token[SFU_TOKEN_MAX];
    int64_t expires = now_ms / 1000 + gw->sfu.ttl_seconds;
    if (gateway__sfu_ids(gw->sfu.secret, s->channel_id, s->user_id, &ids) ||
        gateway__janus_signed_token(gw->sfu.secret, expires, token))
        return NULL;
    return json_pack("{sssIsIsssssI}", "url", gw->sfu.ws_url, "room", (json_int_t)ids.room.id,
                     "feedId", (json_int_t)ids.feed, "token", ids.token, "sessionToken", token,
                     "expiresAt", (json_int_t)expires * 1000);
}

/* ---- Janus, on the lane ---- */

enum sfu_op { SFU_ADMIT, SFU_DROP, SFU_DESTROY };

struct sfu_job {
    struct gateway_job base;
    enum sfu_op op;
    struct sfu_ids ids;
    uint64_t replaced;
    uint64_t *keep; /* the feeds still in the call (SFU_DROP) */
    size_t nkeep;
    int ok;
    sfu_admitted_fn then;
    void *arg;
};

static void sfu_on_lane(struct gateway_job *j, void *thread_ctx)
{
    struct sfu_job *s = (struct sfu_job *)j;
    struct sfu_janus *janus = thread_ctx;
    int rc =
        s->op == SFU_ADMIT ? gateway__janus_admit(janus, &s->ids.room, s->ids.token, s->replaced)
        : s->op == SFU_DROP
            ? gateway__janus_drop(janus, &s->ids.room, s->ids.token, s->ids.feed, s->keep, s->nkeep)
            : gateway__janus_destroy(janus, &s->ids.room);
    s->ok = rc == 0;
}

static void sfu_answered(struct gateway_job *j)
{
    struct sfu_job *s = (struct sfu_job *)j;
    if (!s->ok && !s->then)
        log_error("voice: the SFU did not take a change to room %llu",
                  (unsigned long long)s->ids.room.id);
    if (s->then)
        s->then(j->gw, s->arg, s->ok);
    free(s->keep);
    free(s);
}

/* A job for s's call; NULL (logged) when out of memory or the IDs cannot be made. */
static struct sfu_job *job_for(struct gateway *gw, const struct voice_session *s, enum sfu_op op)
{
    struct sfu_job *j = calloc(1, sizeof *j);
    if (!j || gateway__sfu_ids(gw->sfu.secret, s->channel_id, s->user_id, &j->ids)) {
        log_error("voice: cannot reach the SFU about channel %s", s->channel_id);
        free(j);
        return NULL;
    }
    j->op = op;
    j->base.work = sfu_on_lane;
    j->base.done = sfu_answered;
    return j;
}

void gateway__sfu_admit(struct gateway *gw, const struct voice_session *s, uint64_t replaced,
                        sfu_admitted_fn then, void *arg)
{
    struct sfu_job *j = job_for(gw, s, SFU_ADMIT);
    if (!j) {
        then(gw, arg, 0);
        return;
    }
    j->replaced = replaced;
    j->then = then;
    j->arg = arg;
    gateway__run_on(gw, gw->sfu_lane, &j->base);
}

void gateway__sfu_gone(struct gateway *gw, const struct voice_session *s)
{
    if (!gw->sfu_lane || s->is_bot || !map_get(&gw->sfu_calls, s->channel_id))
        return;
    struct voice_session *list = NULL;
    long n = state_voice_list(gw->voice, VOICE_BY_CHANNEL, s->channel_id, &list);
    struct sfu_job *j = n >= 0 ? job_for(gw, s, SFU_DROP) : NULL;
    if (j && n > 0 && !(j->keep = calloc((size_t)n, sizeof *j->keep))) {
        free(j);
        j = NULL;
    }
    for (long i = 0; j && i < n; i++) {
        struct sfu_ids ids;
        if (!list[i].is_bot &&
            !gateway__sfu_ids(gw->sfu.secret, s->channel_id, list[i].user_id, &ids))
            j->keep[j->nkeep++] = ids.feed;
    }
    free(list);
    if (j)
        gateway__run_on(gw, gw->sfu_lane, &j->base);
    if (n == 0 && !gateway__sfu_on(gw, s->channel_id, 0) && (j = job_for(gw, s, SFU_DESTROY)))
        gateway__run_on(gw, gw->sfu_lane, &j->base);
}

/* ---- the lane ---- */

static void *lane_open(void *arg, int index)
{
    (void)index;
    const struct gateway *gw = arg;
    return gateway__janus_open(gw->sfu.api_url, gw->sfu.secret);
}

static void lane_close(void *ctx)
{
    gateway__janus_close(ctx);
}

static void lane_run(struct job *job, void *ctx)
{
    (void)job; /* every job on the lane brings its own run */
    (void)ctx;
}

int gateway__sfu_start(struct gateway *gw, const struct voice_sfu *cfg)
{
    gw->sfu = *cfg;
    map_init(&gw->sfu_calls);
    if (!cfg->api_url || !*cfg->api_url)
        return 0;
    gw->sfu_lane = workers_new("praca-sfu", 1, lane_open, lane_close, lane_run, gw);
    return gw->sfu_lane ? 0 : -1;
}

void gateway__sfu_stop(struct gateway *gw)
{
    workers_free(gw->sfu_lane);
    gw->sfu_lane = NULL;
    map_cleanup(&gw->sfu_calls);
}
