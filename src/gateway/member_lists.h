/*
 * Member lists for people's pages, by range (state/member_list.h). A page subscribes with
 *   members:subscribe {serverId, channelId, ranges: [[0, 99], [100, 199], …]}
 * (at most LISTS_RANGES ranges, each of 100 rows starting at a multiple of 100; serverId null
 * ends the subscription) and is answered with {serverId, channelId, memberCount, onlineCount,
 * groups, ranges: [{range, rows}]}. From then on MEMBER_LIST_UPDATE, of the same shape, brings
 * the counts and each of its ranges whose rows changed, whole. A connection holds one
 * subscription; a bot's connection none.
 *
 * A list is kept per server and channel while pages subscribe to it (LISTS_KEEP_MS after the
 * last leaves, while the node holds few), and built on a worker. Every LISTS_TICK_MS the lists
 * whose server changed (state_server_changed) follow it on a worker by the versions' difference, or
 * are built again after a new shape; presence (BUS_PRESENCE, from any node) moves a row in place.
 * Then each changed range is made once and sent to its subscribers. I/O thread only.
 */
#ifndef PRACA_GATEWAY_MEMBER_LISTS_H
#define PRACA_GATEWAY_MEMBER_LISTS_H

#include "bus/bus.h"
#include "gateway/internal.h"

#define LISTS_RANGES  3
#define LISTS_TICK_MS 100
#define LISTS_SOON_MS 5
#define LISTS_KEEP_MS 30000
#define LISTS_MAX     1024 /* lists held on one node */
/* Members held in all of a node's lists (about 100 bytes each): past LISTS_ROWS_KEEP a list
 * nobody follows goes at once, past LISTS_ROWS_MAX no new list is made. */
#define LISTS_ROWS_KEEP 500000
#define LISTS_ROWS_MAX  2000000

/* 0, or -1 without memory. */
int gateway__lists_init(struct gateway *gw);
/* As the gateway drains: the timer closes, subscriptions end. */
void gateway__lists_close(struct gateway *gw);
void gateway__lists_cleanup(struct gateway *gw);

/* members:subscribe from connection c. */
void gateway__lists_subscribe(struct gateway *gw, struct conn *c, json_t *payload, int64_t ack_id);
/* c is going: its subscription ends. */
void gateway__lists_leave(struct gateway *gw, struct conn *c);
/* A BUS_KIND_PRESENCE control: a user's shown status, for the lists that show them. */
void gateway__lists_presence(struct gateway *gw, const struct bus_control *c);
/* A member event or a server's change went by: the lists look at their servers within
 * LISTS_SOON_MS rather than at the next tick. */
void gateway__lists_soon(struct gateway *gw);

#endif
