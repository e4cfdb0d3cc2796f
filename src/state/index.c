/* Read-only hash indexes: see index.h. */
#include "state/index.h"

#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211u;
    return h;
}

int state__index_build(struct state_index *ix, size_t n, state_key_fn key, const void *base)
{
    size_t nslots = 8;
    while (nslots < n * 2)
        nslots *= 2;
    ix->slots = calloc(nslots, sizeof *ix->slots);
    ix->mask = nslots - 1;
    if (!ix->slots)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        const char *k = key(base, i);
        size_t s = hash(k) & ix->mask;
        while (ix->slots[s] && strcmp(key(base, ix->slots[s] - 1), k))
            s = (s + 1) & ix->mask;
        if (!ix->slots[s])
            ix->slots[s] = i + 1;
    }
    return 0;
}

int64_t state__index_find(const struct state_index *ix, const char *key, state_key_fn kf,
                          const void *base)
{
    if (!ix->slots)
        return -1;
    for (size_t s = hash(key) & ix->mask; ix->slots[s]; s = (s + 1) & ix->mask)
        if (!strcmp(kf(base, ix->slots[s] - 1), key))
            return ix->slots[s] - 1;
    return -1;
}

void state__index_cleanup(struct state_index *ix)
{
    free(ix->slots);
    ix->slots = NULL;
}
