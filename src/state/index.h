/*
 * A read-only hash index over an array the caller owns: open addressing of element indexes,
 * keyed by a string the caller's accessor returns for each element. Built once, then shared.
 */
#ifndef PRACA_STATE_INDEX_H
#define PRACA_STATE_INDEX_H
#include <stddef.h>
#include <stdint.h>

typedef const char *(*state_key_fn)(const void *base, uint32_t i);

struct state_index {
    uint32_t *slots; /* element index + 1; 0 = empty */
    size_t mask;
};

/* Indexes elements 0..n-1 (a repeated key keeps the first). Returns 0 or -1 (memory). */
int state__index_build(struct state_index *ix, size_t n, state_key_fn key, const void *base);
/* The element with that key, or -1. */
int64_t state__index_find(const struct state_index *ix, const char *key, state_key_fn kf,
                          const void *base);
void state__index_cleanup(struct state_index *ix);

#endif
