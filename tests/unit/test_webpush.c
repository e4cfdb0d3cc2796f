#include <criterion/criterion.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto.h"
#include "core/webpush.h"

static size_t b64u(const char *text, unsigned char *out, size_t cap)
{
    int n = crypto_base64url_decode(text, strlen(text), out, cap);
    cr_assert_geq(n, 0, "bad base64url in the test: %s", text);
    return (size_t)n;
}

/* RFC 8291 Appendix A: the same keys, secret and salt give the same body, byte for byte. */
Test(webpush, rfc8291_example)
{
    unsigned char priv[32], ua_pub[65], auth[16], salt[16], want[200], got[200];
    b64u("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw", priv, sizeof priv);
    b64u("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
         ua_pub, sizeof ua_pub);
    b64u("BTBZMqHH6r4Tts7J_aSIgg", auth, sizeof auth);
    b64u("DGv6ra1nlYgDCS1FRnbzlw", salt, sizeof salt);
    size_t want_len = b64u(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWA"
        "mS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgS"
        "xsj_Qulcy4a-fN",
        want, sizeof want);
    struct webpush_keys sender;
    cr_assert_eq(webpush_keys_from_private(priv, &sender), 0);
    unsigned char as_pub[65];
    b64u("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
         as_pub, sizeof as_pub);
    cr_assert_eq(memcmp(sender.pub, as_pub, 65), 0, "the public half of the RFC's private key");
    const char *plain = "When I grow up, I want to be a watermelon";
    size_t len = 0;
    cr_assert_eq(webpush_encrypt(ua_pub, auth, &sender, salt, plain, strlen(plain), got, &len), 0);
    cr_assert_eq(len, want_len);
    cr_assert_eq(len, strlen(plain) + WEBPUSH_OVERHEAD);
    cr_assert_eq(memcmp(got, want, len), 0);
}

Test(webpush, refuses_what_is_not_a_key_or_too_long)
{
    struct webpush_keys a, b;
    cr_assert_eq(webpush_keys_new(&a), 0);
    cr_assert_eq(webpush_keys_new(&b), 0);
    cr_assert_neq(memcmp(a.priv, b.priv, 32), 0);
    cr_assert(webpush_public_valid(a.pub));
    unsigned char bad[65];
    memcpy(bad, a.pub, 65);
    bad[40] ^= 1; /* off the curve */
    cr_assert_not(webpush_public_valid(bad));
    bad[0] = 2;
    cr_assert_not(webpush_public_valid(bad));
    unsigned char zero[32] = {0}, order_plus[32];
    memset(order_plus, 0xff, sizeof order_plus); /* above the group's order */
    struct webpush_keys k;
    cr_assert_eq(webpush_keys_from_private(zero, &k), -1);
    cr_assert_eq(webpush_keys_from_private(order_plus, &k), -1);

    unsigned char auth[16] = {1}, salt[16] = {2};
    size_t len = 0;
    char *plain = calloc(1, WEBPUSH_PLAIN_MAX + 1);
    unsigned char *out = malloc(WEBPUSH_RECORD + 64);
    cr_assert_eq(webpush_encrypt(b.pub, auth, &a, salt, plain, WEBPUSH_PLAIN_MAX, out, &len), 0);
    cr_assert_eq(len, (size_t)WEBPUSH_RECORD, "the longest message is one whole record");
    cr_assert_eq(webpush_encrypt(b.pub, auth, &a, salt, plain, WEBPUSH_PLAIN_MAX + 1, out, &len),
                 -1);
    free(plain);
    free(out);
}

/* The JWT's signature checks out with the public key the header names. */
Test(webpush, vapid_token_verifies)
{
    struct webpush_keys k;
    cr_assert_eq(webpush_keys_new(&k), 0);
    char header[WEBPUSH_VAPID_MAX];
    cr_assert_eq(
        webpush_vapid(&k, "https://push.example.net", "mailto:ops@example.org", 1900000000, header),
        0);
    cr_assert_eq(strncmp(header, "vapid t=", 8), 0);
    char *comma = strstr(header, ", k=");
    cr_assert_not_null(comma);
    unsigned char pub[65];
    cr_assert_eq(b64u(comma + 4, pub, sizeof pub), 65);
    cr_assert_eq(memcmp(pub, k.pub, 65), 0);
    const char *token = header + 8;
    const char *dot1 = strchr(token, '.'), *dot2 = strrchr(token, '.');
    cr_assert(dot1 && dot2 && dot1 < dot2);
    char claims[400];
    int n = crypto_base64url_decode(dot1 + 1, (size_t)(dot2 - dot1 - 1), (unsigned char *)claims,
                                    sizeof claims - 1);
    cr_assert_gt(n, 0);
    claims[n] = '\0';
    cr_assert_str_eq(claims, "{\"aud\":\"https://push.example.net\",\"exp\":1900000000,"
                             "\"sub\":\"mailto:ops@example.org\"}");
    unsigned char raw[64];
    cr_assert_eq(crypto_base64url_decode(dot2 + 1, (size_t)(comma - dot2 - 1), raw, sizeof raw),
                 64);
    ECDSA_SIG *sig = ECDSA_SIG_new();
    ECDSA_SIG_set0(sig, BN_bin2bn(raw, 32, NULL), BN_bin2bn(raw + 32, 32, NULL));
    unsigned char der[80], *p = der;
    int der_len = i2d_ECDSA_SIG(sig, &p);
    ECDSA_SIG_free(sig);
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, k.pub, 65);
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *key = NULL;
    EVP_PKEY_fromdata_init(ctx);
    EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key);
    int ok = EVP_DigestVerify(md, der, (size_t)der_len, (const unsigned char *)token,
                              (size_t)(dot2 - token));
    cr_assert_eq(ok, 1, "the signature verifies");
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);

    cr_assert_eq(webpush_vapid(&k, "https://a\"b", "mailto:x@y", 1, header), -1);
}
