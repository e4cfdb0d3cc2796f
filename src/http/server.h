/*
 * The HTTP/1.1 server on the I/O thread (libuv).
 *
 * It accepts connections, parses requests with their limits and timeouts, and hands each
 * complete request to the handler as an exchange. The handler may run anywhere (worker
 * threads); it finishes by calling http_exchange_done, from any thread, and the response is
 * written on the I/O thread. One request per connection is in the handler at a time, so
 * pipelined requests are answered in order.
 */
#ifndef PRACA_HTTP_SERVER_H
#define PRACA_HTTP_SERVER_H
#include <stdint.h>
#include <uv.h>

#include "core/inbox.h"
#include "core/workers.h"
#include "http/request.h"

struct http_conn;
struct http_server;

struct http_exchange {
    struct http_request *req; /* owned by the exchange */
    struct http_response res;
    struct job job;    /* free for the handler to queue the exchange with */
    const void *route; /* free for the handler */
    /* Called on the I/O thread when the connection closes while the handler still holds the
     * exchange (a held long-poll); the handler must still call http_exchange_done. */
    void (*on_abort)(struct http_exchange *ex);
    void *user; /* free for the handler */
    /* For the access log and metrics: what answered (a route pattern, a static string) and for
     * whom (an account ID); left empty by handlers that have neither. */
    const char *label;
    char caller[40];
    uint64_t started_ns;    /* when the request was complete (uv_hrtime) */
    struct http_conn *conn; /* private */
    struct job answered;    /* private: the way back to the I/O thread */
};

/* A connection taken over from HTTP (a WebSocket): raw bytes both ways, on the I/O thread. */
struct http_stream;

struct http_stream_callbacks {
    void (*on_data)(void *user, const char *data, size_t len);
    /* The connection is gone: the stream must not be used after this returns. */
    void (*on_close)(void *user);
};

typedef void (*http_handler_fn)(void *user, struct http_exchange *ex);

/* A request whose body limit body_limit_for could not tell from memory (it answered
 * HTTP_BODY_LIMIT_ASK): the handler's user decides it off the I/O thread and calls
 * http_limit_decided. Nothing of the body is read meanwhile. */
struct http_limit_ask {
    const struct http_request *req; /* line and headers; valid until decided */
    struct http_conn *conn;         /* private */
    struct job back;                /* private */
    size_t limit;                   /* private */
};
/* Thread-safe; the ask is freed by the server. */
void http_limit_decided(struct http_limit_ask *ask, size_t limit);

/* One answer leaving, for the access log and metrics (I/O thread). req and the labels are NULL
 * for answers this layer makes before a request is whole (400, 408, 413, 431, 503). */
struct http_answer {
    const struct http_request *req;
    const char *label;
    const char *caller;
    const char *peer;
    int status;
    uint64_t duration_ns;
};
typedef void (*http_answer_fn)(void *user, const struct http_answer *a);

struct http_server_config {
    const char *host;
    int port;
    size_t body_limit;
    int header_timeout_ms;
    int body_timeout_ms;
    int idle_timeout_ms;
    int max_connections;             /* beyond it new connections are closed at once */
    int max_connections_per_address; /* 0 = no cap */
    const char *trusted_proxy;       /* a peer whose X-Forwarded-For names the client (or NULL) */
    size_t body_budget; /* request body bytes held at once, all connections (0 = 256 MiB) */
    /* Uploads' files in flight on disk, all connections, counted as declared (0 = 4 GiB): past
     * it an upload is answered 503 before its body is read. */
    size_t spool_budget;
    /* Answer bytes waiting on slow readers, all connections (0 = 256 MiB); past it an answer
     * the kernel does not take at once closes its connection instead of waiting. */
    size_t answer_budget;
    http_answer_fn on_answer; /* optional */
    /* Optional: a request's body limit (at most body_limit), decided from its headers; gets the
     * handler's user. HTTP_BODY_LIMIT_ASK hands a body declared over body_limit_floor to
     * body_limit_ask (a smaller one gets body_limit_floor at once). */
    size_t (*body_limit_for)(void *user, struct http_request *req);
    void (*body_limit_ask)(void *user, struct http_limit_ask *ask);
    size_t body_limit_floor;
    void *on_answer_user;
};

/* What the server holds now. */
struct http_server_stats {
    size_t connections;           /* open, upgraded ones included */
    size_t body_bytes;            /* request bodies held */
    size_t answer_bytes;          /* answers waiting on their readers */
    size_t spool_bytes;           /* uploads' files in flight */
    unsigned long refused;        /* connections closed at once for a cap, since start */
    unsigned long write_timeouts; /* closed for an answer that made no progress, since start */
};
void http_server_stats(const struct http_server *s, struct http_server_stats *out);

struct http_server *http_server_new(uv_loop_t *loop, const struct http_server_config *cfg,
                                    http_handler_fn handler, void *user);
/* Binds and listens; *port gets the bound port. Returns 0 or a negative libuv error. */
int http_server_listen(struct http_server *s, int *port);
/* Thread-safe: the response in ex->res is complete; write it. */
void http_exchange_done(struct http_exchange *ex);
/* I/O thread only: ends HTTP on this connection (the exchange is freed), writes head (the 101
 * answer) and hands the socket to cb. Nothing is read until http_stream_start. */
struct http_stream *http_exchange_upgrade(struct http_exchange *ex,
                                          const struct http_stream_callbacks *cb, void *user,
                                          const char *head, size_t head_len);
/* Delivers the bytes that followed the request, then reads on. */
void http_stream_start(struct http_stream *s);
/* Queues bytes (copied). Returns 0, or -1 when the stream is closing. */
int http_stream_write(struct http_stream *s, const void *data, size_t len);
/* Bytes queued and not yet taken by the kernel (a slow reader shows here). */
size_t http_stream_queued(const struct http_stream *s);
/* Closes once queued bytes are written; on_close is not called for a close asked this way. */
void http_stream_close(struct http_stream *s);
/* Stops accepting, lets requests in flight finish, closes every connection, then calls done. */
void http_server_drain(struct http_server *s, void (*done)(void *arg), void *arg);
/* After the loop has stopped. http_server_free(NULL) does nothing. */
void http_server_free(struct http_server *s);
/* The JSON error body the HTTP layer itself answers with: malloc'd. A 413 names limit. */
char *http__error_json(int status, size_t limit, size_t *len);
/* The same with a message of the caller's (a static string). */
char *http__error_json_text(int status, const char *message, size_t limit, size_t *len);

#endif
