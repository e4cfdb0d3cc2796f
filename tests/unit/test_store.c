/* The SQL layer: $N binding, the statement cache, migrations, constraints, group commit. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store/apps.h"
#include "store/perm_channels.h"
#include "store/installs.h"
#include "store/db.h"
#include "store/event_push.h"
#include "store/fields.h"
#include "test_database.h"
#include "store/migrate.h"
#include "store/rows.h"
#include "store/snapshot.h"
#include "store/writer.h"

static struct test_database database;
static struct store *db;

static void setup(void)
{
    test_database_create(&database, "store");
    cr_assert_eq(store_open(database.target, &db), STORE_DONE);
    cr_assert_gt(store_migrate(db), 0);
}

static void teardown(void)
{
    store_close(db);
    test_database_remove(&database);
}

TestSuite(store, .init = setup, .fini = teardown);

/* Criterion ends a skipped test without its .fini: the database goes with it here. */
#define skip_test(why)                                                                             \
    do {                                                                                           \
        teardown();                                                                                \
        cr_skip_test(why);                                                                         \
    } while (0)

static const char *SQL_INSERT =
    "INSERT INTO users (id, username, display_name, created_at) VALUES ($1, $2, $3, $4)";
static const char *SQL_BY_NAME =
    "SELECT id, display_name, created_at FROM users WHERE username = $1";

Test(store, migrations_run_once)
{
    cr_assert_eq(store_migrate(db), 0);
}

Test(store, binds_by_number_whatever_the_order)
{
    static const char *SQL = "SELECT $2 || '-' || $1, $3 + 1, $4 IS NULL";
    struct store_stmt *st =
        store__query(db, SQL, SV_ARGS(SV_STR("a"), SV_STR("b"), SV_INT(41), SV_NULLV));
    cr_assert_not_null(st);
    cr_assert_eq(store__step(st), STORE_ROW);
    cr_assert_str_eq(store__text(st, 0), "b-a");
    cr_assert_eq(store__int(st, 1), 42);
    cr_assert_eq(store__int(st, 2), 1);
    store__finish(st);
}

/* A row read by a table of fields: text copied or "" (NULL, or too long for its field), each
 * integer at its field's width, the struct zeroed first; no row leaves it zeroed. */
struct field_row {
    char name[8];
    int flag;
    uint32_t bits;
    int64_t big;
    char cut[4];
    char absent[8];
};

Test(store, a_row_is_read_by_its_fields)
{
    static const struct store_field FIELDS[] = {
        STORE_FIELD_TEXT(struct field_row, name), STORE_FIELD_INT(struct field_row, flag),
        STORE_FIELD_INT(struct field_row, bits),  STORE_FIELD_INT(struct field_row, big),
        STORE_FIELD_TEXT(struct field_row, cut),  STORE_FIELD_TEXT(struct field_row, absent),
    };
    static const char *SQL = "SELECT $1, 1, 4294967295, 9007199254740993, 'longo', NULL";
    struct field_row r;
    memset(&r, 0x55, sizeof r);
    cr_assert_eq(store__row_fields(db, SQL, "ana", STORE_FIELDS(FIELDS), &r, sizeof r), 1);
    cr_assert_str_eq(r.name, "ana");
    cr_assert_eq(r.flag, 1);
    cr_assert_eq(r.bits, UINT32_MAX);
    cr_assert_eq(r.big, INT64_C(9007199254740993));
    cr_assert_str_eq(r.cut, "", "too long for its field");
    cr_assert_str_eq(r.absent, "", "NULL");
    static const char *NONE = "SELECT $1, 1, 2, 3, 'x', 'y' WHERE 1 = 0";
    memset(&r, 0x55, sizeof r);
    cr_assert_eq(store__row_fields(db, NONE, "ana", STORE_FIELDS(FIELDS), &r, sizeof r), 0);
    cr_assert_eq(r.flag, 0, "zeroed");
    cr_assert_str_eq(r.name, "");
}

/* Channels as the permission checks read them: each row with its own overwrites whatever order
 * the database gives them in, a category's from its own table, threads left out of a server's
 * list but found alone, and an ID not there found nowhere. */
Test(store, perm_channels_carry_their_own_overwrites)
{
    static const char *const SETUP[] = {
        "INSERT INTO users (id, username, display_name, created_at) VALUES ('u', 'u', 'U', 1)",
        "INSERT INTO servers (id, name, owner_id, created_at) VALUES ('s', 's', 'u', 1)",
        "INSERT INTO servers (id, name, owner_id, created_at) VALUES ('t', 't', 'u', 1)",
        "INSERT INTO categories (id, server_id, name, position, created_at)"
        " VALUES ('k', 's', 'k', 0, 1)",
        "INSERT INTO channels (id, server_id, type, name, created_at, category_id)"
        " VALUES ('c2', 's', 'text', 'b', 1, 'k')",
        "INSERT INTO channels (id, server_id, type, name, created_at)"
        " VALUES ('c1', 's', 'voice', 'a', 1)",
        "INSERT INTO channels (id, server_id, type, name, created_at, parent_id)"
        " VALUES ('th', 's', 'thread', 'fio', 1, 'c2')",
        "INSERT INTO channels (id, server_id, type, name, created_at)"
        " VALUES ('x', 't', 'text', 'outro', 1)",
        "INSERT INTO overwrites (channel_id, target_id, type, allow, deny)"
        " VALUES ('c2', 'u', 'member', 1, 2)",
        "INSERT INTO overwrites (channel_id, target_id, type, allow, deny)"
        " VALUES ('c1', 's', 'role', 0, 1024)",
        "INSERT INTO overwrites (channel_id, target_id, type, allow, deny)"
        " VALUES ('c2', 'r', 'role', 4, 8)",
        "INSERT INTO overwrites (channel_id, target_id, type, allow, deny)"
        " VALUES ('x', 's', 'role', 0, 1024)",
        "INSERT INTO category_overwrites (category_id, target_id, type, allow, deny)"
        " VALUES ('k', 's', 'role', 16, 0)",
    };
    for (size_t i = 0; i < sizeof SETUP / sizeof *SETUP; i++)
        cr_assert_eq(store__exec(db, SETUP[i], NULL, 0), STORE_DONE, "%s", SETUP[i]);
    struct store_perm_channels rows;
    cr_assert_eq(store_perm_channels_of_server(db, "s", &rows), STORE_DONE);
    cr_assert_eq(rows.n, 3, "two channels and a category; the thread and server t's aside");
    cr_assert_null(store_perm_channels_find(&rows, "th"));
    cr_assert_null(store_perm_channels_find(&rows, "x"));
    const struct store_perm_channel *c1 = store_perm_channels_find(&rows, "c1");
    const struct store_perm_channel *c2 = store_perm_channels_find(&rows, "c2");
    const struct store_perm_channel *cat = store_perm_channels_find(&rows, "k");
    cr_assert(c1 && c2 && cat);
    cr_assert_str_eq(c1->type, "voice");
    cr_assert_str_eq(c1->parent_id, "");
    cr_assert_eq(c1->noverwrites, 1);
    cr_assert_eq(c1->overwrites[0].deny, 1024);
    cr_assert_str_eq(c2->parent_id, "k");
    cr_assert_eq(c2->noverwrites, 2);
    cr_assert_str_eq(c2->overwrites[0].target_id, "r");
    cr_assert_eq(c2->overwrites[0].is_member, 0);
    cr_assert_eq(c2->overwrites[0].allow, 4);
    cr_assert_str_eq(c2->overwrites[1].target_id, "u");
    cr_assert_eq(c2->overwrites[1].is_member, 1);
    cr_assert_eq(c2->overwrites[1].deny, 2);
    cr_assert_str_eq(cat->type, "category");
    cr_assert_str_eq(cat->server_id, "s");
    cr_assert_eq(cat->noverwrites, 1);
    cr_assert_eq(cat->overwrites[0].allow, 16);
    store_perm_channels_cleanup(&rows);
    cr_assert_eq(store_perm_channel_read(db, "th", &rows), 1);
    cr_assert_str_eq(rows.list[0].type, "thread");
    cr_assert_str_eq(rows.list[0].parent_id, "c2");
    cr_assert_eq(rows.list[0].noverwrites, 0);
    store_perm_channels_cleanup(&rows);
    cr_assert_eq(store_perm_channel_read(db, "k", &rows), 1);
    cr_assert_eq(rows.list[0].noverwrites, 1);
    store_perm_channels_cleanup(&rows);
    cr_assert_eq(store_perm_channel_read(db, "nada", &rows), 0);
    cr_assert_eq(rows.n, 0);
    store_perm_channels_cleanup(&rows);
}

/* A batch delivered moves the pushed cursor even when the owner paused, resumed or took the
 * lease away meanwhile (the pusher then reads again); only a replay since it was read wins. */
static int64_t push_cursor(void)
{
    return store__number(db, "SELECT events_cursor FROM applications WHERE id = $1", "app");
}

Test(store, a_delivered_batch_moves_the_cursor_unless_replayed_since)
{
    cr_assert_eq(store__exec(db, SQL_INSERT,
                             SV_ARGS(SV_STR("dono"), SV_STR("dono"), SV_STR("Dono"), SV_INT(1))),
                 STORE_DONE);
    cr_assert_eq(store__exec(db, SQL_INSERT,
                             SV_ARGS(SV_STR("robo"), SV_STR("robo"), SV_STR("Robô"), SV_INT(1))),
                 STORE_DONE);
    cr_assert_eq(store__exec(db,
                             "INSERT INTO applications (id, owner_id, bot_user_id, name, client_id,"
                             " signing_secret, events_endpoint_url, created_at, updated_at)"
                             " VALUES ('app', 'dono', 'robo', 'App', $1, 's', 'http://x/', 1, 1)",
                             SV_ARGS(SV_STR("0123456789abcdef0123456789abcdef"))),
                 STORE_DONE);
    struct store_writer *w = store_writer_new(database.target);
    cr_assert_not_null(w);
    struct store_push p = {.app_id = "app", .node = "n1", .now = 1, .lease_until = 100000};
    cr_assert_eq(store_push_claim(w, &p), 1);
    struct store_push_attempt a = {.app_id = "app",
                                   .node = "n1",
                                   .generation = p.generation,
                                   .replays = p.replays,
                                   .first = 1,
                                   .last = 5,
                                   .events = 5,
                                   .status = 200,
                                   .now = 2,
                                   .delivered = 1};
    cr_assert_eq(store_push_record(w, &a), 1, "held as read: go on");
    cr_assert_eq(push_cursor(), 5);

    cr_assert_eq(store_push_set_paused(w, "app", 1), STORE_DONE);
    a.first = 6, a.last = 8;
    cr_assert_eq(store_push_record(w, &a), 0, "the owner changed something: read again");
    cr_assert_eq(push_cursor(), 8, "but what was delivered stays delivered");
    cr_assert_eq(store_push_set_paused(w, "app", 0), STORE_DONE);

    cr_assert_eq(store_push_claim(w, &p), 1);
    cr_assert_eq(p.cursor, 8, "the pusher goes on after it");
    a.generation = p.generation, a.replays = p.replays, a.first = 9, a.last = 12;
    cr_assert_eq(store_push_replay(w, "app", 3), STORE_DONE);
    cr_assert_eq(store_push_record(w, &a), 0);
    cr_assert_eq(push_cursor(), 3, "the replay asked since wins");
    a.delivered = 0, a.status = 500, a.replays = p.replays + 1;
    cr_assert_eq(store_push_record(w, &a), 0);
    cr_assert_eq(push_cursor(), 3, "a failure moves nothing");
    store_writer_free(w);
}

Test(store, insert_read_and_unique_constraint)
{
    cr_assert_eq(
        store__exec(db, SQL_INSERT, SV_ARGS(SV_STR("u1"), SV_STR("ana"), SV_STR("Ana"), SV_INT(5))),
        STORE_DONE);
    cr_assert_eq(
        store__exec(db, SQL_INSERT, SV_ARGS(SV_STR("u2"), SV_STR("ana"), SV_STR("X"), SV_INT(6))),
        STORE_CONSTRAINT);
    static const struct store_col cols[] = {
        {"id", COL_TEXT}, {"displayName", COL_TEXT}, {"createdAt", COL_TIME}};
    int rc;
    json_t *o = store__get_json(db, SQL_BY_NAME, SV_ARGS(SV_STR("ana")), STORE_COLS(cols), &rc);
    cr_assert_eq(rc, STORE_ROW);
    cr_assert_str_eq(json_string_value(json_object_get(o, "displayName")), "Ana");
    cr_assert_str_eq(json_string_value(json_object_get(o, "createdAt")),
                     "1970-01-01T00:00:00.005Z");
    json_decref(o);
    o = store__get_json(db, SQL_BY_NAME, SV_ARGS(SV_STR("nobody")), STORE_COLS(cols), &rc);
    cr_assert_null(o);
    cr_assert_eq(rc, STORE_DONE);
}

Test(store, hostile_text_is_only_data)
{
    const char *evil = "x'); DROP TABLE users; --";
    cr_assert_eq(
        store__exec(db, SQL_INSERT, SV_ARGS(SV_STR("u3"), SV_STR(evil), SV_STR(evil), SV_INT(1))),
        STORE_DONE);
    struct store_stmt *st = store__query(db, SQL_BY_NAME, SV_ARGS(SV_STR(evil)));
    cr_assert_eq(store__step(st), STORE_ROW);
    cr_assert_str_eq(store__text(st, 1), evil);
    store__finish(st);
}

Test(store, foreign_keys_are_on)
{
    static const char *SQL =
        "INSERT INTO tokens (hash, user_id, kind, created_at) VALUES ('h', 'ghost', 'session', 1)";
    cr_assert_eq(store__exec(db, SQL, NULL, 0), STORE_CONSTRAINT);
}

static int insert_fn(struct store *w, void *arg)
{
    const char *name = arg;
    return store__exec(w, SQL_INSERT, SV_ARGS(SV_STR(name), SV_STR(name), SV_STR(name), SV_INT(1)));
}

static int failing_fn(struct store *w, void *arg)
{
    (void)arg;
    store__exec(w, SQL_INSERT, SV_ARGS(SV_STR("half"), SV_STR("half"), SV_STR("h"), SV_INT(1)));
    return -7; /* rolled back alone */
}

struct thread_arg {
    struct store_writer *w;
    int index;
    int rc;
};

static void *writer_thread(void *p)
{
    struct thread_arg *a = p;
    char name[32];
    snprintf(name, sizeof name, "user%d", a->index);
    a->rc = store_write(a->w, a->index == 3 ? failing_fn : insert_fn, a->index == 3 ? NULL : name);
    return NULL;
}

Test(store, writer_commits_groups_and_isolates_failures)
{
    struct store_writer *w = store_writer_new(database.target);
    cr_assert_not_null(w);
    pthread_t t[16];
    struct thread_arg args[16];
    for (int i = 0; i < 16; i++) {
        args[i] = (struct thread_arg){w, i, 99};
        pthread_create(&t[i], NULL, writer_thread, &args[i]);
    }
    for (int i = 0; i < 16; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 16; i++)
        cr_assert_eq(args[i].rc, i == 3 ? -7 : STORE_DONE, "writer %d got %d", i, args[i].rc);
    store_writer_free(w);
    /* Committed and visible to another connection; the failed write left nothing. */
    int64_t n = 0;
    struct store_stmt *st = store__query(
        db, "SELECT count(*), sum(CASE WHEN username = 'half' THEN 1 ELSE 0 END) FROM users", NULL,
        0);
    cr_assert_eq(store__step(st), STORE_ROW);
    n = store__int(st, 0);
    cr_assert_eq(store__int(st, 1), 0);
    store__finish(st);
    cr_assert_eq(n, 15);
}

Test(store, write_exec_reports_changes)
{
    struct store_writer *w = store_writer_new(database.target);
    int64_t changes = -1;
    cr_assert_eq(store__write_exec(w, SQL_INSERT,
                                   SV_ARGS(SV_STR("a"), SV_STR("a"), SV_STR("a"), SV_INT(1)),
                                   &changes),
                 STORE_DONE);
    cr_assert_eq(changes, 1);
    static const char *SQL_DEL = "DELETE FROM users WHERE username = $1";
    cr_assert_eq(store__write_exec(w, SQL_DEL, SV_ARGS(SV_STR("zzz")), &changes), STORE_DONE);
    cr_assert_eq(changes, 0);
    store_writer_free(w);
}

static int64_t count_users(struct store *s)
{
    struct store_stmt *st = store__query(s, "SELECT count(*) FROM users", NULL, 0);
    cr_assert_eq(store__step(st), STORE_ROW);
    int64_t n = store__int(st, 0);
    store__finish(st);
    return n;
}

Test(store, batched_reads_share_a_snapshot_until_released_or_written)
{
    if (database.pg_name[0])
        skip_test("SQLite's read transactions: each PostgreSQL statement has its own snapshot");
    struct store *other;
    cr_assert_eq(store_open(database.target, &other), STORE_DONE);
    store_read_batching(db, 1);
    cr_assert_eq(count_users(db), 0);
    cr_assert_eq(
        store__exec(other, SQL_INSERT, SV_ARGS(SV_STR("o1"), SV_STR("o1"), SV_STR("o"), SV_INT(1))),
        STORE_DONE);
    cr_assert_eq(count_users(db), 0, "one snapshot for the whole request");
    store_read_release(db);
    cr_assert_eq(count_users(db), 1);
    /* A write through the writer ends this thread's snapshot: the next read sees it. */
    struct store_writer *w = store_writer_new(database.target);
    cr_assert_eq(store__write_exec(w, SQL_INSERT,
                                   SV_ARGS(SV_STR("o2"), SV_STR("o2"), SV_STR("o"), SV_INT(1)),
                                   NULL),
                 STORE_DONE);
    cr_assert_eq(count_users(db), 2);
    store_writer_free(w);
    store_read_batching(db, 0);
    store_close(other);
}

Test(store, expired_consent_sessions_are_deleted_and_no_others)
{
    static const char *SQL_APP =
        "INSERT INTO applications (id, owner_id, name, client_id, created_at, updated_at)"
        " VALUES ('app', 'u1', 'App', 'c1', 1, 1)";
    static const char *SQL_SESSION =
        "INSERT INTO authorize_sessions (id, application_id, user_id, redirect_uri,"
        " requested_permissions, expires_at, created_at) VALUES ($1, 'app', 'u1', 'https://x', 0,"
        " $2, 0)";
    cr_assert_eq(
        store__exec(db, SQL_INSERT, SV_ARGS(SV_STR("u1"), SV_STR("ana"), SV_STR("Ana"), SV_INT(1))),
        STORE_DONE);
    cr_assert_eq(store__exec_script(db, SQL_APP), STORE_DONE);
    const char *ids[] = {"old", "recent", "live"};
    int64_t expires[] = {1000, 5000, 9000};
    for (int i = 0; i < 3; i++)
        cr_assert_eq(store__exec(db, SQL_SESSION, SV_ARGS(SV_STR(ids[i]), SV_INT(expires[i]))),
                     STORE_DONE);
    int64_t deleted = -1;
    cr_assert_eq(store_authorize_expire(db, 5000, &deleted), STORE_DONE);
    cr_assert_eq(deleted, 1);
    struct store_stmt *st =
        store__query(db, "SELECT id FROM authorize_sessions ORDER BY expires_at", NULL, 0);
    cr_assert_eq(store__step(st), STORE_ROW);
    cr_assert_str_eq(store__text(st, 0), "recent");
    cr_assert_eq(store__step(st), STORE_ROW);
    cr_assert_str_eq(store__text(st, 0), "live");
    cr_assert_eq(store__step(st), STORE_DONE);
    store__finish(st);
}

Test(store, sync_full_flushes_every_commit_on_sqlite)
{
    if (database.pg_name[0])
        skip_test("PostgreSQL follows its own synchronous_commit");
    struct store_stmt *st = store__query(db, "PRAGMA synchronous", NULL, 0);
    cr_assert_eq(store__step(st), STORE_ROW);
    cr_assert_eq(store__int(st, 0), 1, "NORMAL by default");
    store__finish(st);
    cr_assert_eq(store__sync_full(db), STORE_DONE);
    st = store__query(db, "PRAGMA synchronous", NULL, 0);
    cr_assert_eq(store__step(st), STORE_ROW);
    cr_assert_eq(store__int(st, 0), 2, "FULL");
    store__finish(st);
}

/* The writer's connection commits n rows of 4 KB, one per transaction (about three pages of
 * the -wal each). */
static void commit_rows(int n)
{
    cr_assert_eq(store__exec_script(db, "CREATE TABLE IF NOT EXISTS filler (b BLOB)"), STORE_DONE);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(store__begin_write(db), STORE_DONE);
        cr_assert_eq(store__exec(db, "INSERT INTO filler VALUES (randomblob(4000))", NULL, 0),
                     STORE_DONE);
        cr_assert_eq(store__commit(db), STORE_DONE);
    }
}

static long wal_bytes(void)
{
    char path[sizeof database.target + 8];
    snprintf(path, sizeof path, "%s-wal", database.target);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static uint64_t checkpoints(int *busy)
{
    struct store_checkpoints c;
    store__checkpoints(db, &c);
    *busy = c.busy;
    return c.runs;
}

/* Until the checkpoints' thread has run more than `since` times and has nothing left to do. */
static void checkpoints_settle(uint64_t since)
{
    int busy = 1;
    for (int waited = 0; (checkpoints(&busy) == since || busy) && waited < 30000; waited += 10)
        usleep(10 * 1000);
    cr_assert_gt(checkpoints(&busy), since, "no checkpoint ran");
    cr_assert_eq(busy, 0, "the checkpoints' thread is still busy");
}

/* Past 1,000 pages in the -wal the writer's connection has a checkpoint run on its own thread;
 * once it caught up, the next commit writes the -wal again from its start instead of growing
 * it. */
Test(store, sqlite_checkpoints_run_beside_the_writer)
{
    if (database.pg_name[0])
        skip_test("PostgreSQL has no -wal of ours");
    cr_assert_eq(store__changes_begin(db), STORE_DONE); /* the writer's connection */
    commit_rows(1500);
    checkpoints_settle(0);
    long first = wal_bytes();
    cr_assert_gt(first, 3000L * 4096);
    for (int round = 0; round < 3; round++) {
        int busy;
        uint64_t before = checkpoints(&busy);
        commit_rows(700); /* fewer pages than the first time, still past 1,000 */
        checkpoints_settle(before);
    }
    cr_assert_eq(wal_bytes(), first, "the -wal grew from %ld to %ld bytes", first, wal_bytes());
}

/* With the checkpoints' thread held back, the writer does not checkpoint at 1,000 pages
 * itself: its commits never wait on one. */
Test(store, sqlite_writer_leaves_checkpoints_to_their_thread)
{
    if (database.pg_name[0])
        skip_test("PostgreSQL has no -wal of ours");
    setenv("PRACA_FAULT_CHECKPOINTS_OFF", "1", 1);
    int rc = store__changes_begin(db);
    unsetenv("PRACA_FAULT_CHECKPOINTS_OFF");
    cr_assert_eq(rc, STORE_DONE);
    commit_rows(1000); /* about 3,000 pages */
    int busy;
    cr_assert_eq(checkpoints(&busy), 0);
    cr_assert_geq(wal_bytes(), 2500L * 4096, "the -wal holds %ld bytes", wal_bytes());
}
