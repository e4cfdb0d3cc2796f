/* The event log: positions in order, reading after a position, trimming from the front without
 * ever letting positions start over. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store/db.h"
#include "test_database.h"
#include "store/event_log.h"
#include "store/migrate.h"
#include "store/write_batch.h"

static struct test_database database;
static struct store *db;

static void setup(void)
{
    test_database_create(&database, "evlog");
    cr_assert_eq(store_open(database.target, &db), STORE_DONE);
    cr_assert_gt(store_migrate(db), 0);
    cr_assert_eq(store__write_batch_new(db), STORE_DONE); /* appends as the writer does */
}

static void teardown(void)
{
    store_close(db);
    test_database_remove(&database);
}

TestSuite(event_log, .init = setup, .fini = teardown);

/* Appends one event and commits it: where positions are given at commit (PostgreSQL), inside a
 * transaction of its own, as the writer does. */
static int append_committed(const struct store_event *e, uint64_t *position)
{
    if (!store__positions_at_commit(db))
        return store_event_append(db, e, position);
    int rc = store__exec(db, store__sql_begin_write(db), NULL, 0);
    if (rc == STORE_DONE)
        rc = store_event_append(db, e, position);
    if (rc == STORE_DONE)
        rc = store__events_flush(db);
    if (rc == STORE_DONE)
        rc = store__exec(db, "COMMIT", NULL, 0);
    else
        store__exec(db, "ROLLBACK", NULL, 0);
    return rc;
}

/* A MESSAGE_CREATE about message_id (NULL: about none its header names). */
static uint64_t append_about(const char *payload, int64_t at, const char *message_id)
{
    struct store_event e = {"MESSAGE_CREATE", "s1", "c1", 1, NULL, payload,
                            strlen(payload),  at,   0,    0, 0,    message_id};
    uint64_t position = 0;
    cr_assert_eq(append_committed(&e, &position), STORE_DONE);
    return position;
}

static uint64_t append(const char *payload, int64_t at)
{
    return append_about(payload, at, NULL);
}

static void collect(void *arg, const struct store_event *e)
{
    char *out = arg;
    strncat(out, e->payload, 64);
}

static uint64_t seqs[8];
static size_t nseqs;

static void collect_seq(void *arg, const struct store_event *e)
{
    (void)arg;
    if (nseqs < 8)
        seqs[nseqs++] = e->seq;
}

Test(event_log, each_server_numbers_its_events_without_gaps_even_after_a_trim)
{
    static const char *streams[] = {"s1", "s2", "s1", "s1", "s2"};
    for (size_t i = 0; i < 5; i++) {
        struct store_event e = {"E", streams[i],        NULL, 0, NULL, "{}",
                                2,   1000 + (int64_t)i, 0,    0, 0,    NULL};
        uint64_t position;
        cr_assert_eq(append_committed(&e, &position), STORE_DONE);
    }
    struct store_event to_user = {"E", NULL, NULL, 0, "u1", "{}", 2, 2000, 0, 0, 0, NULL};
    uint64_t position;
    cr_assert_eq(append_committed(&to_user, &position), STORE_DONE);
    nseqs = 0;
    store_events_after(db, 0, 8, collect_seq, NULL);
    uint64_t want[] = {1, 1, 2, 3, 2, 0};
    cr_assert_eq(nseqs, 6);
    for (size_t i = 0; i < 6; i++)
        cr_assert_eq(seqs[i], want[i], "event %zu", i);
    int64_t deleted;
    cr_assert_eq(store_events_trim(db, 99999, &deleted), STORE_DONE);
    struct store_event again = {"E", "s1", NULL, 0, NULL, "{}", 2, 3000, 0, 0, 0, NULL};
    cr_assert_eq(append_committed(&again, &position), STORE_DONE);
    nseqs = 0;
    store_events_after(db, position - 1, 8, collect_seq, NULL);
    cr_assert_eq(seqs[0], 4, "s1 goes on after its trimmed events");
}

Test(event_log, positions_grow_and_survive_a_full_trim)
{
    /* Payloads are JSON: PostgreSQL receives the batch as one JSON array. */
    uint64_t a = append("1", 1000), b = append("2", 2000), c = append("3", 3000);
    cr_assert(a < b && b < c);
    char seen[64] = "";
    cr_assert_eq(store_events_after(db, a, 10, collect, seen), 2);
    cr_assert_str_eq(seen, "23");
    int64_t deleted;
    cr_assert_eq(store_events_trim(db, 2500, &deleted), STORE_DONE);
    cr_assert_eq(deleted, 2, "a and b are older than the window");
    uint64_t first, last;
    cr_assert_eq(store_events_bounds(db, &first, &last), STORE_DONE);
    cr_assert_eq(first, c);
    cr_assert_eq(store_events_trim(db, 99999, &deleted), STORE_DONE);
    cr_assert_eq(deleted, 0, "the newest row stays, whatever its age");
    uint64_t d = append("4", 4000);
    cr_assert_gt(d, c, "positions never start over");
    seen[0] = '\0';
    cr_assert_eq(store_events_after(db, 0, 1, collect, seen), 1, "limit");
    cr_assert_str_eq(seen, "3");
}

static char replayed[4096];
static int replayed_redacted;

static void keep_replay(void *arg, const struct store_event *e)
{
    (void)arg;
    snprintf(replayed, sizeof replayed, "%.*s", (int)e->len, e->payload);
    replayed_redacted = e->redacted;
}

/* A server's MESSAGE_CREATE is logged by reference: its row holds no copy of the message, and a
 * replay reads the message as it is then (edited text; nothing once it is deleted). */
Test(event_log, a_message_event_is_kept_by_reference_and_replayed_as_the_message_is_now)
{
    static const char *MID = "01a1fe3b-0000-7000-8000-0000000000aa";
    const char *setup_sql[] = {
        "INSERT INTO users (id, username, display_name, is_bot, created_at) VALUES ('u1', 'u1', "
        "'u1', 0, 1)",
        "INSERT INTO servers (id, name, owner_id, created_at) VALUES ('s1', 's', 'u1', 1)",
        "INSERT INTO channels (id, server_id, type, name, created_at) VALUES ('c1', 's1', 'text', "
        "'geral', 1)",
        "INSERT INTO messages (id, channel_id, server_id, author_id, type, content, created_at) "
        "VALUES ('01a1fe3b-0000-7000-8000-0000000000aa', 'c1', 's1', 'u1', 'text', 'primeiro', 1)",
    };
    for (size_t i = 0; i < sizeof setup_sql / sizeof setup_sql[0]; i++)
        cr_assert_eq(store__exec(db, setup_sql[i], NULL, 0), STORE_DONE, "%s", setup_sql[i]);
    char payload[128];
    snprintf(payload, sizeof payload, "{\"id\":\"%s\",\"content\":\"primeiro\"}", MID);
    uint64_t at = append_about(payload, 1000, MID);
    struct store_stmt *st =
        store__query(db, "SELECT length(payload), message_id FROM event_log WHERE position = $1",
                     SV_ARGS(SV_INT((int64_t)at)));
    cr_assert_eq(store__step(st), STORE_ROW);
    cr_assert_eq(store__int(st, 0), 0, "no copy of the message in the log");
    cr_assert_str_eq(store__text(st, 1), MID);
    store__finish(st);

    cr_assert_eq(store_events_after(db, at - 1, 1, keep_replay, NULL), 1);
    cr_assert(strstr(replayed, "\"content\":\"primeiro\""), "%s", replayed);
    cr_assert_eq(replayed_redacted, 0);
    cr_assert_eq(store__exec(db, "UPDATE messages SET content = 'editado' WHERE id = $1",
                             SV_ARGS(SV_STR(MID))),
                 STORE_DONE);
    cr_assert_eq(store_events_after(db, at - 1, 1, keep_replay, NULL), 1);
    cr_assert(strstr(replayed, "\"content\":\"editado\""), "as it is now: %s", replayed);
    cr_assert_eq(store__exec(db, "DELETE FROM messages WHERE id = $1", SV_ARGS(SV_STR(MID))),
                 STORE_DONE);
    cr_assert_eq(store_events_after(db, at - 1, 1, keep_replay, NULL), 1);
    cr_assert_eq(replayed_redacted, 1, "a message gone is never replayed");
    cr_assert_null(strstr(replayed, "editado"));
}
