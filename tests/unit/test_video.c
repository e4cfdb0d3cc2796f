/* Video sizes from MP4 / QuickTime and WebM / Matroska headers; hostile sizes end the walk. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/buf.h"
#include "media/video.h"

static ssize_t mem_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
    const struct buf *b = ctx;
    if (off >= b->len)
        return 0;
    size_t k = b->len - off < n ? b->len - off : n;
    memcpy(buf, b->data + off, k);
    return (ssize_t)k;
}

static int size_of(const struct buf *b, int *w, int *h)
{
    struct media_source s = {mem_pread, b->len, (void *)b};
    return media_video_size(&s, w, h);
}

static void be32(struct buf *b, uint32_t v)
{
    unsigned char p[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 8), (unsigned char)v};
    buf_append(b, p, 4);
}

static void box(struct buf *b, const char *type, const struct buf *payload)
{
    be32(b, (uint32_t)(8 + payload->len));
    buf_append(b, type, 4);
    buf_append(b, payload->data ? payload->data : "", payload->len);
}

static void tkhd(struct buf *trak, uint32_t w, uint32_t h)
{
    struct buf p, t;
    buf_init(&p, 4096);
    buf_init(&t, 4096);
    char zero[76] = {0};
    buf_append(&p, zero, sizeof zero); /* version 0, flags, times, IDs, matrix … */
    be32(&p, w << 16);
    be32(&p, h << 16);
    box(&t, "tkhd", &p);
    box(trak, "trak", &t);
    buf_cleanup(&p);
    buf_cleanup(&t);
}

Test(video, mp4_first_sized_track_wherever_moov_is)
{
    for (int moov_last = 0; moov_last <= 1; moov_last++) {
        struct buf file, moov, tracks, filler;
        buf_init(&file, 1 << 16);
        buf_init(&moov, 1 << 16);
        buf_init(&tracks, 1 << 16);
        buf_init(&filler, 1 << 16);
        buf_append(&filler, "isom\0\0\0\0", 8);
        box(&file, "ftyp", &filler);
        tkhd(&tracks, 0, 0); /* the sound's track: no size */
        tkhd(&tracks, 1280, 720);
        box(&moov, "moov", &tracks);
        struct buf mdat;
        buf_init(&mdat, 1 << 16);
        char bytes[500] = {0};
        buf_append(&mdat, bytes, sizeof bytes);
        if (moov_last) {
            box(&file, "mdat", &mdat);
            buf_append(&file, moov.data, moov.len);
        } else {
            buf_append(&file, moov.data, moov.len);
            box(&file, "mdat", &mdat);
        }
        int w = 0, h = 0;
        cr_assert_eq(size_of(&file, &w, &h), 0);
        cr_assert_eq(w, 1280);
        cr_assert_eq(h, 720);
        /* cut anywhere inside moov: no size, no crash */
        struct buf cut = file;
        cut.len = file.len - 10;
        cr_assert_eq(size_of(&cut, &w, &h), moov_last ? -1 : 0);
        buf_cleanup(&file);
        buf_cleanup(&moov);
        buf_cleanup(&tracks);
        buf_cleanup(&filler);
        buf_cleanup(&mdat);
    }
}

Test(video, mp4_hostile_sizes)
{
    struct buf file;
    buf_init(&file, 4096);
    be32(&file, 0xFFFFFFF0u); /* a box larger than the file */
    buf_append(&file, "moov", 4);
    int w, h;
    cr_assert_eq(size_of(&file, &w, &h), -1);
    buf_reset(&file);
    be32(&file, 4); /* smaller than its own header */
    buf_append(&file, "free", 4);
    cr_assert_eq(size_of(&file, &w, &h), -1);
    buf_cleanup(&file);
}

static const unsigned char WEBM[] = {
    0x1A, 0x45, 0xDF, 0xA3, 0x84, 'w',  'e',  'b',  'm',                    /* EBML header */
    0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* Segment, size unknown
                                                                             */
    0x15, 0x49, 0xA9, 0x66, 0x82, 0x00, 0x00,                               /* Info */
    0x16, 0x54, 0xAE, 0x6B, 0x93,                                           /* Tracks (19) */
    0xAE, 0x83, 0xD7, 0x81, 0x01, /* an entry with no video */
    0xAE, 0x8C, 0xE0, 0x8A, 0xB0, 0x82, 0x07, 0x80, 0xBA, 0x82, 0x04, 0x38, 0x55, 0x80, /* video */
    0x1F, 0x43, 0xB6, 0x75, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* Cluster */
};

Test(video, webm_pixel_size)
{
    struct buf file = {(char *)WEBM, sizeof WEBM, sizeof WEBM, sizeof WEBM};
    int w = 0, h = 0;
    cr_assert_eq(size_of(&file, &w, &h), 0);
    cr_assert_eq(w, 1920);
    cr_assert_eq(h, 1080);
    for (size_t cut = 0; cut < 50; cut++) {
        struct buf part = {(char *)WEBM, cut, cut, cut};
        cr_assert_eq(size_of(&part, &w, &h), -1, "cut at %zu", cut);
    }
}
