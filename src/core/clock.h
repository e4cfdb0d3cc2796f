/*
 * Wall-clock time in milliseconds, and its text forms.
 *
 * Tests move time forward with clock_advance_ms (reachable only through the test-only
 * configuration), so expiry rules are tested without sleeping.
 */
#ifndef PRACA_CORE_CLOCK_H
#define PRACA_CORE_CLOCK_H
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define CLOCK_ISO_LEN 24 /* 2026-11-21T12:00:00.000Z */

int64_t clock_now_ms(void);
/* The machine's wall clock, never moved by tests: for times that other processes compare. */
int64_t clock_wall_ms(void);
/* The moment ms milliseconds from now, as pthread_cond_timedwait takes it (the machine's wall
 * clock, never moved by tests). */
struct timespec clock_deadline(int64_t ms);
/* Monotonic milliseconds, for timeouts and durations. */
int64_t clock_mono_ms(void);
void clock_advance_ms(int64_t delta);
/* Writes CLOCK_ISO_LEN characters and a NUL. */
void clock_format_iso(int64_t ms, char out[CLOCK_ISO_LEN + 1]);
/* Accepts ISO 8601 (`2026-11-21T12:00:00Z`, optional .mmm, Z or ±HH:MM) and
 * `YYYY-MM-DD HH:MM:SS`. Returns 0, or -1 when the text is not a valid time. */
int clock_parse(const char *s, size_t len, int64_t *out_ms);

#endif
