/*
 * Who may receive a logged event *now*: the one user it was addressed to, or the bots of its
 * server whose intent is on and who may see its channel today (a role or an overwrite changed
 * since, an intent switched off: the event is withheld), and who were members when it happened
 * (a bot installed later gets nothing from before). A redacted event (its message was deleted)
 * goes to nobody. Used when replaying the event log.
 */
#ifndef PRACA_STATE_ENTITLE_H
#define PRACA_STATE_ENTITLE_H
#include "state/state.h"
#include "store/event_log.h"

/* Runs of events from one server reuse its snapshot. */
struct entitle {
    struct state *state;
    struct store *db;
    struct state_server *srv;
    /* Each server is loaded from db, not taken from memory: for events that did not come by the
     * relay, whose change marks may have been lost with them. */
    int fresh;
};

int state_entitled(struct entitle *e, const char *user_id, const struct store_event *ev);
/* Everyone who gets ev now as it was sent live: the one user it was addressed to, or the bots
 * with its intent and the people who may see its channel (the whole server's for a server-wide
 * event). A new reference; NULL when nobody (the server or channel is gone) or out of memory. */
struct idset *state_event_audience(struct entitle *e, const struct store_event *ev);
/* Releases the snapshot held. */
void state_entitle_done(struct entitle *e);

#endif
