/* Video sizes: see video.h. Every length read is checked against what holds it, and walks are
 * bounded in steps, so a hostile file ends the walk instead of looping or reading past it. */
#include "media/video.h"

#include <string.h>

#define STEPS_MAX 4096 /* boxes or elements looked at in all */
#define DIM_MAX   65535

static int read_at(const struct media_source *s, uint64_t off, void *buf, size_t n)
{
    return off <= s->size && s->size - off >= n && s->pread(s->ctx, buf, n, off) == (ssize_t)n ? 0
                                                                                               : -1;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int sane(uint32_t w, uint32_t h, int *width, int *height)
{
    if (!w || !h || w > DIM_MAX || h > DIM_MAX)
        return -1;
    *width = (int)w;
    *height = (int)h;
    return 0;
}

/* ---- MP4 / QuickTime: boxes of [size 32][type 32] (size 1: a 64-bit size follows) ---- */

struct box {
    uint64_t start, end; /* the payload */
    char type[5];
};

static int next_box(const struct media_source *s, uint64_t at, uint64_t end, struct box *b)
{
    unsigned char h[16];
    if (end - at < 8 || read_at(s, at, h, 8))
        return -1;
    uint64_t size = be32(h), head = 8;
    if (size == 1) {
        if (end - at < 16 || read_at(s, at + 8, h + 8, 8))
            return -1;
        size = (uint64_t)be32(h + 8) << 32 | be32(h + 12);
        head = 16;
    } else if (size == 0) {
        size = end - at; /* to the end of what holds it */
    }
    if (size < head || size > end - at)
        return -1;
    memcpy(b->type, h + 4, 4);
    b->type[4] = '\0';
    b->start = at + head;
    b->end = at + size;
    return 0;
}

/* The first child of type inside [start, end), or -1. */
static int find_box(const struct media_source *s, uint64_t start, uint64_t end, const char *type,
                    struct box *out, int *steps)
{
    for (uint64_t at = start; at < end && (*steps)++ < STEPS_MAX; at = out->end) {
        if (next_box(s, at, end, out))
            return -1;
        if (!memcmp(out->type, type, 4))
            return 0;
    }
    return -1;
}

static int mp4_size(const struct media_source *s, int *width, int *height)
{
    struct box moov, trak, tkhd;
    int steps = 0;
    if (find_box(s, 0, s->size, "moov", &moov, &steps))
        return -1;
    for (uint64_t at = moov.start; at < moov.end && steps++ < STEPS_MAX; at = trak.end) {
        if (next_box(s, at, moov.end, &trak))
            return -1;
        if (memcmp(trak.type, "trak", 4) ||
            find_box(s, trak.start, trak.end, "tkhd", &tkhd, &steps))
            continue;
        unsigned char v;
        if (read_at(s, tkhd.start, &v, 1))
            continue;
        uint64_t dims = tkhd.start + (v == 1 ? 88 : 76);
        unsigned char wh[8];
        if (dims + 8 > tkhd.end || read_at(s, dims, wh, 8))
            continue;
        /* 16.16 fixed point */
        if (sane(be32(wh) >> 16, be32(wh + 4) >> 16, width, height) == 0)
            return 0;
    }
    return -1;
}

/* ---- Matroska / WebM: EBML elements of [ID vint][size vint][data] ---- */

#define EBML_HEADER  0x1A45DFA3u
#define SEGMENT      0x18538067u
#define TRACKS       0x1654AE6Bu
#define TRACK_ENTRY  0xAEu
#define VIDEO        0xE0u
#define PIXEL_WIDTH  0xB0u
#define PIXEL_HEIGHT 0xBAu
#define UNKNOWN_SIZE UINT64_MAX

struct element {
    uint32_t id;
    uint64_t start, end; /* the data; end is the parent's end for an unknown size */
};

/* A variable-length integer at off: its length, the value (marker kept for IDs), or -1. */
static int vint(const struct media_source *s, uint64_t off, int keep_marker, uint64_t *value)
{
    unsigned char b[8];
    if (read_at(s, off, b, 1) || !b[0])
        return -1;
    int len = 1;
    while (!(b[0] & (0x80 >> (len - 1))))
        len++;
    if (len > 8 || (len > 1 && read_at(s, off + 1, b + 1, (size_t)len - 1)))
        return -1;
    uint64_t v = keep_marker ? b[0] : b[0] & (0xFFu >> len);
    int all_ones = (b[0] & (0xFFu >> len)) == (0xFFu >> len);
    for (int i = 1; i < len; i++) {
        v = v << 8 | b[i];
        all_ones &= b[i] == 0xFF;
    }
    *value = !keep_marker && all_ones ? UNKNOWN_SIZE : v;
    return len;
}

static int next_element(const struct media_source *s, uint64_t at, uint64_t end, struct element *e)
{
    uint64_t id, size;
    int n = vint(s, at, 1, &id);
    if (n < 0 || n > 4)
        return -1;
    int m = vint(s, at + (uint64_t)n, 0, &size);
    if (m < 0)
        return -1;
    e->id = (uint32_t)id;
    e->start = at + (uint64_t)n + (uint64_t)m;
    if (e->start > end)
        return -1;
    if (size == UNKNOWN_SIZE)
        e->end = end;
    else if (size > end - e->start)
        return -1;
    else
        e->end = e->start + size;
    return 0;
}

static int find_element(const struct media_source *s, uint64_t start, uint64_t end, uint32_t id,
                        struct element *out, int *steps)
{
    for (uint64_t at = start; at < end && (*steps)++ < STEPS_MAX; at = out->end) {
        if (next_element(s, at, end, out))
            return -1;
        if (out->id == id)
            return 0;
        if (out->end == end && out->start < end)
            return -1; /* an unknown size runs to the end: nothing after it */
    }
    return -1;
}

static int uint_of(const struct media_source *s, const struct element *e, uint32_t *out)
{
    unsigned char b[8];
    size_t n = (size_t)(e->end - e->start);
    if (n == 0 || n > 4 || read_at(s, e->start, b, n))
        return -1;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | b[i];
    *out = v;
    return 0;
}

static int mkv_size(const struct media_source *s, int *width, int *height)
{
    struct element head, seg, tracks, entry, video, dim;
    int steps = 0;
    if (next_element(s, 0, s->size, &head) || head.id != EBML_HEADER ||
        find_element(s, head.end, s->size, SEGMENT, &seg, &steps) ||
        find_element(s, seg.start, seg.end, TRACKS, &tracks, &steps))
        return -1;
    for (uint64_t at = tracks.start; at < tracks.end && steps++ < STEPS_MAX; at = entry.end) {
        if (next_element(s, at, tracks.end, &entry))
            return -1;
        if (entry.id != TRACK_ENTRY ||
            find_element(s, entry.start, entry.end, VIDEO, &video, &steps))
            continue;
        uint32_t w = 0, h = 0;
        if (!find_element(s, video.start, video.end, PIXEL_WIDTH, &dim, &steps))
            uint_of(s, &dim, &w);
        if (!find_element(s, video.start, video.end, PIXEL_HEIGHT, &dim, &steps))
            uint_of(s, &dim, &h);
        if (sane(w, h, width, height) == 0)
            return 0;
    }
    return -1;
}

int media_video_size(const struct media_source *src, int *width, int *height)
{
    unsigned char magic[4];
    if (read_at(src, 0, magic, 4))
        return -1;
    if (be32(magic) == EBML_HEADER)
        return mkv_size(src, width, height);
    return mp4_size(src, width, height);
}
