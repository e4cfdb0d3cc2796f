/* libFuzzer driver for the Socket.IO codec: decode, and encode back what was accepted. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socketio/packet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sio_packet p;
    if (sio__decode((const char *)data, size, &p) == SIO_OK) {
        struct buf out;
        buf_init(&out, size + 64);
        char *json = p.data ? json_dumps(p.data, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        char nsp[256];
        if (slice_copy(p.nsp, nsp, sizeof nsp) == 0)
            sio__encode(&out, p.type, nsp, p.id, p.attachments, json ? json : "",
                        json ? strlen(json) : 0);
        free(json);
        buf_cleanup(&out);
    }
    sio__packet_cleanup(&p);
    return 0;
}
