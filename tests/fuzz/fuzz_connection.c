/*
 * libFuzzer driver for a connection's whole life: HTTP → WebSocket → Engine.IO → Socket.IO, the
 * code where unbounded pongs, never-closed slow readers and attachments before a namespace
 * lived. Each input starts a real HTTP server on a libuv loop (short timeouts) with the
 * conformance handlers (no database), plays the input as a client over a real socket, then
 * shuts everything down, so a leak or a use after free in any state shows up per input.
 *
 * The input is a script of segments separated by 0xFF. A segment is written as is, except:
 *   0xFE n      pause n % 16 ms, so timers fire (head, body, idle, linger deadlines)
 *   0xFD        stop reading the answers (a slow reader), 0xFC read them again
 *   0xFB        shut the client's write side (EOF)
 */
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "core/log.h"
#include "socketio/conformance.h"
#include "http/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEGMENT_MARK 0xFF
#define CMD_PAUSE    0xFE
#define CMD_NO_READ  0xFD
#define CMD_READ     0xFC
#define CMD_EOF      0xFB

struct world {
    uv_loop_t loop;
    struct http_server *http;
    struct conformance *conf;
    int port;
};

static void on_request(void *user, struct http_exchange *ex)
{
    struct world *w = user;
    if (sio_conformance_handle(w->conf, ex))
        return;
    ex->res.status = 404;
    http_exchange_done(ex);
}

static void spin(struct world *w, int rounds)
{
    for (int i = 0; i < rounds; i++)
        uv_run(&w->loop, UV_RUN_NOWAIT);
}

static void pause_ms(struct world *w, int ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    nanosleep(&ts, NULL);
    spin(w, 4);
}

static void drain_client(int fd, int reading)
{
    char buf[65536];
    while (reading && recv(fd, buf, sizeof buf, MSG_DONTWAIT) > 0)
        ;
}

static int start(struct world *w)
{
    memset(w, 0, sizeof *w);
    uv_loop_init(&w->loop);
    struct http_server_config cfg = {
        .host = "127.0.0.1",
        .body_limit = 64 * 1024,
        .header_timeout_ms = 5,
        .body_timeout_ms = 5,
        .idle_timeout_ms = 10,
        .max_connections = 8,
        .body_budget = 256 * 1024,
    };
    w->conf = sio_conformance_new(&w->loop);
    w->http = http_server_new(&w->loop, &cfg, on_request, w);
    return w->conf && w->http && http_server_listen(w->http, &w->port) == 0 ? 0 : -1;
}

static void stop(struct world *w)
{
    if (w->conf) {
        sio_conformance_drain(w->conf);
        sio_conformance_release(w->conf);
    }
    if (w->http)
        http_server_drain(w->http, NULL, NULL);
    uv_run(&w->loop, UV_RUN_DEFAULT);
    http_server_free(w->http);
    sio_conformance_free(w->conf);
    uv_loop_close(&w->loop);
}

static int connect_client(struct world *w)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)w->port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || (connect(fd, (struct sockaddr *)&a, sizeof a) && errno != EINPROGRESS)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    spin(w, 4);
    return fd;
}

static void play(struct world *w, int fd, const uint8_t *data, size_t size)
{
    int reading = 1;
    size_t i = 0;
    while (i < size) {
        size_t end = i;
        while (end < size && data[end] != SEGMENT_MARK)
            end++;
        const uint8_t *seg = data + i;
        size_t len = end - i;
        if (len >= 2 && seg[0] == CMD_PAUSE) {
            pause_ms(w, seg[1] % 16);
        } else if (len == 1 && seg[0] == CMD_NO_READ) {
            reading = 0;
        } else if (len == 1 && seg[0] == CMD_READ) {
            reading = 1;
        } else if (len == 1 && seg[0] == CMD_EOF) {
            shutdown(fd, SHUT_WR);
        } else if (len) {
            (void)!send(fd, seg, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        }
        spin(w, 3);
        drain_client(fd, reading);
        i = end + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int quiet;
    if (!quiet) {
        log_set_level(LOG_ERROR);
        signal(SIGPIPE, SIG_IGN); /* as praca serve does: a write to a gone peer is an error */
        quiet = 1;
    }
    struct world w;
    if (start(&w) == 0) {
        int fd = connect_client(&w);
        if (fd >= 0) {
            play(&w, fd, data, size);
            close(fd);
            spin(&w, 4);
        }
    }
    stop(&w);
    return 0;
}
