/* An import's IDs: see import_ids.h. */
#include "domain/import_ids.h"

#include <string.h>

#include "core/crypto.h"

#define NAME_MAX_CHARS 20

/* SHA-256 of key, kind and source, each ended by a NUL (no two triples hash alike). */
static void digest(const char *key, const char *kind, const char *source,
                   char hex[CRYPTO_SHA256_HEX + 1])
{
    struct crypto_sha256 *h = crypto_sha256_new();
    const char *parts[] = {key, kind, source};
    for (size_t i = 0; i < 3; i++)
        crypto_sha256_update(h, parts[i], strlen(parts[i]) + 1);
    crypto_sha256_final(h, hex);
}

/* Lays 32 hex digits out as 8-4-4-4-12 with its version digit and RFC 9562's variant. */
static void shape(const char *hex, char version, char out[UUID_LEN + 1])
{
    static const char variant[] = "89ab";
    size_t o = 0;
    for (size_t i = 0; i < 32; i++) {
        if (i == 8 || i == 12 || i == 16 || i == 20)
            out[o++] = '-';
        char c = hex[i];
        if (i == 12)
            c = version;
        else if (i == 16)
            c = variant[(c >= 'a' ? c - 'a' + 10 : c - '0') & 3];
        out[o++] = c;
    }
    out[o] = 0;
}

void rule_import_id(const char *key, const char *kind, const char *source, char out[UUID_LEN + 1])
{
    char hex[CRYPTO_SHA256_HEX + 1];
    digest(key, kind, source, hex);
    shape(hex, '8', out);
}

void rule_import_message_id(const char *key, const char *source, int64_t ms, unsigned part,
                            char out[UUID_LEN + 1])
{
    static const char hexdigits[] = "0123456789abcdef";
    char hex[CRYPTO_SHA256_HEX + 1];
    digest(key, "message", source, hex);
    if (ms < 0)
        ms = 0;
    for (int i = 0; i < 12; i++) /* 48 bits of milliseconds */
        hex[i] = hexdigits[(ms >> (44 - 4 * i)) & 15];
    for (int i = 0; i < 3; i++) /* the 12 bits after the version: the part */
        hex[13 + i] = hexdigits[(part >> (8 - 4 * i)) & 15];
    shape(hex, '7', out);
}

void rule_import_username(const char *name, const char *id, char out[32])
{
    size_t n = 0;
    for (const char *p = name; p && *p && n < NAME_MAX_CHARS; p++) {
        char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.')
            out[n++] = c;
    }
    if (!n) {
        memcpy(out, "pessoa", 6);
        n = 6;
    }
    out[n++] = '.';
    for (size_t i = 0; i < 8 && id[i]; i++)
        out[n++] = id[i];
    out[n] = 0;
}
