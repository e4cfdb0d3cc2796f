/*
 * Reading a Discord server's history as DiscordChatExporter writes it (its JSON export, version
 * 2: one file per channel or thread, {guild, channel, messages: [...]}), with no I/O: jansson
 * values in, what an import writes out (strings borrowed from those values). A file is read as
 * its header (the document with its messages array emptied) and then each message on its own
 * (domain/json_split.h), so a channel of a million messages is never held whole. A message the
 * reader cannot use says why; one that is not a person's words (a join, a pin notice, a call)
 * is marked so the import leaves it out. Described in docs/importing.md.
 */
#ifndef PRACA_DOMAIN_IMPORT_DISCORD_H
#define PRACA_DOMAIN_IMPORT_DISCORD_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define RULE_DISCORD_FORMAT_VERSION 2
/* Discord's name for an author whose account was deleted; they all share one ID. */
#define RULE_DISCORD_DELETED_NAME "Deleted User"

struct rule_discord_channel {
    const char *guild_id, *guild_name;
    const char *id, *name, *topic; /* topic NULL: none */
    /* A channel's category (NULL: none), or a thread's parent channel. */
    const char *category_id, *category;
    int is_thread;
};
/* The file's header: 0, or -1 with *why when it is not a channel's export. */
int rule_discord_channel(const json_t *root, struct rule_discord_channel *out, const char **why);

struct rule_discord_author {
    const char *id, *name; /* name: the server nickname when there was one */
    const char *avatar; /* avatarUrl: a link, or a path beside the export (--media); NULL: none */
    int is_bot;
    const json_t *roles; /* the author's roles, read with rule_discord_role; NULL: none */
};

struct rule_discord_role {
    const char *id, *name;
    int64_t color;    /* 0xRRGGBB, 0 for none */
    int64_t position; /* higher ranks higher, as Discord's */
};
/* Role i of an author's: 0, or -1 past the last or for one without id or name. */
int rule_discord_role(const struct rule_discord_author *a, size_t i, struct rule_discord_role *out);

struct rule_discord_message {
    const char *id;
    int64_t at, edited_at; /* Unix milliseconds; edited_at 0: never edited */
    int pinned;
    int system; /* not a person's words: left out */
    const char *content;
    const char *reply_to; /* the message it answered (NULL: none) */
    struct rule_discord_author author;
    const json_t *reactions;   /* array of {emoji: {id, name}, count, users: [author]} or NULL */
    const json_t *attachments; /* array of {url, fileName} or NULL */
};
/* One element of the messages array: 0, or -1 with *why. */
int rule_discord_message(const json_t *m, struct rule_discord_message *out, const char **why);

/* Reaction j of m: its emoji (a Unicode emoji; NULL for a server's own emoji, which an import
 * leaves out) and its users (an array of authors, NULL when none are named). 0, or -1 past the
 * last. */
int rule_discord_reaction(const struct rule_discord_message *m, size_t j, const char **emoji,
                          const json_t **users);
/* Reads an author object (a reaction's user, a message's author): 0, or -1 with *why. */
int rule_discord_author(const json_t *a, struct rule_discord_author *out, const char **why);

/* The millisecond a Discord ID (a snowflake, decimal) was made at: 0 when it is not one. */
int64_t rule_discord_snowflake_ms(const char *id);

#endif
