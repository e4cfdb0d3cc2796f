#include <criterion/criterion.h>
#include <string.h>

#include "core/crypto.h"

/* RFC 6238 appendix B (SHA-1), last six digits. */
Test(crypto, totp_rfc6238_vectors)
{
    const char *secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; /* "12345678901234567890" */
    cr_assert_eq(crypto_totp_code(secret, 59 / 30), 287082);
    cr_assert_eq(crypto_totp_code(secret, 1111111109 / 30), 81804);
    cr_assert_eq(crypto_totp_code(secret, 1111111111 / 30), 50471);
    cr_assert_eq(crypto_totp_code(secret, 1234567890 / 30), 5924);
    cr_assert_eq(crypto_totp_code(secret, 2000000000 / 30), 279037);
    cr_assert_eq(crypto_totp_code("!!", 1), -1);
}

Test(crypto, password_hash_round_trip)
{
    char stored[CRYPTO_PASSWORD_MAX];
    cr_assert_eq(crypto_password_hash("segredo123", 10, stored), 0);
    cr_assert_eq(strncmp(stored, "$argon2id$v=19$m=19456,t=2,p=1$", 31), 0, "OWASP's setting");
    cr_assert_eq(crypto_password_outdated(stored), 0);
    cr_assert_eq(crypto_password_verify("segredo123", 10, stored), 1);
    cr_assert_eq(crypto_password_verify("segredo124", 10, stored), 0);
    cr_assert_eq(crypto_password_verify("segredo1234", 10, stored), 1,
                 "len bytes are the password");
    char again[CRYPTO_PASSWORD_MAX];
    cr_assert_eq(crypto_password_hash("segredo123", 10, again), 0);
    cr_assert_str_neq(stored, again, "a salt of its own");
    cr_assert_eq(crypto_password_verify("x", 1, "bcrypt$1"), -1);
    cr_assert_eq(crypto_password_verify("x", 1, "$argon2id$v=19$m=19456"), -1);
    cr_assert_eq(crypto_password_verify("x", 1, "scrypt$99999999$8$1$AAAA$AAAA"), -1);
}

/* A hash stored before Argon2id, made by another implementation (Node's crypto.scryptSync with
 * the same N, r and p): it still verifies, and is marked for storing again. */
Test(crypto, an_older_scrypt_hash_still_verifies)
{
    static const char *old = "scrypt$32768$8$3$MDEyMzQ1Njc4OWFiY2RlZg$"
                             "WNlLfO6D1VhYj21T2GxImxHCq_WoOdZQ623QTnb_DSs";
    cr_assert_eq(crypto_password_verify("segredo123", 10, old), 1);
    cr_assert_eq(crypto_password_verify("segredo124", 10, old), 0);
    cr_assert_eq(crypto_password_outdated(old), 1);
    cr_assert_eq(crypto_password_outdated("$argon2id$v=19$m=65536,t=3,p=4$x$y"), 1,
                 "another Argon2id setting is outdated too");
}

Test(crypto, tokens_are_random_and_long)
{
    char a[CRYPTO_TOKEN_LEN + 1], b[CRYPTO_TOKEN_LEN + 1];
    crypto_token(a);
    crypto_token(b);
    cr_assert_eq(strlen(a), 43);
    cr_assert_str_neq(a, b);
    char hex[65];
    crypto_sha256_hex("abc", 3, hex);
    cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(crypto, base32_round_trip)
{
    unsigned char raw[20], back[20];
    for (int i = 0; i < 20; i++)
        raw[i] = (unsigned char)(i * 13);
    char text[40];
    cr_assert_eq(crypto_base32(raw, 20, text), 32);
    cr_assert_eq(crypto_base32_decode(text, 32, back, sizeof back), 20);
    cr_assert_eq(memcmp(raw, back, 20), 0);
}
