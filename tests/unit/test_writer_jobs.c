/* Jobs on the writer thread: inline writes, told after the commit, early commits after a state
 * change, and a failed commit failing every job of its batch. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "store/db.h"
#include "store/event_log.h"
#include "test_database.h"
#include "store/messages.h"
#include "store/migrate.h"
#include "store/writer.h"

static struct test_database database;
static struct store *db; /* another connection, as a reader elsewhere */
static struct store_writer *writer;

static void setup(void)
{
    test_database_create(&database, "jobs");
    cr_assert_eq(store_open(database.target, &db), STORE_DONE);
    cr_assert_gt(store_migrate(db), 0);
    writer = store_writer_new(database.target);
    cr_assert_not_null(writer);
}

static void teardown(void)
{
    store_writer_free(writer);
    store_close(db);
    test_database_remove(&database);
}

TestSuite(writer_jobs, .init = setup, .fini = teardown);

/* Criterion ends a skipped test without its .fini: the database goes with it here. */
#define skip_test(why)                                                                             \
    do {                                                                                           \
        teardown();                                                                                \
        cr_skip_test(why);                                                                         \
    } while (0)

static int64_t count(const char *sql)
{
    struct store_stmt *st = store__query(db, sql, NULL, 0);
    cr_assert_eq(store__step(st), STORE_ROW);
    int64_t n = store__int(st, 0);
    store__finish(st);
    return n;
}

static int add_user(struct store *w, void *name)
{
    static const char *SQL =
        "INSERT INTO users (id, username, display_name, created_at) VALUES ($1, $1, $1, 1)";
    return store__exec(w, SQL, SV_ARGS(SV_STR(name)));
}

static int add_server(struct store *w, void *id)
{
    static const char *SQL = "INSERT INTO servers (id, name, owner_id, created_at) "
                             "VALUES ($1, $1, 'owner', 1)";
    return store__exec(w, SQL, SV_ARGS(SV_STR(id)));
}

static int rename_server(struct store *w, void *id)
{
    static const char *SQL = "UPDATE servers SET name = 'renamed' WHERE id = $1";
    return store__exec(w, SQL, SV_ARGS(SV_STR(id)));
}

static int fail_half_way(struct store *w, void *arg)
{
    add_user(w, arg);
    return -5;
}

static int defer_a_broken_reference(struct store *w, void *arg)
{
    (void)arg;
    static const char *SQL = "INSERT INTO tokens (hash, user_id, kind, created_at) "
                             "VALUES ('h', 'ghost', 'session', 1)";
    if (store__exec(w, "PRAGMA defer_foreign_keys = ON", NULL, 0) != STORE_DONE)
        return -1;
    return store__exec(w, SQL, NULL, 0); /* fails only at COMMIT */
}

struct test_job {
    struct job base;
    store_write_fn fn;
    void *arg;
    int result;
    int committed;
    int64_t servers_seen; /* by the other connection when run */
    int done;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int gate_open;

static void job_run(struct job *b, void *w)
{
    struct test_job *j = (struct test_job *)b;
    (void)w;
    j->servers_seen = count("SELECT count(*) FROM servers");
    j->result = j->fn ? store_write(writer, j->fn, j->arg) : 0;
}

static void job_done(struct job *b, int committed)
{
    struct test_job *j = (struct test_job *)b;
    pthread_mutex_lock(&lock);
    j->committed = committed;
    j->done = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

/* Holds the writer until the jobs behind it are queued, so they make one batch. */
static void gate_run(struct job *b, void *w)
{
    (void)b;
    (void)w;
    pthread_mutex_lock(&lock);
    while (!gate_open)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}

static void job_done_noop(struct job *b, int committed)
{
    (void)b;
    (void)committed;
}

static void submit_batch(struct test_job *jobs, size_t n)
{
    static struct job gate = {.run = gate_run, .done = job_done_noop};
    gate_open = 0;
    store_writer_submit(writer, &gate);
    for (size_t i = 0; i < n; i++) {
        jobs[i].base = (struct job){.run = job_run, .done = job_done};
        store_writer_submit(writer, &jobs[i].base);
    }
    pthread_mutex_lock(&lock);
    gate_open = 1;
    pthread_cond_broadcast(&changed);
    for (size_t i = 0; i < n; i++)
        while (!jobs[i].done)
            pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}

Test(writer_jobs, write_inline_and_hear_after_the_commit)
{
    struct test_job jobs[3] = {
        {.fn = add_user, .arg = "ana"},
        {.fn = fail_half_way, .arg = "half"},
        {.fn = add_user, .arg = "bia"},
    };
    submit_batch(jobs, 3);
    cr_assert_eq(jobs[0].result, STORE_DONE);
    cr_assert_eq(jobs[1].result, -5, "a failing write is rolled back alone");
    for (int i = 0; i < 3; i++)
        cr_assert_eq(jobs[i].committed, 1);
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username IN ('ana', 'bia')"), 2);
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username = 'half'"), 0);
}

Test(writer_jobs, a_state_change_is_committed_before_the_next_job_runs)
{
    struct test_job jobs[5] = {
        {.fn = add_user, .arg = "owner"},
        {.fn = add_server, .arg = "s1"}, /* nobody holds a server that did not exist */
        {.fn = NULL},
        {.fn = rename_server, .arg = "s1"},
        {.fn = NULL},
    };
    submit_batch(jobs, 5);
    cr_assert_eq(jobs[3].result, STORE_DONE);
    cr_assert_eq(jobs[2].servers_seen, 0, "still one transaction");
    cr_assert_eq(jobs[4].servers_seen, 1, "committed before the job after the change read");
}

/* Several nodes: on_changed waits until the other nodes have a batch's changes. It waits on a
 * thread of its own: the writer goes on committing, and the answers wait, in commit order. */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open, gate_waiting;

static void noted(void *arg, const char *sid)
{
    (void)arg;
    (void)sid;
}

static void held_until_open(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&gate_lock);
    gate_waiting = 1;
    pthread_cond_broadcast(&gate_cond);
    struct timespec until = clock_deadline(10000);
    while (!gate_open && !pthread_cond_timedwait(&gate_cond, &gate_lock, &until))
        ;
    pthread_mutex_unlock(&gate_lock);
}

struct writing {
    pthread_t thread;
    store_write_fn fn;
    void *arg;
    int rc, returned;
};

static void *write_on_a_thread(void *p)
{
    struct writing *t = p;
    t->rc = store_write(writer, t->fn, t->arg);
    __atomic_store_n(&t->returned, 1, __ATOMIC_RELEASE);
    return NULL;
}

static int until_ms(int (*cond)(void), int ms)
{
    for (int i = 0; i < ms / 5 && !cond(); i++)
        usleep(5000);
    return cond();
}

static int gate_is_waited(void)
{
    pthread_mutex_lock(&gate_lock);
    int w = gate_waiting;
    pthread_mutex_unlock(&gate_lock);
    return w;
}

static int bia_is_committed(void)
{
    return count("SELECT count(*) FROM users WHERE username = 'bia'") == 1;
}

Test(writer_jobs, a_wait_for_the_other_nodes_holds_the_answers_not_the_writer)
{
    cr_assert_eq(store_write(writer, add_user, "owner"), STORE_DONE);
    cr_assert_eq(store_write(writer, add_server, "s1"), STORE_DONE);
    store_writer_on_change(writer, noted, held_until_open, NULL);
    struct writing a = {.fn = rename_server, .arg = "s1"}, b = {.fn = add_user, .arg = "bia"};
    pthread_create(&a.thread, NULL, write_on_a_thread, &a);
    cr_assert(until_ms(gate_is_waited, 5000), "the renamed server's changes are being waited for");
    pthread_create(&b.thread, NULL, write_on_a_thread, &b);
    cr_assert(until_ms(bia_is_committed, 5000), "the writer committed the next write meanwhile");
    cr_assert_eq(__atomic_load_n(&a.returned, __ATOMIC_ACQUIRE), 0, "its answer waits");
    cr_assert_eq(__atomic_load_n(&b.returned, __ATOMIC_ACQUIRE), 0, "and the next one behind it");
    pthread_mutex_lock(&gate_lock);
    gate_open = 1;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
    pthread_join(a.thread, NULL);
    pthread_join(b.thread, NULL);
    cr_assert_eq(a.rc, STORE_DONE);
    cr_assert_eq(b.rc, STORE_DONE);
}

static struct test_job late = {.fn = add_user, .arg = "late"};

/* Runs as a job, then queues another while its transaction is still open. */
static void queue_another_run(struct job *b, void *w)
{
    job_run(b, w);
    late.base = (struct job){.run = job_run, .done = job_done};
    store_writer_submit(writer, &late.base);
}

Test(writer_jobs, a_job_queued_during_a_transaction_joins_its_commit)
{
    struct store_writer_stats before, after;
    store_writer_stats(writer, &before);
    struct test_job first = {.fn = add_user, .arg = "first"};
    first.base = (struct job){.run = queue_another_run, .done = job_done};
    store_writer_submit(writer, &first.base);
    pthread_mutex_lock(&lock);
    while (!first.done || !late.done)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    store_writer_stats(writer, &after);
    cr_assert_eq(after.jobs - before.jobs, 2);
    cr_assert_eq(after.transactions - before.transactions, 1, "one commit for both");
    cr_assert(first.committed && late.committed);
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username IN ('first', 'late')"), 2);
}

Test(writer_jobs, a_failed_commit_fails_every_job_of_its_batch)
{
    if (database.pg_name[0])
        skip_test("made with SQLite's defer_foreign_keys; PostgreSQL's keys are not deferrable");
    struct test_job jobs[2] = {
        {.fn = add_user, .arg = "carla"},
        {.fn = defer_a_broken_reference},
    };
    submit_batch(jobs, 2);
    cr_assert_eq(jobs[0].result, STORE_DONE, "the write itself went through");
    cr_assert_eq(jobs[0].committed, 0);
    cr_assert_eq(jobs[1].committed, 0);
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username = 'carla'"), 0);
    /* The writer goes on: the next write commits. */
    cr_assert_eq(store_write(writer, add_user, "dora"), STORE_DONE);
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username = 'dora'"), 1);
}

/* Caps the file a few pages past its size, so a large write hits SQLITE_FULL, which rolls the
 * whole transaction back, not only the statement. */
static int cap_the_file(struct store *w, void *arg)
{
    (void)arg;
    struct store_stmt *st = store__query(w, "PRAGMA page_count", NULL, 0);
    cr_assert_eq(store__step(st), STORE_ROW);
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)store__int(st, 0) + 8);
    store__finish(st);
    return store__exec_script(w, sql);
}

static int add_big_user(struct store *w, void *name)
{
    static const char *SQL = "INSERT INTO users (id, username, display_name, created_at)"
                             " VALUES ($1, $1, hex(zeroblob(400000)), 1)";
    return store__exec(w, SQL, SV_ARGS(SV_STR(name)));
}

static int uncap_the_file(struct store *w, void *arg)
{
    (void)arg;
    return store__exec_script(w, "PRAGMA max_page_count = 1073741823");
}

Test(writer_jobs, a_full_disk_fails_only_the_jobs_it_rolled_back)
{
    if (database.pg_name[0])
        skip_test("made with SQLite's max_page_count");
    cr_assert_eq(store_write(writer, cap_the_file, NULL), STORE_DONE);
    struct test_job jobs[4] = {
        {.fn = add_user, .arg = "before"},
        {.fn = add_big_user, .arg = "big"},
        {.fn = add_user, .arg = "after1"},
        {.fn = add_user, .arg = "after2"},
    };
    submit_batch(jobs, 4);
    store_write(writer, uncap_the_file, NULL);
    cr_assert_lt(jobs[1].result, 0, "the write that did not fit failed");
    /* Each job is told exactly what happened to its writes: none committed on its own while its
     * request was answered with a failure, and none reported committed but lost. */
    const char *names[] = {"before", "big", "after1", "after2"};
    for (int i = 0; i < 4; i++) {
        static const char *SQL = "SELECT count(*) FROM users WHERE username = $1";
        struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(names[i])));
        cr_assert_eq(store__step(st), STORE_ROW);
        int64_t present = store__int(st, 0);
        store__finish(st);
        cr_assert_eq(present, jobs[i].committed && jobs[i].result == STORE_DONE,
                     "%s: committed %d, result %d", names[i], jobs[i].committed, jobs[i].result);
    }
    cr_assert_eq(jobs[2].committed, 1, "the jobs after the failure run in a new transaction");
    cr_assert_eq(jobs[3].committed, 1);
}

/* ---- new messages' rows held until the next statement (PostgreSQL) ---- */

static int run_sql(struct store *w, void *sql)
{
    return store__exec(w, sql, NULL, 0);
}

static struct store_new_message message(const char *id, const char *channel)
{
    return (struct store_new_message){.id = id,
                                      .channel_id = channel,
                                      .server_id = "s1",
                                      .author_id = "ana",
                                      .type = "text",
                                      .content = id,
                                      .mentions_json = "[]",
                                      .role_ids_json = "[]",
                                      .now = 1};
}

static int send_one(struct store *w, void *id)
{
    struct store_new_message m = message(id, "c1");
    return store_message_insert_at(w, &m);
}

static int send_then_fail(struct store *w, void *id)
{
    send_one(w, id);
    return -1;
}

/* Holds its row, reads what the jobs before it sent (a statement: the rows held go in first,
 * its own inside its savepoint), then fails: its row must go with its savepoint. */
static int seen_before_failing;
static int send_read_then_fail(struct store *w, void *id)
{
    send_one(w, id);
    seen_before_failing =
        store_message_in_channel(w, "m1", "c1") * 10 + store_message_in_channel(w, id, "c1");
    return -1;
}

/* A channel deleted by another connection while the row for it waits (PostgreSQL's writer
 * holds no lock on it until the row goes in). */
static int send_to_a_channel_deleted_meanwhile(struct store *w, void *id)
{
    struct store_new_message m = message(id, "c2");
    int rc = store_message_insert_at(w, &m);
    if (rc == STORE_DONE && database.pg_name[0])
        cr_assert_eq(store__exec(db, "DELETE FROM channels WHERE id = 'c2'", NULL, 0), STORE_DONE);
    return rc;
}

/* Server s1 with text channels c1 and c2. */
static void add_two_channels(void)
{
    cr_assert_eq(store_write(writer, add_user, "owner"), STORE_DONE);
    cr_assert_eq(store_write(writer, add_server, "s1"), STORE_DONE);
    cr_assert_eq(store_write(writer, run_sql,
                             "INSERT INTO channels (id, server_id, type, name, created_at) VALUES"
                             " ('c1', 's1', 'text', 'geral', 1), ('c2', 's1', 'text', 'outro', 1)"),
                 STORE_DONE);
}

Test(writer_jobs, held_message_rows_go_in_with_their_jobs_savepoints)
{
    add_two_channels();
    struct test_job jobs[6] = {
        {.fn = send_one, .arg = "m1"},
        {.fn = send_then_fail, .arg = "m2"},
        {.fn = send_read_then_fail, .arg = "m3"},
        {.fn = send_to_a_channel_deleted_meanwhile, .arg = "m5"},
        {.fn = send_one, .arg = "m4"},
        {.fn = send_then_fail, .arg = "m6"},
    };
    submit_batch(jobs, 6);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(jobs[i].committed, 1, "job %d committed", i);
    cr_assert_eq(seen_before_failing, 11, "a statement sees the rows held before it");
    cr_assert_eq(count("SELECT count(*) FROM messages WHERE id IN ('m1', 'm4')"), 2);
    cr_assert_eq(count("SELECT count(*) FROM messages WHERE id IN ('m2', 'm3', 'm6')"), 0,
                 "a job rolled back takes its row along, held or inserted");
    if (database.pg_name[0])
        cr_assert_eq(count("SELECT count(*) FROM messages WHERE id = 'm5'"), 0,
                     "a row for a channel deleted meanwhile is left out, not the batch");
    else
        cr_assert_eq(count("SELECT count(*) FROM messages WHERE id = 'm5'"), 1);
}

static int send_with_nonce(struct store *w, void *id)
{
    struct store_new_message m = message(id, "c1");
    m.nonce = id; /* a nonce's message is inserted at once, by its own statement */
    return store_message_insert_at(w, &m);
}

static int send_to_c2(struct store *w, void *id)
{
    struct store_new_message m = message(id, "c2");
    return store_message_insert_at(w, &m);
}

static int send_rich(struct store *w, void *id)
{
    struct store_new_message m = message(id, "c1");
    m.type = "reply";
    m.flags = 4;
    m.mentions_json = "[\"u1\"]";
    m.role_ids_json = "[\"r1\"]";
    m.everyone = 1;
    return store_message_insert_at(w, &m);
}

/* A held row leaves out its null members: a plain row and one with every field read back as
 * they were sent. */
Test(writer_jobs, held_rows_keep_their_fields_left_out_or_not)
{
    add_two_channels();
    struct test_job jobs[2] = {{.fn = send_one, .arg = "m1"}, {.fn = send_rich, .arg = "m2"}};
    submit_batch(jobs, 2);
    cr_assert_eq(count("SELECT count(*) FROM messages WHERE id = 'm1' AND type = 'text'"
                       " AND flags = 0 AND mentions = '[]' AND mentioned_role_ids = '[]'"
                       " AND mentions_everyone = 0 AND thread_parent_id IS NULL"
                       " AND content = 'm1' AND created_at = 1"),
                 1);
    cr_assert_eq(count("SELECT count(*) FROM messages WHERE id = 'm2' AND type = 'reply'"
                       " AND flags = 4 AND mentions = '[\"u1\"]'"
                       " AND mentioned_role_ids = '[\"r1\"]' AND mentions_everyone = 1"),
                 1);
}

/* Messages keep to existing channels: by a foreign key on SQLite, by the inserts' own lock and
 * a trigger on PostgreSQL (migration 026). Either way a channel's deletion takes its messages
 * along, and a message for a channel already gone is not inserted. */
Test(writer_jobs, a_deleted_channel_takes_its_messages_and_refuses_new_ones)
{
    add_two_channels();
    cr_assert_eq(store_write(writer, send_one, "m1"), STORE_DONE);
    cr_assert_eq(store_write(writer, send_with_nonce, "m2"), STORE_DONE);
    cr_assert_eq(store_write(writer, send_to_c2, "m3"), STORE_DONE);
    cr_assert_eq(count("SELECT count(*) FROM messages"), 3);
    cr_assert_eq(store_write(writer, run_sql, "DELETE FROM channels WHERE id = 'c1'"), STORE_DONE);
    cr_assert_eq(count("SELECT count(*) FROM messages WHERE channel_id = 'c1'"), 0,
                 "the channel's messages went with it");
    cr_assert_eq(count("SELECT count(*) FROM messages WHERE id = 'm3'"), 1,
                 "another channel's stayed");
    int rc = store_write(writer, send_with_nonce, "m4");
    cr_assert_neq(rc, STORE_DONE, "a message for a channel already gone is refused");
    if (database.pg_name[0])
        cr_assert_eq(rc, STORE_MISSING);
    cr_assert_eq(store_write(writer, send_one, "m5"),
                 database.pg_name[0] ? STORE_DONE : STORE_CONSTRAINT,
                 "PostgreSQL leaves a held row out alone; SQLite's key refuses it");
    cr_assert_eq(count("SELECT count(*) FROM messages WHERE id IN ('m4', 'm5')"), 0);
}

/* A user and an event, in one job: the batch's COMMIT then goes along with the events'
 * positions (store__events_flush_commit). */
static uint64_t positions[3];

static int add_user_and_event(struct store *w, void *name)
{
    int at = !strcmp(name, "ana") ? 0 : !strcmp(name, "bia") ? 1 : 2;
    if (add_user(w, name) != STORE_DONE)
        return -1;
    struct store_event e = {"E", NULL, NULL, 0, "owner", "{}", 2, 1, 0, 0, 0, NULL};
    return store_event_append(w, &e, &positions[at]);
}

/* Makes the commit fail, and only the commit: a deferred check on PostgreSQL, a deferred
 * foreign key on SQLite. */
static int refuse_at_commit(struct store *w, void *arg)
{
    (void)arg;
    if (!database.pg_name[0])
        return defer_a_broken_reference(w, NULL);
    return store__exec_script(
        w, "CREATE FUNCTION praca_refuse() RETURNS trigger LANGUAGE plpgsql AS"
           " $f$ BEGIN RAISE EXCEPTION 'refused at commit'; END $f$;"
           " CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON users DEFERRABLE INITIALLY DEFERRED"
           " FOR EACH ROW WHEN (NEW.username = 'refused') EXECUTE FUNCTION praca_refuse();"
           " INSERT INTO users (id, username, display_name, created_at)"
           " VALUES ('refused', 'refused', 'r', 1)");
}

Test(writer_jobs, a_commit_refused_with_the_events_fails_every_job_and_the_writer_goes_on)
{
    cr_assert_eq(store_write(writer, add_user, "owner"), STORE_DONE);
    struct test_job jobs[3] = {
        {.fn = add_user_and_event, .arg = "ana"},
        {.fn = refuse_at_commit},
        {.fn = add_user_and_event, .arg = "bia"},
    };
    submit_batch(jobs, 3);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(jobs[i].result, STORE_DONE, "job %d's writes went through", i);
        cr_assert_eq(jobs[i].committed, 0, "job %d is told its commit failed", i);
    }
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username IN ('ana', 'bia', 'refused')"),
                 0);
    cr_assert_eq(count("SELECT count(*) FROM event_log"), 0, "the events went with them");
    /* The writer goes on: the next batch commits, its events with it. */
    struct test_job next[1] = {{.fn = add_user_and_event, .arg = "cris"}};
    submit_batch(next, 1);
    cr_assert_eq(next[0].committed, 1);
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username = 'cris'"), 1);
    cr_assert_eq(count("SELECT count(*) FROM event_log"), 1);
    cr_assert_gt(positions[2], 0, "its event has its position");
}

static int add_user_and_boom(struct store *w, void *name)
{
    if (add_user(w, name) != STORE_DONE)
        return -1;
    struct store_event e = {"E", NULL, NULL, 0, "owner", "{\"boom\":1}", 10, 1, 0, 0, 0, NULL};
    return store_event_append(w, &e, &positions[2]);
}

Test(writer_jobs, events_refused_at_commit_time_take_the_commit_along)
{
    if (!database.pg_name[0])
        skip_test("SQLite writes each event with its job, in the job's savepoint");
    cr_assert_eq(store_write(writer, add_user, "owner"), STORE_DONE);
    cr_assert_eq(
        store__exec_script(db, "CREATE FUNCTION praca_boom() RETURNS trigger LANGUAGE plpgsql AS"
                               " $f$ BEGIN RAISE EXCEPTION 'boom'; END $f$;"
                               " CREATE TRIGGER boom BEFORE INSERT ON event_log FOR EACH ROW"
                               " WHEN (NEW.payload LIKE '%boom%') EXECUTE FUNCTION praca_boom()"),
        STORE_DONE);
    struct test_job jobs[2] = {
        {.fn = add_user_and_event, .arg = "ana"},
        {.fn = add_user_and_boom, .arg = "eva"},
    };
    submit_batch(jobs, 2);
    cr_assert_eq(jobs[0].committed, 0, "the COMMIT behind the failed statement did not run");
    cr_assert_eq(jobs[1].committed, 0);
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username IN ('ana', 'eva')"), 0);
    struct test_job next[1] = {{.fn = add_user_and_event, .arg = "bia"}};
    submit_batch(next, 1);
    cr_assert_eq(next[0].committed, 1, "the writer goes on");
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username = 'bia'"), 1);
}

/* The rows held until the commit go in the same round trip as the events and the COMMIT: one
 * refused there fails the whole batch, the COMMIT behind it never runs, and the writer goes on. */
Test(writer_jobs, held_rows_refused_at_commit_time_take_the_batch_along)
{
    if (!database.pg_name[0])
        skip_test("SQLite inserts each row with its job, in the job's savepoint");
    cr_assert_eq(store_write(writer, add_user, "owner"), STORE_DONE);
    cr_assert_eq(store_write(writer, add_server, "s1"), STORE_DONE);
    cr_assert_eq(store_write(writer, run_sql,
                             "INSERT INTO channels (id, server_id, type, name, created_at) VALUES"
                             " ('c1', 's1', 'text', 'geral', 1)"),
                 STORE_DONE);
    cr_assert_eq(
        store__exec_script(db, "CREATE FUNCTION praca_boom() RETURNS trigger LANGUAGE plpgsql AS"
                               " $f$ BEGIN RAISE EXCEPTION 'boom'; END $f$;"
                               " CREATE TRIGGER boom BEFORE INSERT ON messages FOR EACH ROW"
                               " WHEN (NEW.content LIKE 'boom%') EXECUTE FUNCTION praca_boom()"),
        STORE_DONE);
    struct test_job jobs[3] = {
        {.fn = send_one, .arg = "m1"},
        {.fn = add_user_and_event, .arg = "ana"},
        {.fn = send_one, .arg = "boom1"},
    };
    submit_batch(jobs, 3);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(jobs[i].committed, 0, "job %d failed with its batch", i);
    cr_assert_eq(count("SELECT count(*) FROM messages"), 0);
    cr_assert_eq(count("SELECT count(*) FROM users WHERE username = 'ana'"), 0);
    cr_assert_eq(count("SELECT count(*) FROM event_log WHERE type = 'E'"), 0);
    struct test_job next[2] = {{.fn = send_one, .arg = "m2"},
                               {.fn = add_user_and_event, .arg = "bia"}};
    submit_batch(next, 2);
    cr_assert_eq(next[0].committed, 1, "the writer goes on");
    cr_assert_eq(next[1].committed, 1);
    cr_assert_eq(count("SELECT count(*) FROM messages WHERE id = 'm2'"), 1);
    cr_assert_eq(count("SELECT count(*) FROM event_log WHERE type = 'E'"), 1);
}
