/* Requests and responses: see request.h. */
#include "http/request.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAD_MAX          (16 * 1024 + 1024)
#define RESPONSE_HDRS_MAX 8192

void http__request_init(struct http_request *r)
{
    memset(r, 0, sizeof *r);
    buf_init(&r->head, HEAD_MAX);
    buf_init(&r->body, 0);
}

void http__request_cleanup(struct http_request *r)
{
    buf_cleanup(&r->head);
    buf_cleanup(&r->body);
    http_upload_free(r->upload);
    r->upload = NULL;
}

struct slice http_request_header(const struct http_request *r, const char *name)
{
    for (size_t i = 0; i < r->nheaders; i++)
        if (slice_eq_nocase(r->headers[i].name, name))
            return r->headers[i].value;
    return (struct slice){NULL, 0};
}

int http_query_param(struct slice query, const char *name, struct slice *value)
{
    size_t nlen = strlen(name);
    size_t i = 0;
    while (i < query.len) {
        size_t end = i;
        while (end < query.len && query.ptr[end] != '&')
            end++;
        const char *p = query.ptr + i;
        size_t len = end - i;
        if (len >= nlen && memcmp(p, name, nlen) == 0 && (len == nlen || p[nlen] == '=')) {
            value->ptr = len == nlen ? p + len : p + nlen + 1;
            value->len = len == nlen ? 0 : len - nlen - 1;
            return 1;
        }
        i = end + 1;
    }
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int http_url_decode(struct slice in, char *out, size_t cap, size_t *outlen)
{
    size_t o = 0;
    for (size_t i = 0; i < in.len; i++) {
        char c = in.ptr[i];
        if (c == '%') {
            if (i + 2 >= in.len)
                return -1;
            int hi = hexval(in.ptr[i + 1]), lo = hexval(in.ptr[i + 2]);
            if (hi < 0 || lo < 0)
                return -1;
            c = (char)(hi * 16 + lo);
            i += 2;
        } else if (c == '+') {
            c = ' ';
        }
        if (o + 1 >= cap)
            return -1;
        out[o++] = c;
    }
    out[o] = '\0';
    if (outlen)
        *outlen = o;
    return 0;
}

void http_response_init(struct http_response *r)
{
    memset(r, 0, sizeof *r);
    buf_init(&r->headers, RESPONSE_HDRS_MAX);
}

void http_response_cleanup(struct http_response *r)
{
    buf_cleanup(&r->headers);
    free(r->body);
    r->body = NULL;
    if (r->has_file)
        close(r->file_fd);
    r->has_file = 0;
}

void http_response_set_file(struct http_response *r, int status, const char *content_type, int fd,
                            size_t offset, size_t len)
{
    http_response_set(r, status, content_type, NULL, 0);
    if (r->has_file)
        close(r->file_fd);
    r->has_file = 1;
    r->file_fd = fd;
    r->file_offset = offset;
    r->body_len = len;
}

void http_response_set(struct http_response *r, int status, const char *content_type, char *body,
                       size_t len)
{
    free(r->body);
    r->status = status;
    r->content_type = content_type;
    r->body = body;
    r->body_len = len;
}

int http_response_add_header(struct http_response *r, const char *name, const char *value)
{
    return buf_appendf(&r->headers, "%s: %s\r\n", name, value);
}

const char *http__status_text(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 101:
        return "Switching Protocols";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 302:
        return "Found";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Payload Too Large";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Unknown";
    }
}

int http__response_head(const struct http_response *r, int idle_ms, struct buf *out)
{
    int rc = buf_appendf(out, "HTTP/1.1 %d %s\r\n", r->status, http__status_text(r->status));
    /* Every body is read as the type it is labelled with, never sniffed (JSON as a page). */
    if (!rc && r->content_type)
        rc = buf_appendf(out, "Content-Type: %s\r\nX-Content-Type-Options: nosniff\r\n",
                         r->content_type);
    if (!rc && r->cache_control)
        rc = buf_appendf(out, "Cache-Control: %s\r\n", r->cache_control);
    if (!rc && r->status != 101 && r->status != 204 && r->status != 304)
        rc = buf_appendf(out, "Content-Length: %zu\r\n", r->body_len);
    if (!rc && r->headers.len)
        rc = buf_append(out, r->headers.data, r->headers.len);
    if (!rc && r->close)
        rc = buf_append_str(out, "Connection: close\r\n");
    /* How long an idle connection stays open (whole seconds, rounded down): a client reusing
     * one closes it before the server does, instead of sending a request as the server closes
     * it (RFC 9112 §9.3; undici, for one, keeps a second's margin below it). */
    else if (!rc && r->status != 101 && idle_ms > 0)
        rc = buf_appendf(out, "Keep-Alive: timeout=%d\r\n", idle_ms / 1000);
    if (!rc)
        rc = buf_append_str(out, "\r\n");
    return rc;
}

/* Digits of a range bound: the value, or -1 (none, or too large). */
static long long range_number(const char **p, const char *end)
{
    long long v = -1;
    while (*p < end && **p >= '0' && **p <= '9') {
        if (v > (LLONG_MAX - 9) / 10)
            return -2;
        v = (v < 0 ? 0 : v * 10) + (**p - '0');
        (*p)++;
    }
    return v;
}

int http_range_parse(struct slice header, size_t size, size_t *start, size_t *len)
{
    if (!header.ptr)
        return 0;
    const char *p = header.ptr, *end = header.ptr + header.len;
    if (header.len < 7 || memcmp(p, "bytes=", 6))
        return 0;
    p += 6;
    if (memchr(p, ',', (size_t)(end - p)))
        return 0; /* several ranges: the whole body instead */
    long long first = range_number(&p, end);
    if (first == -2 || p >= end || *p != '-')
        return 0;
    p++;
    long long last = range_number(&p, end);
    if (p != end || last == -2 || (first < 0 && last < 0))
        return 0;
    if (first < 0) { /* the last `last` bytes */
        if (last == 0 || size == 0)
            return -1;
        size_t n = (unsigned long long)last < size ? (size_t)last : size;
        *start = size - n;
        *len = n;
        return 1;
    }
    if ((unsigned long long)first >= size)
        return -1;
    if (last >= 0 && last < first)
        return 0; /* invalid: ignored, as RFC 9110 allows */
    size_t stop = last < 0 || (unsigned long long)last >= size ? size - 1 : (size_t)last;
    *start = (size_t)first;
    *len = stop - (size_t)first + 1;
    return 1;
}
