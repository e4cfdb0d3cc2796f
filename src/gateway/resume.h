/*
 * Resuming from the event log: a bot that reconnects with the pid and offset of a session this
 * process does not know (it restarted, or the session's window passed) gets, from the log, every
 * event after its offset that it may receive *now* (intent on, channel visible), in order, then
 * what was delivered while the log was being read, and only then live events. When the log no
 * longer holds what follows its offset, an EVENTS_GAP event comes first.
 */
#ifndef PRACA_GATEWAY_RESUME_H
#define PRACA_GATEWAY_RESUME_H
#include <stdint.h>

#include "gateway/internal.h"

#define RESUME_MAX 20000 /* events replayed from the log at most; past that, a gap */

/* Starts resuming c (attached, marked replaying) from offset under the client's pid; answers
 * its CONNECT when the replay is ready. */
void gateway__resume_from_log(struct gateway *gw, struct conn *c, const char *pid, uint64_t offset);

#endif
