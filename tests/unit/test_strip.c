/* Metadata stripping of JPEG, PNG, WebP and GIF: what identifies a place, a camera or a person
 * goes, the pixels and the orientation stay, and malformed files are refused rather than passed on.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "media/strip.h"

struct mem {
    const unsigned char *in;
    size_t len, pos, step; /* step: at most this much per read, to split segments */
    struct buf out;
};

static ssize_t mem_read(void *ctx, void *buf, size_t n)
{
    struct mem *m = ctx;
    size_t k = m->len - m->pos;
    if (k > n)
        k = n;
    if (m->step && k > m->step)
        k = m->step;
    memcpy(buf, m->in + m->pos, k);
    m->pos += k;
    return (ssize_t)k;
}

static int mem_write(void *ctx, const void *buf, size_t n)
{
    return buf_append(&((struct mem *)ctx)->out, buf, n) ? -1 : 0;
}

static int strip_with(int (*fn)(const struct media_io *), const unsigned char *in, size_t len,
                      size_t step, struct buf *out)
{
    struct mem m = {in, len, 0, step, {0}};
    buf_init(&m.out, 1 << 20);
    struct media_io io = {mem_read, mem_write, &m};
    int rc = fn(&io);
    *out = m.out;
    return rc;
}

static int strip(int png, const unsigned char *in, size_t len, size_t step, struct buf *out)
{
    return strip_with(png ? media_strip_png : media_strip_jpeg, in, len, step, out);
}

static int contains(const struct buf *b, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= b->len; i++)
        if (!memcmp(b->data + i, s, n))
            return 1;
    return 0;
}

/* SOI, an APP1 Exif (big-endian) with Orientation 6 and Make, a COM, a tiny scan with a stuffed
 * FF 00 and a restart marker, EOI, then a trailer. */
static const unsigned char JPEG[] = {
    0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J',  'F',  'I',  'F',  0,    1,    1,    0,    0,
    1,    0,    1,    0,    0,    0xFF, 0xE1, 0x00, 0x36, 'E',  'x',  'i',  'f',  0,    0,
    'M',  'M',  0,    0x2A, 0,    0,    0,    8,    0,    2,    0x01, 0x12, 0,    3,    0,
    0,    0,    1,    0,    6,    0,    0,    0x01, 0x0F, 0,    2,    0,    0,    0,    4,
    'C',  'a',  'm',  0,    0,    0,    0,    0,    'S',  'E',  'C',  'R',  'E',  'T',  '!',
    '!',  0xFF, 0xFE, 0x00, 0x08, 'c',  'o',  'm',  'm',  'n',  't',  0xFF, 0xDB, 0x00, 0x04,
    0x00, 0x01, 0xFF, 0xDA, 0x00, 0x04, 0x01, 0x02, 0x11, 0xFF, 0x00, 0x22, 0xFF, 0xD0, 0x33,
    0xFF, 0xD9, 'T',  'R',  'A',  'I',  'L',  'E',  'R'};

Test(strip, jpeg_keeps_image_and_orientation_only)
{
    for (size_t step = 0; step <= 7; step++) {
        struct buf out;
        {
            int rc = strip(0, JPEG, sizeof JPEG, step, &out);
            cr_assert_eq(rc, MEDIA_STRIP_OK, "step %zu", step);
        }
        cr_assert(!contains(&out, "SECRET") && !contains(&out, "Cam") && !contains(&out, "commnt"));
        cr_assert(!contains(&out, "TRAILER"), "nothing after the end of the image");
        cr_assert(contains(&out, "JFIF"));
        const unsigned char *p = (const unsigned char *)out.data;
        cr_assert_eq(p[0], 0xFF);
        cr_assert_eq(p[1], 0xD8);
        /* JFIF, then the minimal Exif: orientation 6 */
        cr_assert_eq(p[20], 0xFF);
        cr_assert_eq(p[21], 0xE1);
        cr_assert_eq(media_exif_orientation(p + 24, 32), 6);
        cr_assert_eq(memcmp(out.data + out.len - 2, "\xFF\xD9", 2), 0);
        /* the scan, stuffing and restart marker intact */
        const unsigned char scan[] = {0x11, 0xFF, 0x00, 0x22, 0xFF, 0xD0, 0x33, 0xFF, 0xD9};
        cr_assert_eq(memcmp(out.data + out.len - sizeof scan, scan, sizeof scan), 0);
        buf_cleanup(&out);
    }
}

Test(strip, jpeg_refuses_what_is_not_one)
{
    struct buf out;
    {
        int rc = strip(0, (const unsigned char *)"GIF89a", 6, 0, &out);
        cr_assert_eq(rc, MEDIA_STRIP_MALFORMED);
    }
    buf_cleanup(&out);
    for (size_t cut = 2; cut < sizeof JPEG - 9; cut++) { /* cut anywhere before the end */
        {
            int rc = strip(0, JPEG, cut, 0, &out);
            cr_assert_eq(rc, MEDIA_STRIP_MALFORMED, "cut at %zu", cut);
        }
        buf_cleanup(&out);
    }
    const unsigned char short_len[] = {0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x01};
    {
        int rc = strip(0, short_len, sizeof short_len, 0, &out);
        cr_assert_eq(rc, MEDIA_STRIP_MALFORMED);
    }
    buf_cleanup(&out);
}

Test(strip, exif_orientation_little_endian_and_bounds)
{
    const unsigned char le[] = {'E',  'x',  'i', 'f', 0, 0, 'I', 'I', 0x2A, 0, 8, 0, 0, 0, 1, 0,
                                0x12, 0x01, 3,   0,   1, 0, 0,   0,   8,    0, 0, 0, 0, 0, 0, 0};
    cr_assert_eq(media_exif_orientation(le, sizeof le), 8);
    cr_assert_eq(media_exif_orientation(le, 20), 0, "an entry past the end is not read");
    unsigned char far[sizeof le];
    memcpy(far, le, sizeof le);
    far[10] = 0xF0; /* IFD offset past the block */
    cr_assert_eq(media_exif_orientation(far, sizeof far), 0);
}

static void chunk(struct buf *b, const char *type, const char *data)
{
    size_t n = strlen(data);
    unsigned char len[4] = {0, 0, (unsigned char)(n >> 8), (unsigned char)n};
    buf_append(b, len, 4);
    buf_append(b, type, 4);
    buf_append(b, data, n);
    buf_append(b, "CRC!", 4);
}

Test(strip, png_drops_text_exif_and_time)
{
    struct buf in;
    buf_init(&in, 4096);
    buf_append(&in, "\x89PNG\r\n\x1a\n", 8);
    chunk(&in, "IHDR", "0123456789abc");
    chunk(&in, "tEXt", "Author\0Secret");
    chunk(&in, "eXIf", "MM-GPS-HERE");
    chunk(&in, "tIME", "1234567");
    chunk(&in, "pHYs", "keep-phys");
    chunk(&in, "iTXt", "XML:com.adobe.xmp");
    chunk(&in, "IDAT", "pixels");
    chunk(&in, "IEND", "");
    buf_append(&in, "after", 5);
    for (size_t step = 0; step <= 5; step++) {
        struct buf out;
        {
            int rc = strip(1, (const unsigned char *)in.data, in.len, step, &out);
            cr_assert_eq(rc, MEDIA_STRIP_OK);
        }
        cr_assert(!contains(&out, "Author") && !contains(&out, "GPS") && !contains(&out, "tIME") &&
                  !contains(&out, "xmp") && !contains(&out, "after"));
        cr_assert(contains(&out, "IHDR") && contains(&out, "keep-phys") &&
                  contains(&out, "pixels") && contains(&out, "IEND"));
        buf_cleanup(&out);
    }
    struct buf out;
    {
        int rc = strip(1, (const unsigned char *)in.data, 30, 0, &out);
        cr_assert_eq(rc, MEDIA_STRIP_MALFORMED);
    }
    buf_cleanup(&out);
    buf_cleanup(&in);
}

/* A WebP: VP8X flagging Exif and XMP, a tiny VP8L, an EXIF chunk with a GPS word, an odd-sized
 * XMP chunk (padded), then bytes after the RIFF. */
static const unsigned char WEBP[] = {
    'R',  'I',  'F', 'F', 60,  0, 0,   0,   'W', 'E', 'B', 'P', 'V', 'P', '8', 'X', 10,  0,   0,
    0,    0x0C, 0,   0,   0,   0, 0,   0,   0,   0,   0,   'V', 'P', '8', 'L', 5,   0,   0,   0,
    0x2F, 0,    0,   0,   0,   0, 'E', 'X', 'I', 'F', 6,   0,   0,   0,   'G', 'P', 'S', '4', '2',
    '!',  'X',  'M', 'P', ' ', 1, 0,   0,   0,   'x', 0,   'T', 'R', 'A', 'I', 'L'};

Test(strip, webp_empties_exif_and_xmp_in_place)
{
    for (size_t step = 0; step <= 7; step += 7) {
        struct buf out;
        cr_assert_eq(strip_with(media_strip_webp, WEBP, sizeof WEBP, step, &out), MEDIA_STRIP_OK);
        cr_assert_eq(out.len, 68, "the RIFF's 60 bytes and its header, nothing after");
        cr_assert_not(contains(&out, "GPS42"), "the Exif's bytes are gone");
        cr_assert_not(contains(&out, "EXIF"));
        cr_assert_not(contains(&out, "XMP "));
        cr_assert(contains(&out, "JUNK"));
        cr_assert(contains(&out, "VP8L"), "the image stays");
        cr_assert_eq((unsigned char)out.data[20], 0, "VP8X no longer flags Exif nor XMP");
        cr_assert_eq(memcmp(out.data, WEBP, 12), 0, "the RIFF's size is still true");
        buf_cleanup(&out);
    }
    struct buf out;
    unsigned char liar[sizeof WEBP];
    memcpy(liar, WEBP, sizeof WEBP);
    liar[16] = 200; /* VP8X says it runs past the RIFF */
    cr_assert_eq(strip_with(media_strip_webp, liar, sizeof liar, 0, &out), MEDIA_STRIP_MALFORMED);
    buf_cleanup(&out);
    cr_assert_eq(strip_with(media_strip_webp, WEBP, 40, 0, &out), MEDIA_STRIP_MALFORMED, "cut");
    buf_cleanup(&out);
}

/* A GIF: a 2-colour table, the loop count, a comment, an XMP application block, a graphic
 * control, one image, the trailer, then more bytes. */
static const unsigned char GIF[] = {
    'G',  'I',  'F', '8',  '9',  'a',  1,    0,    1,    0,    0x80, 0,    0,    0,   0,   0,
    255,  255,  255, 0x21, 0xFF, 11,   'N',  'E',  'T',  'S',  'C',  'A',  'P',  'E', '2', '.',
    '0',  3,    1,   0,    0,    0,    0x21, 0xFE, 6,    'S',  'E',  'G',  'R',  'E', 'D', 0,
    0x21, 0xFF, 11,  'X',  'M',  'P',  ' ',  'D',  'a',  't',  'a',  'X',  'M',  'P', 4,   'G',
    'P',  'S',  '!', 0,    0x21, 0xF9, 4,    0,    0,    0,    0,    0,    0x2C, 0,   0,   0,
    0,    1,    0,   1,    0,    0,    2,    2,    0x44, 0x01, 0,    0x3B, 'T',  'R'};

Test(strip, gif_keeps_images_and_the_loop_only)
{
    for (size_t step = 0; step <= 5; step += 5) {
        struct buf out;
        cr_assert_eq(strip_with(media_strip_gif, GIF, sizeof GIF, step, &out), MEDIA_STRIP_OK);
        cr_assert_not(contains(&out, "SEGRED"), "the comment is gone");
        cr_assert_not(contains(&out, "XMP Data"), "the XMP block is gone");
        cr_assert_not(contains(&out, "GPS!"));
        cr_assert(contains(&out, "NETSCAPE2.0"), "the loop count stays");
        cr_assert_eq((unsigned char)out.data[out.len - 1], 0x3B, "nothing after the trailer");
        /* header+table 19, loop 19, control 8, image 10+1+3+1, trailer 1 */
        cr_assert_eq(out.len, 19 + 19 + 8 + 15 + 1, "%zu", out.len);
        buf_cleanup(&out);
    }
    struct buf out;
    cr_assert_eq(strip_with(media_strip_gif, GIF, 60, 0, &out), MEDIA_STRIP_MALFORMED, "cut");
    buf_cleanup(&out);
    unsigned char odd[sizeof GIF];
    memcpy(odd, GIF, sizeof GIF);
    odd[19] = 0x20; /* neither an extension nor an image */
    cr_assert_eq(strip_with(media_strip_gif, odd, sizeof odd, 0, &out), MEDIA_STRIP_MALFORMED);
    buf_cleanup(&out);
}
