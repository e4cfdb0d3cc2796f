/*
 * Who is notified of a message away from the page (Web Push), with no I/O: a person's levels
 * for the message's server and channel (everything, only mentions, nothing), their mutes, what
 * mentioned them, and whether they are reading that room now or asked not to be disturbed.
 */
#ifndef PRACA_DOMAIN_NOTIFY_RULES_H
#define PRACA_DOMAIN_NOTIFY_RULES_H
#include <stddef.h>
#include <stdint.h>

enum notify_level {
    NOTIFY_DEFAULT,  /* a channel's: as its server; a server's: only mentions */
    NOTIFY_ALL,      /* every message */
    NOTIFY_MENTIONS, /* only messages that mention the person */
    NOTIFY_NOTHING,
};

/* "default", "all", "mentions", "nothing"; -1 for anything else. */
int rule_notify_level_parse(const char *text);
const char *rule_notify_level_name(enum notify_level level);

/* The mute choices: 1 h, 8 h, 24 h, or until turned back (-1 as muted_until). */
#define NOTIFY_MUTED_FOREVER (-1)
/* Until when a mute of `hours` from now (ms) lasts: 0 for 0 (unmuted), NOTIFY_MUTED_FOREVER for
 * -1, else now + hours; -2 for any other number of hours. */
int64_t rule_notify_mute_until(int64_t hours, int64_t now);

/* One person's settings for one place (a server, a channel). */
struct notify_setting {
    enum notify_level level;
    int64_t muted_until;                   /* ms; 0 not muted; NOTIFY_MUTED_FOREVER */
    int suppress_everyone, suppress_roles; /* a server's only */
};

/* What the person and the message are to each other. */
struct notify_facts {
    int is_dm;          /* a DM or group conversation */
    int author;         /* the person wrote it */
    int do_not_disturb; /* their chosen status is dnd */
    int reading;        /* a page of theirs shows that room now */
    int mentioned;      /* by name */
    int role_mentioned; /* through one of their roles */
    int everyone;       /* @everyone or @here */
    struct notify_setting server, channel;
};

/* 1 when the person gets a push for the message at now, else 0. */
int rule_notify_decide(const struct notify_facts *f, int64_t now);

#endif
