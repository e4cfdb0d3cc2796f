/*
 * A user's first connection here, or the last one closing, may change what people see of them:
 * the user is noted, and one worker job at a time reads, PRESENCE_LIVE_WAIT_MS later, for up
 * to PRESENCE_LIVE_BATCH noted users, their shown status and who shares a server with them
 * (state_presence_watchers), then publishes PRESENCE_UPDATE {userId, status, activity} to those
 * people on every node. One job at a time keeps the updates in the order of the changes, each
 * reading the status as it is by then, and bounds what a flapping client costs. A user found
 * connected to other nodes only is still online to everyone: nothing is said then, but the user is
 * looked at once more a second or two later, for the case where their last connections closed on
 * two nodes at once (each node seeing the other's before it went). A user whose last connection
 * closed is said offline only after --presence-grace-ms, if none came back meanwhile: a page
 * that reconnects after a drop, or is reloaded, costs everyone who watches it nothing.
 * I/O thread only.
 */
#ifndef PRACA_GATEWAY_PRESENCE_LIVE_H
#define PRACA_GATEWAY_PRESENCE_LIVE_H

#include "bus/bus.h"
#include "gateway/internal.h"

#define PRESENCE_LIVE_BATCH   64
#define PRESENCE_LIVE_WAIT_MS 100
#define GATEWAY_SWEEP_MS      1000 /* the gateway's sweep, which ticks presence */

/* With the gateway's loop: 0, or -1 without memory; gateway__presence_close as it drains,
 * before the loop's last run. */
int gateway__presence_init(struct gateway *gw);
void gateway__presence_close(struct gateway *gw);

void gateway__presence_note(struct gateway *gw, const char *user_id);
/* A status chosen (BUS_PRESENCE with `chosen`) while a batch is out: the batch may have read the
 * status before the choice and would publish it after, undoing it, so the user is looked at
 * again once the batch is back. */
void gateway__presence_chosen(struct gateway *gw, const struct bus_control *c);
/* Every second (the gateway's sweep): the users to look at once more go back to the queue. */
void gateway__presence_tick(struct gateway *gw);
/* Forgets what is noted and not yet sent (the gateway is going). */
void gateway__presence_cleanup(struct gateway *gw);

#endif
