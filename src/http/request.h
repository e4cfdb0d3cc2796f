/*
 * An HTTP exchange: the request as parsed and the response a handler fills in.
 *
 * The request's bytes are owned by it (head and body buffers); slices point into them and stay
 * valid until http__request_cleanup. Header names are matched case-insensitively.
 */
#ifndef PRACA_HTTP_REQUEST_H
#define PRACA_HTTP_REQUEST_H
#include <stddef.h>

#include "core/buf.h"
#include "http/upload.h"

#define HTTP_MAX_HEADERS 100
#define HTTP_MAX_PARAMS  8

struct http_header {
    struct slice name;
    struct slice value;
};

struct http_request {
    int method;          /* enum http_method of http_parser */
    struct slice target; /* as sent: path?query */
    struct slice path;   /* raw path, not decoded */
    struct slice query;  /* after '?', without it */
    struct http_header headers[HTTP_MAX_HEADERS];
    size_t nheaders;
    struct buf head; /* url and header bytes */
    struct buf body;
    int keep_alive;
    int upgrade;
    char peer[48]; /* the peer's address, as text ("" when unknown) */
    /* Set by the body limit's decision to take a multipart/form-data body as an upload: its
     * files then go to upload_limits.dir and body stays empty. */
    struct http_upload_limits upload_limits;
    struct http_upload *upload; /* owned; NULL unless the body was taken as an upload */
    /* Filled by the router: */
    struct slice params[HTTP_MAX_PARAMS];
    size_t nparams;
};

struct http_response {
    int status;
    const char *content_type;  /* static string; NULL = no body type */
    const char *cache_control; /* static string; NULL = no Cache-Control header */
    struct buf headers;        /* extra header lines, each ending in \r\n */
    char *body;                /* owned (malloc) */
    size_t body_len;
    int close; /* close the connection after writing */
    /* A body read from a file instead (has_file): body_len bytes from file_offset, streamed in
     * chunks; the fd is owned and closed once written. */
    int has_file;
    int file_fd;
    size_t file_offset;
};

void http__request_init(struct http_request *r);
void http__request_cleanup(struct http_request *r);
/* The value of the first header with that name, or {NULL, 0}. */
struct slice http_request_header(const struct http_request *r, const char *name);
/* Finds name in the query string; the value is left URL-encoded. 1 when present. */
int http_query_param(struct slice query, const char *name, struct slice *value);
/* Decodes %XX and '+' into out (cap bytes, NUL-terminated); -1 when malformed or too long. */
int http_url_decode(struct slice in, char *out, size_t cap, size_t *outlen);

/* A Range header (RFC 9110 §14) over a body of size bytes: 1 with the one range it asks for,
 * 0 when the whole body is the answer (no header, several ranges, another unit), -1 when it
 * cannot be satisfied (416). */
int http_range_parse(struct slice header, size_t size, size_t *start, size_t *len);

void http_response_init(struct http_response *r);
void http_response_cleanup(struct http_response *r);
/* Takes ownership of body (malloc'd). */
void http_response_set(struct http_response *r, int status, const char *content_type, char *body,
                       size_t len);
int http_response_add_header(struct http_response *r, const char *name, const char *value);
/* Takes ownership of fd: len bytes from offset are the body. */
void http_response_set_file(struct http_response *r, int status, const char *content_type, int fd,
                            size_t offset, size_t len);
/* Serializes the status line and headers (with Content-Length, and Keep-Alive's timeout from
 * idle_ms when the connection stays open) into out. */
int http__response_head(const struct http_response *r, int idle_ms, struct buf *out);
const char *http__status_text(int status);

#endif
