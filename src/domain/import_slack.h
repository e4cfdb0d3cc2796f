/*
 * Reading a Slack workspace's export (the folder its zip unpacks to: users.json, channels.json,
 * groups.json for private channels, and a folder per channel of one JSON array of messages per
 * day), with no I/O: jansson values in, what an import writes out (strings borrowed from those
 * values). Described in docs/importing.md.
 */
#ifndef PRACA_DOMAIN_IMPORT_SLACK_H
#define PRACA_DOMAIN_IMPORT_SLACK_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct rule_slack_user {
    const char *id, *name; /* name: the display name, else the real name, else the handle */
    const char *email;     /* the profile's, or NULL */
    const char *picture;   /* the profile's largest image link (image_512 … image_72), or NULL */
};
int rule_slack_user(const json_t *u, struct rule_slack_user *out, const char **why);

struct rule_slack_channel {
    const char *id, *name, *topic; /* topic: its purpose, else its topic; NULL: none */
    const json_t *members;         /* user IDs */
};
int rule_slack_channel(const json_t *c, struct rule_slack_channel *out, const char **why);

struct rule_slack_message {
    const char *ts;        /* its ID in its channel ("1690000000.000200") */
    const char *thread_ts; /* a reply's thread, NULL for a message in the channel */
    const char *user;      /* the author's ID; a bot's post: "bot:" is not added here */
    const char *bot_name;  /* a bot's post (subtype bot_message): the name it showed, else NULL */
    const char *text;
    int64_t at, edited_at;
    int pinned;      /* pinned in channel_id */
    int has_replies; /* starts a thread */
    int system;      /* a join, a leave, a topic change…: Slack's own, left out */
    const json_t *reactions, *files;
};
/* One message of a day's file, in channel_id: 0, or -1 with *why. */
int rule_slack_message(const json_t *m, const char *channel_id, struct rule_slack_message *out,
                       const char **why);
/* "1690000000.000200" as milliseconds (0 when it is not a Slack timestamp). */
int64_t rule_slack_ts_ms(const char *ts);
/* Reaction i: its Unicode emoji (NULL for a workspace's own) and its users' IDs. 0, or -1 past
 * the last. */
int rule_slack_reaction(const struct rule_slack_message *m, size_t i, const char **emoji,
                        const json_t **users);
/* A message's file as the export names it: its ID and name ("" when none), and its link
 * (url_private_download, else url_private; NULL when none). */
struct rule_slack_file {
    const char *id, *name, *url;
};
/* File i: 0, or 1 past the last. */
int rule_slack_file(const struct rule_slack_message *m, size_t i, struct rule_slack_file *out);
/* The text as Praça's Markdown (domain/webhook_formats.h's mrkdwn), with <@U…> as @name by
 * name_of (NULL: unknown, shown as @someone), <#C…|name> as #name and <!here> as @here. A
 * malloc'd string, NULL when out of memory. */
char *rule_slack_text(const char *text, const char *(*name_of)(void *arg, const char *id),
                      void *arg);

#endif
