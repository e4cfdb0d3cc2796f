/* Engine.IO packet codec, with the byte examples of the protocol. */
#include <criterion/criterion.h>
#include <string.h>

#include "engineio/packet.h"

struct seen {
    struct eio_packet p[8];
    char data[8][64];
    int n;
};

static int collect(void *user, const struct eio_packet *p)
{
    struct seen *s = user;
    if (s->n == 8)
        return -1;
    s->p[s->n] = *p;
    memcpy(s->data[s->n], p->data, p->len < 63 ? p->len : 63);
    s->data[s->n][p->len < 63 ? p->len : 63] = '\0';
    s->n++;
    return 0;
}

Test(engineio, text_packets)
{
    struct eio_packet p;
    cr_assert_eq(eio__decode_text("4hello", 6, &p), EIO_OK);
    cr_assert_eq(p.type, EIO_MESSAGE);
    cr_assert_eq(p.len, 5);
    cr_assert_eq(eio__decode_text("2", 1, &p), EIO_OK);
    cr_assert_eq(p.type, EIO_PING);
    cr_assert_eq(p.len, 0);
    cr_assert_eq(eio__decode_text("2probe", 6, &p), EIO_OK);
    cr_assert_eq(eio__decode_text("7", 1, &p), EIO_EDECODE);
    cr_assert_eq(eio__decode_text("abc", 3, &p), EIO_EDECODE);
    cr_assert_eq(eio__decode_text("", 0, &p), EIO_EDECODE);
}

Test(engineio, polling_payload_with_separators_and_binary)
{
    const char body[] = "4hello\x1e"
                        "2\x1e"
                        "4world\x1e"
                        "bAQIDBA==";
    unsigned char scratch[sizeof body];
    struct seen s = {0};
    cr_assert_eq(eio__decode_payload(body, sizeof body - 1, scratch, collect, &s), EIO_OK);
    cr_assert_eq(s.n, 4);
    cr_assert_str_eq(s.data[0], "hello");
    cr_assert_eq(s.p[1].type, EIO_PING);
    cr_assert_str_eq(s.data[2], "world");
    cr_assert(s.p[3].binary);
    cr_assert_eq(s.p[3].len, 4);
    cr_assert_eq(memcmp(s.data[3], "\x01\x02\x03\x04", 4), 0);
}

Test(engineio, bad_payloads)
{
    unsigned char scratch[64];
    struct seen s = {0};
    cr_assert_eq(eio__decode_payload("4a\x1e\x1e", 4, scratch, collect, &s), EIO_EDECODE);
    cr_assert_eq(eio__decode_payload("b!!!", 4, scratch, collect, &s), EIO_EDECODE);
    cr_assert_eq(eio__decode_payload("", 0, scratch, collect, &s), EIO_EDECODE);
    cr_assert_eq(eio__decode_payload("x", 1, scratch, collect, &s), EIO_EDECODE);
}

Test(engineio, encoding)
{
    struct buf b;
    buf_init(&b, 1024);
    struct eio_packet text = {EIO_MESSAGE, 0, "40", 2};
    cr_assert_eq(eio__encode_polling(&b, &text), 0);
    buf_append(&b, "\x1e", 1);
    struct eio_packet bin = {EIO_MESSAGE, 1, "\x01\x02\x03\x04", 4};
    cr_assert_eq(eio__encode_polling(&b, &bin), 0);
    cr_assert_str_eq(b.data, "440\x1e"
                             "bAQIDBA==");
    buf_reset(&b);
    eio__encode_text(&b, EIO_PONG, "probe", 5);
    cr_assert_str_eq(b.data, "3probe");
    buf_cleanup(&b);
}
