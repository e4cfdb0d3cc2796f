// The fan-out measured by a client that costs little: N bots connected over WebSocket in one
// epoll loop, M messages sent by one of them at RATE a second over a kept-alive HTTP connection,
// and every MESSAGE_CREATE's latency from its send (the content carries the send's
// CLOCK_MONOTONIC time). A Node.js client spends 10-20 us per delivery, as much as the server,
// and on two cores it then sets the tail the bench reports; this one spends a fraction of that.
//
//   build/fanout-probe HOST PORT TOKENS_FILE N M RATE SERVER_ID CHANNEL_ID [SERVER_PID]
//
// PROBE_CHURN_PER_S=k: meanwhile, k times a second, one more connection of the next bot opens
// and the previous one closes (what pages coming and going cost the fan-out); they are not
// measured.
//
// Prints one JSON line: connected, delivered, lost, latency percentiles, the server's and this
// process's CPU per delivery.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ws_frame.h"

enum { CONNECTING_AT_ONCE = 100, WARMUP = 5, DRAIN_S = 10, SPIN_US = 2000, TOKEN_MAX = 256 };

struct conn {
    int fd;
    int index; // of the measured connections; the churning one is at n
    int token;
    bool churn;
    bool upgraded; // the 101 came
    bool ready;    // Socket.IO's CONNECT was accepted
    char *buf;
    size_t len, cap;
};

struct run {
    const char *host;
    int port;
    int n, m, rate;
    const char *sid, *cid;
    int server_pid;
    char (*tokens)[TOKEN_MAX];
    struct conn *conns;
    int epfd;
    int connected, failed, opened;
    char nonce[16];
    uint8_t *seen; // n * m
    float *lat_ms; // one per unique delivery
    long delivered, foreign;
    int posted_ok, posted_failed;
    bool sending_done;
    int churned;
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void die(const char *what)
{
    fprintf(stderr, "fanout-probe: %s: %s\n", what, strerror(errno));
    exit(2);
}

static int dial(const struct run *r, bool blocking)
{
    int fd = socket(AF_INET, SOCK_STREAM | (blocking ? 0 : SOCK_NONBLOCK), 0);
    if (fd < 0)
        die("socket");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)r->port)};
    inet_pton(AF_INET, r->host, &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS)
        die("connect");
    return fd;
}

static void send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EAGAIN) { // a handshake's few bytes: the buffer empties at once
            usleep(100);
            continue;
        }
        if (w <= 0)
            die("send");
        p += w;
        n -= (size_t)w;
    }
}

// A client's frame is masked; a zero mask leaves the payload as it is.
static void send_text(int fd, const char *text)
{
    size_t n = strlen(text);
    char frame[8 + TOKEN_MAX + 64];
    if (n > 125 || n + 6 > sizeof frame) {
        fprintf(stderr, "fanout-probe: frame too long\n");
        exit(2);
    }
    frame[0] = (char)0x81;
    frame[1] = (char)(0x80 | n);
    memset(frame + 2, 0, 4);
    memcpy(frame + 6, text, n);
    send_all(fd, frame, n + 6);
}

static void open_conn(struct run *r, struct conn *c, int index, int token)
{
    free(c->buf);
    *c = (struct conn){.index = index, .token = token, .churn = index >= r->n};
    c->fd = dial(r, false);
    c->cap = 4096;
    c->buf = malloc(c->cap);
    if (!c->buf)
        die("malloc");
    struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.ptr = c};
    if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0)
        die("epoll_ctl");
}

static void open_one(struct run *r)
{
    open_conn(r, &r->conns[r->opened], r->opened, r->opened);
    r->opened++;
}

static void close_conn(struct run *r, struct conn *c, const char *why)
{
    if (c->fd < 0)
        return;
    if (c->churn) {
        if (strcmp(why, "churn"))
            fprintf(stderr, "fanout-probe: a churning connection: %s\n", why);
    } else if (!c->ready) {
        r->failed++;
        fprintf(stderr, "fanout-probe: connection %d: %s\n", c->index, why);
    } else
        fprintf(stderr, "fanout-probe: connection %d closed: %s\n", c->index, why);
    epoll_ctl(r->epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
}

static void on_event_frame(struct run *r, struct conn *c, const char *p, size_t n)
{
    static const char head[] = "42[\"MESSAGE_CREATE\"";
    if (c->churn)
        return;
    int64_t t = now_us();
    const char *at = n >= sizeof head - 1 && memcmp(p, head, sizeof head - 1) == 0
                         ? memmem(p, n, r->nonce, strlen(r->nonce))
                         : NULL;
    if (!at) {
        r->foreign++;
        return;
    }
    const char *q = at + strlen(r->nonce), *end = p + n;
    int64_t sent = 0;
    long idx = 0;
    while (q < end && *q >= '0' && *q <= '9')
        sent = sent * 10 + (*q++ - '0');
    for (q++; q < end && *q >= '0' && *q <= '9';)
        idx = idx * 10 + (*q++ - '0');
    if (idx < 0 || idx >= r->m) {
        r->foreign++;
        return;
    }
    uint8_t *s = &r->seen[(size_t)c->index * (size_t)r->m + (size_t)idx];
    if (*s)
        return;
    *s = 1;
    r->lat_ms[r->delivered++] = (float)(t - sent) / 1000.0f;
}

static void on_text(struct run *r, struct conn *c, const char *p, size_t n)
{
    if (n == 0)
        return;
    if (p[0] == '2' && n == 1) { // ping
        send_text(c->fd, "3");
    } else if (p[0] == '0') { // open: Socket.IO's CONNECT with the bot's token
        char msg[TOKEN_MAX + 32];
        snprintf(msg, sizeof msg, "40{\"token\":\"%s\"}", r->tokens[c->token]);
        send_text(c->fd, msg);
    } else if (n >= 2 && p[0] == '4' && p[1] == '0' && !c->ready) {
        c->ready = true;
        if (c->churn)
            r->churned++;
        else
            r->connected++;
    } else if (n >= 2 && p[0] == '4' && p[1] == '4') {
        close_conn(r, c, "CONNECT refused");
    } else if (n >= 2 && p[0] == '4' && p[1] == '2') {
        on_event_frame(r, c, p, n);
    }
}

// A frame split across reads waits in c->buf.
static void parse_frames(struct run *r, struct conn *c)
{
    size_t off = 0, step, n;
    int op;
    const char *t;
    while (c->fd >= 0 && (step = ws_frame_at(c->buf + off, c->len - off, &op, &t, &n))) {
        if (op == 1)
            on_text(r, c, t, n);
        else if (op == 8)
            close_conn(r, c, "close frame");
        off += step;
    }
    if (off) {
        memmove(c->buf, c->buf + off, c->len - off);
        c->len -= off;
    }
}

static void on_readable(struct run *r, struct conn *c)
{
    for (;;) {
        if (c->len == c->cap) {
            c->cap *= 2;
            c->buf = realloc(c->buf, c->cap);
            if (!c->buf)
                die("realloc");
        }
        ssize_t got = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
        if (got < 0 && errno == EAGAIN)
            return;
        if (got <= 0) {
            close_conn(r, c, got == 0 ? "closed by the server" : strerror(errno));
            return;
        }
        c->len += (size_t)got;
        if (!c->upgraded) {
            char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
            if (!end)
                continue;
            if (c->len < 12 || memcmp(c->buf + 9, "101", 3) != 0) {
                close_conn(r, c, "no upgrade");
                return;
            }
            c->upgraded = true;
            size_t head = (size_t)(end + 4 - c->buf);
            memmove(c->buf, c->buf + head, c->len - head);
            c->len -= head;
        }
        parse_frames(r, c);
        if (c->fd < 0)
            return;
    }
}

static void on_writable(struct run *r, struct conn *c)
{
    int err = 0;
    socklen_t el = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &el);
    if (err) {
        close_conn(r, c, strerror(err));
        return;
    }
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: "
                     "%s:%d\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: "
                     "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                     r->host, r->port);
    send_all(c->fd, req, (size_t)n);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(r->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static int poll_once(struct run *r, int timeout_ms)
{
    struct epoll_event evs[256];
    int k = epoll_wait(r->epfd, evs, 256, timeout_ms);
    if (k < 0 && errno != EINTR)
        die("epoll_wait");
    for (int i = 0; i < k; i++) {
        struct conn *c = evs[i].data.ptr;
        if (c->fd < 0)
            continue;
        if (evs[i].events & EPOLLOUT)
            on_writable(r, c);
        else
            on_readable(r, c);
    }
    return k;
}

// One POST on a kept-alive connection; true when it answered 2xx.
static bool post(int fd, const struct run *r, const char *token, const char *content)
{
    char body[256], req[1024];
    int bn = snprintf(body, sizeof body, "{\"content\":\"%s\"}", content);
    int n = snprintf(req, sizeof req,
                     "POST /api/bot/servers/%s/channels/%s/messages HTTP/1.1\r\nHost: %s:%d\r\n"
                     "Authorization: Bearer %s\r\nContent-Type: "
                     "application/json\r\nContent-Length: %d\r\n\r\n%s",
                     r->sid, r->cid, r->host, r->port, token, bn, body);
    send_all(fd, req, (size_t)n);
    char ans[8192];
    size_t len = 0;
    for (;;) {
        ssize_t got = recv(fd, ans + len, sizeof ans - 1 - len, 0);
        if (got <= 0)
            die("the send's answer");
        len += (size_t)got;
        ans[len] = 0;
        char *end = strstr(ans, "\r\n\r\n");
        if (!end)
            continue;
        char *cl = strcasestr(ans, "content-length:");
        size_t want = (size_t)(end + 4 - ans) + (cl && cl < end ? strtoul(cl + 15, NULL, 10) : 0);
        if (want >= sizeof ans)
            die("the send's answer is too long");
        if (len >= want)
            return ans[9] == '2';
    }
}

static void *sender(void *arg)
{
    struct run *r = arg;
    int fd = dial(r, true);
    char content[80];
    for (int i = 0; i < WARMUP; i++) {
        snprintf(content, sizeof content, "warmup %d", i);
        post(fd, r, r->tokens[i % r->n], content);
        usleep(50000);
    }
    usleep(500000);
    int64_t start = now_us(), step = 1000000 / r->rate;
    for (int i = 0; i < r->m; i++) {
        int64_t wait = start + i * step - now_us();
        if (wait > 0)
            usleep((useconds_t)wait);
        int len = snprintf(content, sizeof content, "%s%lld:%d:", r->nonce, (long long)now_us(), i);
        while (len < 64)
            content[len++] = 'x';
        content[len] = 0;
        if (post(fd, r, r->tokens[i % r->n], content))
            r->posted_ok++;
        else
            r->posted_failed++;
    }
    close(fd);
    __atomic_store_n(&r->sending_done, true, __ATOMIC_RELEASE);
    return NULL;
}

static double server_cpu_s(int pid)
{
    if (pid <= 0)
        return 0;
    char path[64], line[2048];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = 0;
    char *p = strrchr(line, ')'); // the name may hold spaces
    unsigned long ut = 0, st = 0;
    if (p)
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st);
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static double own_cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static double pct(const float *xs, long n, double p)
{
    if (n == 0)
        return 0;
    long i = (long)(p / 100.0 * (double)n);
    return xs[i < n ? i : n - 1];
}

static void load_tokens(struct run *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die(path);
    r->tokens = calloc((size_t)r->n, TOKEN_MAX);
    if (!r->tokens)
        die("calloc");
    int i = 0;
    while (i < r->n && fgets(r->tokens[i], TOKEN_MAX, f)) {
        r->tokens[i][strcspn(r->tokens[i], "\r\n")] = 0;
        if (r->tokens[i][0])
            i++;
    }
    fclose(f);
    if (i < r->n) {
        fprintf(stderr, "fanout-probe: %s holds %d tokens, not %d\n", path, i, r->n);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    if (argc < 9) {
        fprintf(stderr,
                "usage: %s HOST PORT TOKENS_FILE N M RATE SERVER_ID CHANNEL_ID [SERVER_PID]\n",
                argv[0]);
        return 2;
    }
    struct run r = {.host = argv[1],
                    .port = atoi(argv[2]),
                    .n = atoi(argv[4]),
                    .m = atoi(argv[5]),
                    .rate = atoi(argv[6]),
                    .sid = argv[7],
                    .cid = argv[8],
                    .server_pid = argc > 9 ? atoi(argv[9]) : 0};
    if (r.n <= 0 || r.m <= 0 || r.rate <= 0) {
        fprintf(stderr, "fanout-probe: N, M and RATE must be positive\n");
        return 2;
    }
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    load_tokens(&r, argv[3]);
    snprintf(r.nonce, sizeof r.nonce, "fp%06x:", (unsigned)(now_us() & 0xffffff));
    r.conns = calloc((size_t)r.n + 1, sizeof *r.conns); // the last: the churning one
    r.conns[r.n].fd = -1;
    const char *churn = getenv("PROBE_CHURN_PER_S");
    int64_t churn_every = churn && atoi(churn) > 0 ? 1000000 / atoi(churn) : 0, next_churn = 0;
    int churns = 0;
    r.seen = calloc((size_t)r.n * (size_t)r.m, 1);
    r.lat_ms = calloc((size_t)r.n * (size_t)r.m, sizeof *r.lat_ms);
    r.epfd = epoll_create1(0);
    if (!r.conns || !r.seen || !r.lat_ms || r.epfd < 0)
        die("setup");

    int64_t t0 = now_us();
    while (r.connected + r.failed < r.n) {
        while (r.opened < r.n && r.opened - r.connected - r.failed < CONNECTING_AT_ONCE)
            open_one(&r);
        poll_once(&r, 100);
        if (now_us() - t0 > 120 * 1000000LL)
            break;
    }
    double connect_s = (double)(now_us() - t0) / 1e6;
    int64_t settle = now_us() + 1000000;
    while (now_us() < settle)
        poll_once(&r, 50);

    double s0 = server_cpu_s(r.server_pid), c0 = own_cpu_s();
    long foreign0 = r.foreign;
    pthread_t th;
    if (pthread_create(&th, NULL, sender, &r))
        die("pthread_create");
    int64_t drain_until = 0;
    long want = (long)r.connected * r.m;
    int64_t last_event = 0;
    for (;;) {
        // Within a burst the probe polls without sleeping (for up to SPIN_US after the last
        // frame): on loopback the sender pays for waking its reader, which a client on another
        // machine would not cost it.
        if (churn_every && now_us() >= next_churn) {
            struct conn *c = &r.conns[r.n];
            close_conn(&r, c, "churn");
            open_conn(&r, c, r.n, churns++ % r.n);
            next_churn = now_us() + churn_every;
        }
        bool spinning = now_us() - last_event < SPIN_US;
        if (poll_once(&r, spinning ? 0 : 50))
            last_event = now_us();
        if (r.delivered >= want && __atomic_load_n(&r.sending_done, __ATOMIC_ACQUIRE))
            break;
        if (!drain_until && __atomic_load_n(&r.sending_done, __ATOMIC_ACQUIRE))
            drain_until = now_us() + DRAIN_S * 1000000LL;
        if (drain_until && now_us() > drain_until)
            break;
    }
    pthread_join(th, NULL);
    double server_s = server_cpu_s(r.server_pid) - s0, own_s = own_cpu_s() - c0;

    qsort(r.lat_ms, (size_t)r.delivered, sizeof *r.lat_ms, by_value);
    long d = r.delivered ? r.delivered : 1;
    printf("{\"client\":\"fanout-probe\",\"n\":%d,\"m\":%d,\"rate\":%d,\"connected\":%d,"
           "\"connectS\":%.1f,\"posted\":%d,"
           "\"postFailed\":%d,\"expected\":%ld,\"delivered\":%ld,\"lost\":%ld,\"foreign\":%ld,"
           "\"latMs\":{\"min\":%.2f,\"p50\":%.2f,\"p90\":%.2f,\"p99\":%.2f,\"max\":%.2f},"
           "\"serverCpuUsPerDelivery\":%.2f,\"clientCpuUsPerDelivery\":%.2f,\"churned\":%d}\n",
           r.n, r.m, r.rate, r.connected, connect_s, r.posted_ok, r.posted_failed, (long)r.n * r.m,
           r.delivered, (long)r.n * r.m - r.delivered, r.foreign - foreign0,
           pct(r.lat_ms, r.delivered, 0), pct(r.lat_ms, r.delivered, 50),
           pct(r.lat_ms, r.delivered, 90), pct(r.lat_ms, r.delivered, 99),
           r.delivered ? (double)r.lat_ms[r.delivered - 1] : 0.0, server_s * 1e6 / (double)d,
           own_s * 1e6 / (double)d, r.churned);
    for (int i = 0; i <= r.n; i++) {
        struct conn *c = &r.conns[i];
        if (i >= r.opened && i < r.n)
            continue; // never opened: holds nothing
        if (c->fd >= 0)
            close(c->fd);
        free(c->buf);
    }
    free(r.conns);
    free(r.seen);
    free(r.lat_ms);
    free(r.tokens);
    close(r.epfd);
    return r.posted_failed || r.connected < r.n ? 1 : 0;
}
