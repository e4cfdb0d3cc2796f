/*
 * Positions given at commit (PostgreSQL, several writers): a transaction that appended first
 * but commits last gets the later positions, each server's seq still has no holes, an event
 * forgotten with its savepoint gets no position, and payloads are kept byte for byte. Runs
 * under `make unit-postgres`; with SQLite (one writer, positions at append) it is skipped.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/event_log.h"
#include "store/migrate.h"
#include "store/write_batch.h"
#include "test_database.h"

static struct test_database database;
static struct store *a, *b;

static void setup(void)
{
    if (!getenv("PRACA_TEST_POSTGRES"))
        return;
    test_database_create(&database, "clock");
    cr_assert_eq(store_open(database.target, &a), STORE_DONE);
    cr_assert_gt(store_migrate(a), 0);
    cr_assert_eq(store_open(database.target, &b), STORE_DONE);
    /* each appends as a node's writer does */
    cr_assert_eq(store__write_batch_new(a), STORE_DONE);
    cr_assert_eq(store__write_batch_new(b), STORE_DONE);
}

static void teardown(void)
{
    if (!getenv("PRACA_TEST_POSTGRES"))
        return;
    store_close(a);
    store_close(b);
    test_database_remove(&database);
}

TestSuite(event_clock, .init = setup, .fini = teardown);

static void append(struct store *db, const char *stream, const char *payload, uint64_t *position)
{
    struct store_event e = {"E", stream, NULL, 0, NULL, payload, strlen(payload), 1, 0, 0, 0, NULL};
    cr_assert_eq(store_event_append(db, &e, position), STORE_DONE);
    cr_assert_eq(*position, 0, "a position before the commit");
}

static void commit(struct store *db)
{
    cr_assert_eq(store__events_flush(db), STORE_DONE);
    cr_assert_eq(store__exec(db, "COMMIT", NULL, 0), STORE_DONE);
}

struct seen {
    char text[256];
};

static void note(void *arg, const struct store_event *e)
{
    struct seen *s = arg;
    char one[96];
    snprintf(one, sizeof one, "%llu:%s#%llu=%.*s ", (unsigned long long)e->position,
             e->stream ? e->stream : "-", (unsigned long long)e->seq, (int)e->len, e->payload);
    strncat(s->text, one, sizeof s->text - strlen(s->text) - 1);
}

Test(event_clock, positions_follow_commit_order_and_seqs_have_no_holes)
{
    if (!getenv("PRACA_TEST_POSTGRES"))
        cr_skip_test("positions at commit are PostgreSQL's");
    uint64_t a1, a2, b1, a3, dropped;
    cr_assert_eq(store__exec(a, "BEGIN", NULL, 0), STORE_DONE);
    cr_assert_eq(store__exec(b, "BEGIN", NULL, 0), STORE_DONE);
    append(a, "s1", "{\"b\": 1,  \"a\":[1, 2]}", &a1);
    append(a, "s2", "{}", &a2);
    append(b, "s1", "[]", &b1);
    commit(b); /* b appended last but commits first */
    cr_assert_eq(b1, 1);
    cr_assert_eq(store__exec(a, "SAVEPOINT w", NULL, 0), STORE_DONE);
    size_t mark = store__events_waiting(a);
    append(a, "s1", "\"rolled back\"", &dropped);
    cr_assert_eq(store__exec(a, "ROLLBACK TO w", NULL, 0), STORE_DONE);
    store__events_forget(a, mark);
    append(a, NULL, "1", &a3);
    commit(a);
    cr_assert_eq(a1, 2);
    cr_assert_eq(a2, 3);
    cr_assert_eq(a3, 4);
    cr_assert_eq(dropped, 0);
    struct seen s = {""};
    cr_assert_eq(store_events_after(a, 0, 10, note, &s), 4);
    cr_assert_str_eq(s.text, "1:s1#1=[] 2:s1#2={\"b\": 1,  \"a\":[1, 2]} 3:s2#1={} 4:-#0=1 ");
}
