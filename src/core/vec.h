/*
 * Growing a heap array one element at a time: the capacity doubles (from `first`), so n
 * appends cost O(n) copies in all. The array, its count and its capacity stay the caller's.
 */
#ifndef PRACA_CORE_VEC_H
#define PRACA_CORE_VEC_H
#include <stddef.h>

/* Makes room for element n of *items (of size bytes each) when n == *cap. Returns 0, or -1 when
 * out of memory (*items and *cap unchanged). */
int vec_reserve(void **items, size_t *cap, size_t n, size_t size, size_t first);
#define VEC_RESERVE(arr, n, cap, first)                                                            \
    vec_reserve((void **)&(arr), &(cap), (n), sizeof *(arr), (first))

#endif
