/* Crypto helpers: see crypto.h. */
#include "core/crypto.h"

#include <openssl/crypto.h>
#include <argon2.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

/* Passwords are stored with Argon2id at OWASP's first setting (19 MiB, 2 passes, 1 lane): as
 * strong as the scrypt setting below by OWASP's table, at a tenth of its CPU (19 against 226 ms
 * on the reference machine), which is what lets a node sign a crowd in. Hashes made with scrypt
 * still verify, and a sign-in stores its password again with Argon2id
 * (crypto_password_outdated). */
#define ARGON2_PASSES 2
#define ARGON2_KIB    19456
#define ARGON2_LANES  1
#define ARGON2_PREFIX "$argon2id$v=19$m=19456,t=2,p=1$"
/* OWASP's scrypt setting of equal cost to N=2^17,p=1 with a quarter of the memory (32 MiB). */
#define SCRYPT_N   32768
#define SCRYPT_R   8
#define SCRYPT_P   3
#define SCRYPT_MEM (64u * 1024 * 1024)
#define SALT_LEN   16
#define HASH_LEN   32

#define POOL_SIZE 512 /* per thread: RAND_bytes costs a getpid() syscall on every call */

static void random_or_abort(void *out, size_t n)
{
    if (RAND_bytes(out, (int)n) != 1)
        abort(); /* no entropy: nothing we produce would be safe */
}

void crypto_random(void *out, size_t n)
{
    static _Thread_local unsigned char pool[POOL_SIZE];
    static _Thread_local size_t left;
    if (n > POOL_SIZE / 8) {
        random_or_abort(out, n);
        return;
    }
    if (left < n) {
        random_or_abort(pool, sizeof pool);
        left = sizeof pool;
    }
    unsigned char *from = pool + sizeof pool - left;
    memcpy(out, from, n);
    OPENSSL_cleanse(from, n); /* handed-out bytes do not stay behind */
    left -= n;
}

void crypto_token(char out[CRYPTO_TOKEN_LEN + 1])
{
    unsigned char raw[32];
    crypto_random(raw, sizeof raw);
    crypto_base64url(raw, sizeof raw, out);
}

void crypto_hex(const unsigned char *in, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        *out++ = hex[in[i] >> 4];
        *out++ = hex[in[i] & 15];
    }
    *out = '\0';
}

void crypto_random_hex(char *out, size_t n)
{
    unsigned char raw[64];
    *out = '\0';
    while (n) {
        size_t k = n < sizeof raw ? n : sizeof raw;
        crypto_random(raw, k);
        crypto_hex(raw, k, out);
        out += 2 * k;
        n -= k;
    }
}

void crypto_sha1(const void *data, size_t len, unsigned char out[20])
{
    unsigned int n = 0;
    EVP_Digest(data, len, out, &n, EVP_sha1(), NULL);
}

void crypto_sha256_hex(const void *data, size_t len, char out[CRYPTO_SHA256_HEX + 1])
{
    unsigned char md[32];
    unsigned int mdlen = 0;
    EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
    crypto_hex(md, sizeof md, out);
}

struct crypto_sha256 *crypto_sha256_new(void)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        ctx = NULL;
    }
    return (struct crypto_sha256 *)ctx;
}

void crypto_sha256_update(struct crypto_sha256 *h, const void *data, size_t len)
{
    EVP_DigestUpdate((EVP_MD_CTX *)h, data, len);
}

void crypto_sha256_final(struct crypto_sha256 *h, char out[CRYPTO_SHA256_HEX + 1])
{
    unsigned char md[32];
    unsigned int mdlen = 0;
    EVP_DigestFinal_ex((EVP_MD_CTX *)h, md, &mdlen);
    EVP_MD_CTX_free((EVP_MD_CTX *)h);
    crypto_hex(md, sizeof md, out);
}

int crypto_equal(const void *a, const void *b, size_t n)
{
    return CRYPTO_memcmp(a, b, n) == 0;
}

int crypto_hmac(const char *md, const void *key, size_t klen, const void *msg, size_t mlen,
                unsigned char out[32])
{
    const EVP_MD *alg = strcmp(md, "SHA1") == 0 ? EVP_sha1() : EVP_sha256();
    unsigned int outlen = 0;
    if (!HMAC(alg, key, (int)klen, msg, mlen, out, &outlen))
        return -1;
    return (int)outlen;
}

/* Base64 with alphabet tab; missing characters of a last group are '=' when pad, else left out. */
static size_t encode_base64(const unsigned char *in, size_t n, char *out, const char *tab, int pad)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)in[i + 1] << 8;
        if (i + 2 < n)
            v |= in[i + 2];
        out[o++] = tab[(v >> 18) & 63];
        out[o++] = tab[(v >> 12) & 63];
        if (i + 1 < n || pad)
            out[o++] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        if (i + 2 < n || pad)
            out[o++] = i + 2 < n ? tab[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

size_t crypto_base64url(const unsigned char *in, size_t n, char *out)
{
    return encode_base64(in, n, out,
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 0);
}

static int b64url_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '-')
        return 62;
    if (c == '_')
        return 63;
    return -1;
}

/* Decodes text whose characters each carry `width` bits (6: base64url, 5: base32). */
static int decode_bits(const char *in, size_t len, int (*value)(char), int width,
                       unsigned char *out, size_t cap)
{
    size_t o = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = value(in[i]);
        if (v < 0)
            return -1;
        acc = (acc << width) | (unsigned)v;
        bits += width;
        if (bits >= 8) {
            bits -= 8;
            if (o == cap)
                return -1;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return (int)o;
}

int crypto_base64url_decode(const char *in, size_t len, unsigned char *out, size_t cap)
{
    while (len && in[len - 1] == '=')
        len--;
    if (len % 4 == 1)
        return -1;
    return decode_bits(in, len, b64url_value, 6, out, cap);
}

size_t crypto_base64(const unsigned char *in, size_t n, char *out)
{
    return encode_base64(in, n, out,
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 1);
}

static int b64_value(char c)
{
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return c == '-' || c == '_' ? -1 : b64url_value(c);
}

int crypto_base64_decode(const char *in, size_t len, unsigned char *out, size_t cap)
{
    while (len && in[len - 1] == '=')
        len--;
    if (len % 4 == 1)
        return -1;
    return decode_bits(in, len, b64_value, 6, out, cap);
}

size_t crypto_base32(const unsigned char *in, size_t n, char *out)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    size_t o = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        acc = (acc << 8) | in[i];
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out[o++] = tab[(acc >> bits) & 31];
        }
    }
    if (bits > 0)
        out[o++] = tab[(acc << (5 - bits)) & 31];
    out[o] = '\0';
    return o;
}

static int b32_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= '2' && c <= '7')
        return c - '2' + 26;
    return -1;
}

int crypto_base32_decode(const char *in, size_t len, unsigned char *out, size_t cap)
{
    return decode_bits(in, len, b32_value, 5, out, cap);
}

static int scrypt(const char *pw, size_t len, const unsigned char *salt, size_t slen, uint64_t n,
                  uint64_t r, uint64_t p, unsigned char out[HASH_LEN])
{
    return EVP_PBE_scrypt(pw, len, salt, slen, n, r, p, SCRYPT_MEM, out, HASH_LEN) == 1 ? 0 : -1;
}

int crypto_password_hash(const char *pw, size_t len, char out[CRYPTO_PASSWORD_MAX])
{
    unsigned char salt[SALT_LEN];
    crypto_random(salt, sizeof salt);
    return argon2id_hash_encoded(ARGON2_PASSES, ARGON2_KIB, ARGON2_LANES, pw, len, salt,
                                 sizeof salt, HASH_LEN, out, CRYPTO_PASSWORD_MAX) == ARGON2_OK
               ? 0
               : -1;
}

int crypto_password_outdated(const char *stored)
{
    return strncmp(stored, ARGON2_PREFIX, sizeof ARGON2_PREFIX - 1) != 0;
}

/* Reads "<digits>$" at *p into v. */
static int take_num(const char **p, long long max, long long *v)
{
    const char *end = strchr(*p, '$');
    if (!end)
        return -1;
    struct slice s = {*p, (size_t)(end - *p)};
    if (slice_to_i64(s, 1, max, v))
        return -1;
    *p = end + 1;
    return 0;
}

int crypto_password_verify(const char *pw, size_t len, const char *stored)
{
    if (!strncmp(stored, "$argon2id$", 10)) {
        int rc = argon2id_verify(stored, pw, len);
        return rc == ARGON2_OK ? 1 : rc == ARGON2_VERIFY_MISMATCH ? 0 : -1;
    }
    if (strncmp(stored, "scrypt$", 7) != 0)
        return -1;
    const char *p = stored + 7;
    long long n, r, par;
    if (take_num(&p, 1 << 20, &n) || take_num(&p, 64, &r) || take_num(&p, 64, &par))
        return -1;
    const char *dollar = strchr(p, '$');
    if (!dollar)
        return -1;
    unsigned char salt[64], want[HASH_LEN], got[HASH_LEN];
    int slen = crypto_base64url_decode(p, (size_t)(dollar - p), salt, sizeof salt);
    int hlen = crypto_base64url_decode(dollar + 1, strlen(dollar + 1), want, sizeof want);
    if (slen <= 0 || hlen != HASH_LEN)
        return -1;
    if (scrypt(pw, len, salt, (size_t)slen, (uint64_t)n, (uint64_t)r, (uint64_t)par, got))
        return -1;
    return crypto_equal(got, want, HASH_LEN);
}

void crypto_totp_secret(char out[CRYPTO_TOTP_SECRET + 1])
{
    unsigned char raw[20];
    crypto_random(raw, sizeof raw);
    crypto_base32(raw, sizeof raw, out);
}

int crypto_totp_code(const char *secret_b32, int64_t step)
{
    unsigned char key[64], msg[8], mac[32];
    int klen = crypto_base32_decode(secret_b32, strlen(secret_b32), key, sizeof key);
    if (klen <= 0)
        return -1;
    for (int i = 7; i >= 0; i--) {
        msg[i] = (unsigned char)(step & 0xff);
        step >>= 8;
    }
    if (crypto_hmac("SHA1", key, (size_t)klen, msg, sizeof msg, mac) != 20)
        return -1;
    int off = mac[19] & 0x0f;
    uint32_t bin = ((uint32_t)(mac[off] & 0x7f) << 24) | ((uint32_t)mac[off + 1] << 16) |
                   ((uint32_t)mac[off + 2] << 8) | mac[off + 3];
    return (int)(bin % 1000000);
}
