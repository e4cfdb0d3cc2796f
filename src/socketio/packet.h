/*
 * Socket.IO protocol 5 packets (the payload of an Engine.IO message), with no I/O.
 *   <type>[<attachments>-][<namespace>,][<ack id>][<json>]
 * Decoding checks each type's JSON shape as the reference server does; any failure means the
 * whole connection is closed.
 */
#ifndef PRACA_SOCKETIO_PACKET_H
#define PRACA_SOCKETIO_PACKET_H
#include <jansson.h>
#include <stdint.h>

#include "core/buf.h"

enum sio_type {
    SIO_CONNECT = 0,
    SIO_DISCONNECT = 1,
    SIO_EVENT = 2,
    SIO_ACK = 3,
    SIO_CONNECT_ERROR = 4,
    SIO_BINARY_EVENT = 5,
    SIO_BINARY_ACK = 6,
};

#define SIO_MAX_ATTACHMENTS 10

struct sio_packet {
    enum sio_type type;
    int attachments;
    struct slice nsp; /* "/" when absent */
    int64_t id;       /* -1 when absent */
    json_t *data;     /* parsed JSON, or NULL when absent (owned: sio__packet_cleanup) */
};

enum sio_error { SIO_OK = 0, SIO_EDECODE = -1 };

int sio__decode(const char *s, size_t len, struct sio_packet *out);
void sio__packet_cleanup(struct sio_packet *p);
/* Appends "<type>[<n>-][<nsp>,][<id>]<json>" (nsp "/" is left out; id < 0 is left out). */
int sio__encode(struct buf *out, enum sio_type type, const char *nsp, int64_t id, int attachments,
                const char *json, size_t json_len);
/* Appends an EVENT of the "/" namespace with one argument: 2["name",payload], and with an
 * offset > 0 the connection-state recovery offset after it: 2["name",payload,"offset"]. name
 * must need no JSON escaping (event names are ours); payload is JSON text. */
int sio_encode_event(struct buf *out, const char *name, const char *payload, size_t len,
                     uint64_t offset);

#endif
