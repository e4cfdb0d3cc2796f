/*
 * Scheduled messages and reminders taken when due (api/due.c): api_due_tick, every second on
 * the I/O thread, hands what is due to one worker job at a time.
 */
#ifndef PRACA_API_DUE_H
#define PRACA_API_DUE_H

struct api_service;
struct api_due;

struct api_due *api_due_new(struct api_service *svc);
void api_due_tick(struct api_due *d);
/* Counters since the start (any thread). */
void api_due_stats(struct api_due *d, unsigned long *sent, unsigned long *failed,
                   unsigned long *reminded);
/* After the workers stopped. */
void api_due_free(struct api_due *d);

#define API_DUE_TICK_MS 1000

#endif
