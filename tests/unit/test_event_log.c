/* The event log: positions in order, reading after a position, trimming from the front without
 * ever letting positions start over. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store/db.h"
#include "store/event_log.h"
#include "store/migrate.h"

static char path[64];
static struct store *db;

static void setup(void)
{
    snprintf(path, sizeof path, "/tmp/praca-evlog-%d.db", getpid());
    unlink(path);
    cr_assert_eq(store_open(path, &db), STORE_DONE);
    cr_assert_gt(store_migrate(db), 0);
}

static void teardown(void)
{
    store_close(db);
    char p[80];
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s%s", path, suffixes[i]);
        unlink(p);
    }
}

TestSuite(event_log, .init = setup, .fini = teardown);

static uint64_t append(const char *payload, int64_t at)
{
    struct store_event e = {"MESSAGE_CREATE", "s1", "c1", 1, NULL, payload,
                            strlen(payload),  at,   0,    0, 0};
    uint64_t position = 0;
    cr_assert_eq(store_event_append(db, &e, &position), STORE_DONE);
    return position;
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
                                2,   1000 + (int64_t)i, 0,    0, 0};
        uint64_t position;
        cr_assert_eq(store_event_append(db, &e, &position), STORE_DONE);
    }
    struct store_event to_user = {"E", NULL, NULL, 0, "u1", "{}", 2, 2000, 0, 0, 0};
    uint64_t position;
    cr_assert_eq(store_event_append(db, &to_user, &position), STORE_DONE);
    nseqs = 0;
    store_events_after(db, 0, 8, collect_seq, NULL);
    uint64_t want[] = {1, 1, 2, 3, 2, 0};
    cr_assert_eq(nseqs, 6);
    for (size_t i = 0; i < 6; i++)
        cr_assert_eq(seqs[i], want[i], "event %zu", i);
    int64_t deleted;
    cr_assert_eq(store_events_trim(db, 99999, &deleted), STORE_DONE);
    struct store_event again = {"E", "s1", NULL, 0, NULL, "{}", 2, 3000, 0, 0, 0};
    cr_assert_eq(store_event_append(db, &again, &position), STORE_DONE);
    nseqs = 0;
    store_events_after(db, position - 1, 8, collect_seq, NULL);
    cr_assert_eq(seqs[0], 4, "s1 goes on after its trimmed events");
}

Test(event_log, positions_grow_and_survive_a_full_trim)
{
    uint64_t a = append("a", 1000), b = append("b", 2000), c = append("c", 3000);
    cr_assert(a < b && b < c);
    char seen[64] = "";
    cr_assert_eq(store_events_after(db, a, 10, collect, seen), 2);
    cr_assert_str_eq(seen, "bc");
    int64_t deleted;
    cr_assert_eq(store_events_trim(db, 2500, &deleted), STORE_DONE);
    cr_assert_eq(deleted, 2, "a and b are older than the window");
    uint64_t first, last;
    cr_assert_eq(store_events_bounds(db, &first, &last), STORE_DONE);
    cr_assert_eq(first, c);
    cr_assert_eq(store_events_trim(db, 99999, &deleted), STORE_DONE);
    cr_assert_eq(deleted, 0, "the newest row stays, whatever its age");
    uint64_t d = append("d", 4000);
    cr_assert_gt(d, c, "positions never start over");
    seen[0] = '\0';
    cr_assert_eq(store_events_after(db, 0, 1, collect, seen), 1, "limit");
    cr_assert_str_eq(seen, "c");
}
