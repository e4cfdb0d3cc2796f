/* Bounded buffers: see buf.h. */
#include "core/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void buf_init(struct buf *b, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max;
}

void buf_cleanup(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void buf_reset(struct buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static int reserve(struct buf *b, size_t n)
{
    if (n > b->max - b->len)
        return BUF_ETOOBIG;
    size_t need = b->len + n + 1;
    if (need <= b->cap)
        return BUF_OK;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    if (cap > b->max + 1)
        cap = b->max + 1;
    char *p = realloc(b->data, cap);
    if (!p)
        return BUF_ENOMEM;
    b->data = p;
    b->cap = cap;
    return BUF_OK;
}

int buf_append(struct buf *b, const void *p, size_t n)
{
    int rc = reserve(b, n);
    if (rc)
        return rc;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return BUF_OK;
}

int buf_append_str(struct buf *b, const char *s)
{
    return buf_append(b, s, strlen(s));
}

/* Formats into the spare room first, so the usual case (it fits) formats once. */
int buf_appendf(struct buf *b, const char *fmt, ...)
{
    size_t room = b->cap > b->len ? b->cap - b->len : 0;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        return BUF_ENOMEM;
    if ((size_t)n < room && (size_t)n <= b->max - b->len) {
        b->len += (size_t)n;
        return BUF_OK;
    }
    int rc = reserve(b, (size_t)n);
    if (rc) {
        if (b->data)
            b->data[b->len] = '\0'; /* the first try may have written past len */
        return rc;
    }
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return BUF_OK;
}

void buf_consume(struct buf *b, size_t n)
{
    if (n >= b->len) {
        buf_reset(b);
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

char *buf_detach(struct buf *b, size_t *len)
{
    if (!b->data && buf_append(b, "", 0))
        return NULL;
    char *p = b->data;
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

struct slice slice_from(const char *s)
{
    return (struct slice){s, s ? strlen(s) : 0};
}

int slice_eq(struct slice a, const char *s)
{
    size_t n = strlen(s);
    return a.len == n && memcmp(a.ptr, s, n) == 0;
}

int slice_eq_nocase(struct slice a, const char *s)
{
    size_t n = strlen(s);
    return a.len == n && strncasecmp(a.ptr, s, n) == 0;
}

int slice_copy(struct slice s, char *out, size_t cap)
{
    if (s.len >= cap)
        return -1;
    memcpy(out, s.ptr, s.len);
    out[s.len] = '\0';
    return 0;
}

int slice_to_i64(struct slice s, long long min, long long max, long long *out)
{
    size_t i = 0;
    int neg = 0;
    if (s.len && s.ptr[0] == '-') {
        neg = 1;
        i = 1;
    }
    if (i == s.len || s.len - i > 18)
        return -1;
    long long v = 0;
    for (; i < s.len; i++) {
        if (s.ptr[i] < '0' || s.ptr[i] > '9')
            return -1;
        v = v * 10 + (s.ptr[i] - '0');
    }
    if (neg)
        v = -v;
    if (v < min || v > max)
        return -1;
    *out = v;
    return 0;
}
