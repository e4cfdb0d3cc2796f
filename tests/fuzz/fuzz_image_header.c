/* libFuzzer driver for what media/ reads of a picture's bytes before any decoder: the header
 * reader (read within the bytes given, and a header read is one whose verdict and decoded size
 * can be worked out) and the metadata strippers of WebP and GIF (never past their input, and an
 * answer that is one of theirs). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "media/image_header.h"
#include "media/strip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct mem {
    const uint8_t *p;
    size_t len, pos, written;
};

static ssize_t mem_read(void *ctx, void *buf, size_t n)
{
    struct mem *m = ctx;
    size_t k = m->len - m->pos < n ? m->len - m->pos : n;
    if (k > 7) /* small reads, so chunks split across them */
        k = 7;
    memcpy(buf, m->p + m->pos, k);
    m->pos += k;
    return (ssize_t)k;
}

static int mem_write(void *ctx, const void *buf, size_t n)
{
    (void)buf;
    ((struct mem *)ctx)->written += n;
    return 0;
}

static void strip_with(int (*fn)(const struct media_io *), const uint8_t *p, size_t n)
{
    struct mem m = {p, n, 0, 0};
    struct media_io io = {mem_read, mem_write, &m};
    int rc = fn(&io);
    if (rc != MEDIA_STRIP_OK && rc != MEDIA_STRIP_MALFORMED)
        abort(); /* the reader and writer never fail here */
    if (fn == media_strip_webp && rc == MEDIA_STRIP_OK && m.written > n)
        abort(); /* emptied in place: never larger */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes, so a read past the end is ASan's to see. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    struct media_image_header h;
    if (!media_image_header(copy, size, &h)) {
        if (!h.width || !h.height || !h.bands || h.bands > 4 || !h.sample_bytes ||
            h.sample_bytes > 2)
            abort();
        if (media_image_thumb_verdict(&h) == MEDIA_THUMB_OK &&
            (uint64_t)h.width * h.height > MEDIA_PIXELS_MAX)
            abort();
        (void)media_image_decoded_bytes(&h);
    }
    strip_with(media_strip_webp, copy, size);
    strip_with(media_strip_gif, copy, size);
    free(copy);
    return 0;
}
