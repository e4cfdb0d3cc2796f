/*
 * What the HTTP server's files share (private to http/): a connection, the server, their
 * budgets, and the steps one file takes for another. server.c accepts, times, frees and drains;
 * read.c reads and parses; write.c writes answers; stream.c carries upgraded connections.
 */
#ifndef PRACA_HTTP_CONN_H
#define PRACA_HTTP_CONN_H
#include <stddef.h>
#include <uv.h>

#include "core/buf.h"
#include "core/inbox.h"
#include "core/map.h"
#include "http/reqparse.h"
#include "http/server.h"

#define READ_CHUNK    65536
#define PENDING_MAX   (READ_CHUNK * 2)
#define LINGER_MS     2000
#define DRAIN_READ_MS 5000 /* the longest a drain waits for a request still arriving */
/* The longest a drain waits in all: a request still arriving, then its answer leaving. Past it
 * every connection left is closed, whatever its client does. */
#define DRAIN_MAX_MS         (DRAIN_READ_MS + 5000)
#define BODY_BUDGET_DEFAULT  ((size_t)256 * 1024 * 1024)
#define SPOOL_BUDGET_DEFAULT ((size_t)4 * 1024 * 1024 * 1024)
/* Bytes per second a body must keep up on average, once its first body timeout has passed. */
#define BODY_MIN_RATE (64 * 1024)

enum timer_kind { T_NONE, T_IDLE, T_HEAD, T_BODY, T_WRITE, T_LINGER };

struct http_conn {
    uv_tcp_t tcp;
    uv_timer_t timer;
    struct http_server *srv;
    struct http_reqparse *parser; /* freed when the connection is upgraded */
    struct buf pending;
    struct http_exchange *busy; /* in the handler or being written */
    enum timer_kind timer_kind;
    int open_handles;
    int closing;
    int reading;
    int writing;
    int lingering;
    int continue_sent;
    int peer_done; /* EOF while busy: answer, then close */
    int asking;    /* a body limit is being decided elsewhere (an http_limit_ask is out) */
    /* After an upgrade: */
    const struct http_stream_callbacks *stream_cb;
    void *stream_user;
    int upgrading; /* writing the 101: a close then is told its owner from the handle's close */
    size_t stream_queued;
    int stream_writes;
    int close_when_flushed;
    size_t body_reserved;        /* of the server's body budget, for the request in hand */
    size_t spool_reserved;       /* of the server's spool budget: an upload's bytes received */
    uint64_t body_start_ms;      /* when the body's deadline was first set (0: no body yet) */
    uint64_t body_last_ms;       /* when its last bytes arrived */
    size_t body_in;              /* bytes read since body_start_ms */
    size_t answer_held;          /* of the answer being written, bytes the kernel has not taken */
    size_t write_left;           /* the socket's write queue when the write deadline was set */
    char peer[INET6_ADDRSTRLEN]; /* the peer's address as text */
    int counted;                 /* in the server's per-address map */
    struct http_conn *prev, *next;
};

struct http_server {
    uv_loop_t *loop;
    uv_tcp_t listener;
    struct inbox *done; /* answers coming back from the handlers' threads */
    struct http_server_config cfg;
    http_handler_fn handler;
    void *user;
    struct http_conn *conns;
    int draining;
    int drain_finished;
    struct map per_address;         /* peer address → connections (a count in the pointer) */
    struct http_server_stats stats; /* its counters and what all connections hold now */
    uv_timer_t drain_timer;         /* the drain's outer bound (initialised by the drain) */
    void (*drained)(void *);
    void *drained_arg;
    char read_buf[READ_CHUNK];
    int read_buf_busy;
};

/* read.c */
/* Parses data (bytes read, or held while the handler ran) and acts on what it finds. */
void http__conn_feed(struct http_conn *c, const char *data, size_t len);
void http__start_reading(struct http_conn *c);
void http__stop_reading(struct http_conn *c);
/* An upload's file writes caught up: reading resumes. */
void http__upload_woke(void *arg);

/* server.c */
/* Closes both handles; the connection is freed once they are closed and no exchange holds it. */
void http__conn_close(struct http_conn *c);
/* Frees an exchange and gives back its body's budget (NULL: nothing). */
void http__exchange_free(struct http_exchange *ex);
/* Frees a closing connection once nothing refers to it. */
void http__maybe_free(struct http_conn *c);
/* Gives back what the answer being written held of the server's budget. */
void http__release_answer(struct http_conn *c);
/* Counts the body being read against the server's budgets: 0, or -1 past them. */
int http__reserve_body(struct http_conn *c);
/* The connection's one deadline, of that kind. */
void http__set_timer(struct http_conn *c, enum timer_kind kind);
void http__stop_timer(struct http_conn *c);
/* While an answer is being written: it must make progress. */
void http__write_deadline(struct http_conn *c);

/* write.c */
/* What the socket takes of bufs now, without waiting: bytes, or a negative UV error (UV_EAGAIN:
 * nothing). One send(2) or sendmsg(2), which skip write(2)'s file layer: it runs per delivery. */
int http__try_send(struct http_conn *c, const uv_buf_t *bufs, unsigned nbufs);
/* No more bytes from us; what the peer still sends is read and dropped for a moment. */
void http__linger_close(struct http_conn *c);
/* Answers status with a JSON error of this layer, and closes after it. */
void http__send_error(struct http_conn *c, int status);
/* Writes res (own_body is freed after it); ex, when given, is freed once written. */
void http__write_response(struct http_conn *c, struct http_response *res, struct http_exchange *ex,
                          char *own_body);

#endif
