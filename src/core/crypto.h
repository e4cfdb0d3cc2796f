/*
 * Cryptographic helpers over OpenSSL libcrypto: random bytes and tokens, SHA-256, HMAC,
 * constant-time comparison, password hashing (Argon2id; scrypt read) and TOTP (RFC 6238).
 * All functions return 0 on success and -1 on failure unless said otherwise.
 */
#ifndef PRACA_CORE_CRYPTO_H
#define PRACA_CORE_CRYPTO_H
#include <stddef.h>
#include <stdint.h>

#define CRYPTO_TOKEN_LEN    43 /* base64url of 32 random bytes */
#define CRYPTO_SHA256_HEX   64
#define CRYPTO_PASSWORD_MAX 160 /* length of a stored password hash string */
#define CRYPTO_TOTP_SECRET  32  /* base32 of 20 random bytes */

void crypto_random(void *out, size_t n);
/* A new random token, NUL-terminated. */
void crypto_token(char out[CRYPTO_TOKEN_LEN + 1]);
/* Lowercase hex of n bytes; out must hold 2n+1. */
void crypto_hex(const unsigned char *in, size_t n, char *out);
/* Lowercase hex of n random bytes: out must hold 2n+1. */
void crypto_random_hex(char *out, size_t n);
/* SHA-1 (only for the WebSocket accept key, as RFC 6455 requires). */
void crypto_sha1(const void *data, size_t len, unsigned char out[20]);
void crypto_sha256_hex(const void *data, size_t len, char out[CRYPTO_SHA256_HEX + 1]);
/* SHA-256 over bytes that come in pieces: new, update any number of times, then final (which
 * frees it). NULL when out of memory. */
struct crypto_sha256;
struct crypto_sha256 *crypto_sha256_new(void);
void crypto_sha256_update(struct crypto_sha256 *h, const void *data, size_t len);
void crypto_sha256_final(struct crypto_sha256 *h, char out[CRYPTO_SHA256_HEX + 1]);
/* 1 when equal; time depends only on n. */
int crypto_equal(const void *a, const void *b, size_t n);
/* HMAC; md is "SHA1" or "SHA256"; out must hold 32 bytes; returns the MAC length or -1. */
int crypto_hmac(const char *md, const void *key, size_t klen, const void *msg, size_t mlen,
                unsigned char out[32]);

/* Base64url without padding: out must hold 4*ceil(n/3)+1. Returns the length written. */
size_t crypto_base64url(const unsigned char *in, size_t n, char *out);
/* Decodes base64url (padding optional); returns bytes written or -1. */
int crypto_base64url_decode(const char *in, size_t len, unsigned char *out, size_t cap);
/* Standard base64 with padding (RFC 4648 §4); out must hold 4*ceil(n/3)+1. */
size_t crypto_base64(const unsigned char *in, size_t n, char *out);
/* Decodes standard base64 (padding optional); returns bytes written or -1. */
int crypto_base64_decode(const char *in, size_t len, unsigned char *out, size_t cap);
/* RFC 4648 base32 without padding; out must hold 8*ceil(n/5)+1. */
size_t crypto_base32(const unsigned char *in, size_t n, char *out);
/* Decodes base32 (case-insensitive, no padding); returns bytes written or -1. */
int crypto_base32_decode(const char *in, size_t len, unsigned char *out, size_t cap);

/* A password's hash to store: Argon2id in the PHC string format ("$argon2id$v=19$m=…"). */
int crypto_password_hash(const char *pw, size_t len, char out[CRYPTO_PASSWORD_MAX]);
/* 1 when pw matches the stored hash (Argon2id, or an older "scrypt$N$r$p$salt$hash"), 0 when
 * not, -1 when the stored text is malformed. */
int crypto_password_verify(const char *pw, size_t len, const char *stored);
/* 1 when the stored hash was made otherwise than crypto_password_hash makes one today: store the
 * password again once it is known to be right. */
int crypto_password_outdated(const char *stored);

/* A new TOTP secret in base32. */
void crypto_totp_secret(char out[CRYPTO_TOTP_SECRET + 1]);
/* The 6-digit code of the 30-second step `step` (unix_seconds / 30). -1 on a bad secret. */
int crypto_totp_code(const char *secret_b32, int64_t step);

#endif
