// How a simulated person behaves: Mattermost's load-test agent (mattermost-load-test-ng's
// simulcontroller) in Praça's terms. Between two actions a person waits 1 s plus an exponential
// pause (20 s on average, its MinIdleTimeMs and AvgIdleTimeMs), then draws one action by its
// weight, the agent's frequencies mapped onto what Praça has (docs/scaling.md lists the map).
// Each message sent carries this run's mark, the time it was sent, its server and its number
// there, so that every person's socket can tell what it received, late or twice.
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "people.h"

static const struct {
    enum action act;
    double weight;
} MIX[] = {
    {ACT_SWITCH, 8.03},     // SwitchChannel 6.52, thread views and reads 1.21, permalinks 0.30
    {ACT_SCROLL, 1.99},     // ScrollChannel
    {ACT_MEMBERS, 0.98},    // OpenDirectOrGroupChannel (the member list is where one finds people)
    {ACT_UNREAD, 1.00},     // UnreadCheck
    {ACT_SEND, 1.00},       // CreatePost, 18% of them replies
    {ACT_REACT, 0.13},      // AddReaction
    {ACT_RECONNECT, 0.144}, // ReconnectWebSocket
    {ACT_SEARCH, 0.09},     // SearchPosts, SearchUsers, SearchChannels, SearchGroupChannels
    {ACT_EDIT, 0.04},       // EditPost
    {ACT_IDLE, 0.10},       // not in the agent: going idle and coming back
};
enum { REPLY_PERCENT = 18 };

static uint64_t next_rand(struct run *r)
{
    r->rng = r->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return r->rng >> 11;
}

static double uniform(struct run *r)
{
    return (double)next_rand(r) / (double)(1ULL << 53);
}

int64_t model_pause_us(struct run *r)
{
    static long min_ms = -1, mean_ms;
    if (min_ms < 0) {
        min_ms = getenv("PEOPLE_PAUSE_MIN_MS") ? atol(getenv("PEOPLE_PAUSE_MIN_MS")) : 1000;
        mean_ms = getenv("PEOPLE_PAUSE_MEAN_MS") ? atol(getenv("PEOPLE_PAUSE_MEAN_MS")) : 20000;
    }
    double u = uniform(r);
    return (int64_t)(min_ms * 1000.0 -
                     log(u > 0 ? u : 1e-12) * (double)(mean_ms - min_ms) * 1000.0);
}

static const char *room_path(struct run *r, int server, int channel, char *out, size_t n)
{
    const struct place *pl = &r->w.places[server];
    snprintf(out, n, "/api/servers/%s/channels/%s", pl->sid, pl->cids[channel]);
    return out;
}

// A recent message of a channel (sent this run), or NULL.
static const char *recent(struct run *r, int server, int channel)
{
    const struct place *pl = &r->w.places[server];
    int n = pl->ring_n[channel] < RING ? pl->ring_n[channel] : RING;
    return n ? pl->ring[channel][next_rand(r) % (uint64_t)n] : NULL;
}

static void done_plain(struct run *r, struct person *p, int what, int status, const char *body,
                       size_t n)
{
    (void)r, (void)what, (void)status, (void)body, (void)n;
    if (p)
        p->busy = false;
}

static void get(struct run *r, struct person *p, int what, http_done done, const char *path)
{
    p->busy = true;
    http_request(r, p, what, done, "GET", path, p->token, NULL);
}

static void call(struct run *r, struct person *p, int what, http_done done, const char *method,
                 const char *path, const char *body)
{
    p->busy = true;
    http_request(r, p, what, done, method, path, p->token, body);
}

// After a room's history, its read mark moves to the newest message known there.
static void done_history(struct run *r, struct person *p, int what, int status, const char *body,
                         size_t n)
{
    done_plain(r, p, what, status, body, n);
    const struct place *pl = &r->w.places[p->room_server];
    int k = pl->ring_n[p->room_channel];
    if (what != T_HISTORY || status != 200 || !k || !p->marking)
        return;
    p->marking = false;
    char path[160], json[96];
    snprintf(path, sizeof path, "/api/users/@me/read-states/%s", pl->cids[p->room_channel]);
    snprintf(json, sizeof json, "{\"messageId\":\"%s\"}",
             pl->ring[p->room_channel][(k - 1) % RING]);
    call(r, p, T_MARK, done_plain, "PUT", path, json);
}

static void done_typing(struct run *r, struct person *p, int what, int status, const char *body,
                        size_t n)
{
    done_plain(r, p, what, status, body, n);
    p->send_due = now_us() + 2000000 + (int64_t)(uniform(r) * 3e6);
    schedule(r, p, p->send_due);
}

static void done_send(struct run *r, struct person *p, int what, int status, const char *body,
                      size_t n)
{
    done_plain(r, p, what, status, body, n);
    struct place *pl = &r->w.places[p->last_server];
    const char *id = status == 200 ? memmem(body, n, "\"id\":\"", 6) : NULL;
    if (!id || (size_t)(id + 6 + ID_LEN - body) > n)
        return;
    bits_set(&pl->sent, p->sending_seq);
    int k = pl->ring_n[p->last_channel]++;
    memcpy(pl->ring[p->last_channel][k % RING], id + 6, ID_LEN);
    pl->ring[p->last_channel][k % RING][ID_LEN] = 0;
    memcpy(p->last_id, id + 6, ID_LEN);
    p->last_id[ID_LEN] = 0;
}

// The message typed comes out.
void model_send_due(struct run *r, struct person *p)
{
    struct place *pl = &r->w.places[p->room_server];
    char path[160], body[320], reply[64] = "";
    const char *to =
        next_rand(r) % 100 < REPLY_PERCENT ? recent(r, p->room_server, p->room_channel) : NULL;
    if (to)
        snprintf(reply, sizeof reply, ",\"replyToId\":\"%s\"", to);
    p->send_due = 0;
    p->sending_seq = pl->next_seq++;
    p->last_server = p->room_server;
    p->last_channel = p->room_channel;
    snprintf(p->last_mark, sizeof p->last_mark, "%s:%lld:%d:%u:", r->nonce, (long long)now_us(),
             p->room_server, p->sending_seq);
    snprintf(body, sizeof body, "{\"content\":\"%s bom dia, alguém viu a reunião de ontem?\"%s}",
             p->last_mark, reply);
    room_path(r, p->room_server, p->room_channel, path, sizeof path);
    strcat(path, "/messages");
    call(r, p, ACT_SEND, done_send, "POST", path, body);
    schedule(r, p, now_us() + model_pause_us(r));
}

static enum action draw(struct run *r)
{
    double total = 0, x;
    for (size_t i = 0; i < sizeof MIX / sizeof *MIX; i++)
        total += MIX[i].weight;
    x = uniform(r) * total;
    for (size_t i = 0; i < sizeof MIX / sizeof *MIX; i++) {
        if (x < MIX[i].weight)
            return MIX[i].act;
        x -= MIX[i].weight;
    }
    return ACT_SWITCH;
}

static void act_switch(struct run *r, struct person *p, bool scroll)
{
    char path[256], msg[128];
    if (!scroll) {
        p->room_server = p->servers[next_rand(r) % (uint64_t)p->n_servers];
        p->room_channel = (int)(next_rand(r) % (uint64_t)r->w.places[p->room_server].n_channels);
        snprintf(msg, sizeof msg, "42[\"channel:view\",{\"channelId\":\"%s\"}]",
                 r->w.places[p->room_server].cids[p->room_channel]);
        socket_emit(r, p, msg);
        p->marking = true;
    }
    const char *before = scroll ? recent(r, p->room_server, p->room_channel) : NULL;
    room_path(r, p->room_server, p->room_channel, path, sizeof path);
    size_t n = strlen(path);
    snprintf(path + n, sizeof path - n, "/messages?limit=50%s%s", before ? "&beforeId=" : "",
             before ? before : "");
    get(r, p, T_HISTORY, done_history, path);
}

void model_act(struct run *r, struct person *p)
{
    enum action a = draw(r);
    char path[256], msg[256];
    const char *mid = recent(r, p->room_server, p->room_channel);
    if ((a == ACT_REACT && !mid) || (a == ACT_EDIT && !p->last_id[0]))
        a = ACT_UNREAD; // nothing to react to or edit yet
    if (r->measuring)
        r->actions[a]++;
    int64_t next = now_us() + model_pause_us(r);
    const struct place *pl = &r->w.places[p->room_server];
    switch (a) {
    case ACT_SWITCH:
    case ACT_SCROLL:
        act_switch(r, p, a == ACT_SCROLL);
        break;
    case ACT_MEMBERS:
        snprintf(msg, sizeof msg,
                 "42%d[\"members:subscribe\",{\"serverId\":\"%s\",\"channelId\":\"%s\",\"ranges\":["
                 "[0,99]]}]",
                 ++p->acks, pl->sid, pl->cids[p->room_channel]);
        p->ack_at = now_us();
        socket_emit(r, p, msg);
        break;
    case ACT_UNREAD:
        get(r, p, ACT_UNREAD, done_plain, "/api/users/@me/unread");
        break;
    case ACT_SEND:
        room_path(r, p->room_server, p->room_channel, path, sizeof path);
        strcat(path, "/typing");
        call(r, p, T_TYPING, done_typing, "POST", path, "{}");
        return; // the send comes after the typing, and the next action after the send
    case ACT_REACT:
        room_path(r, p->room_server, p->room_channel, path, sizeof path);
        snprintf(path + strlen(path), sizeof path - strlen(path), "/messages/%s/react", mid);
        call(r, p, ACT_REACT, done_plain, "POST", path, "{\"emoji\":\"\xf0\x9f\x91\x8d\"}");
        break;
    case ACT_RECONNECT:
        p->reconnect_at = now_us();
        socket_drop(r, p, "a reconnect", false);
        return; // the socket's return schedules the next action
    case ACT_SEARCH:
        snprintf(path, sizeof path, "/api/servers/%s/messages/search?q=reuni%%C3%%A3o", pl->sid);
        get(r, p, ACT_SEARCH, done_plain, path);
        break;
    case ACT_EDIT:
        room_path(r, p->last_server, p->last_channel, path, sizeof path);
        snprintf(path + strlen(path), sizeof path - strlen(path), "/messages/%s", p->last_id);
        snprintf(msg, sizeof msg,
                 "{\"content\":\"%s bom dia, alguém viu a reunião de ontem? (editada)\"}",
                 p->last_mark);
        call(r, p, ACT_EDIT, done_plain, "PATCH", path, msg);
        break;
    case ACT_IDLE:
        p->idle = !p->idle;
        call(r, p, ACT_IDLE, done_plain, "PUT", "/api/users/@me/presence",
             p->idle ? "{\"status\":\"idle\"}" : "{\"status\":\"online\"}");
        break;
    default:
        break;
    }
    schedule(r, p, next);
}

// A MESSAGE_CREATE: one of this run's (its mark), received once or again; timed only on a
// socket up for over a second (a replay after a reconnect counts as received, not as late).
void model_delivered(struct run *r, struct person *p, const char *frame, size_t n)
{
    size_t k = strlen(r->nonce);
    const char *at = memmem(frame, n, r->nonce, k);
    long long sent;
    int server;
    unsigned seq;
    if (!at || sscanf(at + k, ":%lld:%d:%u:", &sent, &server, &seq) != 3)
        return;
    for (int s = 0; s < p->n_servers; s++) {
        if (p->servers[s] != server)
            continue;
        if (bits_set(&p->seen[s], seq)) {
            r->duplicates++;
            return;
        }
        r->deliveries++;
        int64_t now = now_us();
        if (now - p->ready_at > 1000000)
            timed(r, T_DELIVERY, now - sent);
        if (r->measuring && now - sent > 1000000) // late: on a socket back lately, or not
            r->late[now - p->ready_at < 10000000]++;
        return;
    }
}

void model_sign_in(struct run *r)
{
    char body[192];
    const char(*who)[64] = r->w.logins[r->login_next++ % r->w.n_logins];
    snprintf(body, sizeof body, "{\"username\":\"%s\",\"password\":\"%s\"}", who[0], who[1]);
    http_request(r, NULL, T_SIGNIN, done_plain, "POST", "/api/auth/login", NULL, body);
}
