/*
 * Work handed to the I/O thread from any thread: items are queued under a mutex and run on the
 * loop through one uv_async_t. Intrusive: embed struct job. The one way threads hand the
 * loop something: the gateway's worker answers, the HTTP server's answers, the event bus.
 */
#ifndef PRACA_CORE_INBOX_H
#define PRACA_CORE_INBOX_H
#include <uv.h>

#include "core/job.h"

/* An item is a job (core/job.h): its run on the loop thread (context NULL) owns it; its done is
 * not called. */

struct inbox;

struct inbox *inbox_new(uv_loop_t *loop);
/* The same, its items run after the I/O callbacks of the loop's turn that took them (its check
 * phase): what other inboxes brought in that turn runs first. */
struct inbox *inbox_new_after_io(uv_loop_t *loop);
/* Thread-safe. 0, or -1 when the inbox is shut (the item stays the caller's). */
int inbox_post(struct inbox *in, struct job *item);
/* The same for items already linked first..last through next, woken once. */
int inbox_post_list(struct inbox *in, struct job *first, struct job *last);
/* For an inbox no thread posts to any more: runs what is left, closes the handle; the inbox
 * is freed in the close callback. */
void inbox_close(struct inbox *in);
/* For an inbox other threads may still post to: posts are refused from now on, what is left
 * runs, the handle closes; inbox_free once no thread can post. */
void inbox_shut(struct inbox *in);
void inbox_free(struct inbox *in);

#endif
