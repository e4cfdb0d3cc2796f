// The people's requests, on kept-alive HTTP/1.1 connections they share (32 by default; a
// page has its own, and thousands would cost the simulator a descriptor each). A request waits
// for a free connection in order: the most that ever waited is reported, since a message's
// delivery is timed from when it was asked for, so a pool too small would show as late
// deliveries. Its answer (status and body, by Content-Length) goes to the function it came with.
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "people.h"

struct request {
    struct request *next;
    struct person *p;
    int what;
    http_done done;
    char *text;
    size_t len;
};

struct http_conn {
    enum endpoint_kind kind; // END_HTTP
    int fd;
    bool connecting;
    struct request *cur;
    int64_t sent_at;
    char *buf;
    size_t len, cap;
};

struct http {
    int n;
    struct http_conn *conns;
    struct request *head, *tail;
    size_t waiting;
};

static void conn_close(struct run *r, struct http_conn *c)
{
    if (c->fd >= 0) {
        unwatch(r, c->fd);
        close(c->fd);
    }
    c->fd = -1;
    c->connecting = false;
    c->len = 0;
}

static void finish(struct run *r, struct http_conn *c, int status, const char *body, size_t n)
{
    struct request *q = c->cur;
    c->cur = NULL;
    if (status >= 200 && status < 300)
        timed(r, q->what, now_us() - c->sent_at);
    else if (r->measuring && status)
        r->failed[q->what]++;
    else if (r->measuring)
        r->cut[q->what]++;
    if (status && (status < 200 || status >= 300) && getenv("PEOPLE_VERBOSE"))
        fprintf(stderr, "people-sim: %s answered %d: %.*s\n", timed_names[q->what], status,
                (int)(n > 200 ? 200 : n), body);
    q->done(r, q->p, q->what, status, body, n);
    free(q->text);
    free(q);
}

// Hands waiting requests to idle connections, dialing those that are closed.
static void pump(struct run *r)
{
    struct http *h = r->http;
    for (int i = 0; i < h->n && h->head; i++) {
        struct http_conn *c = &h->conns[i];
        if (c->cur || c->connecting)
            continue;
        if (c->fd < 0) {
            c->fd = dial(r, i);
            if (c->fd < 0)
                continue;
            c->connecting = true;
            watch(r, c->fd, EPOLLOUT | EPOLLIN, c);
            continue;
        }
        c->cur = h->head;
        h->head = h->head->next;
        if (!h->head)
            h->tail = NULL;
        h->waiting--;
        c->sent_at = now_us();
        if (send_whole(c->fd, c->cur->text, c->cur->len)) {
            conn_close(r, c);
            finish(r, c, 0, "", 0);
        }
    }
}

void http_request(struct run *r, struct person *p, int what, http_done done, const char *method,
                  const char *path, const char *token, const char *body)
{
    struct request *q = calloc(1, sizeof *q);
    size_t bn = body ? strlen(body) : 0, cap = strlen(path) + bn + 512;
    if (!q || !(q->text = malloc(cap)))
        die("malloc");
    int n =
        snprintf(q->text, cap, "%s %s HTTP/1.1\r\nHost: %s:%d\r\n", method, path, r->host, r->port);
    if (token)
        n += snprintf(q->text + n, cap - (size_t)n, "Authorization: Bearer %s\r\n", token);
    if (body)
        n += snprintf(q->text + n, cap - (size_t)n,
                      "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", bn, body);
    else
        n += snprintf(q->text + n, cap - (size_t)n, "\r\n");
    q->len = (size_t)n;
    q->p = p;
    q->what = what;
    q->done = done;
    if (r->http->tail)
        r->http->tail->next = q;
    else
        r->http->head = q;
    r->http->tail = q;
    if (++r->http->waiting > r->waiting_max && r->measuring)
        r->waiting_max = r->http->waiting;
    pump(r);
}

// An answer, once it is whole in c->buf, to its request.
static void read_answer(struct run *r, struct http_conn *c)
{
    char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
    if (!end || !c->cur)
        return;
    size_t head = (size_t)(end + 4 - c->buf), body = 0;
    *end = 0; // the headers as one string, for a moment
    const char *cl = strcasestr(c->buf, "\r\ncontent-length:");
    bool closing = strcasestr(c->buf, "\r\nconnection: close") != NULL;
    if (cl)
        body = strtoul(cl + 17, NULL, 10);
    *end = '\r';
    if (c->len < head + body)
        return;
    int status = atoi(c->buf + 9);
    finish(r, c, status, c->buf + head, body);
    memmove(c->buf, c->buf + head + body, c->len - head - body);
    c->len -= head + body;
    if (closing)
        conn_close(r, c);
}

void http_event(struct run *r, void *conn, uint32_t events)
{
    struct http_conn *c = conn;
    if (c->fd < 0)
        return;
    if (c->connecting) {
        int err = 0;
        socklen_t el = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &el);
        if (err || !(events & EPOLLOUT)) {
            conn_close(r, c);
            return;
        }
        c->connecting = false;
        watch(r, c->fd, EPOLLIN, c);
        pump(r);
        return;
    }
    for (;;) {
        if (c->len == c->cap) {
            c->cap = c->cap ? c->cap * 2 : 16384;
            c->buf = realloc(c->buf, c->cap);
            if (!c->buf)
                die("realloc");
        }
        ssize_t got = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
        if (got < 0 && errno == EAGAIN)
            break;
        if (got <= 0) { // closed (kept-alive too long, or the server went away)
            conn_close(r, c);
            if (c->cur)
                finish(r, c, 0, "", 0);
            break;
        }
        c->len += (size_t)got;
        read_answer(r, c);
        if (c->fd < 0)
            break;
    }
    pump(r);
}

void http_start(struct run *r, int conns)
{
    r->http = calloc(1, sizeof *r->http);
    if (!r->http || conns <= 0 || !(r->http->conns = calloc((size_t)conns, sizeof *r->http->conns)))
        die("http_start");
    r->http->n = conns;
    for (int i = 0; i < conns; i++)
        r->http->conns[i] = (struct http_conn){.kind = END_HTTP, .fd = -1};
}

size_t http_waiting(const struct run *r)
{
    return r->http->waiting;
}

void http_stop(struct run *r)
{
    for (int i = 0; i < r->http->n; i++) {
        conn_close(r, &r->http->conns[i]);
        free(r->http->conns[i].buf);
    }
    free(r->http->conns);
    free(r->http);
}
