/* praca import's writes: see import_write.h. */
#include "cli/import_write.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/clock.h"
#include "domain/emoji.h"
#include "domain/import_ids.h"
#include "domain/message_rules.h"
#include "domain/permissions.h"
#include "store/import_jobs.h"
#include "store/imports.h"

#define NAME_MAX_CHARS 32 /* a display name's, as the API's */
#define YIELD_MIN_MS   1
#define YIELD_MAX_MS   100
#define TEXT_MAX_BYTES ((size_t)1 << 20) /* a message's text with its links */

/* A step of the import, as a transaction runs it. */
struct step {
    struct cli_import *im;
    int (*fn)(struct cli_import *im, void *arg);
    void *arg;
};

/* A job of the page's is told how far the import is, in the same transaction. */
static int tell_job(struct cli_import *im, int finished)
{
    if (!im->job_id)
        return 0;
    int64_t size = im->source_size > 0 ? im->source_size : 1;
    int64_t read = finished ? size : im->source_read < size ? im->source_read : size;
    return store_import_job_progress_at(im->db, im->job_id, im->server_id[0] ? im->server_id : NULL,
                                        read * 1000 / size, im->written + im->known,
                                        clock_now_ms()) == STORE_DONE
               ? 0
               : -1;
}

static int run_step(struct store *db, void *arg)
{
    (void)db;
    struct step *s = arg;
    return s->fn(s->im, s->arg) || tell_job(s->im, 0);
}

/* After a batch the import leaves the database alone as long as the batch held it: the live
 * server's writes wait at most one batch, and find it free half of the time. */
static void rest(int64_t held_ms)
{
    if (held_ms < YIELD_MIN_MS)
        held_ms = YIELD_MIN_MS;
    if (held_ms > YIELD_MAX_MS)
        held_ms = YIELD_MAX_MS;
    struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)held_ms * 1000000L};
    nanosleep(&ts, NULL);
}

int cli_import_transaction(struct cli_import *im, int (*fn)(struct cli_import *, void *), void *arg,
                           int yield)
{
    struct step s = {im, fn, arg};
    int64_t start = clock_mono_ms();
    if (store_import_transaction(im->db, run_step, &s))
        return -1;
    if (yield)
        rest(clock_mono_ms() - start);
    return 0;
}

static int begin_at(struct cli_import *im, void *arg)
{
    (void)arg;
    struct store_import row = {.id = im->import_id,
                               .format = im->format,
                               .source = im->source,
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
    snprintf(im->key, sizeof im->key, "%s\n%s\n%s\n%s", im->format, im->source, im->owner_id,
             im->server_name);
    rule_import_id(im->key, "import", im->source, im->import_id);
    if (!im->server_id[0]) /* an archive's is kept */
        rule_import_id(im->key, "server", im->source, im->server_id);
    return cli_import_transaction(im, begin_at, NULL, 0);
}

static int finish_at(struct cli_import *im, void *arg)
{
    (void)arg;
    int rc = store_import_progress_at(im->db, im->import_id, 0, 1, clock_now_ms());
    return rc == STORE_DONE ? tell_job(im, 1) : -1;
}

int cli_import_finish(struct cli_import *im)
{
    return cli_import_transaction(im, finish_at, NULL, 0);
}

void cli_import_free(struct cli_import *im)
{
    map_cleanup(&im->persons);
    map_cleanup(&im->roles);
}

struct batch {
    size_t n;
    const struct cli_import_batch_fns *fns;
    void *arg;
};

static int batch_at(struct cli_import *im, void *arg)
{
    struct batch *b = arg;
    struct buf text;
    buf_init(&text, TEXT_MAX_BYTES);
    long before = im->written;
    int rc = 0;
    for (size_t i = 0; !rc && i < b->n; i++)
        rc = b->fns->one(im, i, &text, b->arg);
    buf_cleanup(&text);
    if (!rc && store_import_progress_at(im->db, im->import_id, im->written - before, 0, im->now) !=
                   STORE_DONE)
        rc = -1;
    return rc;
}

int cli_import_batch(struct cli_import *im, size_t n, const struct cli_import_batch_fns *fns,
                     void *arg)
{
    struct batch b = {n, fns, arg};
    int rc = 0;
    for (size_t i = 0; !rc && im->files && fns->bring && i < n; i++)
        rc = fns->bring(im, i, arg);
    if (!rc)
        rc = cli_import_files_fetch(im);
    if (!rc && n)
        rc = cli_import_transaction(im, batch_at, &b, 1);
    cli_import_files_batch_done(im);
    return rc;
}

/* ---- channels ---- */

int cli_import_category(struct cli_import *im, const char *source_id, const char *name,
                        int64_t position, char id[UUID_LEN + 1])
{
    rule_import_id(im->key, "category", source_id, id);
    struct store_import_channel row = {.id = id,
                                       .server_id = im->server_id,
                                       .name = name,
                                       .is_category = 1,
                                       .position = position < 0 ? im->position : position,
                                       .now = im->now};
    return store_import_channel_at(im->db, &row) == STORE_DONE ? 0 : -1;
}

void cli_import_category_id(struct cli_import *im, const char *source_id, char id[UUID_LEN + 1])
{
    rule_import_id(im->key, "category", source_id, id);
}

int cli_import_room(struct cli_import *im, const char *source_id, const char *name,
                    const char *topic, const char *type, int64_t position, const char *category_id,
                    struct cli_import_place *out)
{
    cli_import_place_of(im, source_id, name, NULL, out);
    struct store_import_channel row = {.id = out->channel_id,
                                       .server_id = im->server_id,
                                       .name = name,
                                       .topic = topic,
                                       .type = type,
                                       .category_id = category_id,
                                       .position = position,
                                       .now = im->now};
    im->channels_written++;
    return store_import_channel_at(im->db, &row) == STORE_DONE ? 0 : -1;
}

int cli_import_overwrite(struct cli_import *im, const struct cli_import_place *p,
                         const char *role_source, int64_t allow, int64_t deny)
{
    char target[UUID_LEN + 1];
    if (role_source)
        rule_import_id(im->key, "role", role_source, target);
    else
        snprintf(target, sizeof target, "%s", im->server_id); /* @everyone */
    return store_import_overwrite_at(im->db, p->channel_id, target, "role", allow, deny) ==
                   STORE_DONE
               ? 0
               : -1;
}

/* The ID a message has (or will have) here. */
static void message_id(const struct cli_import *im, const char *source, int64_t ms, unsigned part,
                       char out[UUID_LEN + 1])
{
    rule_import_message_id(im->key, source, ms, part, out);
}

int cli_import_message_there(struct cli_import *im, const char *source, int64_t ms)
{
    char id[UUID_LEN + 1];
    message_id(im, source, ms, 0, id);
    return store_import_message_known(im->db, id);
}

void cli_import_place_of(struct cli_import *im, const char *source_id, const char *name,
                         const char *parent_source, struct cli_import_place *out)
{
    out->name = name;
    out->parent_id[0] = 0;
    rule_import_id(im->key, "channel", source_id, out->channel_id);
    if (parent_source)
        rule_import_id(im->key, "channel", parent_source, out->parent_id);
}

void cli_import_thread_name(const char *first_message, char out[CLI_IMPORT_THREAD_NAME_BYTES])
{
    const char *t = first_message ? first_message : "";
    size_t len = 0;
    for (size_t chars = 0; t[len] && t[len] != '\n'; len++)
        if ((t[len] & 0xC0) != 0x80 && ++chars > CLI_IMPORT_THREAD_NAME)
            break;
    snprintf(out, CLI_IMPORT_THREAD_NAME_BYTES, "%.*s", (int)len, len ? t : "Conversa");
}

int cli_import_channel(struct cli_import *im, const char *source_id, const char *name,
                       const char *topic, const char *category_id, const char *parent_source,
                       const char *origin_source, int64_t origin_ms, struct cli_import_place *out)
{
    char origin[UUID_LEN + 1];
    cli_import_place_of(im, source_id, name, parent_source, out);
    struct store_import_channel row = {.id = out->channel_id,
                                       .server_id = im->server_id,
                                       .name = name,
                                       .topic = topic,
                                       .category_id = category_id,
                                       .position = im->position++,
                                       .now = im->now};
    if (parent_source) {
        row.parent_id = out->parent_id;
        row.category_id = NULL;
        int known = 0;
        if (origin_source) {
            message_id(im, origin_source, origin_ms, 0, origin);
            if ((known = store_import_message_known(im->db, origin)) < 0)
                return -1;
        }
        row.origin_id = known ? origin : NULL;
    }
    im->channels_written++;
    return store_import_channel_at(im->db, &row) == STORE_DONE ? 0 : -1;
}

int cli_import_private(struct cli_import *im, const struct cli_import_place *p,
                       const struct cli_import_author *people, size_t n)
{
    const int64_t view = (int64_t)PERM_VER_CANAL;
    if (store_import_overwrite_at(im->db, p->channel_id, im->server_id, "role", 0, view) !=
        STORE_DONE)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char uid[UUID_LEN + 1];
        if (cli_import_person(im, &people[i], uid) ||
            store_import_overwrite_at(im->db, p->channel_id, uid, "member", view, 0) != STORE_DONE)
            return -1;
    }
    return 0;
}

/* ---- people ---- */

int cli_import_role(struct cli_import *im, const struct cli_import_role *r, int64_t permissions,
                    int hoist, int mentionable)
{
    char rid[UUID_LEN + 1];
    rule_import_id(im->key, "role", r->id, rid);
    struct store_import_role row = {.id = rid,
                                    .server_id = im->server_id,
                                    .name = r->name,
                                    .color = r->color,
                                    .key = r->position,
                                    .permissions = permissions,
                                    .hoist = hoist,
                                    .mentionable = mentionable,
                                    .now = im->now};
    if (store_import_role_at(im->db, &row) != STORE_DONE)
        return -1;
    return map_get(&im->roles, rid) || !map_set(&im->roles, rid, im) ? 0 : -1;
}

int cli_import_everyone(struct cli_import *im, int64_t permissions)
{
    return store_import_everyone_at(im->db, im->server_id, permissions) == STORE_DONE ? 0 : -1;
}

/* The author's roles, each made once per run, and held by the placeholder. */
static int roles_at(struct cli_import *im, const struct cli_import_author *a, const char *uid)
{
    for (size_t i = 0; i < a->nroles; i++) {
        const struct cli_import_role *r = &a->roles[i];
        char rid[UUID_LEN + 1];
        rule_import_id(im->key, "role", r->id, rid);
        if (!map_get(&im->roles, rid) &&
            (store_import_role_at(im->db, &(struct store_import_role){.id = rid,
                                                                      .server_id = im->server_id,
                                                                      .name = r->name,
                                                                      .color = r->color,
                                                                      .key = r->position,
                                                                      .now = im->now}) !=
                 STORE_DONE ||
             map_set(&im->roles, rid, im)))
            return -1;
        if (store_import_member_role_at(im->db, im->server_id, uid, rid) != STORE_DONE)
            return -1;
    }
    return 0;
}

/* What this run has written of a person (the value in im->persons). */
static char WRITTEN, WITH_ROLES;

int cli_import_person(struct cli_import *im, const struct cli_import_author *a,
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
        char email[256] = "";
        for (size_t i = 0; a->email && a->email[i] && i + 1 < sizeof email; i++)
            email[i] =
                a->email[i] >= 'A' && a->email[i] <= 'Z' ? (char)(a->email[i] + 32) : a->email[i];
        int rc = store_import_person_at(im->db, id, username, name,
                                        strchr(email, '@') ? email : NULL, im->server_id, im->now);
        im->people += rc == STORE_DONE;
        if ((rc != STORE_DONE && rc != STORE_TAKEN) || map_set(&im->persons, id, &WRITTEN))
            return -1;
    }
    if (cli_import_picture_give(im, a->id, id))
        return -1;
    /* Some mentions of a person carry no roles (a reaction's): the first that does gives them. */
    if (done == &WITH_ROLES || !a->nroles)
        return 0;
    return roles_at(im, a, id) || map_set(&im->persons, id, &WITH_ROLES) ? -1 : 0;
}

/* ---- messages ---- */

/* Bytes of s's first MSG_CONTENT_MAX characters (all of s when it has no more). */
static size_t part_length(const char *s)
{
    size_t len = 0;
    for (size_t chars = 0; s[len]; len++)
        if ((s[len] & 0xC0) != 0x80 && ++chars > MSG_CONTENT_MAX)
            break;
    return len;
}

/* The ID of the message m answers, when it is here already: 1, 0 not, -1 error. */
static int reply_target(struct cli_import *im, const struct cli_import_message *m,
                        char out[UUID_LEN + 1])
{
    if (!m->reply_to || !m->reply_ms)
        return 0;
    message_id(im, m->reply_to, m->reply_ms, 0, out);
    return store_import_message_known(im->db, out);
}

/* One part of a message (the files go with its last). */
static int message_part(struct cli_import *im, const struct cli_import_place *p,
                        struct store_import_message *row, const struct cli_import_attached *files)
{
    char *shown = files->shown ? json_dumps(files->shown, JSON_COMPACT) : NULL;
    row->attachments = shown;
    int rc = files->shown && !shown ? -1 : store_import_message_at(im->db, row);
    free(shown);
    if (rc == STORE_DONE &&
        cli_import_files_attach(im, files, row->id, p->channel_id, row->author_id))
        return -1;
    if (rc != STORE_DONE && rc != STORE_TAKEN)
        return -1;
    im->known += rc == STORE_TAKEN;
    im->written += rc == STORE_DONE;
    return 0;
}

int cli_import_message(struct cli_import *im, const struct cli_import_place *p,
                       const struct cli_import_message *m, char first_id[UUID_LEN + 1])
{
    char author[UUID_LEN + 1], reply[UUID_LEN + 1], id[UUID_LEN + 1],
        chunk[4 * MSG_CONTENT_MAX + 1];
    int has_reply = reply_target(im, m, reply);
    if (has_reply < 0 || cli_import_person(im, &m->author, author))
        return -1;
    struct buf text;
    struct cli_import_attached files = {.n = 0};
    buf_init(&text, TEXT_MAX_BYTES);
    int rc = buf_append(&text, m->text, strlen(m->text)) ||
                     cli_import_files_take(im, m->files, m->nfiles, &text, &files) ||
                     buf_append(&text, "", 1)
                 ? -1
                 : 0;
    const char *rest = text.data;
    for (unsigned part = 0; !rc && (part == 0 || *rest); part++) {
        size_t len = part_length(rest);
        memcpy(chunk, rest, len);
        chunk[len] = 0;
        rest += len;
        message_id(im, m->source, m->id_ms ? m->id_ms : m->at, part, id);
        if (part == 0)
            memcpy(first_id, id, sizeof id);
        struct store_import_message row = {.id = id,
                                           .channel_id = p->channel_id,
                                           .thread_parent_id =
                                               p->parent_id[0] ? p->parent_id : NULL,
                                           .server_id = im->server_id,
                                           .author_id = author,
                                           .content = chunk,
                                           .reply_to_id = part == 0 && has_reply ? reply : NULL,
                                           .at = m->at,
                                           .edited_at = m->edited_at,
                                           .pinned = part == 0 && m->pinned};
        struct cli_import_attached none = {.n = 0};
        rc = message_part(im, p, &row, *rest ? &none : &files);
    }
    cli_import_attached_cleanup(&files);
    buf_cleanup(&text);
    return rc;
}

int cli_import_reaction(struct cli_import *im, const char *message_id, const char *channel_id,
                        const char *emoji, const struct cli_import_author *who, int64_t at)
{
    char uid[UUID_LEN + 1];
    if (!emoji || !rule_emoji_valid(emoji, strlen(emoji)))
        return 0; /* a server's own emoji: not brought */
    if (cli_import_person(im, who, uid))
        return -1;
    return store_import_reaction_at(im->db, message_id, channel_id, emoji, uid, at) == STORE_DONE
               ? 0
               : -1;
}
