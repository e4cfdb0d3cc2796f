/* A hash map from short strings (copied) to pointers. Not thread-safe: one owner thread. */
#ifndef PRACA_CORE_MAP_H
#define PRACA_CORE_MAP_H
#include <stddef.h>

struct map_entry {
    char *key;
    void *value;
    struct map_entry *next;
};

struct map {
    struct map_entry **buckets;
    size_t nbuckets;
    size_t count;
};

void map_init(struct map *m);
/* Frees the entries (not the values). */
void map_cleanup(struct map *m);
void *map_get(const struct map *m, const char *key);
/* Sets or replaces; returns 0, or -1 when out of memory. */
int map_set(struct map *m, const char *key, void *value);
/* Removes and returns the value (NULL when absent). */
void *map_remove(struct map *m, const char *key);
/* For a map of malloc'd strings: a copy of value under key, the value before freed (NULL value:
 * none kept). 0, or -1 out of memory. */
int map_set_copy(struct map *m, const char *key, const char *value);
/* Removes each entry whose value `drop` says 1 of, handing its value to release (may be NULL);
 * returns how many. Neither may change the map. */
size_t map_remove_if(struct map *m, int (*drop)(void *value, void *arg), void *arg,
                     void (*release)(void *value));
/* Calls fn for each entry; fn must not change the map. */
void map_each(const struct map *m, void (*fn)(const char *key, void *value, void *arg), void *arg);

#endif
