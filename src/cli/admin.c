/*
 * praca admin: suspend and unsuspend applications, list applications and people, revoke a
 * person's sessions, turn a person's two-factor off, make a one-time link to set a new password,
 * and read and settle the reports of DMs (admin_reports.c).
 * Changes reach a running server within a second (it watches the file).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/config.h"
#include "core/buf.h"
#include "store/admin.h"
#include "store/apps.h"
#include "store/migrate.h"
#include "store/password_resets.h"
#include "core/clock.h"
#include "core/crypto.h"

#define LIST_DEFAULT 50

static const char USAGE[] = "usage: praca admin suspend <appId> --reason <text>\n"
                            "       praca admin unsuspend <appId>\n"
                            "       praca admin apps [--limit N]\n"
                            "       praca admin people [--limit N]\n"
                            "       praca admin revoke-sessions <userId|username>\n"
                            "       praca admin reset-mfa <userId|username>\n"
                            "       praca admin reset-password <userId|username>\n"
                            "       praca admin reports [--all]\n"
                            "       praca admin reports resolve|dismiss|reopen <id> [--note TEXT]\n"
                            "       praca admin vapid [--rotate]\n";

struct store *cli_open_store(const struct config *cfg)
{
    struct store *db;
    if (store_open(config_store_target(cfg), &db) != STORE_DONE)
        return NULL;
    if (store_migrate(db) < 0) {
        store_close(db);
        return NULL;
    }
    return db;
}

const char *cli_option(char **words, int n, int *i, const char *name)
{
    size_t len = strlen(name);
    if (!strcmp(words[*i], name) && *i + 1 < n)
        return words[++*i];
    if (!strncmp(words[*i], name, len) && words[*i][len] == '=')
        return words[*i] + len + 1;
    return NULL;
}

static int suspension(const struct config *cfg, char **words, int n, int suspend)
{
    const char *reason = NULL;
    for (int i = 2; i < n; i++) {
        if (!(reason = cli_option(words, n, &i, "--reason"))) {
            fprintf(stderr, "praca admin: unexpected argument '%s'\n%s", words[i], USAGE);
            return 2;
        }
    }
    if (n < 2 || (suspend && (!reason || !*reason)) || (!suspend && reason)) {
        fputs(USAGE, stderr);
        return 2;
    }
    struct store *db = cli_open_store(cfg);
    int64_t changes = 0;
    int rc = db ? store_app_suspend(db, words[1], suspend, reason, &changes) : STORE_ERR;
    store_close(db);
    if (rc != STORE_DONE)
        return 1;
    if (changes != 1) {
        fprintf(stderr, "praca admin: no application %s\n", words[1]);
        return 1;
    }
    printf("application %s %s\n", words[1], suspend ? "suspended" : "unsuspended");
    return 0;
}

static const char *text(json_t *row, const char *key)
{
    const char *v = json_string_value(json_object_get(row, key));
    return v ? v : "";
}

static long long number(json_t *row, const char *key)
{
    return (long long)json_integer_value(json_object_get(row, key));
}

static void print_apps(json_t *rows)
{
    printf("%-36s  %-24s  %-20s  %-24s  %8s  %s\n", "ID", "NAME", "OWNER", "CREATED", "INSTALLS",
           "STATE");
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r)
    {
        printf("%-36s  %-24.24s  %-20s  %-24s  %8lld  %s\n", text(r, "id"), text(r, "name"),
               text(r, "owner"), text(r, "createdAt"), number(r, "installs"),
               json_is_true(json_object_get(r, "suspended")) ? "suspended" : "active");
    }
}

static void print_people(json_t *rows)
{
    printf("%-36s  %-32s  %-24s  %8s  %s\n", "ID", "USERNAME", "CREATED", "SESSIONS", "2FA");
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r)
    {
        printf("%-36s  %-32s  %-24s  %8lld  %s\n", text(r, "id"), text(r, "username"),
               text(r, "createdAt"), number(r, "sessions"),
               json_is_true(json_object_get(r, "mfaEnabled")) ? "yes" : "no");
    }
}

static int listing(const struct config *cfg, char **words, int n, int apps)
{
    long long limit = LIST_DEFAULT;
    for (int i = 1; i < n; i++) {
        const char *v = cli_option(words, n, &i, "--limit");
        if (!v || slice_to_i64(slice_from(v), 1, 1000000, &limit)) {
            fputs(USAGE, stderr);
            return 2;
        }
    }
    struct store *db = cli_open_store(cfg);
    json_t *rows = !db ? NULL : apps ? store_admin_apps(db, limit) : store_admin_people(db, limit);
    store_close(db);
    if (!rows)
        return 1;
    if (apps)
        print_apps(rows);
    else
        print_people(rows);
    json_decref(rows);
    return 0;
}

/* The exit status of a command about a person who was not found (0) or could not be (< 0). */
static int not_found(int found, const char *who)
{
    if (found == 0)
        fprintf(stderr, "praca admin: no person %s\n", who);
    return 1;
}

static int revoke(const struct config *cfg, char **words, int n)
{
    if (n != 2) {
        fputs(USAGE, stderr);
        return 2;
    }
    struct store *db = cli_open_store(cfg);
    int64_t revoked = 0;
    int found = db ? store_admin_revoke_sessions(db, words[1], &revoked) : STORE_ERR;
    store_close(db);
    if (found != 1)
        return not_found(found, words[1]);
    printf("%lld sessions of %s revoked\n", (long long)revoked, words[1]);
    return 0;
}

/* A person who lost their authenticator and their recovery codes signs in with the password
 * again (and may turn two-factor on anew). */
static int reset_mfa(const struct config *cfg, char **words, int n)
{
    if (n != 2) {
        fputs(USAGE, stderr);
        return 2;
    }
    struct store *db = cli_open_store(cfg);
    int found = db ? store_admin_reset_mfa(db, words[1]) : STORE_ERR;
    store_close(db);
    if (found != 1)
        return not_found(found, words[1]);
    printf("two-factor of %s turned off; their recovery codes are gone\n", words[1]);
    return 0;
}

/* Someone who forgot their password (Praça has no e-mail unless configured): a link, good once
 * and for an hour, that the operator hands over however they reach that person. */
static int reset_password(const struct config *cfg, char **words, int n)
{
    if (n != 2) {
        fputs(USAGE, stderr);
        return 2;
    }
    char token[CRYPTO_TOKEN_LEN + 1], hash[CRYPTO_SHA256_HEX + 1];
    crypto_token(token);
    crypto_sha256_hex(token, strlen(token), hash);
    struct store *db = cli_open_store(cfg);
    int found =
        db ? store_password_reset_make(db, words[1], hash, clock_now_ms() + STORE_RESET_VALID_MS)
           : STORE_ERR;
    store_close(db);
    if (found != 1)
        return not_found(found, words[1]);
    if (cfg->site_url[0])
        printf("%s/reset#token=%s\n", cfg->site_url, token);
    else
        printf("http://%s:%d/reset#token=%s\n", cfg->host, cfg->port, token);
    fprintf(stderr, "valid once, for one hour; it ends every session of %s when used\n", words[1]);
    return 0;
}

int cli_admin(const struct config *cfg, char **words, int n)
{
    const char *what = n > 0 ? words[0] : "";
    if (!strcmp(what, "suspend") || !strcmp(what, "unsuspend"))
        return suspension(cfg, words, n, !strcmp(what, "suspend"));
    if (!strcmp(what, "apps") || !strcmp(what, "people"))
        return listing(cfg, words, n, !strcmp(what, "apps"));
    if (!strcmp(what, "revoke-sessions"))
        return revoke(cfg, words, n);
    if (!strcmp(what, "reset-password"))
        return reset_password(cfg, words, n);
    if (!strcmp(what, "reset-mfa"))
        return reset_mfa(cfg, words, n);
    if (!strcmp(what, "reports"))
        return cli_admin_reports(cfg, words, n);
    if (!strcmp(what, "vapid") && (n == 1 || (n == 2 && !strcmp(words[1], "--rotate"))))
        return cli_admin_vapid(cfg, n == 2);
    fputs(USAGE, stderr);
    return 2;
}
