/* multipart/form-data: parts come out whole however the body is split, headers are read as RFC
 * 7578 writes them, and what is not multipart is refused. Also the Range header's forms. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "http/multipart.h"
#include "http/request.h"

struct got {
    struct buf log; /* "<name|filename|type>data…;" per part */
    int stop_at_begin;
};

static int begin(void *user, const struct http_multipart_part *p)
{
    struct got *g = user;
    buf_appendf(&g->log, "<%s|%s%s|%s>", p->name, p->has_filename ? "F:" : "", p->filename,
                p->content_type);
    return g->stop_at_begin ? 413 : 0;
}

static int data(void *user, const char *p, size_t len)
{
    return buf_append(&((struct got *)user)->log, p, len);
}

static int end(void *user)
{
    return buf_append_str(&((struct got *)user)->log, ";");
}

static const struct http_multipart_callbacks cb = {begin, data, end};

static const char BODY[] =
    "preamble to ignore\r\n"
    "--b0undary\r\n"
    "Content-Disposition: form-data; name=\"payload_json\"\r\n"
    "\r\n"
    "{\"content\":\"a\\r\\n--b0\"}\r\n"
    "--b0undary  \r\n"
    "content-disposition: form-data; name=\"files[0]\"; filename=\"r\\\"x.txt\"\r\n"
    "Content-Type: text/plain\r\n"
    "\r\n"
    "line one\r\n--b0undar\r\n\r\r\n"
    "--b0undary\r\n"
    "Content-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n"
    "\r\n"
    "\r\n"
    "--b0undary--\r\n"
    "epilogue";

static const char EXPECT[] = "<payload_json||>{\"content\":\"a\\r\\n--b0\"};"
                             "<files[0]|F:r\"x.txt|text/plain>line one\r\n--b0undar\r\n\r;"
                             "<empty|F:|>;";

static int parse(const char *body, size_t len, size_t step, struct got *g, int *finish)
{
    struct http_multipart mp;
    buf_init(&g->log, 4096);
    int rc = http_multipart_init(&mp, SLICE_LIT("multipart/form-data; boundary=b0undary"), &cb, g);
    for (size_t at = 0; !rc && at < len; at += step)
        rc = http_multipart_feed(&mp, body + at, len - at < step ? len - at : step);
    *finish = http_multipart_finish(&mp);
    return rc;
}

Test(multipart, parts_whole_at_any_split)
{
    for (size_t step = 1; step <= sizeof BODY; step++) {
        struct got g = {0};
        int finish;
        int rc = parse(BODY, sizeof BODY - 1, step, &g, &finish);
        cr_assert_eq(rc, 0, "step %zu", step);
        cr_assert_eq(finish, 0);
        cr_assert_str_eq(g.log.data, EXPECT, "step %zu: %s", step, g.log.data);
        buf_cleanup(&g.log);
    }
}

Test(multipart, refuses_what_is_not_form_data)
{
    struct http_multipart mp;
    struct got g = {0};
    cr_assert_eq(http_multipart_init(&mp, SLICE_LIT("application/json"), &cb, &g),
                 HTTP_MULTIPART_EMALFORMED);
    cr_assert_eq(http_multipart_init(&mp, SLICE_LIT("multipart/form-data"), &cb, &g),
                 HTTP_MULTIPART_EMALFORMED);
    cr_assert_eq(
        http_multipart_init(&mp, SLICE_LIT("multipart/form-data; boundary=a\x01"), &cb, &g),
        HTTP_MULTIPART_EMALFORMED);
    char longb[120];
    snprintf(longb, sizeof longb, "multipart/form-data; boundary=%071d", 0);
    cr_assert_eq(http_multipart_init(&mp, slice_from(longb), &cb, &g), HTTP_MULTIPART_EMALFORMED);
    cr_assert_eq(http_multipart_init(
                     &mp, SLICE_LIT("Multipart/Form-Data; charset=x; boundary=\"q q\""), &cb, &g),
                 0, "quoted boundary with a space, case-insensitive type");
}

Test(multipart, malformed_parts_and_limits)
{
    static const char *const bad[] = {
        "--b0undary\r\nContent-Type: text/plain\r\n\r\nx\r\n--b0undary--",    /* no disposition */
        "--b0undary\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx", /* not form-data */
        "--b0undary\r\nContent-Disposition: form-data\r\n\r\nx",              /* no name */
        "--b0undary\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx",    /* open quote */
        "--b0undary\r\nno colon here\r\n\r\nx",                               /* header */
        "--b0undaryX\r\n",                                                    /* after delim */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct got g = {0};
        int finish;
        cr_assert_eq(parse(bad[i], strlen(bad[i]), 3, &g, &finish), HTTP_MULTIPART_EMALFORMED,
                     "case %zu", i);
        buf_cleanup(&g.log);
    }
    /* a body that stops before its closing boundary is not complete */
    struct got g = {0};
    int finish;
    cr_assert_eq(parse(BODY, 200, 7, &g, &finish), 0);
    cr_assert_eq(finish, HTTP_MULTIPART_EMALFORMED);
    buf_cleanup(&g.log);
    /* a callback's refusal stops the parse and is handed back */
    struct got stop = {.stop_at_begin = 1};
    cr_assert_eq(parse(BODY, sizeof BODY - 1, 5, &stop, &finish), 413);
    buf_cleanup(&stop.log);
    /* a file name longer than kept is cut, not refused (the rules cut it further) */
    struct buf named;
    buf_init(&named, 1 << 20);
    buf_append_str(&named, "--b0undary\r\nContent-Disposition: form-data; name=\"f\"; filename=\"");
    for (int i = 0; i < 300; i++)
        buf_append_str(&named, "n");
    buf_append_str(&named, ".txt\"\r\n\r\nx\r\n--b0undary--\r\n");
    struct got n = {0};
    cr_assert_eq(parse(named.data, named.len, 64, &n, &finish), 0);
    cr_assert_eq(finish, 0);
    cr_assert(strstr(n.log.data, "|F:nnnn") != NULL, "%s", n.log.data);
    buf_cleanup(&n.log);
    buf_cleanup(&named);
    /* headers past their limit */
    struct buf big;
    buf_init(&big, 1 << 20);
    buf_append_str(&big, "--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\nX: ");
    for (int i = 0; i < HTTP_MULTIPART_HEAD_MAX; i++)
        buf_append_str(&big, "y");
    struct got h = {0};
    cr_assert_eq(parse(big.data, big.len, 100, &h, &finish), HTTP_MULTIPART_EHEAD);
    buf_cleanup(&h.log);
    buf_cleanup(&big);
}

Test(range, forms_of_the_header)
{
    size_t start, len;
    cr_assert_eq(http_range_parse((struct slice){NULL, 0}, 20, &start, &len), 0);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=2-5"), 20, &start, &len), 1);
    cr_assert(start == 2 && len == 4);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=15-"), 20, &start, &len), 1);
    cr_assert(start == 15 && len == 5);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=-3"), 20, &start, &len), 1);
    cr_assert(start == 17 && len == 3);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=-30"), 20, &start, &len), 1);
    cr_assert(start == 0 && len == 20);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=10-99"), 20, &start, &len), 1);
    cr_assert(start == 10 && len == 10);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=20-"), 20, &start, &len), -1);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=-0"), 20, &start, &len), -1);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=5-2"), 20, &start, &len), 0);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=0-1,4-5"), 20, &start, &len), 0);
    cr_assert_eq(http_range_parse(SLICE_LIT("items=0-1"), 20, &start, &len), 0);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=99999999999999999999-"), 20, &start, &len), 0);
    cr_assert_eq(http_range_parse(SLICE_LIT("bytes=1-2x"), 20, &start, &len), 0);
}
