/*
 * Engine.IO protocol 4 packets, as bytes, with no I/O.
 *
 * A packet is a type digit and a payload ("4hello"). On long-polling several packets share one
 * body separated by 0x1e, and a binary message is written "b<base64>". On WebSocket a text frame
 * is one packet and a binary frame is a binary message with no type byte.
 */
#ifndef PRACA_ENGINEIO_PACKET_H
#define PRACA_ENGINEIO_PACKET_H
#include <stddef.h>

#include "core/buf.h"

enum eio_type {
    EIO_OPEN = 0,
    EIO_CLOSE = 1,
    EIO_PING = 2,
    EIO_PONG = 3,
    EIO_MESSAGE = 4,
    EIO_UPGRADE = 5,
    EIO_NOOP = 6,
};

#define EIO_RECORD_SEPARATOR '\x1e'

struct eio_packet {
    enum eio_type type;
    int binary;       /* a binary message: data is raw bytes */
    const char *data; /* payload (not NUL-terminated) */
    size_t len;
};

enum eio_error { EIO_OK = 0, EIO_EDECODE = -1 };

/* One text packet ("<digit><payload>"). */
int eio__decode_text(const char *s, size_t len, struct eio_packet *out);
/* Calls fn for each packet of a polling body. Binary records are decoded into scratch (which
 * must hold len bytes). Returns EIO_OK or EIO_EDECODE (some packets may have been delivered). */
int eio__decode_payload(const char *s, size_t len, unsigned char *scratch,
                        int (*fn)(void *user, const struct eio_packet *p), void *user);
/* Appends a packet as a polling record (text, or "b"+base64 for binary). */
int eio__encode_polling(struct buf *out, const struct eio_packet *p);
/* Appends a packet as a WebSocket text frame payload (binary packets are sent as is). */
int eio__encode_text(struct buf *out, enum eio_type type, const char *data, size_t len);

#endif
