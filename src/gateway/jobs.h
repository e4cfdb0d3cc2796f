/*
 * How a part of the gateway runs a piece of work on a worker thread (the database) and hears
 * its answer on the I/O thread, and how it publishes to users' connections. Every part uses
 * these; they call nothing back.
 */
#ifndef PRACA_GATEWAY_JOBS_H
#define PRACA_GATEWAY_JOBS_H
#include <jansson.h>

#include "gateway/internal.h"

/* Embed it first in a struct of your own. */
struct gateway_job {
    struct job job;
    struct job item;
    struct gateway *gw;
    void (*work)(struct gateway_job *j, void *thread_ctx); /* on a worker */
    void (*done)(struct gateway_job *j);                   /* on the I/O thread; frees the job */
};

void gateway__run(struct gateway *gw, struct gateway_job *j);
/* The same on another lane than the workers (its thread context is the lane's). */
void gateway__run_on(struct gateway *gw, struct workers *lane, struct gateway_job *j);
/* Publishes an event to users' connections (takes payload): to those on every node, or (with
 * everywhere 0) to this node's only. */
void gateway__publish(struct gateway *gw, const char *name, json_t *payload,
                      const char (*to)[UUID_LEN + 1], size_t n, int everywhere);

#endif
