/*
 * Several nodes: logged events reach this node from its own writer and, through the relay, from
 * the others', in an order that can differ from their positions (each node relays after its
 * own commit), and sometimes not at all (a node killed between its commit and the relay, Redis
 * down or trimmed). Positions have no holes (store/event_log.h), so the gateway delivers logged
 * events in position order, each once: one past the next expected waits; a hole that stays past
 * a short wait is read from the event log and delivered to whoever here may receive it now;
 * and a look at the log's last position every second finds a hole at the end. A socket's
 * offset is then never past an event it has not had. I/O thread only.
 */
#ifndef PRACA_GATEWAY_SEQUENCE_H
#define PRACA_GATEWAY_SEQUENCE_H
#include <stdint.h>

#include "bus/bus.h"
#include "gateway/internal.h"

struct sequence;

/* Starts a timer on gw's loop. Positions up to `delivered` are taken as delivered. */
struct sequence *gateway__sequence_new(struct gateway *gw, uint64_t delivered);
void gateway__sequence_start_at(struct sequence *s, uint64_t delivered);
/* A logged event off the bus: delivered now with those it unblocks (gateway__fan_out), kept
 * until the events before it are in, or dropped as one already delivered. */
void gateway__sequence_accept(struct sequence *s, const struct bus_event *ev);
/* Stops the timer (the gateway is draining); events still coming are delivered in order. */
void gateway__sequence_stop(struct sequence *s);
/* After the loop has closed the timer. gateway__sequence_free(NULL) does nothing. */
void gateway__sequence_free(struct sequence *s);

#endif
