// The people simulator: every person of a world file keeps a page's socket open (a ticket, the
// Socket.IO session resumed from its last offset after any drop, the room it shows) and acts
// now and then as the model says (model.c), on HTTP connections they share (http.c). One thread
// and one epoll loop, so that it costs the machine a small part of what the server spends on it.
//
//   build/people-sim HOST PORT WORLD_FILE SECONDS
//
// It prints "measuring" when the measured window opens (after the connections and a warm-up)
// and "done" when it closes, for whoever reads the server's CPU around it, then one JSON line:
// each action's count and p50/p99, deliveries expected, received and lost, and the storm (most
// sockets dropped by the server at once) if one came. Knobs, from the environment:
// PEOPLE_HTTP_CONNS (32), PEOPLE_LOGINS_PER_S (1), PEOPLE_WARMUP_S (10), PEOPLE_DRAIN_S (10: the
// longest wait after the acting for every page back and every message delivered),
// PEOPLE_PAUSE_MIN_MS (1000), PEOPLE_PAUSE_MEAN_MS (20000), PEOPLE_CONNECTING (200).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "people.h"

int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void die(const char *what)
{
    fprintf(stderr, "people-sim: %s: %s\n", what, strerror(errno));
    exit(2);
}

static long env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

int dial(const struct run *r, int index)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0)
        die("socket");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int port = r->ports[index % r->nports];
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, r->host, &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

int send_whole(int fd, const char *b, size_t n)
{
    while (n) {
        ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EAGAIN) {
            struct pollfd pf = {.fd = fd, .events = POLLOUT};
            if (poll(&pf, 1, 1000) <= 0)
                return 1;
            continue;
        }
        if (w <= 0)
            return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

void watch(struct run *r, int fd, uint32_t events, void *ptr)
{
    struct epoll_event ev = {.events = events, .data.ptr = ptr};
    if (epoll_ctl(r->epfd, EPOLL_CTL_MOD, fd, &ev) < 0 &&
        epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
        die("epoll_ctl");
}

void unwatch(struct run *r, int fd)
{
    epoll_ctl(r->epfd, EPOLL_CTL_DEL, fd, NULL);
}

void timed(struct run *r, int what, int64_t us)
{
    if (r->measuring)
        hist_add(&r->hist[what], us);
}

// ---- the people's timers: a binary heap by next_at ----

static void heap_swap(struct run *r, int i, int j)
{
    struct person *t = r->heap[i];
    r->heap[i] = r->heap[j];
    r->heap[j] = t;
    r->heap[i]->heap_at = i;
    r->heap[j]->heap_at = j;
}

static void heap_fix(struct run *r, int i)
{
    while (i > 0 && r->heap[(i - 1) / 2]->next_at > r->heap[i]->next_at) {
        heap_swap(r, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < r->heap_n && r->heap[l]->next_at < r->heap[m]->next_at)
            m = l;
        if (l + 1 < r->heap_n && r->heap[l + 1]->next_at < r->heap[m]->next_at)
            m = l + 1;
        if (m == i)
            return;
        heap_swap(r, i, m);
        i = m;
    }
}

void schedule(struct run *r, struct person *p, int64_t at)
{
    p->next_at = at;
    if (p->heap_at < 0) {
        p->heap_at = r->heap_n;
        r->heap[r->heap_n++] = p;
    }
    heap_fix(r, p->heap_at);
}

static struct person *heap_pop(struct run *r)
{
    struct person *p = r->heap[0];
    heap_swap(r, 0, --r->heap_n);
    p->heap_at = -1;
    if (r->heap_n)
        heap_fix(r, 0);
    return p;
}

// A person's timer: the socket to open again, the message typed to send, or the next action.
static void person_due(struct run *r, struct person *p)
{
    int64_t now = now_us();
    if (p->state == SOCK_DOWN) {
        socket_begin(r, p);
        return;
    }
    if (p->state != SOCK_READY || p->busy || !r->acting) {
        schedule(r, p, now + 200000);
        return;
    }
    if (p->send_due) {
        model_send_due(r, p);
        return;
    }
    model_act(r, p);
}

// ---- the world file ----

static void load_world(struct world *w, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die(path);
    char line[4096];
    if (!fgets(line, sizeof line, f) || sscanf(line, "places %d", &w->n_places) != 1 ||
        w->n_places <= 0)
        die("the world's places");
    w->places = calloc((size_t)w->n_places, sizeof *w->places);
    for (int i = 0; i < w->n_places && fgets(line, sizeof line, f); i++) {
        struct place *pl = &w->places[i];
        char *cids = strchr(line, ' ');
        if (!cids || cids - line != ID_LEN)
            die("a place's line");
        memcpy(pl->sid, line, ID_LEN);
        for (char *c = strtok(cids + 1, ",\n"); c && pl->n_channels < CHANNELS_MAX;
             c = strtok(NULL, ",\n"))
            snprintf(pl->cids[pl->n_channels++], ID_LEN + 1, "%s", c);
    }
    if (!fgets(line, sizeof line, f) || sscanf(line, "logins %d", &w->n_logins) != 1)
        die("the world's logins");
    w->logins = calloc((size_t)w->n_logins + 1, sizeof *w->logins);
    for (int i = 0; i < w->n_logins && fgets(line, sizeof line, f); i++)
        if (sscanf(line, "%63s %63s", w->logins[i][0], w->logins[i][1]) != 2)
            die("a login's line");
    if (!fgets(line, sizeof line, f) || sscanf(line, "people %d", &w->n_people) != 1 ||
        w->n_people <= 0)
        die("the world's people");
    w->people = calloc((size_t)w->n_people, sizeof *w->people);
    for (int i = 0; i < w->n_people; i++) {
        struct person *p = &w->people[i];
        char servers[256];
        *p = (struct person){.kind = END_SOCKET, .index = i, .fd = -1, .heap_at = -1};
        if (!fgets(line, sizeof line, f) || sscanf(line, "%159s %255s", p->token, servers) != 2)
            die("a person's line");
        for (char *s = strtok(servers, ","); s && p->n_servers < SERVERS_MAX;
             s = strtok(NULL, ",")) {
            int k = atoi(s);
            if (k < 0 || k >= w->n_places)
                die("a person's server");
            p->servers[p->n_servers++] = k;
            w->places[k].members++;
        }
        p->room_server = p->servers[0];
    }
    fclose(f);
}

// ---- the run ----

static void poll_once(struct run *r, int timeout_ms)
{
    struct epoll_event evs[512];
    int k = epoll_wait(r->epfd, evs, 512, timeout_ms);
    if (k < 0 && errno != EINTR)
        die("epoll_wait");
    for (int i = 0; i < k; i++) {
        enum endpoint_kind *kind = evs[i].data.ptr;
        if (*kind == END_SOCKET)
            socket_event(r, (struct person *)kind, evs[i].events);
        else
            http_event(r, kind, evs[i].events);
    }
}

// Runs timers and the loop until `until`; people act only while r->acting.
static void run_until(struct run *r, int64_t until)
{
    for (int64_t now = now_us(); now < until; now = now_us()) {
        while (r->heap_n && r->heap[0]->next_at <= now)
            person_due(r, heap_pop(r));
        if (r->acting && r->logins_per_s > 0 && r->w.n_logins && now >= r->next_login) {
            model_sign_in(r);
            r->next_login = now + (int64_t)(1e6 / r->logins_per_s);
        }
        int64_t next = r->heap_n ? r->heap[0]->next_at : now + 50000;
        int wait = (int)((next - now) / 1000);
        poll_once(r, wait < 0 ? 0 : wait > 50 ? 50 : wait);
    }
}

static void connect_everyone(struct run *r, int at_once)
{
    int64_t t0 = now_us();
    int opened = 0;
    while (r->ready < r->w.n_people && now_us() - t0 < 300 * 1000000LL) {
        while (opened < r->w.n_people && opened - r->ready < at_once)
            socket_begin(r, &r->w.people[opened++]);
        run_until(r, now_us() + 20000);
    }
    fprintf(stderr, "people-sim: %d of %d connected in %.1f s\n", r->ready, r->w.n_people,
            (double)(now_us() - t0) / 1e6);
}

static uint64_t lost_deliveries(const struct run *r, uint64_t *expected)
{
    uint64_t lost = 0;
    *expected = 0;
    for (int i = 0; i < r->w.n_people; i++) {
        const struct person *p = &r->w.people[i];
        for (int s = 0; s < p->n_servers; s++) {
            const struct place *pl = &r->w.places[p->servers[s]];
            for (uint32_t q = 0; q < pl->next_seq; q++) {
                if (!bits_has(&pl->sent, q))
                    continue;
                ++*expected;
                lost += !bits_has(&p->seen[s], q);
            }
        }
    }
    return lost;
}

/* After the acting: until every page is connected and every message sent has reached every
 * member, then a second more for a late duplicate; at most max_us (what is missing then is lost). */
static void drain(struct run *r, int64_t max_us)
{
    int64_t end = now_us() + max_us;
    uint64_t expected;
    while (now_us() < end && (r->ready < r->w.n_people || lost_deliveries(r, &expected)))
        run_until(r, now_us() + 100000 < end ? now_us() + 100000 : end);
    if (now_us() < end)
        run_until(r, now_us() + 1000000 < end ? now_us() + 1000000 : end);
}

static void report(const struct run *r, double seconds)
{
    uint64_t expected, lost = lost_deliveries(r, &expected);
    printf("{\"people\":%d,\"servers\":%d,\"seconds\":%.1f,\"connected\":%d,\"actions\":{",
           r->w.n_people, r->w.n_places, seconds, r->ready);
    for (int a = 0; a < ACT_COUNT; a++)
        printf("%s\"%s\":%llu", a ? "," : "", timed_names[a], (unsigned long long)r->actions[a]);
    printf("},\"timed\":{");
    for (int t = 0; t < T_COUNT; t++)
        printf("%s\"%s\":{\"n\":%llu,\"failed\":%llu,\"cut\":%llu,\"p50\":%.1f,\"p99\":%.1f,"
               "\"max\":%.1f}",
               t ? "," : "", timed_names[t], (unsigned long long)r->hist[t].n,
               (unsigned long long)r->failed[t], (unsigned long long)r->cut[t],
               hist_pct_ms(&r->hist[t], 0.5), hist_pct_ms(&r->hist[t], 0.99),
               hist_pct_ms(&r->hist[t], 1.0));
    printf(
        "},\"events\":%llu,\"expected\":%llu,\"delivered\":%llu,\"lost\":%llu,\"duplicates\":%llu,"
        "\"gaps\":%llu,\"refused\":%llu,\"signedOut\":%llu,\"reconnects\":%llu",
        (unsigned long long)r->events, (unsigned long long)expected,
        (unsigned long long)r->deliveries, (unsigned long long)lost,
        (unsigned long long)r->duplicates, (unsigned long long)r->gaps,
        (unsigned long long)r->refused, (unsigned long long)r->signed_out,
        (unsigned long long)r->reconnects);
    printf(",\"httpWaitingMax\":%zu", r->waiting_max);
    printf(",\"lateOver1s\":{\"steady\":%llu,\"afterReconnect\":%llu}",
           (unsigned long long)r->late[0], (unsigned long long)r->late[1]);
    printf(",\"eventsByName\":{");
    for (int i = 0; i < KINDS_MAX && r->kinds[i].name[0]; i++)
        printf("%s\"%s\":%llu", i ? "," : "", r->kinds[i].name, (unsigned long long)r->kinds[i].n);
    printf("}");
    if (r->storm_from)
        printf(",\"storm\":{\"down\":%d,\"backS\":%.2f}", r->storm_down_max,
               r->storm_back ? (double)(r->storm_back - r->storm_from) / 1e6 : -1.0);
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    printf(",\"clientCpuS\":%.2f}\n", (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                                          (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s HOST PORT[,PORT…] WORLD_FILE SECONDS\n", argv[0]);
        return 2;
    }
    static struct run r;
    r.host = argv[1];
    for (char *at = argv[2], *end; *at && r.nports < PORTS_MAX; at = end + (*end == ',')) {
        r.ports[r.nports++] = (int)strtol(at, &end, 10);
        if (end == at)
            break;
    }
    r.port = r.ports[0];
    if (!r.nports || !r.port) {
        fprintf(stderr, "%s: no port in '%s'\n", argv[0], argv[2]);
        return 2;
    }
    double seconds = atof(argv[4]);
    r.rng = (uint64_t)now_us() | 1;
    snprintf(r.nonce, sizeof r.nonce, "pp%06x", (unsigned)(now_us() & 0xffffff));
    r.logins_per_s = (double)env_long("PEOPLE_LOGINS_PER_S", 1);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    load_world(&r.w, argv[3]);
    r.heap = calloc((size_t)r.w.n_people, sizeof *r.heap);
    r.epfd = epoll_create1(0);
    if (!r.heap || r.epfd < 0)
        die("setup");
    http_start(&r, (int)env_long("PEOPLE_HTTP_CONNS", 32));

    connect_everyone(&r, (int)env_long("PEOPLE_CONNECTING", 200));
    run_until(&r, now_us() + 2000000); // the arrivals' presence settles
    r.acting = true;
    for (int i = 0; i < r.w.n_people; i++)
        schedule(&r, &r.w.people[i], now_us() + model_pause_us(&r));
    run_until(&r, now_us() + env_long("PEOPLE_WARMUP_S", 10) * 1000000);
    r.measuring = true;
    printf("measuring\n");
    fflush(stdout);
    int64_t t0 = now_us();
    run_until(&r, t0 + (int64_t)(seconds * 1e6));
    r.acting = false;
    double measured = (double)(now_us() - t0) / 1e6;
    printf("done\n");
    fflush(stdout);
    drain(&r, env_long("PEOPLE_DRAIN_S", 10) * 1000000);
    r.measuring = false;
    report(&r, measured);
    http_stop(&r);
    uint64_t expected, lost = lost_deliveries(&r, &expected);
    return lost || r.ready < r.w.n_people ? 1 : 0;
}
