/* Socket.IO packet codec: the grammar, each type's shape, and what closes the connection. */
#include <criterion/criterion.h>
#include <string.h>

#include "socketio/packet.h"

#define DECODE(s, p) sio__decode((s), strlen(s), (p))

Test(socketio, connect_with_and_without_auth_and_namespace)
{
    struct sio_packet p;
    cr_assert_eq(DECODE("0", &p), SIO_OK);
    cr_assert_eq(p.type, SIO_CONNECT);
    cr_assert(slice_eq(p.nsp, "/"));
    cr_assert_null(p.data);
    cr_assert_eq(DECODE("0{\"token\":\"abc\"}", &p), SIO_OK);
    cr_assert_str_eq(json_string_value(json_object_get(p.data, "token")), "abc");
    sio__packet_cleanup(&p);
    cr_assert_eq(DECODE("0/custom,", &p), SIO_OK);
    cr_assert(slice_eq(p.nsp, "/custom"));
    cr_assert_eq(DECODE("0/custom", &p), SIO_OK);
    cr_assert(slice_eq(p.nsp, "/custom"));
    cr_assert_eq(DECODE("0/admin,{\"x\":1}", &p), SIO_OK);
    cr_assert(slice_eq(p.nsp, "/admin"));
    sio__packet_cleanup(&p);
}

Test(socketio, events_acks_and_ids)
{
    struct sio_packet p;
    cr_assert_eq(DECODE("212[\"message-with-ack\",\"olá\",{\"n\":1}]", &p), SIO_OK);
    cr_assert_eq(p.type, SIO_EVENT);
    cr_assert_eq(p.id, 12);
    cr_assert_eq(json_array_size(p.data), 3);
    sio__packet_cleanup(&p);
    cr_assert_eq(DECODE("3/custom,7[\"ok\"]", &p), SIO_OK);
    cr_assert_eq(p.type, SIO_ACK);
    cr_assert_eq(p.id, 7);
    sio__packet_cleanup(&p);
    cr_assert_eq(DECODE("51-[\"message\",{\"_placeholder\":true,\"num\":0}]", &p), SIO_OK);
    cr_assert_eq(p.type, SIO_BINARY_EVENT);
    cr_assert_eq(p.attachments, 1);
    cr_assert_eq(p.id, -1);
    sio__packet_cleanup(&p);
    cr_assert_eq(DECODE("1", &p), SIO_OK);
    cr_assert_eq(p.type, SIO_DISCONNECT);
    cr_assert_eq(DECODE("2[1,2]", &p), SIO_OK);
    sio__packet_cleanup(&p);
}

Test(socketio, malformed_packets_are_errors)
{
    const char *bad[] = {
        "abc",
        "",
        "7",
        "2{}",
        "2abc[1]",
        "0\"str\"",
        "2[]",
        "2[\"connect\"]",
        "2[\"disconnecting\",1]",
        "1{}",
        "3{}",
        "4[1]",
        "5-[\"a\"]",
        "511-[\"a\"]",
        "2[\"a\"",
        "0[1]",
        "21234567890123456[\"a\"]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct sio_packet p;
        cr_assert_eq(DECODE(bad[i], &p), SIO_EDECODE, "%s", bad[i]);
        sio__packet_cleanup(&p);
    }
}

Test(socketio, encoding)
{
    struct buf b;
    buf_init(&b, 1024);
    const char *err = "{\"message\":\"Token inválido\"}";
    sio__encode(&b, SIO_CONNECT_ERROR, "/", -1, 0, err, strlen(err));
    cr_assert_str_eq(b.data, "4{\"message\":\"Token inválido\"}");
    buf_reset(&b);
    sio__encode(&b, SIO_CONNECT_ERROR, "/random", -1, 0, "{\"message\":\"Invalid namespace\"}", 31);
    cr_assert_str_eq(b.data, "4/random,{\"message\":\"Invalid namespace\"}");
    buf_reset(&b);
    sio__encode(&b, SIO_ACK, "/", 12, 0, "[\"olá\"]", strlen("[\"olá\"]"));
    cr_assert_str_eq(b.data, "312[\"olá\"]");
    buf_reset(&b);
    sio__encode(&b, SIO_BINARY_EVENT, "/custom", -1, 1, "[1]", 3);
    cr_assert_str_eq(b.data, "51-/custom,[1]");
    buf_cleanup(&b);
}

Test(socketio_packet, an_event_with_and_without_its_recovery_offset)
{
    struct buf b;
    buf_init(&b, 256);
    cr_assert_eq(sio_encode_event(&b, "MESSAGE_CREATE", "{\"id\":1}", 8, 0), 0);
    cr_assert_eq(b.len, strlen("2[\"MESSAGE_CREATE\",{\"id\":1}]"));
    cr_assert(!memcmp(b.data, "2[\"MESSAGE_CREATE\",{\"id\":1}]", b.len));
    buf_cleanup(&b);
    buf_init(&b, 256);
    cr_assert_eq(sio_encode_event(&b, "X", "null", 4, 18446744073709551615ull), 0);
    cr_assert(!memcmp(b.data, "2[\"X\",null,\"18446744073709551615\"]", b.len));
    struct sio_packet p;
    cr_assert_eq(sio__decode(b.data, b.len, &p), SIO_OK, "what it makes decodes");
    cr_assert_eq(json_array_size(p.data), 3);
    sio__packet_cleanup(&p);
    buf_cleanup(&b);
    buf_init(&b, 8);
    cr_assert_eq(sio_encode_event(&b, "MESSAGE_CREATE", "{}", 2, 0), -1, "over the buffer's cap");
    buf_cleanup(&b);
}
