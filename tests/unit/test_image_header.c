/* Image headers: each format's size, bands and depth read from its first bytes, and the verdict
 * that keeps an image that decodes to gigabytes away from the decoder. */
#include <criterion/criterion.h>
#include <string.h>

#include "media/image_header.h"

static size_t png_head(uint8_t *p, uint32_t w, uint32_t h, uint8_t depth, uint8_t type,
                       uint8_t interlace)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memcpy(p, sig, 8);
    const uint8_t ihdr[25] = {0,      0,        0,       13,     'I',      'H',     'D',
                              'R',    w >> 24,  w >> 16, w >> 8, w & 0xFF, h >> 24, h >> 16,
                              h >> 8, h & 0xFF, depth,   type,   0,        0,       interlace,
                              0,      0,        0,       0};
    memcpy(p + 8, ihdr, sizeof ihdr);
    return 33;
}

static struct media_image_header read_ok(const uint8_t *p, size_t n)
{
    struct media_image_header h;
    cr_assert_eq(media_image_header(p, n, &h), 0);
    return h;
}

Test(image_header, png_bomb_is_refused_before_decoding)
{
    uint8_t p[64];
    /* The finding: 10,000 × 10,000, 16-bit RGBA, interlaced: 800 MB once decoded. */
    struct media_image_header h = read_ok(p, png_head(p, 10000, 10000, 16, 6, 1));
    cr_assert_eq(h.format, MEDIA_IMAGE_PNG);
    cr_assert_eq(h.width, 10000);
    cr_assert_eq(h.bands, 4);
    cr_assert_eq(h.sample_bytes, 2);
    cr_assert(h.whole);
    cr_assert_eq(media_image_decoded_bytes(&h), 800000000ULL);
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_DECODE_BUDGET);
    /* The same picture not interlaced is read a band of rows at a time. */
    h = read_ok(p, png_head(p, 10000, 10000, 16, 6, 0));
    cr_assert_not(h.whole);
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_OK);
    /* A few megapixels interlaced are fine; past the whole-decode pixels they are not. */
    h = read_ok(p, png_head(p, 4000, 3000, 8, 2, 1));
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_OK);
    h = read_ok(p, png_head(p, 6000, 6000, 8, 0, 1));
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_DECODE_BUDGET);
    /* Past 100 megapixels nothing is decoded. */
    h = read_ok(p, png_head(p, 20000, 20000, 1, 0, 0));
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_TOO_MANY_PIXELS);
    /* A palette counts as RGBA; gray with alpha as two bands. */
    cr_assert_eq(read_ok(p, png_head(p, 10, 10, 8, 3, 0)).bands, 4);
    cr_assert_eq(read_ok(p, png_head(p, 10, 10, 8, 4, 0)).bands, 2);
}

Test(image_header, png_malformed)
{
    uint8_t p[64];
    struct media_image_header h;
    png_head(p, 10, 10, 8, 5, 0); /* colour type 5 does not exist */
    cr_assert_eq(media_image_header(p, 33, &h), -1);
    png_head(p, 0, 10, 8, 2, 0);
    cr_assert_eq(media_image_header(p, 33, &h), -1, "no pixels");
    png_head(p, 10, 10, 8, 2, 2); /* interlace method 2 */
    cr_assert_eq(media_image_header(p, 33, &h), -1);
    png_head(p, 10, 10, 8, 2, 0);
    cr_assert_eq(media_image_header(p, 32, &h), -1, "cut short");
}

Test(image_header, gif_is_decoded_whole)
{
    /* The finding's 68 kB GIF: a 10,000 × 10,000 screen. */
    const uint8_t gif[13] = {'G', 'I', 'F', '8', '9', 'a', 0x10, 0x27, 0x10, 0x27, 0, 0, 0};
    struct media_image_header h = read_ok(gif, sizeof gif);
    cr_assert_eq(h.format, MEDIA_IMAGE_GIF);
    cr_assert_eq(h.width, 10000);
    cr_assert_eq(h.height, 10000);
    cr_assert_eq(media_image_decoded_bytes(&h), 400000000ULL);
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_DECODE_BUDGET);
    const uint8_t small[13] = {'G', 'I', 'F', '8', '7', 'a', 0x80, 0x02, 0xE0, 0x01, 0, 0, 0};
    h = read_ok(small, sizeof small);
    cr_assert_eq(h.width, 640);
    cr_assert_eq(h.height, 480);
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_OK);
}

Test(image_header, jpeg_frames)
{
    /* SOI, an APP0 of 16 bytes, then a frame: 8-bit, 3000 high, 4000 wide, 3 components. */
    uint8_t j[64] = {0xFF, 0xD8, 0xFF, 0xE0, 0, 16};
    size_t n = 2 + 2 + 16;
    const uint8_t sof[] = {0xFF, 0xC0, 0, 17, 8, 0x0B, 0xB8, 0x0F, 0xA0, 3};
    memcpy(j + n, sof, sizeof sof);
    struct media_image_header h = read_ok(j, n + sizeof sof);
    cr_assert_eq(h.format, MEDIA_IMAGE_JPEG);
    cr_assert_eq(h.width, 4000);
    cr_assert_eq(h.height, 3000);
    cr_assert_eq(h.bands, 3);
    cr_assert_not(h.whole, "baseline is decoded a band at a time");
    /* Progressive: every coefficient held, two bytes each. */
    j[n + 1] = 0xC2;
    h = read_ok(j, n + sizeof sof);
    cr_assert(h.whole);
    cr_assert_eq(h.sample_bytes, 2);
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_OK, "a 12 MP progressive photo");
    j[n + 7] = 0x2E, j[n + 8] = 0xE0; /* 12,000 wide: 36 MP */
    h = read_ok(j, n + sizeof sof);
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_DECODE_BUDGET);
    /* The scan before any frame, or a segment running past the bytes, is no header. */
    struct media_image_header none;
    const uint8_t sos_first[] = {0xFF, 0xD8, 0xFF, 0xDA, 0, 8, 1, 2, 3, 4, 5, 6};
    cr_assert_eq(media_image_header(sos_first, sizeof sos_first, &none), -1);
    cr_assert_eq(media_image_header(j, n + 6, &none), -1);
}

Test(image_header, webp_kinds)
{
    uint8_t w[32] = {'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P'};
    /* VP8X: canvas 8,000 × 8,000 (stored less one): 64 MP, decoded whole. */
    memcpy(w + 12, "VP8X", 4);
    w[24] = 0x3F, w[25] = 0x1F, w[27] = 0x3F, w[28] = 0x1F;
    struct media_image_header h = read_ok(w, sizeof w);
    cr_assert_eq(h.format, MEDIA_IMAGE_WEBP);
    cr_assert_eq(h.width, 8000);
    cr_assert_eq(h.height, 8000);
    cr_assert_eq(media_image_thumb_verdict(&h), MEDIA_THUMB_DECODE_BUDGET);
    /* VP8 (lossy): start code, then 14-bit sizes. */
    memset(w + 12, 0, 20);
    memcpy(w + 12, "VP8 ", 4);
    w[23] = 0x9D, w[24] = 0x01, w[25] = 0x2A, w[26] = 0x80, w[27] = 0x02, w[28] = 0xE0, w[29] = 1;
    h = read_ok(w, sizeof w);
    cr_assert_eq(h.width, 640);
    cr_assert_eq(h.height, 480);
    /* VP8L (lossless): 0x2F, then width-1 and height-1 in 14 bits each. */
    memset(w + 12, 0, 20);
    memcpy(w + 12, "VP8L", 4);
    uint32_t bits = (100 - 1) | (50 - 1) << 14;
    w[20] = 0x2F, w[21] = bits & 0xFF, w[22] = bits >> 8 & 0xFF, w[23] = bits >> 16 & 0xFF;
    h = read_ok(w, sizeof w);
    cr_assert_eq(h.width, 100);
    cr_assert_eq(h.height, 50);
    w[20] = 0x2E;
    cr_assert_eq(media_image_header(w, sizeof w, &h), -1);
}
