/*
 * Data archives' rows (store/exports.h): one pending at a time per person, a pending one cut
 * short (older than an hour) no longer in the way and shown as failed, a ready one found by its
 * owner only, and archives gone after their week.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "store/db.h"
#include "store/exports.h"
#include "store/migrate.h"
#include "store/writer.h"
#include "test_database.h"

static struct test_database database;
static struct store *db;
static struct store_writer *w;

#define ANA  "00000000-0000-7000-8000-0000000000aa"
#define BIA  "00000000-0000-7000-8000-0000000000bb"
#define X1   "00000000-0000-7000-8000-000000000001"
#define SID  "00000000-0000-7000-8000-0000000000cc"
#define X2   "00000000-0000-7000-8000-000000000002"
#define X3   "00000000-0000-7000-8000-000000000003"
#define HOUR (3600LL * 1000)

static void setup(void)
{
    static const char *SQL_USER = "INSERT INTO users (id, username, display_name, is_bot,"
                                  " created_at) VALUES ($1, $1, $1, 0, 1)";
    test_database_create(&database, "exports");
    cr_assert_eq(store_open(database.target, &db), STORE_DONE);
    cr_assert_gt(store_migrate(db), 0);
    w = store_writer_new(database.target);
    cr_assert_not_null(w);
    cr_assert_eq(store__write_exec(w, SQL_USER, SV_ARGS(SV_STR(ANA)), NULL), STORE_DONE);
    cr_assert_eq(store__write_exec(w, SQL_USER, SV_ARGS(SV_STR(BIA)), NULL), STORE_DONE);
}

static void teardown(void)
{
    store_writer_free(w);
    store_close(db);
    test_database_remove(&database);
}

TestSuite(exports, .init = setup, .fini = teardown);

static const char *status_of(int64_t now, size_t i)
{
    static char out[16];
    json_t *list = store_exports_json(db, ANA, NULL, now);
    cr_assert_not_null(list);
    snprintf(out, sizeof out, "%s",
             json_string_value(json_object_get(json_array_get(list, i), "status")));
    json_decref(list);
    store_read_release(db);
    return out;
}

Test(exports, one_pending_at_a_time_until_it_is_stale)
{
    int64_t t0 = 100 * HOUR;
    struct store_export_start a = {X1, ANA, t0, NULL}, again = {X2, ANA, t0 + HOUR - 1, NULL};
    cr_assert_eq(store_export_start(w, &a), STORE_DONE);
    cr_assert_eq(store_export_start(w, &again), STORE_REFUSED, "one at a time");
    struct store_export_start other = {X3, BIA, t0, NULL};
    cr_assert_eq(store_export_start(w, &other), STORE_DONE, "per person");
    cr_assert_str_eq(status_of(t0 + HOUR - 1, 0), "pending");
    cr_assert_str_eq(status_of(t0 + HOUR, 0), "failed", "cut short: shown as failed");
    again.now = t0 + HOUR + 1;
    cr_assert_eq(store_export_start(w, &again), STORE_DONE, "and no longer in the way");
}

Test(exports, a_ready_archive_is_its_owners_for_a_week)
{
    int64_t t0 = 100 * HOUR;
    struct store_export_start a = {X1, ANA, t0, NULL};
    cr_assert_eq(store_export_start(w, &a), STORE_DONE);
    char hash[CRYPTO_SHA256_HEX + 1], blob[CRYPTO_SHA256_HEX + 1];
    memset(hash, 'a', CRYPTO_SHA256_HEX);
    hash[CRYPTO_SHA256_HEX] = '\0';
    int64_t size = 0;
    cr_assert_eq(store_export_blob(db, ANA, NULL, X1, blob, &size), 0, "not before it is ready");
    struct store_export_finish f = {X1, hash, 4096, t0 + 5};
    cr_assert_eq(store_export_finish(w, &f), STORE_DONE);
    cr_assert_eq(store_export_blob(db, ANA, NULL, X1, blob, &size), 1);
    cr_assert_str_eq(blob, hash);
    cr_assert_eq(size, 4096);
    cr_assert_eq(store_export_blob(db, BIA, NULL, X1, blob, &size), 0, "nobody else's");
    cr_assert_str_eq(status_of(t0 + 10, 0), "ready");
    store_read_release(db);
    int64_t deleted = -1;
    cr_assert_eq(store_exports_expire(db, t0 + STORE_EXPORT_KEPT_MS, &deleted), STORE_DONE);
    cr_assert_eq(deleted, 0, "kept for the whole week");
    cr_assert_eq(store_exports_expire(db, t0 + STORE_EXPORT_KEPT_MS + 1, &deleted), STORE_DONE);
    cr_assert_eq(deleted, 1);
}

Test(exports, a_server_s_archive_is_apart_from_the_person_s_data)
{
    static const char *SQL_SERVER = "INSERT INTO servers (id, name, owner_id, created_at)"
                                    " VALUES ($1, 'S', $2, 1)";
    cr_assert_eq(store__write_exec(w, SQL_SERVER, SV_ARGS(SV_STR(SID), SV_STR(ANA)), NULL),
                 STORE_DONE);
    int64_t t0 = 100 * HOUR;
    struct store_export_start server = {X1, ANA, t0, SID}, mine = {X2, ANA, t0, NULL};
    cr_assert_eq(store_export_start(w, &server), STORE_DONE);
    cr_assert_eq(store_export_start(w, &mine), STORE_REFUSED, "one archive at a time, of any kind");
    char hash[CRYPTO_SHA256_HEX + 1], blob[CRYPTO_SHA256_HEX + 1];
    memset(hash, 'b', CRYPTO_SHA256_HEX);
    hash[CRYPTO_SHA256_HEX] = '\0';
    struct store_export_finish f = {X1, hash, 10, t0 + 5};
    cr_assert_eq(store_export_finish(w, &f), STORE_DONE);
    json_t *theirs = store_exports_json(db, ANA, NULL, t0 + 10);
    json_t *the_servers = store_exports_json(db, ANA, SID, t0 + 10);
    cr_assert_eq(json_array_size(theirs), 0, "not among the person's own");
    cr_assert_eq(json_array_size(the_servers), 1);
    json_decref(theirs);
    json_decref(the_servers);
    int64_t size;
    cr_assert_eq(store_export_blob(db, ANA, NULL, X1, blob, &size), 0);
    cr_assert_eq(store_export_blob(db, ANA, SID, X1, blob, &size), 1);
    cr_assert_str_eq(blob, hash);
    store_read_release(db);
}
