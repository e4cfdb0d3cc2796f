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
};

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603u;
    for (size_t i = 0; i < UUID_LEN; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

struct idset *idset_new(size_t cap)
{
    struct idset *s = calloc(1, sizeof *s);
    if (!s || cap > UINT32_MAX / 4)
        goto fail;
    size_t nslots = 8;
    while (nslots < cap * 2)
        nslots *= 2;
    s->slots = calloc(nslots, sizeof *s->slots);
    s->ids = malloc((cap ? cap : 1) * sizeof *s->ids);
    if (!s->slots || !s->ids)
        goto fail;
    atomic_init(&s->refs, 1);
    s->cap = cap;
    s->mask = nslots - 1;
    return s;
fail:
    if (s) {
        free(s->slots);
        free(s->ids);
    }
    free(s);
    return NULL;
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

int idset_add(struct idset *s, const char *id)
{
    if (strnlen(id, UUID_LEN + 1) != UUID_LEN)
        return -1;
    uint32_t *p = slot_of(s, id);
    if (*p)
        return 0;
    if (s->count == s->cap)
        return -1;
    memcpy(s->ids[s->count], id, UUID_LEN + 1);
    *p = (uint32_t)++s->count;
    return 0;
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
        for (size_t k = 0; k < idset_count(sets[i]); k++)
            if (!skip || strcmp(idset_at(sets[i], k), skip))
                idset_add(all, idset_at(sets[i], k));
    }
    return all;
}

size_t idset_count(const struct idset *s)
{
    return s ? s->count : 0;
}

const char *idset_at(const struct idset *s, size_t i)
{
    return s->ids[i];
}

int idset_has(const struct idset *s, const char *id)
{
    return s && strnlen(id, UUID_LEN + 1) == UUID_LEN && *slot_of(s, id) != 0;
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
    free(s->slots);
    free(s->ids);
    free(s);
}
