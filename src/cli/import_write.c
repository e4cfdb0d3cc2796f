/* praca import's writes: see import_write.h. */
#include "cli/import_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/map.h"
#include "domain/emoji.h"
#include "domain/import_ids.h"
#include "domain/message_rules.h"
#include "domain/permissions.h"
#include "store/imports.h"

#define NAME_MAX_CHARS 32 /* a display name's, as the API's */
#define TEXT_MAX_BYTES ((size_t)1 << 20)
#define YIELD_MIN_MS   1
#define YIELD_MAX_MS   100

/* A step of the import, as a transaction runs it. */
struct step {
    struct cli_import *im;
    int (*fn)(struct cli_import *im, void *arg);
    void *arg;
};

static int run_step(struct store *db, void *arg)
{
    (void)db;
    struct step *s = arg;
    return s->fn(s->im, s->arg);
}

/* Runs fn inside a transaction of its own: 0 committed, -1 rolled back. */
static int transaction(struct cli_import *im, int (*fn)(struct cli_import *, void *), void *arg)
{
    struct step s = {im, fn, arg};
    return store_import_transaction(im->db, run_step, &s);
}

int cli_import_note_channel(struct cli_import *im, const char *discord_id)
{
    if (im->nchannels == im->channels_cap) {
        size_t cap = im->channels_cap ? 2 * im->channels_cap : 16;
        char **more = realloc(im->channels, cap * sizeof *more);
        if (!more)
            return -1;
        im->channels = more;
        im->channels_cap = cap;
    }
    if (!(im->channels[im->nchannels] = strdup(discord_id)))
        return -1;
    im->nchannels++;
    return 0;
}

static int noted(const struct cli_import *im, const char *discord_id)
{
    for (size_t i = 0; i < im->nchannels; i++)
        if (!strcmp(im->channels[i], discord_id))
            return 1;
    return 0;
}

static int begin_at(struct cli_import *im, void *arg)
{
    (void)arg;
    struct store_import row = {.id = im->import_id,
                               .format = im->format,
                               .source = im->guild_id,
                               .server_id = im->server_id,
                               .server_name = im->server_name,
                               .owner_id = im->owner_id,
                               .everyone_perms = (int64_t)PERM_EVERYONE_DEFAULT,
                               .now = im->now};
    int rc = store_import_begin_at(im->db, &row);
    if (rc == STORE_TAKEN)
        fprintf(stderr, "praca import: server %s has another owner now\n", im->server_id);
    return rc == STORE_DONE ? 0 : -1;
}

int cli_import_begin(struct cli_import *im)
{
    im->now = clock_now_ms();
    snprintf(im->key, sizeof im->key, "%s\n%s\n%s\n%s", im->format, im->guild_id, im->owner_id,
             im->server_name);
    rule_import_id(im->key, "import", im->guild_id, im->import_id);
    rule_import_id(im->key, "server", im->guild_id, im->server_id);
    return transaction(im, begin_at, NULL);
}

static int finish_at(struct cli_import *im, void *arg)
{
    (void)arg;
    return store_import_progress_at(im->db, im->import_id, 0, 1, clock_now_ms()) == STORE_DONE ? 0
                                                                                               : -1;
}

int cli_import_finish(struct cli_import *im)
{
    return transaction(im, finish_at, NULL);
}

void cli_import_free(struct cli_import *im)
{
    map_cleanup(&im->persons);
    map_cleanup(&im->roles);
    for (size_t i = 0; i < im->nchannels; i++)
        free(im->channels[i]);
    free(im->channels);
}

/* ---- a channel and its messages ---- */

/* The ID a message has (or will have) here: its time from its Discord ID when it is one. */
static void message_id(const struct cli_import *im, const char *source, int64_t at, unsigned part,
                       char out[UUID_LEN + 1])
{
    int64_t ms = rule_discord_snowflake_ms(source);
    rule_import_message_id(im->key, source, ms ? ms : at, part, out);
}

/* The author's roles, each made once per run, and held by the placeholder. */
static int roles_at(struct cli_import *im, const struct rule_discord_author *a, const char *uid)
{
    struct rule_discord_role r;
    for (size_t i = 0; i < json_array_size(a->roles); i++) {
        if (rule_discord_role(a, i, &r))
            continue;
        char rid[UUID_LEN + 1];
        rule_import_id(im->key, "role", r.id, rid);
        if (!map_get(&im->roles, rid) &&
            (store_import_role_at(im->db, rid, im->server_id, r.name, r.color, r.position,
                                  im->now) != STORE_DONE ||
             map_set(&im->roles, rid, im)))
            return -1;
        if (store_import_member_role_at(im->db, im->server_id, uid, rid) != STORE_DONE)
            return -1;
    }
    return 0;
}

/* What this run has written of a person (the value in im->persons). */
static char WRITTEN, WITH_ROLES;

static int person_at(struct cli_import *im, const struct rule_discord_author *a,
                     char id[UUID_LEN + 1])
{
    char username[32], name[4 * NAME_MAX_CHARS + 1];
    rule_import_id(im->key, "person", a->id, id);
    void *done = map_get(&im->persons, id);
    if (!done) {
        rule_import_username(a->name, id, username);
        size_t len = 0;
        for (size_t chars = 0; a->name[len] && chars <= NAME_MAX_CHARS; len++)
            if ((a->name[len] & 0xC0) != 0x80 && ++chars > NAME_MAX_CHARS)
                break;
        snprintf(name, sizeof name, "%.*s", (int)len, a->name);
        int rc = store_import_person_at(im->db, id, username, name, im->server_id, im->now);
        im->people += rc == STORE_DONE;
        if ((rc != STORE_DONE && rc != STORE_TAKEN) || map_set(&im->persons, id, &WRITTEN))
            return -1;
    }
    /* A reaction names its users without their roles: those come with the first message. */
    if (done == &WITH_ROLES || !a->roles)
        return 0;
    return roles_at(im, a, id) || map_set(&im->persons, id, &WITH_ROLES) ? -1 : 0;
}

/* The message's text: its words, then each attachment's link on a line of its own (the files
 * themselves stay where the export points). */
static int text_of(const struct rule_discord_message *m, struct buf *out)
{
    out->len = 0;
    int rc = buf_append(out, m->content, strlen(m->content));
    for (size_t i = 0; !rc && i < json_array_size(m->attachments); i++) {
        const char *url =
            json_string_value(json_object_get(json_array_get(m->attachments, i), "url"));
        if (url && *url)
            rc = (out->len && buf_append(out, "\n", 1)) || buf_append(out, url, strlen(url));
    }
    return rc || buf_append(out, "", 1) ? -1 : 0; /* NUL-ended */
}

/* Bytes of s's first MSG_CONTENT_MAX characters (all of s when it has no more). */
static size_t part_length(const char *s)
{
    size_t len = 0;
    for (size_t chars = 0; s[len]; len++)
        if ((s[len] & 0xC0) != 0x80 && ++chars > MSG_CONTENT_MAX)
            break;
    return len;
}

static int reactions_at(struct cli_import *im, const struct rule_discord_message *m, const char *id,
                        const char *channel_id)
{
    const char *emoji;
    const json_t *users;
    for (size_t j = 0; !rule_discord_reaction(m, j, &emoji, &users); j++) {
        if (!emoji || !rule_emoji_valid(emoji, strlen(emoji)))
            continue; /* a server's own emoji: not brought */
        for (size_t k = 0; k < json_array_size(users); k++) {
            struct rule_discord_author a;
            const char *why;
            char uid[UUID_LEN + 1];
            if (rule_discord_author(json_array_get(users, k), &a, &why))
                continue;
            if (person_at(im, &a, uid) ||
                store_import_reaction_at(im->db, id, channel_id, emoji, uid, m->at) != STORE_DONE)
                return -1;
        }
    }
    return 0;
}

/* One message, in as many parts as its length needs. */
static int message_at(struct cli_import *im, struct cli_import_place *p,
                      const struct rule_discord_message *m, struct buf *text)
{
    char author[UUID_LEN + 1], reply[UUID_LEN + 1], id[UUID_LEN + 1];
    if (person_at(im, &m->author, author) || text_of(m, text))
        return -1;
    int has_reply = 0;
    if (m->reply_to && rule_discord_snowflake_ms(m->reply_to)) {
        message_id(im, m->reply_to, 0, 0, reply);
        if ((has_reply = store_import_message_known(im->db, reply)) < 0)
            return -1;
    }
    const char *rest = text->data;
    for (unsigned part = 0; part == 0 || *rest; part++) {
        size_t len = part_length(rest);
        char saved = rest[len];
        ((char *)rest)[len] = 0;
        message_id(im, m->id, m->at, part, id);
        struct store_import_message row = {.id = id,
                                           .channel_id = p->channel_id,
                                           .thread_parent_id =
                                               p->parent_id[0] ? p->parent_id : NULL,
                                           .server_id = im->server_id,
                                           .author_id = author,
                                           .content = rest,
                                           .reply_to_id = part == 0 && has_reply ? reply : NULL,
                                           .at = m->at,
                                           .edited_at = m->edited_at,
                                           .pinned = part == 0 && m->pinned};
        int rc = store_import_message_at(im->db, &row);
        ((char *)rest)[len] = saved;
        rest += len;
        if (rc == STORE_TAKEN) {
            im->known++;
            continue;
        }
        if (rc != STORE_DONE || (part == 0 && reactions_at(im, m, id, p->channel_id)))
            return -1;
        im->written++;
    }
    return 0;
}

/* A batch of a place's messages. */
struct batch {
    struct cli_import_place *p;
    json_t *const *messages;
    size_t n;
};

static int batch_at(struct cli_import *im, void *arg)
{
    struct batch *b = arg;
    struct buf text;
    buf_init(&text, TEXT_MAX_BYTES);
    long before = im->written;
    int rc = 0;
    for (size_t i = 0; !rc && i < b->n; i++) {
        struct rule_discord_message m;
        const char *why;
        if (rule_discord_message(b->messages[i], &m, &why)) {
            fprintf(stderr, "praca import: #%s: a message left out: %s\n", b->p->c->name, why);
            im->left_out++;
        } else if (m.system) {
            im->left_out++;
        } else {
            rc = message_at(im, b->p, &m, &text);
        }
    }
    buf_cleanup(&text);
    if (!rc && store_import_progress_at(im->db, im->import_id, im->written - before, 0, im->now) !=
                   STORE_DONE)
        rc = -1;
    return rc;
}

/* After each batch the import leaves the database alone as long as the batch held it: the
 * live server's writes wait at most one batch, and find it free half of the time. */
static void yield_database(int64_t held_ms)
{
    if (held_ms < YIELD_MIN_MS)
        held_ms = YIELD_MIN_MS;
    if (held_ms > YIELD_MAX_MS)
        held_ms = YIELD_MAX_MS;
    struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)held_ms * 1000000L};
    nanosleep(&ts, NULL);
}

int cli_import_messages(struct cli_import *im, struct cli_import_place *p, json_t *const *messages,
                        size_t n)
{
    struct batch b = {p, messages, n};
    int64_t start = clock_mono_ms();
    if (transaction(im, batch_at, &b)) {
        fprintf(stderr, "praca import: #%s: could not write messages\n", p->c->name);
        return -1;
    }
    yield_database(clock_mono_ms() - start);
    return 0;
}

/* The channel's row (and its category's), or a thread's under its channel. */
static int channel_at(struct cli_import *im, void *arg)
{
    struct cli_import_place *p = arg;
    const struct rule_discord_channel *c = p->c;
    int thread = c->is_thread && noted(im, c->category_id); /* else its channel is gone */
    char category[UUID_LEN + 1], origin[UUID_LEN + 1];
    struct store_import_channel row = {.id = p->channel_id,
                                       .server_id = im->server_id,
                                       .name = c->name,
                                       .topic = c->topic,
                                       .position = im->position++,
                                       .now = im->now};
    if (thread) {
        rule_import_id(im->key, "channel", c->category_id, p->parent_id);
        row.parent_id = p->parent_id;
        message_id(im, c->id, 0, 0, origin); /* a thread's ID is its first message's */
        int known =
            rule_discord_snowflake_ms(c->id) ? store_import_message_known(im->db, origin) : 0;
        if (known < 0)
            return -1;
        row.origin_id = known ? origin : NULL;
    } else if (c->category_id && !c->is_thread) {
        rule_import_id(im->key, "category", c->category_id, category);
        struct store_import_channel cat = {.id = category,
                                           .server_id = im->server_id,
                                           .name = c->category ? c->category : "",
                                           .is_category = 1,
                                           .position = im->position,
                                           .now = im->now};
        if (store_import_channel_at(im->db, &cat) != STORE_DONE)
            return -1;
        row.category_id = category;
    }
    im->channels_written++;
    return store_import_channel_at(im->db, &row) == STORE_DONE ? 0 : -1;
}

int cli_import_channel(struct cli_import *im, const struct rule_discord_channel *c,
                       struct cli_import_place *p)
{
    *p = (struct cli_import_place){.c = c};
    rule_import_id(im->key, "channel", c->id, p->channel_id);
    return transaction(im, channel_at, p);
}
