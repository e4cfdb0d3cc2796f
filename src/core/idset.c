/* Shared ID sets: see idset.h. Open addressing over indexes into the ID array. */
#include "core/idset.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct idset {
    atomic_int refs;
    size_t count, cap, mask;
    uint32_t *slots; /* index + 1; 0 = empty */
    char (*ids)[UUID_LEN + 1];
    struct pmap map; /* instead, with map.key set: a persistent map's keys */
};

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603u;
    for (size_t i = 0; i < UUID_LEN; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* One block: the set, its slots, then its IDs; a relayed event's audience costs one
 * allocation, not three. */
struct idset *idset_new(size_t cap)
{
    if (cap > UINT32_MAX / 4)
        return NULL;
    size_t nslots = 8;
    while (nslots < cap * 2)
        nslots *= 2;
    size_t ncap = cap ? cap : 1;
    struct idset *s = malloc(sizeof *s + nslots * sizeof *s->slots + ncap * sizeof *s->ids);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->slots = (uint32_t *)(s + 1);
    memset(s->slots, 0, nslots * sizeof *s->slots);
    s->ids = (char(*)[UUID_LEN + 1])(s->slots + nslots);
    atomic_init(&s->refs, 1);
    s->cap = cap;
    s->mask = nslots - 1;
    return s;
}

/* The slot holding id, or the empty slot where it would go. */
static uint32_t *slot_of(const struct idset *s, const char *id)
{
    for (size_t i = hash(id) & s->mask;; i = (i + 1) & s->mask) {
        uint32_t *p = &s->slots[i];
        if (!*p || !memcmp(s->ids[*p - 1], id, UUID_LEN))
            return p;
    }
}

int idset_add_n(struct idset *s, const char *id, size_t len)
{
    if (s->map.key || len != UUID_LEN)
        return -1;
    uint32_t *p = slot_of(s, id);
    if (*p)
        return 0;
    if (s->count == s->cap)
        return -1;
    memcpy(s->ids[s->count], id, UUID_LEN);
    s->ids[s->count][UUID_LEN] = '\0';
    *p = (uint32_t)++s->count;
    return 0;
}

int idset_add(struct idset *s, const char *id)
{
    return idset_add_n(s, id, strnlen(id, UUID_LEN + 1));
}

struct idset *idset_of(const char (*ids)[UUID_LEN + 1], size_t n)
{
    struct idset *s = idset_new(n);
    for (size_t i = 0; s && i < n; i++)
        if (idset_add(s, ids[i])) {
            idset_unref(s);
            return NULL;
        }
    return s;
}

struct union_arg {
    struct idset *all;
    const char *skip;
};

static void add_unless_skipped(const char *id, void *arg)
{
    struct union_arg *u = arg;
    if (!u->skip || strcmp(id, u->skip))
        idset_add(u->all, id);
}

struct idset *idset_union(struct idset *const *sets, size_t n, size_t max_each, const char *skip)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        if (!max_each || idset_count(sets[i]) <= max_each)
            total += idset_count(sets[i]);
    struct idset *all = idset_new(total ? total : 1);
    for (size_t i = 0; all && i < n; i++) {
        if (max_each && idset_count(sets[i]) > max_each)
            continue;
        struct union_arg u = {all, skip};
        idset_each(sets[i], add_unless_skipped, &u);
    }
    return all;
}

struct idset *idset_of_pmap(struct pmap *m)
{
    struct idset *s = calloc(1, sizeof *s);
    if (!s) {
        pmap_cleanup(m);
        return NULL;
    }
    atomic_init(&s->refs, 1);
    s->map = *m;
    s->count = m->count;
    pmap_init(m, m->key);
    return s;
}

const struct pmap *idset_pmap(const struct idset *s)
{
    return s && s->map.key ? &s->map : NULL;
}

size_t idset_count(const struct idset *s)
{
    return s ? s->count : 0;
}

struct each_arg {
    const struct pmap *map;
    void (*fn)(const char *id, void *arg);
    void *arg;
};

static void each_key(struct pmap_value *v, void *arg)
{
    struct each_arg *e = arg;
    e->fn(e->map->key(v), e->arg);
}

void idset_each(const struct idset *s, void (*fn)(const char *id, void *arg), void *arg)
{
    if (!s)
        return;
    if (s->map.key) {
        struct each_arg e = {&s->map, fn, arg};
        pmap_each(&s->map, each_key, &e);
        return;
    }
    for (size_t i = 0; i < s->count; i++)
        fn(s->ids[i], arg);
}

int idset_has(const struct idset *s, const char *id)
{
    if (!s || strnlen(id, UUID_LEN + 1) != UUID_LEN)
        return 0;
    return s->map.key ? pmap_get(&s->map, id) != NULL : *slot_of(s, id) != 0;
}

struct idset *idset_ref(struct idset *s)
{
    if (s)
        atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    return s;
}

void idset_unref(struct idset *s)
{
    if (!s || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    pmap_cleanup(&s->map);
    free(s); /* its slots and IDs with it */
}

struct copy_out {
    char (*ids)[UUID_LEN + 1];
    size_t n;
};

static void copy_one(const char *id, void *arg)
{
    struct copy_out *a = arg;
    memcpy(a->ids[a->n++], id, UUID_LEN + 1);
}

int idset_copy_out(const struct idset *s, char (**to)[UUID_LEN + 1], size_t *n)
{
    size_t count = idset_count(s);
    *to = NULL;
    *n = 0;
    if (!count)
        return 0;
    struct copy_out a = {malloc(count * sizeof **to), 0};
    if (!a.ids)
        return -1;
    idset_each(s, copy_one, &a);
    *to = a.ids;
    *n = a.n;
    return 0;
}
