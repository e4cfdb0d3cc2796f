/*
 * Web Push's cryptography over OpenSSL libcrypto: P-256 key pairs, a message encrypted for one
 * browser (RFC 8291, aes128gcm content coding of RFC 8188, one record), and the VAPID
 * authorization of a push request (RFC 8292: an ES256 JWT and the server's public key).
 * All functions return 0 on success and -1 on failure unless said otherwise.
 */
#ifndef PRACA_CORE_WEBPUSH_H
#define PRACA_CORE_WEBPUSH_H
#include <stddef.h>
#include <stdint.h>

#define WEBPUSH_PUBLIC_LEN  65 /* an uncompressed P-256 point */
#define WEBPUSH_PRIVATE_LEN 32
#define WEBPUSH_AUTH_LEN    16
#define WEBPUSH_SALT_LEN    16
/* The header (salt, record size, key ID length, key ID), the padding delimiter and the tag. */
#define WEBPUSH_OVERHEAD (WEBPUSH_SALT_LEN + 4 + 1 + WEBPUSH_PUBLIC_LEN + 1 + 16)
/* Push services take at least 4096 bytes of body (RFC 8030 §7.2), so a message is one record. */
#define WEBPUSH_RECORD    4096
#define WEBPUSH_PLAIN_MAX (WEBPUSH_RECORD - WEBPUSH_OVERHEAD)
#define WEBPUSH_VAPID_MAX 768 /* an Authorization header's value */

struct webpush_keys {
    unsigned char priv[WEBPUSH_PRIVATE_LEN];
    unsigned char pub[WEBPUSH_PUBLIC_LEN];
};

/* A new random key pair. */
int webpush_keys_new(struct webpush_keys *out);
/* The pair of a private key (its public half computed). */
int webpush_keys_from_private(const unsigned char priv[WEBPUSH_PRIVATE_LEN],
                              struct webpush_keys *out);
/* 1 when the 65 bytes are a point of P-256 (a browser's p256dh), else 0. */
int webpush_public_valid(const unsigned char pub[WEBPUSH_PUBLIC_LEN]);

/* The body of a push message carrying plain (at most WEBPUSH_PLAIN_MAX bytes) for the browser
 * whose key is ua_pub and authentication secret auth. sender is a fresh key pair and salt 16
 * random bytes (both given, so tests can use RFC 8291's example); out must hold
 * len + WEBPUSH_OVERHEAD bytes; *out_len gets the body's length. */
int webpush_encrypt(const unsigned char ua_pub[WEBPUSH_PUBLIC_LEN],
                    const unsigned char auth[WEBPUSH_AUTH_LEN], const struct webpush_keys *sender,
                    const unsigned char salt[WEBPUSH_SALT_LEN], const void *plain, size_t len,
                    unsigned char *out, size_t *out_len);

/* The Authorization header's value "vapid t=<JWT>, k=<public key>" for a push service at
 * audience (its scheme://host[:port]), signed with keys, valid until expires (unix seconds),
 * naming subject (a mailto: or https: URL of the operator). */
int webpush_vapid(const struct webpush_keys *keys, const char *audience, const char *subject,
                  int64_t expires, char out[WEBPUSH_VAPID_MAX]);

#endif
