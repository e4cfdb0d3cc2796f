/*
 * Reading Mattermost's bulk export (JSONL, version 1, as `mmctl export create` writes it: one
 * object a line, {"type": "version" | "team" | "channel" | "user" | "post" | "direct_channel" |
 * "direct_post" | "emoji" …, <type>: {…}}), with no I/O: a line's jansson value in, what an
 * import writes out (strings borrowed from the value). Described in docs/importing.md.
 */
#ifndef PRACA_DOMAIN_IMPORT_MATTERMOST_H
#define PRACA_DOMAIN_IMPORT_MATTERMOST_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define RULE_MM_FORMAT_VERSION 1

enum rule_mm_kind {
    RULE_MM_OTHER, /* a kind an import leaves out (direct messages, emoji, schemes …) */
    RULE_MM_VERSION,
    RULE_MM_TEAM,
    RULE_MM_CHANNEL,
    RULE_MM_USER,
    RULE_MM_POST,
    RULE_MM_DIRECT_POST,
};
/* The line's kind: 0, or -1 with *why when it is not one of the export's lines. */
int rule_mm_kind(const json_t *line, enum rule_mm_kind *kind, const char **why);
/* The version line's number (0 when the line is not one). */
int64_t rule_mm_version(const json_t *line);

struct rule_mm_team {
    const char *name, *display_name;
};
int rule_mm_team(const json_t *line, struct rule_mm_team *out, const char **why);

struct rule_mm_channel {
    const char *team, *name, *display_name, *topic; /* topic: its purpose, else its header */
    int is_private;
};
int rule_mm_channel(const json_t *line, struct rule_mm_channel *out, const char **why);

struct rule_mm_user {
    const char *username, *email; /* email: NULL when none */
    const char *picture;          /* profile_image: its path in the export, or NULL */
    char name[160];               /* its nickname, else "first last", else its username */
    const json_t *teams;
};
int rule_mm_user(const json_t *line, struct rule_mm_user *out, const char **why);
/* Channel i (any team's: *team says which) the user is in: its name, or NULL past the last. */
const char *rule_mm_user_channel(const struct rule_mm_user *u, size_t i, const char **team);

struct rule_mm_post {
    const char *team, *channel, *user, *message;
    int64_t at;
    int pinned;
    const json_t *replies, *reactions, *attachments;
};
int rule_mm_post(const json_t *line, struct rule_mm_post *out, const char **why);
/* Reply i of a post (team and channel are the post's): 0, or -1 past the last or with *why. */
int rule_mm_reply(const struct rule_mm_post *post, size_t i, struct rule_mm_post *out,
                  const char **why);
/* Reaction i of a post or reply: who, its emoji as Unicode (NULL for a name with none: a
 * server's own emoji), when. 0, or -1 past the last. */
int rule_mm_reaction(const struct rule_mm_post *p, size_t i, const char **user, const char **emoji,
                     int64_t *at);
/* Attachment i's path in the export ("" when none), or NULL past the last; its file name the
 * path's last part. */
const char *rule_mm_attachment(const struct rule_mm_post *p, size_t i, const char **name);

#endif
