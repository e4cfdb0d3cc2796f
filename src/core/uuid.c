/* UUIDv7: see uuid.h. A mutex-guarded (ms, counter) pair keeps IDs strictly increasing. */
#include "core/uuid.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/clock.h"
#include "core/crypto.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t last_ms;
static unsigned counter;

void uuid_v7(char out[UUID_LEN + 1])
{
    unsigned char b[16];
    crypto_random(b, sizeof b);
    int64_t ms = clock_now_ms();
    pthread_mutex_lock(&lock);
    if (ms <= last_ms) {
        ms = last_ms;
        if (++counter > 0xfff) {
            ms++;
            counter = 0;
        }
    } else {
        counter = b[6] & 0x3; /* start low so the counter has room within this ms */
    }
    last_ms = ms;
    unsigned c = counter;
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < 6; i++)
        b[i] = (unsigned char)(ms >> (40 - 8 * i));
    b[6] = (unsigned char)(0x70 | (c >> 8));
    b[7] = (unsigned char)(c & 0xff);
    b[8] = (unsigned char)(0x80 | (b[8] & 0x3f));
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[o++] = '-';
        out[o++] = hex[b[i] >> 4];
        out[o++] = hex[b[i] & 15];
    }
    out[o] = '\0';
}

void uuid_v7_floor(int64_t ms, char out[UUID_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    if (ms < 0)
        ms = 0;
    static const char tail[] = "-0000-0000-000000000000";
    for (int i = 0; i < 12; i++)
        out[i + (i >= 8)] = hex[(ms >> (44 - 4 * i)) & 15];
    out[8] = '-';
    memcpy(out + 13, tail, sizeof tail); /* includes the NUL */
}

int uuid_valid(const char *s, size_t len)
{
    if (len != UUID_LEN)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-')
                return 0;
        } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
            return 0;
        }
    }
    return 1;
}
