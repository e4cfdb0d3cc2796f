/*
 * Work handed to the I/O thread from any thread: items are queued under a mutex and run on the
 * loop through one uv_async_t. Intrusive: embed struct inbox_item.
 */
#ifndef PRACA_CORE_INBOX_H
#define PRACA_CORE_INBOX_H
#include <uv.h>

struct inbox_item {
    struct inbox_item *next;
    void (*run)(struct inbox_item *item); /* on the loop thread; owns the item */
};

struct inbox;

struct inbox *inbox_new(uv_loop_t *loop);
/* Thread-safe. */
void inbox_post(struct inbox *in, struct inbox_item *item);
/* Runs what is left, closes the handle; the inbox is freed in the close callback. */
void inbox_close(struct inbox *in);

#endif
