/* String map: see map.h. Chained buckets, doubled when the load passes 1. */
#include "core/map.h"

#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211u;
    return h;
}

void map_init(struct map *m)
{
    m->buckets = NULL;
    m->nbuckets = 0;
    m->count = 0;
}

void map_cleanup(struct map *m)
{
    for (size_t i = 0; i < m->nbuckets; i++) {
        for (struct map_entry *e = m->buckets[i], *next; e; e = next) {
            next = e->next;
            free(e->key);
            free(e);
        }
    }
    free(m->buckets);
    map_init(m);
}

static struct map_entry **slot(const struct map *m, const char *key)
{
    struct map_entry **pp = &m->buckets[hash(key) & (m->nbuckets - 1)];
    while (*pp && strcmp((*pp)->key, key) != 0)
        pp = &(*pp)->next;
    return pp;
}

void *map_get(const struct map *m, const char *key)
{
    if (!m->nbuckets)
        return NULL;
    struct map_entry *e = *slot(m, key);
    return e ? e->value : NULL;
}

static int grow(struct map *m)
{
    size_t n = m->nbuckets ? m->nbuckets * 2 : 64;
    struct map_entry **b = calloc(n, sizeof *b);
    if (!b)
        return -1;
    for (size_t i = 0; i < m->nbuckets; i++) {
        for (struct map_entry *e = m->buckets[i], *next; e; e = next) {
            next = e->next;
            size_t k = hash(e->key) & (n - 1);
            e->next = b[k];
            b[k] = e;
        }
    }
    free(m->buckets);
    m->buckets = b;
    m->nbuckets = n;
    return 0;
}

int map_set(struct map *m, const char *key, void *value)
{
    if (m->count >= m->nbuckets && grow(m))
        return -1;
    struct map_entry **pp = slot(m, key);
    if (*pp) {
        (*pp)->value = value;
        return 0;
    }
    struct map_entry *e = malloc(sizeof *e);
    char *k = strdup(key);
    if (!e || !k) {
        free(e);
        free(k);
        return -1;
    }
    e->key = k;
    e->value = value;
    e->next = NULL;
    *pp = e;
    m->count++;
    return 0;
}

void *map_remove(struct map *m, const char *key)
{
    if (!m->nbuckets)
        return NULL;
    struct map_entry **pp = slot(m, key);
    struct map_entry *e = *pp;
    if (!e)
        return NULL;
    void *v = e->value;
    *pp = e->next;
    free(e->key);
    free(e);
    m->count--;
    return v;
}

size_t map_remove_if(struct map *m, int (*drop)(void *value, void *arg), void *arg,
                     void (*release)(void *value))
{
    size_t removed = 0;
    for (size_t i = 0; i < m->nbuckets; i++)
        for (struct map_entry **pp = &m->buckets[i], *e; (e = *pp);) {
            if (!drop(e->value, arg)) {
                pp = &e->next;
                continue;
            }
            *pp = e->next;
            if (release)
                release(e->value);
            free(e->key);
            free(e);
            removed++;
        }
    m->count -= removed;
    return removed;
}

void map_each(const struct map *m, void (*fn)(const char *key, void *value, void *arg), void *arg)
{
    for (size_t i = 0; i < m->nbuckets; i++)
        for (struct map_entry *e = m->buckets[i]; e; e = e->next)
            fn(e->key, e->value, arg);
}

int map_set_copy(struct map *m, const char *key, const char *value)
{
    free(map_remove(m, key));
    char *copy = value ? strdup(value) : NULL;
    if (value && (!copy || map_set(m, key, copy))) {
        free(copy);
        return -1;
    }
    return 0;
}
