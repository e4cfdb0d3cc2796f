/*
 * Delivery of a bus event to those of its audience connected here: with its recovery offset
 * when it is logged and the connection opted in, to the pages with its room open for a
 * server's typing, noted for the portal's console while one is open. I/O thread only.
 */
#ifndef PRACA_GATEWAY_DELIVER_H
#define PRACA_GATEWAY_DELIVER_H
#include "gateway/internal.h"

struct bus_event;
void gateway__fan_out(struct gateway *gw, const struct bus_event *ev);

#endif
