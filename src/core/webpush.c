/* Web Push's cryptography: see webpush.h. */
#include "core/webpush.h"

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <stdio.h>
#include <string.h>

#include "core/crypto.h"

/* The public point of priv, uncompressed. */
static int public_of(const unsigned char *priv, unsigned char pub[WEBPUSH_PUBLIC_LEN])
{
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    EC_POINT *point = group ? EC_POINT_new(group) : NULL;
    BIGNUM *k = BN_bin2bn(priv, WEBPUSH_PRIVATE_LEN, NULL);
    int ok = point && k && !BN_is_zero(k) && BN_cmp(k, EC_GROUP_get0_order(group)) < 0 &&
             EC_POINT_mul(group, point, k, NULL, NULL, NULL) &&
             EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, pub,
                                WEBPUSH_PUBLIC_LEN, NULL) == WEBPUSH_PUBLIC_LEN;
    BN_clear_free(k);
    EC_POINT_free(point);
    EC_GROUP_free(group);
    return ok ? 0 : -1;
}

int webpush_public_valid(const unsigned char pub[WEBPUSH_PUBLIC_LEN])
{
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    EC_POINT *point = group ? EC_POINT_new(group) : NULL;
    int ok = point && pub[0] == 4 &&
             EC_POINT_oct2point(group, point, pub, WEBPUSH_PUBLIC_LEN, NULL) &&
             EC_POINT_is_on_curve(group, point, NULL) == 1;
    EC_POINT_free(point);
    EC_GROUP_free(group);
    return ok;
}

int webpush_keys_from_private(const unsigned char priv[WEBPUSH_PRIVATE_LEN],
                              struct webpush_keys *out)
{
    memcpy(out->priv, priv, WEBPUSH_PRIVATE_LEN);
    return public_of(priv, out->pub);
}

int webpush_keys_new(struct webpush_keys *out)
{
    /* A random scalar is below the group's order but for odds of about 2^-32; try again then. */
    for (int tries = 0; tries < 8; tries++) {
        unsigned char priv[WEBPUSH_PRIVATE_LEN];
        crypto_random(priv, sizeof priv);
        int rc = webpush_keys_from_private(priv, out);
        OPENSSL_cleanse(priv, sizeof priv);
        if (!rc)
            return 0;
    }
    return -1;
}

/* An EVP key of pub, with priv when given. NULL when the bytes are not a P-256 key. */
static EVP_PKEY *pkey_of(const unsigned char *priv, const unsigned char *pub)
{
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *k = priv ? BN_bin2bn(priv, WEBPUSH_PRIVATE_LEN, NULL) : NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    EVP_PKEY *key = NULL;
    if (bld && (!priv || k) &&
        OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) &&
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, WEBPUSH_PUBLIC_LEN) &&
        (!k || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, k)) &&
        (params = OSSL_PARAM_BLD_to_param(bld)) &&
        (ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) && EVP_PKEY_fromdata_init(ctx) > 0)
        EVP_PKEY_fromdata(ctx, &key, k ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params);
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    BN_clear_free(k);
    OSSL_PARAM_BLD_free(bld);
    return key;
}

/* The x coordinate of mine->priv × peer_pub (SEC 1's ECDH, as RFC 8291 uses it). */
static int ecdh(const struct webpush_keys *mine, const unsigned char peer_pub[WEBPUSH_PUBLIC_LEN],
                unsigned char secret[32])
{
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    EC_POINT *peer = group ? EC_POINT_new(group) : NULL;
    EC_POINT *shared = group ? EC_POINT_new(group) : NULL;
    BIGNUM *k = BN_bin2bn(mine->priv, WEBPUSH_PRIVATE_LEN, NULL), *x = BN_new();
    int ok = peer && shared && k && x &&
             EC_POINT_oct2point(group, peer, peer_pub, WEBPUSH_PUBLIC_LEN, NULL) &&
             EC_POINT_mul(group, shared, NULL, peer, k, NULL) &&
             EC_POINT_get_affine_coordinates(group, shared, x, NULL, NULL) &&
             BN_bn2binpad(x, secret, 32) == 32;
    BN_clear_free(k);
    BN_free(x);
    EC_POINT_clear_free(shared);
    EC_POINT_free(peer);
    EC_GROUP_free(group);
    return ok ? 0 : -1;
}

/* HKDF-SHA-256 (RFC 5869) for at most 32 bytes: extract, then the first block of expand. */
static int hkdf(const unsigned char *salt, size_t salt_len, const unsigned char *ikm,
                size_t ikm_len, const unsigned char *info, size_t info_len, unsigned char *out,
                size_t out_len)
{
    unsigned char prk[32], block[32], msg[160];
    if (info_len + 1 > sizeof msg || out_len > 32 ||
        crypto_hmac("SHA256", salt, salt_len, ikm, ikm_len, prk) != 32)
        return -1;
    memcpy(msg, info, info_len);
    msg[info_len] = 1;
    int rc = crypto_hmac("SHA256", prk, sizeof prk, msg, info_len + 1, block) == 32 ? 0 : -1;
    memcpy(out, block, out_len);
    OPENSSL_cleanse(prk, sizeof prk);
    OPENSSL_cleanse(block, sizeof block);
    return rc;
}

/* AES-128-GCM of plain and the last record's delimiter (0x02), the tag after them. */
static int seal(const unsigned char key[16], const unsigned char nonce[12], const void *plain,
                size_t len, unsigned char *out)
{
    static const unsigned char delimiter = 2;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n = 0, last = 0, end = 0;
    int ok = ctx && EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, nonce) &&
             (!len || EVP_EncryptUpdate(ctx, out, &n, plain, (int)len)) &&
             EVP_EncryptUpdate(ctx, out + len, &last, &delimiter, 1) &&
             EVP_EncryptFinal_ex(ctx, out + len + 1, &end) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, out + len + 1) &&
             (size_t)n == len && last == 1 && end == 0;
    EVP_CIPHER_CTX_free(ctx);
    return ok ? 0 : -1;
}

int webpush_encrypt(const unsigned char ua_pub[WEBPUSH_PUBLIC_LEN],
                    const unsigned char auth[WEBPUSH_AUTH_LEN], const struct webpush_keys *sender,
                    const unsigned char salt[WEBPUSH_SALT_LEN], const void *plain, size_t len,
                    unsigned char *out, size_t *out_len)
{
    static const char KEY_INFO[] = "WebPush: info";               /* and its NUL */
    static const char CEK_INFO[] = "Content-Encoding: aes128gcm"; /* and its NUL */
    static const char NONCE_INFO[] = "Content-Encoding: nonce";   /* and its NUL */
    unsigned char shared[32], ikm[32], info[sizeof KEY_INFO + 2 * WEBPUSH_PUBLIC_LEN];
    unsigned char cek[16], nonce[12];
    if (len > WEBPUSH_PLAIN_MAX || ecdh(sender, ua_pub, shared))
        return -1;
    memcpy(info, KEY_INFO, sizeof KEY_INFO);
    memcpy(info + sizeof KEY_INFO, ua_pub, WEBPUSH_PUBLIC_LEN);
    memcpy(info + sizeof KEY_INFO + WEBPUSH_PUBLIC_LEN, sender->pub, WEBPUSH_PUBLIC_LEN);
    int rc = hkdf(auth, WEBPUSH_AUTH_LEN, shared, sizeof shared, info, sizeof info, ikm, 32) ||
             hkdf(salt, WEBPUSH_SALT_LEN, ikm, sizeof ikm, (const unsigned char *)CEK_INFO,
                  sizeof CEK_INFO, cek, sizeof cek) ||
             hkdf(salt, WEBPUSH_SALT_LEN, ikm, sizeof ikm, (const unsigned char *)NONCE_INFO,
                  sizeof NONCE_INFO, nonce, sizeof nonce);
    size_t head = WEBPUSH_SALT_LEN + 4 + 1 + WEBPUSH_PUBLIC_LEN;
    if (!rc) {
        memcpy(out, salt, WEBPUSH_SALT_LEN);
        const unsigned char rs[4] = {0, 0, WEBPUSH_RECORD >> 8, WEBPUSH_RECORD & 255};
        memcpy(out + WEBPUSH_SALT_LEN, rs, 4);
        out[WEBPUSH_SALT_LEN + 4] = WEBPUSH_PUBLIC_LEN;
        memcpy(out + WEBPUSH_SALT_LEN + 5, sender->pub, WEBPUSH_PUBLIC_LEN);
        rc = seal(cek, nonce, plain, len, out + head);
        *out_len = head + len + 1 + 16;
    }
    OPENSSL_cleanse(shared, sizeof shared);
    OPENSSL_cleanse(ikm, sizeof ikm);
    OPENSSL_cleanse(cek, sizeof cek);
    return rc ? -1 : 0;
}

/* ES256 (RFC 7518 §3.4): the signature as r and s, 32 bytes each. */
static int es256(const struct webpush_keys *keys, const char *msg, size_t len,
                 unsigned char sig[64])
{
    EVP_PKEY *key = pkey_of(keys->priv, keys->pub);
    EVP_MD_CTX *md = key ? EVP_MD_CTX_new() : NULL;
    unsigned char der[80];
    size_t der_len = sizeof der;
    int ok = md && EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) > 0 &&
             EVP_DigestSign(md, der, &der_len, (const unsigned char *)msg, len) > 0;
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(key);
    const unsigned char *p = der;
    ECDSA_SIG *s = ok ? d2i_ECDSA_SIG(NULL, &p, (long)der_len) : NULL;
    ok = s && BN_bn2binpad(ECDSA_SIG_get0_r(s), sig, 32) == 32 &&
         BN_bn2binpad(ECDSA_SIG_get0_s(s), sig + 32, 32) == 32;
    ECDSA_SIG_free(s);
    return ok ? 0 : -1;
}

/* Set into a JSON string as it is: no quote, backslash or control character. */
static int plain_text(const char *s)
{
    for (; *s; s++)
        if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
            return 0;
    return 1;
}

int webpush_vapid(const struct webpush_keys *keys, const char *audience, const char *subject,
                  int64_t expires, char out[WEBPUSH_VAPID_MAX])
{
    static const char HEADER[] = "{\"typ\":\"JWT\",\"alg\":\"ES256\"}";
    char claims[400], token[WEBPUSH_VAPID_MAX];
    if (!plain_text(audience) || !plain_text(subject))
        return -1;
    int n = snprintf(claims, sizeof claims, "{\"aud\":\"%s\",\"exp\":%lld,\"sub\":\"%s\"}",
                     audience, (long long)expires, subject);
    /* base64url grows 3 bytes to 4: the header, the claims and the signature must fit. */
    if (n < 0 || (size_t)n >= sizeof claims ||
        (sizeof HEADER + (size_t)n + 64) * 4 / 3 + 8 > sizeof token - 100)
        return -1;
    size_t len = crypto_base64url((const unsigned char *)HEADER, sizeof HEADER - 1, token);
    token[len++] = '.';
    len += crypto_base64url((const unsigned char *)claims, (size_t)n, token + len);
    unsigned char sig[64];
    if (es256(keys, token, len, sig))
        return -1;
    token[len++] = '.';
    len += crypto_base64url(sig, sizeof sig, token + len);
    char key[WEBPUSH_PUBLIC_LEN * 4 / 3 + 4];
    crypto_base64url(keys->pub, WEBPUSH_PUBLIC_LEN, key);
    n = snprintf(out, WEBPUSH_VAPID_MAX, "vapid t=%s, k=%s", token, key);
    return n > 0 && n < WEBPUSH_VAPID_MAX ? 0 : -1;
}
