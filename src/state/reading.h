/*
 * Who reads which room now: the room each of a person's pages shows while it is in view
 * (channel:view), kept by the gateway and asked by Web Push, which sends nothing about a room
 * the person is reading on one of their devices. With several nodes, each node's rooms go to
 * Redis too (through presence's thread, state/presence_shared.h), and a room read on another
 * node counts.
 */
#ifndef PRACA_STATE_READING_H
#define PRACA_STATE_READING_H

struct reading;

struct reading *state__reading_new(void);
void state__reading_free(struct reading *r);
/* Page conn of user shows room now (NULL or "": none, or it is out of view). Any thread. */
void state_reading_set(struct reading *r, const char *user, const void *conn, const char *room);
/* Several nodes: the rooms read here are told to the others through p (state/presence.h). Set
 * once, before the gateway runs. */
struct presence;
void state_reading_share(struct reading *r, struct presence *p);
/* 1 when a page of user shows room now, here or on another node. Any thread (it may wait on
 * Redis: not the I/O thread's to ask). */
int state_reading_has(struct reading *r, const char *user, const char *room);

#endif
