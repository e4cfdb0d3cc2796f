/*
 * Who reads which room now: the room each of a person's pages shows while it is in view
 * (channel:view), kept by the gateway and asked by Web Push, which sends nothing about a room
 * the person is reading on one of their devices. This node's pages only.
 */
#ifndef PRACA_STATE_READING_H
#define PRACA_STATE_READING_H

struct reading;

struct reading *state__reading_new(void);
void state__reading_free(struct reading *r);
/* Page conn of user shows room now (NULL or "": none, or it is out of view). Any thread. */
void state_reading_set(struct reading *r, const char *user, const void *conn, const char *room);
/* 1 when a page of user shows room now. Any thread. */
int state_reading_has(struct reading *r, const char *user, const char *room);

#endif
