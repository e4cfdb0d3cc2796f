/*
 * HTTP/1.1 request parsing on top of http-parser, with our limits, and no I/O.
 *
 * Bytes go in with http__reqparse_feed; it stops after each complete request (pipelined bytes
 * after it are left unconsumed) so requests are answered strictly in order. Limits: the request
 * line and headers together at most HTTP_HEAD_LIMIT bytes (431), a body at most body_limit bytes
 * (413, decided from Content-Length before any body byte is read, or as a chunked body grows).
 */
#ifndef PRACA_HTTP_REQPARSE_H
#define PRACA_HTTP_REQPARSE_H
#include <http_parser.h>
#include <stddef.h>

#include "http/request.h"

#define HTTP_HEAD_LIMIT (16 * 1024)

enum http_reqparse_result {
    HTTP_REQPARSE_MORE = 0,    /* everything consumed; no request complete yet */
    HTTP_REQPARSE_REQUEST = 1, /* a request is complete: take it */
    HTTP_REQPARSE_ERROR = -1,  /* answer error_status and close */
    /* The headers are complete and the body's limit must be decided elsewhere (limit_for said
     * HTTP_BODY_LIMIT_ASK): feed nothing more until http__reqparse_decide. */
    HTTP_REQPARSE_ASK = 2,
    /* An upload's files are behind on the disk (or the request is complete but its last
     * writes are not done): feed nothing more until the upload wakes (http__reqparse_resume). */
    HTTP_REQPARSE_WAIT = 3,
};

enum http_reqparse_phase {
    HTTP_PHASE_IDLE, /* between requests */
    HTTP_PHASE_HEAD, /* some of the request line or headers received */
    HTTP_PHASE_BODY, /* headers complete, body arriving */
};

/* Decides a request's body limit from its line and headers (NULL: body_limit for all), or
 * answers HTTP_BODY_LIMIT_ASK when it cannot tell without a lookup. */
typedef size_t (*http_body_limit_fn)(void *user, struct http_request *req);
#define HTTP_BODY_LIMIT_ASK ((size_t)-1)

struct http_reqparse {
    http_parser parser;
    struct http_request *req; /* the request being built (owned) */
    size_t body_limit;        /* the most any request may send */
    http_body_limit_fn limit_for;
    void *limit_user;
    size_t limit_floor; /* a body declared this small is taken without asking (0: always ask) */
    int asking;         /* paused after the headers until http__reqparse_decide */
    int waiting;        /* paused for an upload's writes until http__reqparse_resume */
    void *loop;         /* the uv_loop_t an upload's files are written from */
    void (*upload_wake)(void *arg); /* called when an upload's wait is over */
    void *upload_wake_arg;
    size_t head_bytes;
    int error_status;
    int complete;
    int expect_continue;  /* set when the headers asked for 100-continue */
    size_t upload_bytes;  /* body bytes handed to the upload */
    size_t body_declared; /* Content-Length, once the headers are complete (0: none, chunked) */
    enum http_reqparse_phase phase;
    int in_value; /* the last header callback was a value */
    size_t name_off, name_len, value_off, value_len;
    size_t url_len;
    struct {
        size_t name_off, name_len, value_off, value_len;
    } spans[HTTP_MAX_HEADERS]; /* header positions in req->head until the headers are complete */
};

void http__reqparse_init(struct http_reqparse *p, size_t body_limit);
void http__reqparse_cleanup(struct http_reqparse *p);
/* Parses up to len bytes; *consumed says how many were used. */
enum http_reqparse_result http__reqparse_feed(struct http_reqparse *p, const char *data, size_t len,
                                              size_t *consumed);
/* The limit asked for (HTTP_REQPARSE_ASK), at most body_limit; parsing may go on. Returns 0, or
 * -1 with error_status 413 when the declared body is over it. */
int http__reqparse_decide(struct http_reqparse *p, size_t limit);
/* After HTTP_REQPARSE_WAIT, once the upload woke: parsing may go on. */
void http__reqparse_resume(struct http_reqparse *p);
/* The limit of the request being read, or that was refused (for the 413's message). */
size_t http__reqparse_limit(const struct http_reqparse *p);
/* Hands over the completed request (caller frees with http__request_cleanup + free) and gets
 * ready for the next one. */
struct http_request *http__reqparse_take(struct http_reqparse *p);

#endif
