/* Growing arrays: see vec.h. */
#include "core/vec.h"

#include <stdint.h>
#include <stdlib.h>

int vec_reserve(void **items, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return 0;
    if (*cap > SIZE_MAX / 2 / size)
        return -1;
    size_t next = *cap ? *cap * 2 : (first ? first : 1);
    if (next > SIZE_MAX / size)
        return -1;
    void *p = realloc(*items, next * size);
    if (!p)
        return -1;
    *items = p;
    *cap = next;
    return 0;
}
