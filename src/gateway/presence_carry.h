/*
 * Who was online when this node stopped. At a drain the people connected here are written to a
 * file; the next process on the same data reads it (when fresh) and counts one stand-in
 * connection for each of them for --presence-carry-ms, so they stay online while their pages
 * come back, instead of every one of their watchers being told they came online again: after a
 * restart with 10,000 pages that was 1.6 million PRESENCE_UPDATE in a minute. Those who have not
 * come back when the stand-ins end go offline as anyone does. One node's presence only: with
 * several nodes (Redis) a connection elsewhere keeps them online anyway.
 */
#ifndef PRACA_GATEWAY_PRESENCE_CARRY_H
#define PRACA_GATEWAY_PRESENCE_CARRY_H
#include <stdint.h>

struct gateway;

/* Writes the people connected here to path (replacing it): 0, or -1 (logged). */
int gateway_carry_save(struct gateway *gw, const char *path);
/* Reads path when it was written less than carry_ms ago (then removes it) and counts a stand-in
 * connection for each person until carry_ms from now. The number carried, or -1 (logged). */
long gateway_carry_load(struct gateway *gw, const char *path, int64_t carry_ms);
/* On each sweep: once the time is over, each stand-in closes (I/O thread). */
void gateway__carry_tick(struct gateway *gw);
void gateway__carry_free(struct gateway *gw);

#endif
