/*
 * A person's e-mail address and getting back in by it (with --smtp-url): PUT /api/users/@me/email
 * {email, password} mails a six-digit code, POST …/email/verify {code} keeps the address, DELETE
 * …/email forgets it; POST /api/auth/forgot-password {email} mails a one-time link to set a new
 * password to the account that verified that address. Its answer is the same whether or not an
 * account has the address, and it is bounded per address that asks and per account asked for.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/input.h"
#include "api/limits.h"
#include "api/mail.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/crypto.h"
#include "domain/text.h"
#include "state/ratelimit.h"
#include "store/emails.h"
#include "store/password_resets.h"

#define HOUR_MS   (3600 * 1000)
#define MINUTE_MS (60 * 1000)

static const struct api_limit CODE_LIMIT = {"email-code", 5, HOUR_MS};
/* Per address that asks (before anything is read); per account asked for (past it, no mail). */
static const struct api_limit FORGOT_ADDRESS = {"forgot-address", 5, MINUTE_MS};
static const struct api_limit FORGOT_ACCOUNT = {"forgot-account", 3, HOUR_MS};

/* 1 when Praça sends e-mail; else answered 409 and 0. */
static int mails(struct api_call *c)
{
    if (c->svc->mailer)
        return 1;
    api__error(c, 409, "Esta Praça não envia e-mails: peça a quem a administra");
    return 0;
}

static void code_hash(const char *user_id, const char *code, char out[CRYPTO_SHA256_HEX + 1])
{
    char text[UUID_LEN + 16];
    snprintf(text, sizeof text, "%s:%s", user_id, code);
    crypto_sha256_hex(text, strlen(text), out);
}

/* PUT /api/users/@me/email {email, password}: on the hashing lane (the password). */
static void email_put(struct api_call *c)
{
    json_t *body = api__json_body_only(c);
    const char *given, *password;
    char email[STORE_EMAIL_MAX + 1];
    if (!body || !mails(c) ||
        api__in_str(c, body, "email", 3, STORE_EMAIL_MAX, API_IN_REQUIRED | API_IN_TRIM, &given) <
            0 ||
        api__in_str(c, body, "password", 0, 1024, API_IN_REQUIRED, &password) < 0)
        return;
    if (!rule_email_ok(given, email, sizeof email)) {
        api__bad(c, "email", "não é um endereço de e-mail");
        return;
    }
    if (!api__password_ok(c, password, "password"))
        return;
    int taken = store_email_taken(c->db, email, c->me.user_id);
    if (taken < 0) {
        api__internal(c);
        return;
    }
    if (taken) {
        api__error(c, 409, "email: já está em uso por outra conta");
        return;
    }
    if (api__limit_hit(c, &CODE_LIMIT))
        return;
    uint32_t n;
    crypto_random(&n, sizeof n);
    char code[8], hash[CRYPTO_SHA256_HEX + 1], text[512];
    snprintf(code, sizeof code, "%06u", n % 1000000);
    code_hash(c->me.user_id, code, hash);
    struct store_email_code row = {c->me.user_id, email, hash,
                                   clock_now_ms() + STORE_EMAIL_CODE_MS};
    snprintf(text, sizeof text,
             "Olá!\n\nO código para confirmar este endereço na Praça é:\n\n    %s\n\n"
             "Ele vale por 30 minutos. Se não foi você que pediu, ignore este e-mail.\n",
             code);
    if (store_email_code_set(c->svc->writer, &row) < 0) {
        api__internal(c);
        return;
    }
    if (api__mail(c->svc->mailer, email, "Seu código da Praça", text)) {
        api__error(c, 503, "O e-mail não pôde ser enviado agora; tente de novo em instantes");
        return;
    }
    api__reply(c, 202, json_pack("{sbss}", "ok", 1, "email", email));
}

/* POST /api/users/@me/email/verify {code} → {user}. */
static void email_verify(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *code;
    if (!body || api__in_str(c, body, "code", 1, 16, API_IN_REQUIRED | API_IN_TRIM, &code) < 0)
        return;
    char hash[CRYPTO_SHA256_HEX + 1];
    code_hash(c->me.user_id, code, hash);
    struct store_email_verify v = {c->me.user_id, hash, clock_now_ms(), 0};
    if (store_email_verify(c->svc->writer, &v) < 0) {
        api__internal(c);
        return;
    }
    if (v.verdict == STORE_EMAIL_WRONG)
        api__bad(c, "code", "código errado");
    else if (v.verdict == STORE_EMAIL_GONE)
        api__error(c, 410, "Este código expirou ou já foi tentado demais; peça outro");
    else if (v.verdict == STORE_EMAIL_TAKEN)
        api__error(c, 409, "email: já está em uso por outra conta");
    else
        api__me_reply(c);
}

static void email_delete(struct api_call *c)
{
    if (store_email_clear(c->svc->writer, c->me.user_id) < 0)
        api__internal(c);
    else
        api__me_reply(c);
}

/* POST /api/auth/forgot-password {email}: public; always 202 once the address is well formed. */
static void forgot_password(struct api_call *c)
{
    int64_t wait = api__limit_count(c, &FORGOT_ADDRESS, c->req->peer, RATELIMIT_RECORD);
    if (wait > 0) {
        api__rate_limited(c, wait);
        return;
    }
    json_t *body = api__json_body_only(c);
    const char *given;
    char email[STORE_EMAIL_MAX + 1];
    if (!body || !mails(c) ||
        api__in_str(c, body, "email", 3, STORE_EMAIL_MAX, API_IN_REQUIRED | API_IN_TRIM, &given) <
            0)
        return;
    if (!rule_email_ok(given, email, sizeof email)) {
        api__bad(c, "email", "não é um endereço de e-mail");
        return;
    }
    char token[CRYPTO_TOKEN_LEN + 1], hash[CRYPTO_SHA256_HEX + 1];
    crypto_token(token);
    crypto_sha256_hex(token, strlen(token), hash);
    struct store_email_reset r = {email, hash, clock_now_ms() + STORE_RESET_VALID_MS, ""};
    if (store_email_reset_make(c->svc->writer, &r) < 0) {
        api__internal(c);
        return;
    }
    /* Past the account's bound the link is made but not sent: the answer stays the same. */
    if (r.user_id[0] && !api__limit_count(c, &FORGOT_ACCOUNT, r.user_id, RATELIMIT_RECORD)) {
        char text[1024];
        snprintf(
            text, sizeof text,
            "Olá!\n\nAlguém pediu um link para definir uma nova senha na Praça para a conta "
            "deste e-mail. Se foi você, abra:\n\n    %s/reset#token=%s\n\nO link vale uma vez, "
            "por uma hora, e encerra todas as sessões da conta. Se não foi você, ignore este "
            "e-mail: nada muda.\n",
            c->svc->site_url, token);
        api__mail(c->svc->mailer, email, "Nova senha na Praça", text);
    }
    api__reply(c, 202, json_pack("{sb}", "ok", 1));
}

const struct api_route api_email_routes[] = {
    API_ROUTE(PUT, "/api/users/@me/email", email_put, API_PERSON, .hashes = 1),
    API_ROUTE(POST, "/api/users/@me/email/verify", email_verify, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/email", email_delete, API_PERSON),
    API_ROUTE(POST, "/api/auth/forgot-password", forgot_password, API_PUBLIC,
              .limit = &API_LIMIT_KEYED_APART),
    {0},
};
