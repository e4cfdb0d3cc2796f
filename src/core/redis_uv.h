/*
 * hiredis's asynchronous contexts on a libuv loop. Unlike hiredis's own adapter, a command
 * arms no write event: what the loop's turn asked is written once, in the next idle phase, and
 * only a write the socket could not take whole waits for the socket to become writable. The
 * read event is armed once, not again after every read. On a connection that asks one command
 * per request (the shared limits) that was three epoll_ctl calls and an extra turn of the loop
 * per command.
 */
#ifndef PRACA_CORE_REDIS_UV_H
#define PRACA_CORE_REDIS_UV_H
#include <hiredis/async.h>
#include <uv.h>

/* REDIS_OK, or REDIS_ERR (no memory, or ac already attached). hiredis frees what this made
 * when it frees ac; the handles close on loop's next turns. */
int redis_uv_attach(redisAsyncContext *ac, uv_loop_t *loop);

#endif
