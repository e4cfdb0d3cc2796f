/* hiredis on our loop (core/redis_uv.h) against a real Redis (PRACA_TEST_REDIS, set by
 * scripts/with-redis.sh; skipped without it). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/redis_uv.h"
#include "core/redis.h"

static struct redis_url url;
static char key[64];
static uv_loop_t loop;
static uv_timer_t deadline;
static redisAsyncContext *ac;

static int timed_out;

/* Lets go of the connection, so that the loop ends and the test fails instead of hanging. */
static void on_deadline(uv_timer_t *t)
{
    (void)t;
    timed_out = 1;
    if (ac)
        redisAsyncFree(ac);
}

static void on_gone(const redisAsyncContext *c, int status)
{
    (void)c;
    (void)status;
    ac = NULL;
}

static void setup(void)
{
    const char *u = getenv("PRACA_TEST_REDIS");
    if (!u)
        cr_skip_test("no Redis (scripts/with-redis.sh sets PRACA_TEST_REDIS)");
    cr_assert_eq(redis_url_parse(u, &url), 0);
    snprintf(key, sizeof key, "praca:test:redis_uv:%d:%ld", getpid(), random());
    uv_loop_init(&loop);
    uv_timer_init(&loop, &deadline);
    uv_timer_start(&deadline, on_deadline, 10000, 0);
    uv_unref((uv_handle_t *)&deadline);
    ac = redisAsyncConnect(url.host, url.port);
    cr_assert(ac && !ac->err);
    cr_assert_eq(redis_uv_attach(ac, &loop), REDIS_OK);
    cr_assert_eq(redis_uv_attach(ac, &loop), REDIS_ERR, "attached once only");
    redisAsyncSetDisconnectCallback(ac, on_gone);
    if (url.password[0])
        redisAsyncCommand(ac, NULL, NULL, "AUTH %s", url.password);
}

static void teardown(void)
{
    cr_assert_not(timed_out, "the loop did not end within 10 s: a command was never written");
    uv_close((uv_handle_t *)&deadline, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&loop), 0, "every handle closed");
}

#define ROUND 100

static long long seen[2 * ROUND];
static int nseen;

static void on_incr(redisAsyncContext *c, void *r, void *arg)
{
    (void)arg;
    redisReply *reply = r;
    cr_assert(reply && reply->type == REDIS_REPLY_INTEGER);
    seen[nseen++] = reply->integer;
    if (nseen == ROUND) /* from a reply's callback, the connection made: the idle phase writes */
        for (int i = 0; i < ROUND; i++)
            redisAsyncCommand(c, on_incr, NULL, "INCR %s", key);
    else if (nseen == 2 * ROUND) {
        redisAsyncCommand(c, NULL, NULL, "DEL %s", key);
        redisAsyncDisconnect(c); /* after the DEL: the loop then ends */
    }
}

Test(redis_uv, commands_before_and_after_the_connection_are_answered_in_order, .init = setup,
     .fini = teardown)
{
    for (int i = 0; i < ROUND; i++) /* before the connection is made: the socket says when */
        redisAsyncCommand(ac, on_incr, NULL, "INCR %s", key);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(nseen, 2 * ROUND);
    for (int i = 0; i < 2 * ROUND; i++)
        cr_assert_eq(seen[i], i + 1);
}

#define BIG ((size_t)16 << 20) /* far more than a socket takes at once */

static size_t got_len;

static void on_get(redisAsyncContext *c, void *r, void *arg)
{
    (void)arg;
    redisReply *reply = r;
    cr_assert(reply && reply->type == REDIS_REPLY_STRING);
    got_len = reply->len;
    cr_assert_eq(reply->str[0], 'x');
    cr_assert_eq(reply->str[reply->len - 1], 'x');
    redisAsyncCommand(c, NULL, NULL, "DEL %s", key);
    redisAsyncDisconnect(c);
}

static void on_set(redisAsyncContext *c, void *r, void *arg)
{
    (void)r;
    char *value = arg;
    memset(value, 'x', BIG); /* hiredis copied it when the command was made */
    redisAsyncCommand(c, on_get, NULL, "GET %s", key);
}

static void on_ping(redisAsyncContext *c, void *r, void *arg)
{
    (void)r;
    char *value = arg;
    /* Connected now: the write starts in the idle phase and ends when the socket takes it. */
    redisAsyncCommand(c, on_set, value, "SET %s %b", key, value, BIG);
    memset(value, 'y', BIG);
}

Test(redis_uv, a_command_larger_than_the_socket_takes_goes_whole, .init = setup, .fini = teardown)
{
    char *value = malloc(BIG);
    cr_assert_not_null(value);
    memset(value, 'x', BIG);
    redisAsyncCommand(ac, on_ping, value, "PING");
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(got_len, BIG);
    free(value);
}

static int null_replies;

static void on_dropped(redisAsyncContext *c, void *r, void *arg)
{
    (void)c;
    (void)arg;
    null_replies += r == NULL;
}

static void free_now(redisAsyncContext *c, void *r, void *arg)
{
    (void)r;
    (void)arg;
    for (int i = 0; i < 10; i++) /* written in the idle phase, which never comes for them */
        redisAsyncCommand(c, on_dropped, NULL, "PING");
    redisAsyncFree(c);
}

Test(redis_uv, a_context_freed_with_a_write_waiting_lets_go_of_everything, .init = setup,
     .fini = teardown)
{
    redisAsyncCommand(ac, free_now, NULL, "PING");
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(null_replies, 10, "each waiting command hears NULL");
}

static int connect_status = 1;

static void on_connect(const redisAsyncContext *c, int status)
{
    (void)c;
    connect_status = status;
}

/* A refused connection is told at once, not left for a timer to find. */
Test(redis_uv, a_refused_connection_is_told, .init = setup, .fini = teardown)
{
    redisAsyncFree(ac); /* setup's, to a Redis that listens */
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_tcp_t probe; /* a port nobody listens on: bound, then closed */
    struct sockaddr_in at;
    int len = sizeof at;
    uv_ip4_addr("127.0.0.1", 0, &at);
    uv_tcp_init(&loop, &probe);
    cr_assert_eq(uv_tcp_bind(&probe, (const struct sockaddr *)&at, 0), 0);
    uv_tcp_getsockname(&probe, (struct sockaddr *)&at, &len);
    uv_close((uv_handle_t *)&probe, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    ac = redisAsyncConnect("127.0.0.1", ntohs(at.sin_port));
    cr_assert_not_null(ac);
    if (ac->err) { /* refused before the loop was asked: nothing to watch */
        redisAsyncFree(ac);
        ac = NULL;
        return;
    }
    cr_assert_eq(redis_uv_attach(ac, &loop), REDIS_OK);
    redisAsyncSetDisconnectCallback(ac, on_gone);
    redisAsyncSetConnectCallback(ac, on_connect);
    redisAsyncCommand(ac, on_dropped, NULL, "PING");
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(connect_status, REDIS_ERR);
    cr_assert_eq(null_replies, 1, "the waiting command hears NULL");
}
