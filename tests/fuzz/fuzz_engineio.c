/* libFuzzer driver for the Engine.IO codec: polling bodies, then re-encoding what came out. */
#include <stdint.h>
#include <stdlib.h>

#include "engineio/packet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int reencode(void *user, const struct eio_packet *p)
{
    return eio__encode_polling(user, p) == BUF_ETOOBIG ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *scratch = malloc(size + 1);
    struct buf out;
    buf_init(&out, 4 * size + 64);
    eio__decode_payload((const char *)data, size, scratch, reencode, &out);
    struct eio_packet p;
    eio__decode_text((const char *)data, size, &p);
    buf_cleanup(&out);
    free(scratch);
    return 0;
}
