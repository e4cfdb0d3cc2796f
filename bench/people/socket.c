// A person's page socket, as /app keeps it (src/web/static/sio.js): a ticket over HTTP, a
// WebSocket to /socket.io/, Socket.IO's CONNECT with the ticket and connection-state recovery
// (the session and last offset after a drop, so that nothing is missed), the room shown said
// with channel:view, pings answered, and after any drop a new try after half to one and a half
// of a step that doubles from 0.5 s up to 10 s.
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../ws_frame.h"
#include "people.h"

static void send_all(struct run *r, struct person *p, const char *b, size_t n)
{
    int rc = p->fd >= 0 ? send_whole(p->fd, b, n) : 0;
    if (rc > 0)
        socket_drop(r, p, "a send that does not drain", false);
    else if (rc < 0)
        socket_drop(r, p, strerror(errno), true);
}

// A client's frame is masked; a zero mask leaves the payload as it is.
void socket_emit(struct run *r, struct person *p, const char *text)
{
    size_t n = strlen(text), hl = n < 126 ? 6 : 8;
    char frame[2048];
    if (n + hl > sizeof frame) {
        fprintf(stderr, "people-sim: a frame too long\n");
        exit(2);
    }
    frame[0] = (char)0x81;
    if (n < 126) {
        frame[1] = (char)(0x80 | n);
    } else {
        frame[1] = (char)(0x80 | 126);
        frame[2] = (char)(n >> 8);
        frame[3] = (char)(n & 0xff);
    }
    memset(frame + hl - 4, 0, 4);
    memcpy(frame + hl, text, n);
    send_all(r, p, frame, n + hl);
}

void socket_begin(struct run *r, struct person *p)
{
    p->state = SOCK_TICKET;
    http_request(r, p, T_TICKET, socket_ticket, "POST", "/api/gateway/ticket", p->token, "{}");
}

static void retry_later(struct run *r, struct person *p)
{
    int64_t step = 500000LL << (p->attempts < 5 ? p->attempts : 5);
    if (step > 10000000)
        step = 10000000;
    p->attempts++;
    r->rng = r->rng * 6364136223846793005ULL + 1442695040888963407ULL;
    double jitter = 0.5 + (double)(r->rng >> 11) / (double)(1ULL << 53);
    schedule(r, p, now_us() + (int64_t)((double)step * jitter));
}

void socket_drop(struct run *r, struct person *p, const char *why, bool by_server)
{
    (void)why;
    int64_t now = now_us();
    if (p->fd >= 0) {
        unwatch(r, p->fd);
        close(p->fd);
        p->fd = -1;
    }
    if (p->state == SOCK_READY) {
        if (by_server && r->ready == r->w.n_people)
            r->storm_candidate = now;
        r->ready--;
        int down = r->w.n_people - r->ready;
        if (!r->storm_from && down * 2 > r->w.n_people)
            r->storm_from = r->storm_candidate ? r->storm_candidate : now;
        if (down > r->storm_down_max && r->storm_from && !r->storm_back)
            r->storm_down_max = down;
    }
    p->state = SOCK_DOWN;
    p->len = 0;
    p->ack_at = 0;
    if (!p->down_at)
        p->down_at = now;
    retry_later(r, p);
}

void socket_ticket(struct run *r, struct person *p, int what, int status, const char *body,
                   size_t n)
{
    (void)what;
    const char *t = status == 200 ? memmem(body, n, "\"ticket\":\"", 10) : NULL;
    const char *end = t ? memchr(t + 10, '"', n - (size_t)(t + 10 - body)) : NULL;
    if (status == 401)
        r->signed_out++;
    if (!end || end - (t + 10) >= (long)sizeof p->ticket) {
        p->state = SOCK_DOWN;
        if (!p->down_at)
            p->down_at = now_us();
        retry_later(r, p);
        return;
    }
    snprintf(p->ticket, sizeof p->ticket, "%.*s", (int)(end - (t + 10)), t + 10);
    p->fd = dial(r, p->index);
    if (p->fd < 0) {
        p->state = SOCK_DOWN;
        retry_later(r, p);
        return;
    }
    p->state = SOCK_DIALING;
    watch(r, p->fd, EPOLLOUT | EPOLLIN, p);
}

static void connect_now(struct run *r, struct person *p)
{
    char msg[512];
    int n = snprintf(msg, sizeof msg, "40{\"ticket\":\"%s\",\"recovery\":true", p->ticket);
    if (p->pid[0])
        n += snprintf(msg + n, sizeof msg - (size_t)n, ",\"pid\":\"%s\"", p->pid);
    if (p->offset[0])
        n += snprintf(msg + n, sizeof msg - (size_t)n, ",\"offset\":\"%s\"", p->offset);
    snprintf(msg + n, sizeof msg - (size_t)n, "}");
    p->state = SOCK_OPEN;
    socket_emit(r, p, msg);
}

// Says which room the page shows (the typing of that room reaches it).
static void view_room(struct run *r, struct person *p)
{
    char msg[128];
    snprintf(msg, sizeof msg, "42[\"channel:view\",{\"channelId\":\"%s\"}]",
             r->w.places[p->room_server].cids[p->room_channel]);
    socket_emit(r, p, msg);
}

static void connected(struct run *r, struct person *p, const char *t, size_t n)
{
    int64_t now = now_us();
    const char *pid = memmem(t, n, "\"pid\":\"", 7);
    const char *end = pid ? memchr(pid + 7, '"', n - (size_t)(pid + 7 - t)) : NULL;
    if (p->down_at)
        r->reconnects++;
    if (end && end - (pid + 7) < (long)sizeof p->pid)
        snprintf(p->pid, sizeof p->pid, "%.*s", (int)(end - (pid + 7)), pid + 7);
    p->state = SOCK_READY;
    p->ready_at = now;
    p->attempts = 0;
    p->down_at = 0;
    r->ready++;
    if (p->reconnect_at) {
        timed(r, ACT_RECONNECT, now - p->reconnect_at);
        p->reconnect_at = 0;
    }
    if (r->storm_from && !r->storm_back && r->ready == r->w.n_people)
        r->storm_back = now;
    view_room(r, p);
    if (r->acting && p->heap_at < 0)
        schedule(r, p, now + model_pause_us(r));
}

// The offset a recovered connection's event ends with: …,"<digits>"]
static void keep_offset(struct person *p, const char *t, size_t n)
{
    if (n < 5 || t[n - 1] != ']' || t[n - 2] != '"')
        return;
    size_t i = n - 3;
    while (i > 0 && t[i] >= '0' && t[i] <= '9')
        i--;
    if (t[i] != '"' || n - 3 - i == 0 || n - 3 - i >= sizeof p->offset || i == 0 || t[i - 1] != ',')
        return;
    snprintf(p->offset, sizeof p->offset, "%.*s", (int)(n - 3 - i), t + i + 1);
}

// What the measured window's events were, by name (the first few kinds seen).
static void count_kind(struct run *r, const char *t, size_t n)
{
    const char *q = n > 5 ? memchr(t + 4, '"', n - 4) : NULL;
    size_t len = q ? (size_t)(q - (t + 4)) : 0;
    if (!r->measuring || !len || len >= sizeof r->kinds[0].name)
        return;
    for (int i = 0; i < KINDS_MAX; i++) {
        if (!r->kinds[i].name[0])
            memcpy(r->kinds[i].name, t + 4, len);
        if (strlen(r->kinds[i].name) == len && memcmp(r->kinds[i].name, t + 4, len) == 0) {
            r->kinds[i].n++;
            return;
        }
    }
}

static void on_text(struct run *r, struct person *p, const char *t, size_t n)
{
    static const char create[] = "42[\"MESSAGE_CREATE\"", gap[] = "42[\"EVENTS_GAP\"";
    if (n == 1 && t[0] == '2') {
        socket_emit(r, p, "3");
    } else if (n && t[0] == '0' && p->state == SOCK_UPGRADING) {
        connect_now(r, p);
    } else if (n >= 2 && t[0] == '4' && t[1] == '0' && p->state == SOCK_OPEN) {
        connected(r, p, t, n);
    } else if (n >= 2 && t[0] == '4' && t[1] == '4') {
        r->refused++;
        socket_drop(r, p, "CONNECT refused", false);
    } else if (n >= 2 && t[0] == '4' && t[1] == '1') {
        socket_drop(r, p, "a Socket.IO disconnect", true);
    } else if (n >= 2 && t[0] == '4' && t[1] == '2') {
        r->events++;
        count_kind(r, t, n);
        keep_offset(p, t, n);
        if (n > sizeof create && memcmp(t, create, sizeof create - 1) == 0)
            model_delivered(r, p, t, n);
        else if (n > sizeof gap && memcmp(t, gap, sizeof gap - 1) == 0)
            r->gaps++;
    } else if (n >= 2 && t[0] == '4' && t[1] == '3' && p->ack_at) {
        timed(r, ACT_MEMBERS, now_us() - p->ack_at);
        p->ack_at = 0;
    }
}

// A frame split across reads waits in p->buf.
static void parse_frames(struct run *r, struct person *p)
{
    size_t off = 0, step, n;
    int op;
    const char *t;
    while (p->fd >= 0 && (step = ws_frame_at(p->buf + off, p->len - off, &op, &t, &n))) {
        if (op == 1)
            on_text(r, p, t, n);
        else if (op == 8)
            socket_drop(r, p, "a close frame", true);
        off += step;
    }
    if (off && p->fd >= 0) {
        memmove(p->buf, p->buf + off, p->len - off);
        p->len -= off;
    }
}

static bool upgraded(struct run *r, struct person *p)
{
    char *end = memmem(p->buf, p->len, "\r\n\r\n", 4);
    if (!end)
        return false;
    if (p->len < 12 || memcmp(p->buf + 9, "101", 3) != 0) {
        socket_drop(r, p, "no upgrade", true);
        return false;
    }
    size_t head = (size_t)(end + 4 - p->buf);
    memmove(p->buf, p->buf + head, p->len - head);
    p->len -= head;
    p->state = SOCK_UPGRADING;
    return true;
}

static void on_readable(struct run *r, struct person *p)
{
    while (p->fd >= 0) {
        if (p->len == p->cap) {
            p->cap = p->cap ? p->cap * 2 : 4096;
            p->buf = realloc(p->buf, p->cap);
            if (!p->buf)
                die("realloc");
        }
        ssize_t got = recv(p->fd, p->buf + p->len, p->cap - p->len, 0);
        if (got < 0 && errno == EAGAIN)
            return;
        if (got <= 0) {
            socket_drop(r, p, got == 0 ? "closed by the server" : strerror(errno), true);
            return;
        }
        p->len += (size_t)got;
        if (p->state == SOCK_DIALING && !upgraded(r, p))
            continue;
        parse_frames(r, p);
    }
}

void socket_event(struct run *r, struct person *p, uint32_t events)
{
    if (p->fd < 0)
        return;
    if (p->state == SOCK_DIALING && (events & EPOLLOUT)) {
        int err = 0;
        socklen_t el = sizeof err;
        getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &err, &el);
        if (err) {
            socket_drop(r, p, strerror(err), true);
            return;
        }
        char req[256];
        int n = snprintf(req, sizeof req,
                         "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: %s:%d\r\n"
                         "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n",
                         r->host, r->port);
        send_all(r, p, req, (size_t)n);
        if (p->fd >= 0)
            watch(r, p->fd, EPOLLIN, p);
        return;
    }
    on_readable(r, p);
}
