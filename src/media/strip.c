/* Metadata stripping: see strip.h. */
#include "media/strip.h"

#include <stdint.h>
#include <string.h>

#define RD_BUF (64 * 1024)

/* A buffered reader over io, with exact reads and copies. */
struct rd {
    const struct media_io *io;
    unsigned char buf[RD_BUF];
    size_t pos, len;
    int err; /* MEDIA_STRIP_* once something failed */
};

static void rd_init(struct rd *r, const struct media_io *io)
{
    r->io = io;
    r->pos = r->len = 0;
    r->err = 0;
}

static int fill(struct rd *r)
{
    if (r->pos < r->len)
        return 1;
    ssize_t n = r->io->read(r->io->ctx, r->buf, sizeof r->buf);
    if (n < 0) {
        r->err = MEDIA_STRIP_IO;
        return 0;
    }
    r->pos = 0;
    r->len = (size_t)n;
    return n > 0;
}

static int put(struct rd *r, const void *p, size_t n)
{
    if (n && r->io->write(r->io->ctx, p, n)) {
        r->err = MEDIA_STRIP_IO;
        return -1;
    }
    return 0;
}

/* Moves n bytes of input: into out (or skipped when NULL), or to the output when to_output.
 * 0, or -1 with r->err set. */
static int move(struct rd *r, unsigned char *out, int to_output, size_t n)
{
    while (n) {
        if (!fill(r)) {
            if (!r->err)
                r->err = MEDIA_STRIP_MALFORMED;
            return -1;
        }
        size_t k = r->len - r->pos < n ? r->len - r->pos : n;
        if (to_output && put(r, r->buf + r->pos, k))
            return -1;
        if (out) {
            memcpy(out, r->buf + r->pos, k);
            out += k;
        }
        r->pos += k;
        n -= k;
    }
    return 0;
}

static int take(struct rd *r, unsigned char *out, size_t n)
{
    return move(r, out, 0, n);
}

static int copy(struct rd *r, size_t n)
{
    return move(r, NULL, 1, n);
}

static int fail(struct rd *r)
{
    return r->err ? r->err : MEDIA_STRIP_MALFORMED;
}

/* ---- JPEG ---- */

static unsigned get16(const unsigned char *p, int big)
{
    return big ? (unsigned)(p[0] << 8 | p[1]) : (unsigned)(p[1] << 8 | p[0]);
}

static uint32_t get32(const unsigned char *p, int big)
{
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

int media_exif_orientation(const unsigned char *p, size_t len)
{
    if (len < 14 || memcmp(p, "Exif\0\0", 6))
        return 0;
    const unsigned char *t = p + 6; /* the TIFF header */
    size_t tlen = len - 6;
    int big;
    if (!memcmp(t, "MM\0\x2a", 4))
        big = 1;
    else if (!memcmp(t, "II\x2a\0", 4))
        big = 0;
    else
        return 0;
    uint32_t ifd = get32(t + 4, big);
    if (ifd > tlen || tlen - ifd < 2)
        return 0;
    unsigned count = get16(t + ifd, big);
    if ((tlen - ifd - 2) / 12 < count)
        return 0;
    for (unsigned i = 0; i < count; i++) {
        const unsigned char *e = t + ifd + 2 + 12 * i;
        if (get16(e, big) == 0x0112 && get16(e + 2, big) == 3 && get32(e + 4, big) == 1) {
            unsigned v = get16(e + 8, big);
            return v >= 1 && v <= 8 ? (int)v : 0;
        }
    }
    return 0;
}

/* An APP1 segment holding an Exif block with the orientation alone. */
static int put_orientation(struct rd *r, int orientation)
{
    unsigned char seg[] = {0xFF, 0xE1, 0, 34,   'E', 'x', 'i', 'f', 0, 0,
                           'M',  'M',  0, 0x2a, 0,   0,   0,   8,   0, 1,
                           0x01, 0x12, 0, 3,    0,   0,   0,   1,   0, (unsigned char)orientation,
                           0,    0,    0, 0,    0,   0};
    return put(r, seg, sizeof seg);
}

/* After SOS: the entropy-coded bytes run to the next marker that is not a restart (FF D0-D7)
 * nor a stuffed FF 00. Returns that marker's byte, or -1. */
static int copy_scan(struct rd *r)
{
    for (;;) {
        if (!fill(r)) {
            r->err = r->err ? r->err : MEDIA_STRIP_MALFORMED;
            return -1;
        }
        unsigned char *start = r->buf + r->pos;
        unsigned char *ff = memchr(start, 0xFF, r->len - r->pos);
        size_t upto = ff ? (size_t)(ff - start) : r->len - r->pos;
        if (put(r, start, upto))
            return -1;
        r->pos += upto;
        if (!ff)
            continue;
        unsigned char m;
        r->pos++; /* the FF */
        do {
            if (take(r, &m, 1))
                return -1;
        } while (m == 0xFF);
        if (m == 0x00 || (m >= 0xD0 && m <= 0xD7)) {
            unsigned char pair[2] = {0xFF, m};
            if (put(r, pair, 2))
                return -1;
            continue;
        }
        return m;
    }
}

static int keep_app(unsigned char m, const unsigned char *head, size_t n)
{
    if (m == 0xE0 || m == 0xEE) /* JFIF, Adobe */
        return 1;
    if (m == 0xE2) /* ICC_PROFILE, not MPF (it points at images past the end) */
        return n >= 12 && !memcmp(head, "ICC_PROFILE\0", 12);
    return 0;
}

int media_strip_jpeg(const struct media_io *io)
{
    struct rd local_rd; /* 64 KiB, and a segment's 64 KiB below: a worker's stack holds 8 MiB */
    struct rd *rp = &local_rd;
    rd_init(rp, io);
    unsigned char soi[2];
    if (take(rp, soi, 2) || soi[0] != 0xFF || soi[1] != 0xD8 || put(rp, soi, 2))
        return fail(rp);
    int m = -1;
    for (;;) {
        unsigned char b;
        if (m < 0) {
            if (take(rp, &b, 1) || b != 0xFF)
                return fail(rp);
            do {
                if (take(rp, &b, 1))
                    return fail(rp);
            } while (b == 0xFF);
            m = b;
        }
        unsigned char mk[2] = {0xFF, (unsigned char)m};
        if (m == 0xD9) /* the end: whatever follows (trailers, other images) goes */
            return put(rp, mk, 2) ? fail(rp) : MEDIA_STRIP_OK;
        if ((m >= 0xD0 && m <= 0xD7) || m == 0x01) {
            if (put(rp, mk, 2))
                return fail(rp);
            m = -1;
            continue;
        }
        unsigned char lenb[2];
        if (take(rp, lenb, 2))
            return fail(rp);
        size_t len = (size_t)(lenb[0] << 8 | lenb[1]);
        if (len < 2)
            return MEDIA_STRIP_MALFORMED;
        len -= 2;
        if ((m >= 0xE0 && m <= 0xEF) || m == 0xFE) {
            unsigned char seg[65536];
            if (take(rp, seg, len))
                return fail(rp);
            if (m == 0xE1) {
                int o = media_exif_orientation(seg, len);
                if (o > 1 && put_orientation(rp, o))
                    return fail(rp);
            } else if (keep_app((unsigned char)m, seg, len) &&
                       (put(rp, mk, 2) || put(rp, lenb, 2) || put(rp, seg, len))) {
                return fail(rp);
            }
            m = -1;
            continue;
        }
        if (put(rp, mk, 2) || put(rp, lenb, 2) || copy(rp, len))
            return fail(rp);
        m = m == 0xDA ? copy_scan(rp) : -1;
        if (m == -1 && rp->err)
            return fail(rp);
    }
}

/* ---- PNG ---- */

static int keep_chunk(const unsigned char type[4])
{
    static const char *const keep[] = {"tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "bKGD",
                                       "pHYs", "hIST", "acTL", "fcTL", "fdAT", "cICP"};
    if (!(type[0] & 0x20)) /* critical: the image needs it */
        return 1;
    for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
        if (!memcmp(type, keep[i], 4))
            return 1;
    return 0;
}

int media_strip_png(const struct media_io *io)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    struct rd r;
    rd_init(&r, io);
    unsigned char head[8];
    if (take(&r, head, 8) || memcmp(head, sig, 8) || put(&r, head, 8))
        return fail(&r);
    for (;;) {
        if (take(&r, head, 8))
            return fail(&r);
        uint32_t len = get32(head, 1);
        if (len > 0x7FFFFFFFu)
            return MEDIA_STRIP_MALFORMED;
        for (int i = 4; i < 8; i++)
            if (!((head[i] >= 'A' && head[i] <= 'Z') || (head[i] >= 'a' && head[i] <= 'z')))
                return MEDIA_STRIP_MALFORMED;
        int end = !memcmp(head + 4, "IEND", 4);
        if (keep_chunk(head + 4)) {
            if (put(&r, head, 8) || copy(&r, (size_t)len + 4))
                return fail(&r);
        } else if (take(&r, NULL, (size_t)len + 4)) {
            return fail(&r);
        }
        if (end)
            return MEDIA_STRIP_OK;
    }
}

/* ---- WebP ---- */

/* Writes n zero bytes, for a chunk emptied in place. */
static int put_zeros(struct rd *r, size_t n)
{
    static const unsigned char zeros[4096];
    for (size_t k; n; n -= k) {
        k = n < sizeof zeros ? n : sizeof zeros;
        if (put(r, zeros, k))
            return -1;
    }
    return 0;
}

int media_strip_webp(const struct media_io *io)
{
    struct rd r;
    rd_init(&r, io);
    unsigned char head[12];
    if (take(&r, head, 12) || memcmp(head, "RIFF", 4) || memcmp(head + 8, "WEBP", 4) ||
        put(&r, head, 12))
        return fail(&r);
    uint64_t left = get32(head + 4, 0);
    if (left < 4)
        return MEDIA_STRIP_MALFORMED;
    left -= 4; /* "WEBP" */
    while (left) {
        unsigned char ch[8];
        if (left < 8 || take(&r, ch, 8))
            return fail(&r);
        uint64_t size = get32(ch + 4, 0), padded = size + (size & 1);
        if (padded > left - 8)
            return MEDIA_STRIP_MALFORMED;
        left -= 8 + padded;
        int meta = !memcmp(ch, "EXIF", 4) || !memcmp(ch, "XMP ", 4);
        if (meta) {
            /* Emptied where it stands, as a chunk every reader skips: the RIFF's size, written
             * first, stays true. (Browsers do not turn a WebP by its Exif orientation.) */
            memcpy(ch, "JUNK", 4);
            if (put(&r, ch, 8) || take(&r, NULL, padded) || put_zeros(&r, padded))
                return fail(&r);
        } else if (!memcmp(ch, "VP8X", 4) && size >= 1) {
            unsigned char flags;
            if (take(&r, &flags, 1))
                return fail(&r);
            flags &= (unsigned char)~(0x08 | 0x04); /* no Exif, no XMP */
            if (put(&r, ch, 8) || put(&r, &flags, 1) || copy(&r, padded - 1))
                return fail(&r);
        } else if (put(&r, ch, 8) || copy(&r, padded)) {
            return fail(&r);
        }
    }
    return MEDIA_STRIP_OK; /* anything after the RIFF goes */
}

/* ---- GIF ---- */

/* Data sub-blocks up to their terminator: copied, or skipped. */
static int sub_blocks(struct rd *r, int keep)
{
    for (;;) {
        unsigned char n;
        if (take(r, &n, 1) || (keep && put(r, &n, 1)))
            return -1;
        if (!n)
            return 0;
        if (keep ? copy(r, n) : take(r, NULL, n))
            return -1;
    }
}

/* A colour table after a descriptor's packed byte, when its flag says there is one. */
static int colour_table(struct rd *r, unsigned char packed)
{
    return packed & 0x80 ? copy(r, (size_t)3 << ((packed & 0x07) + 1)) : 0;
}

int media_strip_gif(const struct media_io *io)
{
    struct rd r;
    rd_init(&r, io);
    unsigned char head[13];
    if (take(&r, head, 13) || (memcmp(head, "GIF87a", 6) && memcmp(head, "GIF89a", 6)) ||
        put(&r, head, 13) || colour_table(&r, head[10]))
        return fail(&r);
    for (;;) {
        unsigned char b;
        if (take(&r, &b, 1))
            return fail(&r);
        if (b == 0x3B) /* the trailer: whatever follows goes */
            return put(&r, &b, 1) ? fail(&r) : MEDIA_STRIP_OK;
        if (b == 0x2C) { /* an image: descriptor, table, LZW code size, data */
            unsigned char d[10] = {b};
            if (take(&r, d + 1, 9) || put(&r, d, 10) || colour_table(&r, d[9]) || copy(&r, 1) ||
                sub_blocks(&r, 1))
                return fail(&r);
            continue;
        }
        if (b != 0x21)
            return MEDIA_STRIP_MALFORMED;
        unsigned char label;
        if (take(&r, &label, 1))
            return fail(&r);
        unsigned char ext[2] = {b, label};
        int keep = label == 0xF9; /* graphic control: timing and transparency */
        if (keep && put(&r, ext, 2))
            return fail(&r);
        if (label == 0xFF) { /* an application's: only the loop count stays */
            unsigned char id[12];
            if (take(&r, id, 1) || (id[0] == 11 && take(&r, id + 1, 11)))
                return fail(&r);
            keep = id[0] == 11 &&
                   (!memcmp(id + 1, "NETSCAPE2.0", 11) || !memcmp(id + 1, "ANIMEXTS1.0", 11));
            if ((keep && (put(&r, ext, 2) || put(&r, id, 12))) ||
                (id[0] != 11 && take(&r, NULL, id[0])))
                return fail(&r);
        }
        if (sub_blocks(&r, keep))
            return fail(&r);
    }
}
