/*
 * People and sessions: register, login (with the failed-login limit and TOTP), logout, @me,
 * and two-factor enrolment. Passwords are Argon2id hashes (older scrypt ones are replaced at a
 * sign-in); session tokens are random and stored as SHA-256 hashes; the browser gets the same
 * token as an HttpOnly cookie.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "api/limits.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/events.h"
#include "api/mfa.h"
#include "state/presence.h"
#include "state/ratelimit.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/config.h"
#include "core/crypto.h"
#include "domain/locales.h"
#include "domain/text.h"
#include "store/members.h"
#include "store/emails.h"
#include "store/people.h"
#include "store/servers.h"

/* Per name from one address (a guesser), and per name from everywhere (a distributed one). */
static const struct api_limit LOGIN_FAILURE = {"login-failure", 10, 10 * 60 * 1000};
static const struct api_limit LOGIN_FAILURE_NAME = {"login-failure-name", 100, 10 * 60 * 1000};
#define REGISTER_WINDOW_MS (60 * 60 * 1000)
#define LOGIN_ADDRESS_MS   (60 * 1000)

/* Each attempt costs a password hash: an address gets a few per window, whatever the names. */
static int address_allows(struct api_call *c, const char *action, int limit, int64_t window_ms)
{
    if (limit <= 0)
        return 1;
    int64_t wait = api__limit_count(c, &(struct api_limit){action, (uint32_t)limit, window_ms},
                                    c->req->peer, RATELIMIT_RECORD);
    if (wait > 0)
        api__rate_limited(c, wait);
    return wait == 0;
}

/* Login and register take JSON only: a cross-site form can post text/plain without asking,
 * and would sign the visitor in to an account of the attacker's choosing. */
json_t *api__json_body_only(struct api_call *c)
{
    struct slice type = http_request_header(c->req, "content-type");
    struct slice json = SLICE_LIT("application/json");
    if (type.len < json.len || !slice_eq_nocase((struct slice){type.ptr, json.len}, json.ptr) ||
        (type.len > json.len && type.ptr[json.len] != ';' && type.ptr[json.len] != ' ')) {
        api__error(c, 415, "Content-Type deve ser application/json");
        return NULL;
    }
    return api__body(c);
}

#define DEVICE_MAX 256 /* characters of the User-Agent kept with a session */

/* Where a session is made from: the User-Agent (cut short, on a character's boundary) and the
 * client's address, for the sessions list. */
static void session_origin(struct api_call *c, char device[DEVICE_MAX + 1])
{
    struct slice ua = http_request_header(c->req, "user-agent");
    size_t n = ua.len > DEVICE_MAX ? DEVICE_MAX : ua.len;
    while (n < ua.len && n > 0 && ((unsigned char)ua.ptr[n] & 0xC0) == 0x80)
        n--; /* not inside a character */
    if (n)
        memcpy(device, ua.ptr, n);
    device[n] = '\0';
    if (rule_text_has_control(device, n, 0))
        device[0] = '\0';
}

/* Answers {user, token} with the cookie set. */
static void reply_session(struct api_call *c, int status, const char *user_id, const char *token)
{
    int rc;
    json_t *user = store_user_json(c->db, user_id, &rc);
    if (!user) {
        api__internal(c);
        return;
    }
    api__session_cookie(c, token);
    api__reply(c, status, json_pack("{soss}", "user", user, "token", token));
}

/* Reads and folds the username; answers 400 when it breaks the rule. */
static int read_username(struct api_call *c, json_t *body, char out[33])
{
    const char *raw;
    if (api__in_str(c, body, "username", 0, 64, API_IN_REQUIRED, &raw) < 0)
        return -1;
    size_t len = strlen(raw);
    if (len > 32 || slice_copy(slice_from(raw), out, 33) || !rule_text_username_fold(out, len)) {
        api__bad(c, "username", "deve ter de 2 a 32 caracteres entre a-z, 0-9, _ e .");
        return -1;
    }
    return 0;
}

/* The servers every new account joins (--join-on-signup), as a join by invite does: bots with
 * members.read hear GUILD_MEMBER_ADD. A server that is no longer there is passed over. */
static void join_on_signup(struct api_call *c, const char *uid)
{
    for (const char *at = c->svc->cfg->join_on_signup; *at;) {
        size_t len = strcspn(at, ",");
        char sid[UUID_LEN + 1];
        if (len == UUID_LEN) {
            memcpy(sid, at, UUID_LEN);
            sid[UUID_LEN] = '\0';
            int added = store_member_add(c->svc->writer, sid, uid);
            if (added > 0)
                api__event_member_add(c, sid, uid);
            else if (added < 0)
                log_warn("--join-on-signup: %s could not be joined (is the server gone?)", sid);
        }
        at += len + (at[len] == ',');
    }
}

static void auth_register(struct api_call *c)
{
    if (!address_allows(c, "register-address", c->svc->cfg->registrations_per_address,
                        REGISTER_WINDOW_MS))
        return;
    json_t *body = api__json_body_only(c);
    char username[33];
    const char *password, *display;
    if (!body || read_username(c, body, username) ||
        api__in_str(c, body, "password", 8, 128, API_IN_REQUIRED, &password) < 0 ||
        api__in_str(c, body, "displayName", 1, 32, API_IN_NULLABLE | API_IN_TRIM, &display) < 0)
        return;
    if (display && !rule_text_name_ok(display, strlen(display))) {
        api__bad(c, "displayName", "não pode ter caracteres de controle ou de formatação");
        return;
    }
    char hash[CRYPTO_PASSWORD_MAX], token[CRYPTO_TOKEN_LEN + 1], token_hash[65], id[UUID_LEN + 1];
    if (crypto_password_hash(password, strlen(password), hash)) {
        api__internal(c);
        return;
    }
    crypto_token(token);
    crypto_sha256_hex(token, strlen(token), token_hash);
    uuid_v7(id);
    char device[DEVICE_MAX + 1];
    session_origin(c, device);
    struct store_new_user u = {.id = id,
                               .username = username,
                               .display_name = display ? display : username,
                               .password_hash = hash,
                               .token_hash = token_hash,
                               .device = device[0] ? device : NULL,
                               .address = c->req->peer[0] ? c->req->peer : NULL,
                               .now = clock_now_ms()};
    int rc = store_user_create(c->svc->writer, &u);
    if (rc == STORE_CONSTRAINT) {
        api__error(c, 409, "username: já está em uso");
        return;
    }
    if (rc < 0) {
        api__internal(c);
        return;
    }
    join_on_signup(c, id);
    reply_session(c, 201, id, token);
}

/* Failures count per name and address, so nobody can lock a person out from elsewhere; a
 * looser count per name alone still stops guessing spread over many addresses. */
static void failure_key(const struct api_call *c, const char *username, char *key, size_t cap)
{
    snprintf(key, cap, "%s|%s", username, c->req->peer);
}

static int64_t login_wait(struct api_call *c, const char *username)
{
    char key[128];
    failure_key(c, username, key, sizeof key);
    int64_t here = api__limit_count(c, &LOGIN_FAILURE, key, RATELIMIT_CHECK);
    int64_t anywhere = api__limit_count(c, &LOGIN_FAILURE_NAME, username, RATELIMIT_CHECK);
    return here > anywhere ? here : anywhere;
}

static void login_failed(struct api_call *c, const char *username, const char *msg,
                         const char *flag)
{
    char key[128];
    failure_key(c, username, key, sizeof key);
    api__limit_count(c, &LOGIN_FAILURE, key, RATELIMIT_RECORD);
    api__limit_count(c, &LOGIN_FAILURE_NAME, username, RATELIMIT_RECORD);
    if (flag)
        api__error_flag(c, 401, msg, flag);
    else
        api__error(c, 401, msg);
}

/* A password stored the old way (scrypt), known right now, is stored again as today's hash. A
 * failure keeps the old one, which still verifies. */
static void rehash(struct api_call *c, const char *user_id, const char *stored,
                   const char *password)
{
    char hash[CRYPTO_PASSWORD_MAX];
    if (crypto_password_outdated(stored) &&
        !crypto_password_hash(password, strlen(password), hash) &&
        store_password_set(c->svc->writer, user_id, hash) < 0)
        log_error("auth: the password of %s was not stored again", user_id);
}

static void auth_login(struct api_call *c)
{
    if (!address_allows(c, "login-address", c->svc->cfg->logins_per_address, LOGIN_ADDRESS_MS))
        return;
    json_t *body = api__json_body_only(c);
    char username[33];
    const char *password, *code;
    if (!body)
        return;
    /* A malformed name can never log in: answer like a wrong password, not with a 400 that
     * would tell which names are well-formed. */
    const char *raw;
    if (api__in_str(c, body, "username", 0, 256, API_IN_REQUIRED, &raw) < 0 ||
        api__in_str(c, body, "password", 0, 1024, API_IN_REQUIRED, &password) < 0 ||
        api__in_str(c, body, "code", 0, 16, API_IN_NULLABLE, &code) < 0)
        return;
    size_t len = strlen(raw);
    int well_formed = len <= 32 && slice_copy(slice_from(raw), username, sizeof username) == 0 &&
                      rule_text_username_fold(username, len);
    if (!well_formed)
        snprintf(username, sizeof username, "%.32s", raw);
    int64_t wait = login_wait(c, username);
    if (wait > 0) {
        api__rate_limited(c, wait);
        return;
    }
    struct store_login who;
    int found = well_formed ? store_login_find(c->db, username, &who) : 0;
    if (found < 0) {
        api__internal(c);
        return;
    }
    if (!found) {
        /* Spend the same time as a real check so timing does not reveal who exists. */
        static const char *dummy = "$argon2id$v=19$m=19456,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$"
                                   "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        crypto_password_verify(password, strlen(password), dummy);
        login_failed(c, username, "Usuário ou senha incorretos", NULL);
        return;
    }
    if (crypto_password_verify(password, strlen(password), who.password_hash) != 1) {
        login_failed(c, username, "Usuário ou senha incorretos", NULL);
        return;
    }
    rehash(c, who.id, who.password_hash, password);
    if (who.mfa_enabled) {
        if (!code || !*code) {
            api__error_flag(c, 401, "Código de dois fatores obrigatório", "mfaRequired");
            return;
        }
        if (!api__mfa_accept(c, &who, code)) { /* a recovery code does too */
            login_failed(c, username, "Código de dois fatores inválido", "mfaRequired");
            return;
        }
    }
    char token[CRYPTO_TOKEN_LEN + 1], token_hash[65];
    crypto_token(token);
    crypto_sha256_hex(token, strlen(token), token_hash);
    char device[DEVICE_MAX + 1];
    session_origin(c, device);
    if (store_session_create(c->svc->writer, token_hash, who.id, device[0] ? device : NULL,
                             c->req->peer[0] ? c->req->peer : NULL) < 0) {
        api__internal(c);
        return;
    }
    reply_session(c, 200, who.id, token);
}

void api__me_reply(struct api_call *c)
{
    int rc;
    json_t *user = store_user_json(c->db, c->me.user_id, &rc);
    json_t *profile = user ? store_user_profile_json(c->db, c->me.user_id, &rc) : NULL;
    char locale[LOCALE_TAG_MAX + 1];
    if (!profile || store_user_locale(c->db, c->me.user_id, locale) < 0) {
        json_decref(user);
        json_decref(profile);
        api__internal(c);
        return;
    }
    json_object_set(user, "about", json_object_get(profile, "about"));
    json_object_set(user, "bannerColor", json_object_get(profile, "bannerColor"));
    json_object_set(user, "avatarUrl", json_object_get(profile, "avatarUrl"));
    char email[STORE_EMAIL_MAX + 1] = "";
    store_email_of(c->db, c->me.user_id, email);
    json_object_set_new(user, "email", email[0] ? json_string(email) : json_null());
    json_object_set_new(user, "canMail", json_boolean(c->svc->mailer != NULL));
    json_decref(profile);
    json_object_set_new(user, "locale", locale[0] ? json_string(locale) : json_null());
    json_object_set_new(user, "presence", state_presence_json(c->svc->presence, c->me.user_id));
    api__reply(c, 200, json_pack("{so}", "user", user));
}

#define ABOUT_MAX 190

/* The profile fields of PATCH /api/users/@me into p: 0, or -1 when it answered 400. */
static int profile_fields(struct api_call *c, json_t *body, struct store_profile_patch *p)
{
    json_t *banner = json_object_get(body, "bannerColor");
    int64_t color = -1;
    p->set_display_name = json_object_get(body, "displayName") != NULL;
    p->set_about = json_object_get(body, "about") != NULL;
    p->set_banner_color = banner != NULL;
    if (api__in_str(c, body, "displayName", 1, 32, API_IN_NULLABLE | API_IN_TRIM,
                    &p->display_name) < 0 ||
        api__in_str(c, body, "about", 0, ABOUT_MAX, API_IN_NULLABLE | API_IN_TRIM, &p->about) < 0 ||
        (banner && !json_is_null(banner) &&
         api__in_int(c, body, "bannerColor", 0, 0xFFFFFF, 0, &color) < 0))
        return -1;
    p->banner_color = color;
    if (p->display_name && !rule_text_name_ok(p->display_name, strlen(p->display_name))) {
        api__bad(c, "displayName", "não pode ter caracteres de controle ou de formatação");
        return -1;
    }
    if (p->about && rule_text_has_control(p->about, strlen(p->about), 1)) {
        api__bad(c, "about", "não pode ter caracteres de controle");
        return -1;
    }
    if (p->about && !*p->about)
        p->about = NULL; /* empty: none */
    return 0;
}

/* PATCH /api/users/@me {locale?, displayName?, about?, bannerColor?}: the language pages and
 * commands are shown in (null: the browser's), and the profile others see. */
static void users_me_patch(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *tag = NULL, *known = NULL;
    struct store_profile_patch p = {.user_id = c->me.user_id};
    if (!body || api__in_str(c, body, "locale", 2, LOCALE_TAG_MAX, API_IN_NULLABLE, &tag) < 0 ||
        profile_fields(c, body, &p) < 0)
        return;
    int set_locale = json_object_get(body, "locale") != NULL;
    if (!set_locale && !p.set_display_name && !p.set_about && !p.set_banner_color) {
        api__bad(c, "locale", "obrigatório (ou displayName, about, bannerColor)");
        return;
    }
    if (tag && !(known = rule_locale_known(tag))) {
        api__bad(c, "locale", "idioma desconhecido (use pt-BR, en-US, es-ES…)");
        return;
    }
    if ((set_locale && store_user_locale_set(c->svc->writer, c->me.user_id, known) < 0) ||
        ((p.set_display_name || p.set_about || p.set_banner_color) &&
         store_user_profile_set(c->svc->writer, &p) < 0)) {
        api__internal(c);
        return;
    }
    if (p.set_display_name)
        api__event_profile_changed(c);
    api__me_reply(c);
}

static void mfa_totp_start(struct api_call *c)
{
    int rc;
    json_t *user = store_user_json(c->db, c->me.user_id, &rc);
    if (!user) {
        api__internal(c);
        return;
    }
    if (json_is_true(json_object_get(user, "mfaEnabled"))) {
        json_decref(user);
        api__error(c, 409, "A verificação em duas etapas já está ativa");
        return;
    }
    char secret[CRYPTO_TOTP_SECRET + 1], url[256];
    crypto_totp_secret(secret);
    snprintf(url, sizeof url,
             "otpauth://totp/Pra%%C3%%A7a:%s?secret=%s&issuer=Pra%%C3%%A7a&algorithm=SHA1&digits=6"
             "&period=30",
             json_string_value(json_object_get(user, "username")), secret);
    json_decref(user);
    if (store_mfa_set_secret(c->svc->writer, c->me.user_id, secret) < 0) {
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{ssss}", "secret", secret, "otpauthUrl", url));
}

static void mfa_totp_verify(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *code;
    if (!body || api__in_str(c, body, "code", 0, 16, API_IN_REQUIRED, &code) < 0)
        return;
    int rc;
    json_t *user = store_user_json(c->db, c->me.user_id, &rc);
    if (!user) {
        api__internal(c);
        return;
    }
    char username[33];
    slice_copy(slice_from(json_string_value(json_object_get(user, "username"))), username,
               sizeof username);
    int enabled = json_is_true(json_object_get(user, "mfaEnabled"));
    json_decref(user);
    if (enabled) {
        api__error(c, 409, "A verificação em duas etapas já está ativa");
        return;
    }
    struct store_login who;
    if (store_login_find(c->db, username, &who) != 1) {
        api__internal(c);
        return;
    }
    if (!who.mfa_secret[0]) {
        api__bad(c, "code", "comece a ativação em POST /api/users/@me/mfa/totp");
        return;
    }
    if (!api__mfa_accept(c, &who, code)) {
        api__bad(c, "code", "código inválido ou expirado");
        return;
    }
    /* On, with its recovery codes, shown this once. */
    json_t *codes =
        store_mfa_enable(c->svc->writer, c->me.user_id) < 0 ? NULL : api__mfa_new_recovery_codes(c);
    json_t *me = codes ? store_user_json(c->db, c->me.user_id, &rc) : NULL;
    if (!me) {
        json_decref(codes);
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{soso}", "user", me, "recoveryCodes", codes));
}

const struct api_route api_auth_routes[] = {
    API_ROUTE(POST, "/api/auth/register", auth_register, API_PUBLIC, .hashes = 1,
              .limit = &API_LIMIT_KEYED_APART),
    API_ROUTE(POST, "/api/auth/login", auth_login, API_PUBLIC, .hashes = 1,
              .limit = &API_LIMIT_KEYED_APART),
    API_ROUTE(GET, "/api/users/@me", api__me_reply, API_PERSON),
    API_ROUTE(PATCH, "/api/users/@me", users_me_patch, API_PERSON),
    API_ROUTE(POST, "/api/users/@me/mfa/totp", mfa_totp_start, API_PERSON),
    API_ROUTE(POST, "/api/users/@me/mfa/totp/verify", mfa_totp_verify, API_PERSON),
    API_ROUTE(POST, "/api/users/@me/mfa/recovery-codes", api__mfa_recovery_codes, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/mfa", api__mfa_off, API_PERSON),
    {0},
};
