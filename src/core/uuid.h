/*
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit counter, then random bits.
 * IDs made by one process sort in creation order, which is what lets message history walk
 * the primary-key index instead of sorting.
 */
#ifndef PRACA_CORE_UUID_H
#define PRACA_CORE_UUID_H
#include <stddef.h>
#include <stdint.h>

#define UUID_LEN 36

void uuid_v7(char out[UUID_LEN + 1]);
/* The smallest UUIDv7 text of millisecond ms: every ID made before ms sorts below it. */
void uuid_v7_floor(int64_t ms, char out[UUID_LEN + 1]);
/* 1 when s is a canonical lowercase or uppercase 8-4-4-4-12 hex UUID. */
int uuid_valid(const char *s, size_t len);

#endif
