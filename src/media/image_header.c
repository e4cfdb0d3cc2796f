/* Image headers: see image_header.h. Each format's layout is its specification's. */
#include "media/image_header.h"

#include <string.h>

static uint32_t be16(const uint8_t *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le16(const uint8_t *p)
{
    return (uint32_t)p[1] << 8 | p[0];
}

static uint32_t le24(const uint8_t *p)
{
    return (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* PNG: the signature, then IHDR first (width, height, bit depth, colour type, …, interlace). */
static int png(const uint8_t *p, size_t n, struct media_image_header *h)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (n < 33 || memcmp(p, sig, 8) || be32(p + 8) != 13 || memcmp(p + 12, "IHDR", 4))
        return -1;
    static const unsigned bands_of[7] = {1, 0, 3, 4, 2, 0, 4}; /* a palette decodes to RGBA */
    unsigned depth = p[24], type = p[25];
    if (type > 6 || !bands_of[type] || !depth || depth > 16 || p[28] > 1)
        return -1;
    *h = (struct media_image_header){MEDIA_IMAGE_PNG, be32(p + 16),        be32(p + 20),
                                     bands_of[type],  depth == 16 ? 2 : 1, p[28] == 1};
    return 0;
}

/* GIF: the logical screen, which every frame is drawn on, decoded whole as RGBA. */
static int gif(const uint8_t *p, size_t n, struct media_image_header *h)
{
    if (n < 10 || (memcmp(p, "GIF87a", 6) && memcmp(p, "GIF89a", 6)))
        return -1;
    *h = (struct media_image_header){MEDIA_IMAGE_GIF, le16(p + 6), le16(p + 8), 4, 1, 1};
    return 0;
}

/* WebP: a RIFF holding VP8 (lossy), VP8L (lossless) or VP8X (extended: the canvas). libwebp
 * decodes a picture whole. */
static int webp(const uint8_t *p, size_t n, struct media_image_header *h)
{
    if (n < 30 || memcmp(p, "RIFF", 4) || memcmp(p + 8, "WEBP", 4))
        return -1;
    const uint8_t *c = p + 12, *d = p + 20;
    uint32_t w, hh;
    if (!memcmp(c, "VP8 ", 4)) {
        if (d[3] != 0x9D || d[4] != 0x01 || d[5] != 0x2A)
            return -1;
        w = le16(d + 6) & 0x3FFF;
        hh = le16(d + 8) & 0x3FFF;
    } else if (!memcmp(c, "VP8L", 4)) {
        if (d[0] != 0x2F)
            return -1;
        uint32_t bits =
            (uint32_t)d[1] | (uint32_t)d[2] << 8 | (uint32_t)d[3] << 16 | (uint32_t)d[4] << 24;
        w = (bits & 0x3FFF) + 1;
        hh = ((bits >> 14) & 0x3FFF) + 1;
    } else if (!memcmp(c, "VP8X", 4)) {
        w = le24(d + 4) + 1;
        hh = le24(d + 7) + 1;
    } else {
        return -1;
    }
    *h = (struct media_image_header){MEDIA_IMAGE_WEBP, w, hh, 4, 1, 1};
    return 0;
}

/* A JPEG frame header's marker: SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC). */
static int is_sof(uint8_t m)
{
    return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

/* JPEG: the segments up to the frame header (precision, height, width, components). Only a
 * baseline or extended sequential frame (SOF0, SOF1, SOF9) decodes a band of rows at a time;
 * any other keeps every coefficient of the picture, two bytes each. */
static int jpeg(const uint8_t *p, size_t n, struct media_image_header *h)
{
    if (n < 4 || p[0] != 0xFF || p[1] != 0xD8)
        return -1;
    size_t i = 2;
    while (i + 4 <= n) {
        if (p[i] != 0xFF)
            return -1;
        uint8_t m = p[i + 1];
        if (m == 0xFF) { /* fill */
            i++;
            continue;
        }
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) { /* no length */
            i += 2;
            continue;
        }
        if (m == 0xD9 || m == 0xDA) /* the end, or the data, before any frame */
            return -1;
        size_t len = be16(p + i + 2);
        if (len < 2)
            return -1;
        if (is_sof(m)) {
            if (len < 8 || i + 10 > n)
                return -1;
            const uint8_t *f = p + i + 4;
            int sequential = m == 0xC0 || m == 0xC1 || m == 0xC9;
            unsigned bands = f[5];
            if (!bands || bands > 4)
                return -1;
            *h = (struct media_image_header){
                MEDIA_IMAGE_JPEG, be16(f + 3), be16(f + 1), bands, sequential && f[0] <= 8 ? 1 : 2,
                !sequential};
            return 0;
        }
        i += 2 + len;
    }
    return -1;
}

int media_image_header(const uint8_t *p, size_t n, struct media_image_header *out)
{
    struct media_image_header h;
    if (png(p, n, &h) && gif(p, n, &h) && webp(p, n, &h) && jpeg(p, n, &h))
        return -1;
    if (!h.width || !h.height)
        return -1;
    *out = h;
    return 0;
}

uint64_t media_image_decoded_bytes(const struct media_image_header *h)
{
    return (uint64_t)h->width * h->height * h->bands * h->sample_bytes;
}

enum media_thumb_verdict media_image_thumb_verdict(const struct media_image_header *h)
{
    uint64_t pixels = (uint64_t)h->width * h->height;
    if (pixels > MEDIA_PIXELS_MAX)
        return MEDIA_THUMB_TOO_MANY_PIXELS;
    if (h->whole &&
        (pixels > MEDIA_WHOLE_PIXELS_MAX || media_image_decoded_bytes(h) > MEDIA_WHOLE_DECODED_MAX))
        return MEDIA_THUMB_DECODE_BUDGET;
    return MEDIA_THUMB_OK;
}

const char *media_thumb_verdict_name(enum media_thumb_verdict v)
{
    return v == MEDIA_THUMB_OK                ? "ok"
           : v == MEDIA_THUMB_TOO_MANY_PIXELS ? "too_many_pixels"
                                              : "decode_budget";
}
