/*
 * What an image will cost to decode, read from its first bytes with no I/O and no decoder:
 * the size, the bands and bytes per sample a decoder makes of it, and whether the decoder must
 * hold the whole picture before it can shrink it (interlaced PNG, GIF, progressive JPEG, WebP).
 * A thumbnail is made only of an image whose verdict is MEDIA_THUMB_OK, so a file of a few
 * kilobytes that decodes to gigabytes is turned away before any decoder sees it.
 */
#ifndef PRACA_MEDIA_IMAGE_HEADER_H
#define PRACA_MEDIA_IMAGE_HEADER_H
#include <stddef.h>
#include <stdint.h>

/* Any image above this many pixels gets no thumbnail. */
#define MEDIA_PIXELS_MAX (100ULL * 1000 * 1000)
/* An image decoded whole: at most this many pixels, and this many bytes once decoded. */
#define MEDIA_WHOLE_PIXELS_MAX  (32ULL * 1000 * 1000)
#define MEDIA_WHOLE_DECODED_MAX (128ULL * 1024 * 1024)
/* How far into a file the reader looks (a JPEG's frame header follows its other segments). */
#define MEDIA_IMAGE_HEADER_BYTES (256 * 1024)

enum media_image_format {
    MEDIA_IMAGE_JPEG = 1,
    MEDIA_IMAGE_PNG,
    MEDIA_IMAGE_GIF,
    MEDIA_IMAGE_WEBP
};

struct media_image_header {
    enum media_image_format format;
    uint32_t width, height;
    unsigned bands;        /* as decoded: a palette counts as RGBA */
    unsigned sample_bytes; /* per band (a progressive JPEG's coefficients: 2) */
    int whole;             /* held whole while decoding */
};

enum media_thumb_verdict {
    MEDIA_THUMB_OK,
    MEDIA_THUMB_TOO_MANY_PIXELS, /* past MEDIA_PIXELS_MAX */
    MEDIA_THUMB_DECODE_BUDGET,   /* decoded whole, past MEDIA_WHOLE_*_MAX */
};

/* Reads the header of a JPEG, PNG, GIF or WebP from its first n bytes: 0, or -1 when p holds no
 * such header (or a size of 0). */
int media_image_header(const uint8_t *p, size_t n, struct media_image_header *out);
/* width × height × bands × bytes per sample. */
uint64_t media_image_decoded_bytes(const struct media_image_header *h);
enum media_thumb_verdict media_image_thumb_verdict(const struct media_image_header *h);
/* "ok", "too_many_pixels" or "decode_budget", for logs and metrics. */
const char *media_thumb_verdict_name(enum media_thumb_verdict v);

#endif
