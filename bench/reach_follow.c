/*
 * What a connect or leave costs the gateway's kept audience lists (src/gateway/reach.c), at
 * several sizes of one audience whose members are all connected: a second connection of a user
 * opened and closed, and a user's only connection closed and opened again, the two ways a list
 * follows a change. Prints one JSON line per size; the cost per change should not grow with it.
 *   build/bench-reach [changes per size]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateway/reach.h"

static struct gateway *gw;
static struct conn **firsts;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void id_of(size_t i, char out[UUID_LEN + 1])
{
    snprintf(out, UUID_LEN + 1, "01a1fe3b-0000-7000-8000-%012u", (unsigned)(i % 1000000000u));
}

/* As the gateway attaches a connection: first in its user's list. */
static struct conn *attach(size_t i)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    id_of(i, c->user_id);
    c->next = map_get(&gw->users, c->user_id);
    map_set(&gw->users, c->user_id, c);
    firsts[i] = c;
    gateway__reach_moved(gw, c->user_id, c->next, c);
    return c;
}

/* As the gateway detaches user i's first connection. */
static void detach_first(size_t i)
{
    struct conn *was = firsts[i];
    firsts[i] = was->next;
    if (firsts[i])
        map_set(&gw->users, was->user_id, firsts[i]);
    else
        map_remove(&gw->users, was->user_id);
    gateway__reach_moved(gw, was->user_id, was, firsts[i]);
    free(was);
}

static void count_one(struct gateway *g, struct conn *first, void *arg)
{
    (void)g;
    (void)first;
    (*(size_t *)arg)++;
}

static void run(size_t users, size_t changes)
{
    gw = calloc(1, sizeof *gw);
    firsts = calloc(users, sizeof *firsts);
    struct idset *to = idset_new(users);
    if (!gw || !firsts || !to)
        abort();
    map_init(&gw->users);
    char id[UUID_LEN + 1];
    for (size_t i = 0; i < users; i++) {
        id_of(i, id);
        idset_add(to, id);
        attach(i);
    }
    size_t reached = 0;
    gateway__reach_each(gw, to, count_one, &reached); /* the list is made and kept */
    uint64_t made = gateway__reach_made(gw);

    unsigned seed = 7;
    double t0 = now_ns();
    for (size_t k = 0; k < changes; k++) {
        size_t i = (size_t)rand_r(&seed) % users;
        attach(i);       /* a second connection becomes the first */
        detach_first(i); /* and goes */
    }
    double second = (now_ns() - t0) / (double)(2 * changes);
    t0 = now_ns();
    for (size_t k = 0; k < changes; k++) {
        size_t i = (size_t)rand_r(&seed) % users;
        detach_first(i); /* the only connection goes */
        attach(i);       /* and comes back */
    }
    double only = (now_ns() - t0) / (double)(2 * changes);

    size_t again = 0;
    gateway__reach_each(gw, to, count_one, &again);
    printf("{\"users\":%zu,\"changes\":%zu,\"secondConnectionNs\":%.0f,\"onlyConnectionNs\":%.0f,"
           "\"reached\":%zu,\"listsMadeMeanwhile\":%llu}\n",
           users, 4 * changes, second, only, again,
           (unsigned long long)(gateway__reach_made(gw) - made));
    for (size_t i = 0; i < users; i++)
        while (firsts[i])
            detach_first(i);
    gateway__reach_free(gw);
    idset_unref(to);
    map_cleanup(&gw->users);
    free(firsts);
    free(gw);
}

int main(int argc, char **argv)
{
    size_t changes = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
    static const size_t sizes[] = {1000, 10000, 100000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        run(sizes[i], changes);
    return 0;
}
