/*
 * libFuzzer driver for the multipart/form-data parser and what reads files' bytes: the first
 * byte splits the input into pieces of that size (a body arrives in any pieces), the parser's
 * callbacks check that parts open, carry data and close in order; the same bytes then go
 * through the JPEG and PNG strippers and the video size reader.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "http/multipart.h"
#include "media/strip.h"
#include "media/video.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
    int open;
    size_t parts, bytes;
};

static int begin(void *user, const struct http_multipart_part *p)
{
    struct seen *s = user;
    assert(!s->open);
    assert(strlen(p->name) < sizeof p->name);
    s->open = 1;
    s->parts++;
    return 0;
}

static int on_data(void *user, const char *p, size_t len)
{
    struct seen *s = user;
    assert(s->open && len > 0 && p);
    s->bytes += len;
    return 0;
}

static int end(void *user)
{
    struct seen *s = user;
    assert(s->open);
    s->open = 0;
    return 0;
}

static const struct http_multipart_callbacks cb = {begin, on_data, end};

struct mem {
    const uint8_t *p;
    size_t len, pos;
};

static ssize_t mem_read(void *ctx, void *buf, size_t n)
{
    struct mem *m = ctx;
    size_t k = m->len - m->pos < n ? m->len - m->pos : n;
    memcpy(buf, m->p + m->pos, k);
    m->pos += k;
    return (ssize_t)k;
}

static ssize_t mem_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
    struct mem *m = ctx;
    if (off >= m->len)
        return 0;
    size_t k = m->len - off < n ? m->len - off : n;
    memcpy(buf, m->p + off, k);
    return (ssize_t)k;
}

static int mem_write(void *ctx, const void *buf, size_t n)
{
    (void)ctx;
    (void)buf;
    (void)n;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t step = data[0] ? data[0] : 1;
    data++;
    size--;
    struct http_multipart mp;
    struct seen s = {0};
    if (http_multipart_init(&mp, SLICE_LIT("multipart/form-data; boundary=\"XyZ\""), &cb, &s))
        return 0;
    int rc = 0;
    for (size_t at = 0; at < size && !rc; at += step)
        rc = http_multipart_feed(&mp, (const char *)data + at, size - at < step ? size - at : step);
    assert(s.bytes <= size);
    if (http_multipart_finish(&mp) == 0)
        assert(!s.open);
    struct mem m = {data, size, 0};
    struct media_io io = {mem_read, mem_write, &m};
    media_strip_jpeg(&io);
    m.pos = 0;
    media_strip_png(&io);
    struct media_source src = {mem_pread, size, &m};
    int w, h;
    if (media_video_size(&src, &w, &h) == 0)
        assert(w > 0 && h > 0 && w <= 65535 && h <= 65535);
    return 0;
}
