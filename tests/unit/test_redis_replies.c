/* hiredis replies built in a connection's block: every kind of reply as hiredis's own functions
 * build it, fed whole or a byte at a time, larger than a block, and a reader freed halfway. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/redis_replies.h"

static struct redis_replies *replies;
static redisReader *reader;

static void setup(void)
{
    replies = redis_replies_new();
    reader = redisReaderCreate();
    cr_assert(replies && reader);
    redis_replies_use(replies, reader);
}

static void teardown(void)
{
    redisReaderFree(reader);
    redis_replies_free(replies);
}

TestSuite(redis_replies, .init = setup, .fini = teardown);

/* The next reply from what was fed, which must be complete. */
static redisReply *next(void)
{
    void *reply = NULL;
    cr_assert_eq(redisReaderGetReply(reader, &reply), REDIS_OK);
    cr_assert_not_null(reply);
    return reply;
}

static void done(redisReply *reply)
{
    reader->fn->freeObject(reply); /* as hiredis does after the reply's callback */
}

static const char XREAD[] =
    "*1\r\n*2\r\n$8\r\npraca:ev\r\n*2\r\n"
    "*2\r\n$3\r\n1-0\r\n*4\r\n$1\r\nn\r\n$4\r\nnode\r\n$1\r\np\r\n$5\r\nhello\r\n"
    "*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\nk\r\n$0\r\n\r\n";

static void check_xread(const redisReply *r)
{
    cr_assert_eq(r->type, REDIS_REPLY_ARRAY);
    cr_assert_eq(r->elements, 1);
    const redisReply *stream = r->element[0];
    cr_assert_eq(stream->elements, 2);
    cr_assert_str_eq(stream->element[0]->str, "praca:ev");
    const redisReply *entries = stream->element[1];
    cr_assert_eq(entries->elements, 2);
    const redisReply *first = entries->element[0], *second = entries->element[1];
    cr_assert_str_eq(first->element[0]->str, "1-0");
    cr_assert_eq(first->element[1]->elements, 4);
    cr_assert_str_eq(first->element[1]->element[1]->str, "node");
    cr_assert_eq(first->element[1]->element[3]->len, 5);
    cr_assert_str_eq(first->element[1]->element[3]->str, "hello");
    cr_assert_str_eq(second->element[0]->str, "2-0");
    cr_assert_eq(second->element[1]->element[1]->type, REDIS_REPLY_STRING);
    cr_assert_eq(second->element[1]->element[1]->len, 0);
    cr_assert_str_eq(second->element[1]->element[1]->str, "");
}

Test(redis_replies, a_stream_read_is_built_as_hiredis_builds_it)
{
    cr_assert_eq(redisReaderFeed(reader, XREAD, sizeof XREAD - 1), REDIS_OK);
    redisReply *r = next();
    check_xread(r);
    done(r);
    /* the block is reused by the next reply, which reads the same */
    cr_assert_eq(redisReaderFeed(reader, XREAD, sizeof XREAD - 1), REDIS_OK);
    r = next();
    check_xread(r);
    done(r);
}

Test(redis_replies, fed_a_byte_at_a_time)
{
    void *reply = NULL;
    for (size_t i = 0; i < sizeof XREAD - 1; i++) {
        cr_assert_null(reply, "a reply before its last byte (%zu)", i);
        cr_assert_eq(redisReaderFeed(reader, XREAD + i, 1), REDIS_OK);
        cr_assert_eq(redisReaderGetReply(reader, &reply), REDIS_OK);
    }
    cr_assert_not_null(reply);
    check_xread(reply);
    done(reply);
}

Test(redis_replies, every_kind_of_reply)
{
    static const char all[] = "+OK\r\n-ERR no such key\r\n:-42\r\n$-1\r\n*-1\r\n*0\r\n"
                              "$3\r\na\0b\r\n*3\r\n:1\r\n$-1\r\n*1\r\n+x\r\n";
    cr_assert_eq(redisReaderFeed(reader, all, sizeof all - 1), REDIS_OK);
    redisReply *r = next();
    cr_assert_eq(r->type, REDIS_REPLY_STATUS);
    cr_assert_str_eq(r->str, "OK");
    done(r);
    r = next();
    cr_assert_eq(r->type, REDIS_REPLY_ERROR);
    cr_assert_str_eq(r->str, "ERR no such key");
    done(r);
    r = next();
    cr_assert_eq(r->type, REDIS_REPLY_INTEGER);
    cr_assert_eq(r->integer, -42);
    done(r);
    r = next();
    cr_assert_eq(r->type, REDIS_REPLY_NIL);
    done(r);
    r = next();
    cr_assert_eq(r->type, REDIS_REPLY_NIL);
    done(r);
    r = next();
    cr_assert_eq(r->type, REDIS_REPLY_ARRAY);
    cr_assert_eq(r->elements, 0);
    done(r);
    r = next();
    cr_assert_eq(r->len, 3);
    cr_assert_eq(memcmp(r->str, "a\0b", 4), 0, "binary, and ended by a NUL");
    done(r);
    r = next();
    cr_assert_eq(r->elements, 3);
    cr_assert_eq(r->element[0]->integer, 1);
    cr_assert_eq(r->element[1]->type, REDIS_REPLY_NIL);
    cr_assert_str_eq(r->element[2]->element[0]->str, "x");
    done(r);
}

/* n strings of len bytes each ('a' + i % 26), as one array. */
static void feed_array(size_t n, size_t len)
{
    char head[64];
    snprintf(head, sizeof head, "*%zu\r\n", n);
    cr_assert_eq(redisReaderFeed(reader, head, strlen(head)), REDIS_OK);
    char *item = malloc(len + 32);
    cr_assert_not_null(item);
    for (size_t i = 0; i < n; i++) {
        int at = snprintf(item, 32, "$%zu\r\n", len);
        memset(item + at, 'a' + (int)(i % 26), len);
        memcpy(item + at + len, "\r\n", 2);
        cr_assert_eq(redisReaderFeed(reader, item, (size_t)at + len + 2), REDIS_OK);
    }
    free(item);
}

static void check_array(const redisReply *r, size_t n, size_t len)
{
    cr_assert_eq(r->elements, n);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(r->element[i]->len, len);
        cr_assert_eq(r->element[i]->str[0], 'a' + (int)(i % 26));
        cr_assert_eq(r->element[i]->str[len - 1], 'a' + (int)(i % 26));
        cr_assert_eq(r->element[i]->str[len], '\0');
    }
}

Test(redis_replies, replies_larger_than_a_block_and_than_what_is_kept)
{
    /* 3,000 × 100 B outgrows the first block several times; 2 × 3 MB outgrows what is kept */
    const size_t sizes[][2] = {{3000, 100}, {2, 3 << 20}, {10, 10}, {3000, 100}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        feed_array(sizes[k][0], sizes[k][1]);
        redisReply *r = next();
        check_array(r, sizes[k][0], sizes[k][1]);
        done(r);
    }
}

/* Feeds text (a reply cut short, or broken) and expects no reply and rc. */
static void no_reply_from(const char *text, int rc)
{
    cr_assert_eq(redisReaderFeed(reader, text, strlen(text)), REDIS_OK);
    void *reply = NULL;
    cr_assert_eq(redisReaderGetReply(reader, &reply), rc);
    cr_assert_null(reply);
}

Test(redis_replies, a_reader_freed_halfway_frees_the_reply_begun)
{
    no_reply_from("*3\r\n$5\r\nfirst\r\n*2\r\n:7\r\n$4\r\nsec", REDIS_OK);
    /* teardown frees the reader with the reply begun: the sanitizer sees what is left */
}

Test(redis_replies, a_protocol_error_frees_the_reply_begun)
{
    no_reply_from("*2\r\n$3\r\nabc\r\n?what\r\n", REDIS_ERR);
}
