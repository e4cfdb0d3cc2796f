/* hiredis replies built in a block per connection: see redis_replies.h. */
#include "core/redis_replies.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_BLOCK ((size_t)16 << 10)
#define KEEP_BLOCK  ((size_t)4 << 20) /* a larger one is given back once its reply is freed */

struct block {
    struct block *next; /* older, smaller blocks of the same reply */
    size_t size, used;
    alignas(max_align_t) unsigned char data[];
};

struct redis_replies {
    struct block *head; /* the newest, largest block */
};

/* Each object is preceded by its owner, which freeObject has no other way to learn. */
struct object {
    struct redis_replies *owner;
    redisReply reply;
};

#define ALIGN(n) (((n) + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1))

static void *take(struct redis_replies *r, size_t n)
{
    n = ALIGN(n);
    struct block *b = r->head;
    if (!b || b->size - b->used < n) {
        size_t size = b ? b->size * 2 : FIRST_BLOCK;
        while (size < n)
            size *= 2;
        struct block *nb = malloc(sizeof *nb + size);
        if (!nb)
            return NULL;
        *nb = (struct block){.next = b, .size = size};
        r->head = b = nb;
    }
    void *at = b->data + b->used;
    b->used += n;
    return at;
}

/* The reply is gone: the next one reuses its newest block, which doubled at each growth and so
 * holds more than all the older ones (they are let go), unless it grew past KEEP_BLOCK. */
static void reset(struct redis_replies *r)
{
    struct block *b = r->head;
    if (!b)
        return;
    for (struct block *o = b->next, *next; o; o = next) {
        next = o->next;
        free(o);
    }
    *b = (struct block){.size = b->size};
    if (b->size > KEEP_BLOCK) {
        free(b);
        r->head = NULL;
    }
}

static struct redis_replies *owner_of(const redisReadTask *task)
{
    while (task->parent)
        task = task->parent;
    return task->privdata;
}

static redisReply *object(const redisReadTask *task, int type)
{
    struct redis_replies *r = owner_of(task);
    struct object *o = take(r, sizeof *o);
    if (!o)
        return NULL;
    o->owner = r;
    o->reply = (redisReply){.type = type};
    if (task->parent) {
        redisReply *parent = task->parent->obj;
        parent->element[task->idx] = &o->reply;
    }
    return &o->reply;
}

static void *create_string(const redisReadTask *task, char *str, size_t len)
{
    redisReply *reply = object(task, task->type);
    char *copy = reply ? take(owner_of(task), len + 1) : NULL;
    if (!copy)
        return NULL;
    memcpy(copy, str, len);
    copy[len] = '\0';
    reply->str = copy;
    reply->len = len;
    return reply;
}

static void *create_array(const redisReadTask *task, int elements)
{
    redisReply *reply = object(task, REDIS_REPLY_ARRAY);
    if (!reply || elements <= 0)
        return reply;
    reply->element = take(owner_of(task), (size_t)elements * sizeof *reply->element);
    if (!reply->element)
        return NULL;
    memset(reply->element, 0, (size_t)elements * sizeof *reply->element);
    reply->elements = (size_t)elements;
    return reply;
}

static void *create_integer(const redisReadTask *task, long long value)
{
    redisReply *reply = object(task, REDIS_REPLY_INTEGER);
    if (reply)
        reply->integer = value;
    return reply;
}

static void *create_nil(const redisReadTask *task)
{
    return object(task, REDIS_REPLY_NIL);
}

/* hiredis frees only a reply's root, complete or not: everything in the block goes with it. */
static void free_object(void *reply)
{
    struct object *o = (struct object *)((char *)reply - offsetof(struct object, reply));
    reset(o->owner);
}

static redisReplyObjectFunctions functions = {
    .createString = create_string,
    .createArray = create_array,
    .createInteger = create_integer,
    .createNil = create_nil,
    .freeObject = free_object,
};

struct redis_replies *redis_replies_new(void)
{
    return calloc(1, sizeof(struct redis_replies));
}

void redis_replies_use(struct redis_replies *r, redisReader *reader)
{
    reader->fn = &functions;
    reader->privdata = r;
}

void redis_replies_free(struct redis_replies *r)
{
    if (!r)
        return;
    reset(r);
    free(r->head);
    free(r);
}
