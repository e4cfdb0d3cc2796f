/* Bounded buffers: appends grow up to the maximum and never past it; formatting fits or fails
 * whole, leaving the text as it was. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

Test(buf, appends_grow_and_stay_terminated)
{
    struct buf b;
    buf_init(&b, 100000);
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(buf_append_str(&b, "0123456789"), BUF_OK);
    cr_assert_eq(b.len, 10000);
    cr_assert_eq(b.data[b.len], '\0');
    cr_assert_eq(memcmp(b.data + 9990, "0123456789", 10), 0);
    buf_cleanup(&b);
    cr_assert_null(b.data);
}

Test(buf, formats_in_place_and_when_it_must_grow)
{
    struct buf b;
    buf_init(&b, 4096);
    cr_assert_eq(buf_appendf(&b, "%d-%s", 7, "x"), BUF_OK); /* nothing allocated yet */
    cr_assert_str_eq(b.data, "7-x");
    cr_assert_eq(buf_appendf(&b, "[%s]", "fits in the room"), BUF_OK);
    cr_assert_str_eq(b.data, "7-x[fits in the room]");
    char big[1000];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    cr_assert_eq(buf_appendf(&b, "%s!", big), BUF_OK); /* past the first 256 bytes */
    cr_assert_eq(b.len, 21 + 999 + 1);
    cr_assert_eq(b.data[b.len - 1], '!');
    cr_assert_eq(strlen(b.data), b.len);
    buf_cleanup(&b);
}

Test(buf, never_passes_the_maximum)
{
    struct buf b;
    buf_init(&b, 8);
    cr_assert_eq(buf_append_str(&b, "abcd"), BUF_OK);
    cr_assert_eq(buf_appendf(&b, "%s", "efghi"), BUF_ETOOBIG); /* 9 > 8 */
    cr_assert_str_eq(b.data, "abcd");                          /* unchanged, still terminated */
    cr_assert_eq(b.len, 4);
    cr_assert_eq(buf_append(&b, "efghi", 5), BUF_ETOOBIG);
    cr_assert_eq(buf_appendf(&b, "%s", "efgh"), BUF_OK); /* exactly 8 */
    cr_assert_str_eq(b.data, "abcdefgh");
    buf_cleanup(&b);
}

Test(buf, consume_and_detach)
{
    struct buf b;
    buf_init(&b, 64);
    buf_append_str(&b, "hello world");
    buf_consume(&b, 6);
    cr_assert_str_eq(b.data, "world");
    size_t len;
    char *p = buf_detach(&b, &len);
    cr_assert_str_eq(p, "world");
    cr_assert_eq(len, 5);
    cr_assert_null(b.data);
    cr_assert_eq(b.len, 0);
    free(p);
    buf_consume(&b, 1); /* on an empty buffer: nothing */
    cr_assert_eq(b.len, 0);
}

Test(buf, slices)
{
    struct slice s = slice_from("Content-Length");
    cr_assert(slice_eq(s, "Content-Length"));
    cr_assert(!slice_eq(s, "content-length"));
    cr_assert(slice_eq_nocase(s, "content-length"));
    char out[8];
    cr_assert_eq(slice_copy(s, out, sizeof out), -1);
    cr_assert_eq(slice_copy(SLICE_LIT("1234567"), out, sizeof out), 0);
    cr_assert_str_eq(out, "1234567");
    long long v;
    cr_assert_eq(slice_to_i64(SLICE_LIT("42"), 0, 100, &v), 0);
    cr_assert_eq(v, 42);
    cr_assert_eq(slice_to_i64(SLICE_LIT("101"), 0, 100, &v), -1);
    cr_assert_eq(slice_to_i64(SLICE_LIT("4x"), 0, 100, &v), -1);
    cr_assert_eq(slice_to_i64(SLICE_LIT(""), 0, 100, &v), -1);
}
