// The benches' light clients read a server's WebSocket frames with this (a server's frames are
// not masked): the frame at the head of a buffer, its opcode and payload, and its whole length,
// or 0 while part of it has yet to arrive.
#ifndef BENCH_WS_FRAME_H
#define BENCH_WS_FRAME_H
#include <stddef.h>
#include <stdint.h>

static inline size_t ws_frame_at(const char *buf, size_t n, int *op, const char **payload,
                                 size_t *len)
{
    const uint8_t *h = (const uint8_t *)buf;
    if (n < 2)
        return 0;
    size_t l = h[1] & 0x7f, hl = 2;
    if (l == 126) {
        if (n < 4)
            return 0;
        l = (size_t)h[2] << 8 | h[3];
        hl = 4;
    } else if (l == 127) {
        if (n < 10)
            return 0;
        l = 0;
        for (int i = 2; i < 10; i++)
            l = l << 8 | h[i];
        hl = 10;
    }
    if (n - hl < l)
        return 0;
    *op = h[0] & 0x0f;
    *payload = buf + hl;
    *len = l;
    return hl + l;
}

#endif
