/*
 * praca import discord: a Discord server's history as DiscordChatExporter's JSON (a file per
 * channel or thread, or a folder of them; domain/import_discord.h reads it). Each file is read a
 * chunk at a time (domain/json_split.h), twice: its header and message count first, for every
 * file (threads find their channels, and the export must be one server's), then its messages,
 * written im->batch at a time. Channels come before threads.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/import_formats.h"
#include "core/buf.h"
#include "domain/import_discord.h"
#include "domain/json_split.h"

#define CHUNK        ((size_t)64 << 10)
#define ATTACHED_MAX 32                /* a message's files read; the rest are left out */
#define HEADER_MAX   ((size_t)1 << 20) /* a file without its messages */
#define MESSAGE_MAX  ((size_t)4 << 20) /* one message, as the export writes it */
#define FILES_MAX    10000
#define ROLES_MAX    32 /* of one author's */

/* The export's files: path itself, or the .json files in it, by name. */
static int list_files(const char *path, char ***out, size_t *n)
{
    *n = 0;
    DIR *d = opendir(path);
    if (!d) {
        if (!(*out = malloc(sizeof **out)) || !((*out)[0] = strdup(path)))
            return -1;
        *n = 1;
        return 0;
    }
    size_t cap = 16;
    *out = malloc(cap * sizeof **out);
    for (struct dirent *e; *out && (e = readdir(d)) && *n < FILES_MAX;) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        char **more = *n == cap ? realloc(*out, (cap *= 2) * sizeof **out) : *out;
        size_t size = strlen(path) + len + 2;
        char *file = more ? malloc(size) : NULL;
        if (!file) {
            *out = more ? more : *out;
            break;
        }
        snprintf(file, size, "%s/%s", path, e->d_name);
        *out = more;
        (*out)[(*n)++] = file;
    }
    closedir(d);
    return *out ? 0 : -1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_files(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

/* A file of the export: its header (the document, its messages left out) and channel. */
struct export_file {
    const char *path;
    json_t *header;
    struct rule_discord_channel c;
    size_t messages;  /* objects in its messages array */
    int parent_known; /* a thread whose channel the export holds */
};

/* Reads path a chunk at a time, each element of its messages array to on_element; returns the
 * header parsed (the caller frees) or NULL, said why. *stray gets the elements that were not
 * objects; *read (unless NULL) grows by the bytes read. */
static json_t *stream(const char *path, int (*on_element)(void *, const char *, size_t), void *arg,
                      size_t *stray, int64_t *read)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "praca import: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    struct rule_json_split split;
    rule_json_split_init(&split, "messages", HEADER_MAX, MESSAGE_MAX);
    char *chunk = malloc(CHUNK);
    const char *why = NULL;
    int rc = chunk ? 0 : -1;
    for (size_t n; !rc && (n = fread(chunk, 1, CHUNK, f)) > 0;) {
        if (read)
            *read += (int64_t)n;
        rc = rule_json_split_feed(&split, chunk, n, on_element, arg, &why);
    }
    json_t *header = NULL;
    if (rc == -1 && why)
        fprintf(stderr, "praca import: %s: %s\n", path, why);
    if (!rc && ferror(f))
        fprintf(stderr, "praca import: %s: %s\n", path, strerror(errno));
    else if (!rc) {
        json_error_t jerr;
        header = json_loadb(split.header.data, split.header.len, JSON_REJECT_DUPLICATES, &jerr);
        if (!header)
            fprintf(stderr, "praca import: %s: line %d: %s\n", path, jerr.line, jerr.text);
    }
    *stray = split.stray;
    free(chunk);
    fclose(f);
    rule_json_split_cleanup(&split);
    return header;
}

static int count_element(void *arg, const char *json, size_t len)
{
    (void)json, (void)len;
    ++*(size_t *)arg;
    return 0;
}

/* Reads every file's header and counts its messages; notes the channels (not threads), for
 * threads to find their parents; the guild of the first. 0, or -1 (said why). */
static int survey(struct cli_import *im, struct export_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct export_file *f = &files[i];
        size_t stray;
        const char *why = NULL;
        if (!(f->header = stream(f->path, count_element, &f->messages, &stray, NULL)))
            return -1;
        if (rule_discord_channel(f->header, &f->c, &why)) {
            fprintf(stderr, "praca import: %s: %s\n", f->path, why);
            return -1;
        }
        if (!im->source[0]) {
            snprintf(im->source, sizeof im->source, "%s", f->c.guild_id);
        } else if (strcmp(im->source, f->c.guild_id)) {
            fprintf(stderr, "praca import: %s: another server's export (%s, not %s)\n", f->path,
                    f->c.guild_id, im->source);
            return -1;
        }
    }
    for (size_t i = 0; i < n; i++) /* a thread's channel is its categoryId */
        for (size_t k = 0; files[i].c.is_thread && k < n && !files[i].parent_known; k++)
            files[i].parent_known =
                !files[k].c.is_thread && !strcmp(files[k].c.id, files[i].c.category_id);
    return 0;
}

/* A file's messages on their way in, a batch at a time. */
struct pour {
    struct cli_import *im;
    struct export_file *f;
    struct cli_import_place place;
    json_t **batch;
    size_t n, done;
};

/* An author as import_write.h takes one, roles included (at most ROLES_MAX). */
struct author {
    struct cli_import_author a;
    struct cli_import_role roles[ROLES_MAX];
};

static void author_of(const struct rule_discord_author *d, struct author *out)
{
    out->a = (struct cli_import_author){.id = d->id, .name = d->name, .roles = out->roles};
    struct rule_discord_role r;
    for (size_t i = 0; i < json_array_size(d->roles) && out->a.nroles < ROLES_MAX; i++)
        if (!rule_discord_role(d, i, &r))
            out->roles[out->a.nroles++] =
                (struct cli_import_role){r.id, r.name, r.color, r.position};
}

/* The message's files: a path under the export's folder when DiscordChatExporter downloaded it
 * (--media), else its link; either stays a link in the text when it cannot be brought. At most
 * ATTACHED_MAX (Discord allows 10). */
static size_t files_of(const struct rule_discord_message *m, struct cli_import_file *out)
{
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(m->attachments) && n < ATTACHED_MAX; i++) {
        const json_t *a = json_array_get(m->attachments, i);
        const char *url = json_string_value(json_object_get(a, "url"));
        if (!url || !*url)
            continue;
        int linked = strstr(url, "://") != NULL;
        out[n++] = (struct cli_import_file){json_string_value(json_object_get(a, "fileName")),
                                            linked ? NULL : url, linked ? url : NULL, url};
    }
    return n;
}

static int reactions_of(struct cli_import *im, const struct rule_discord_message *m, const char *id,
                        const char *channel_id)
{
    const char *emoji;
    const json_t *users;
    for (size_t j = 0; !rule_discord_reaction(m, j, &emoji, &users); j++) {
        for (size_t k = 0; emoji && k < json_array_size(users); k++) {
            struct rule_discord_author d;
            const char *why;
            struct author who;
            if (rule_discord_author(json_array_get(users, k), &d, &why))
                continue;
            author_of(&d, &who);
            if (cli_import_reaction(im, id, channel_id, emoji, &who.a, m->at))
                return -1;
        }
    }
    return 0;
}

static int message_of(struct cli_import *im, const struct cli_import_place *p, const json_t *v)
{
    struct rule_discord_message m;
    const char *why;
    if (rule_discord_message(v, &m, &why) || m.system) {
        if (!m.system)
            fprintf(stderr, "praca import: #%s: a message left out: %s\n", p->name, why);
        im->left_out++;
        return 0;
    }
    struct author who;
    author_of(&m.author, &who);
    char id[UUID_LEN + 1];
    struct cli_import_message row = {.source = m.id,
                                     .id_ms = rule_discord_snowflake_ms(m.id),
                                     .at = m.at,
                                     .edited_at = m.edited_at,
                                     .pinned = m.pinned,
                                     .reply_to = m.reply_to,
                                     .reply_ms = rule_discord_snowflake_ms(m.reply_to),
                                     .author = who.a};
    struct cli_import_file files[ATTACHED_MAX];
    row.text = m.content;
    row.files = files;
    row.nfiles = files_of(&m, files);
    return cli_import_message(im, p, &row, id) || reactions_of(im, &m, id, p->channel_id) ? -1 : 0;
}

static int one_of(struct cli_import *im, size_t i, struct buf *text, void *arg)
{
    struct pour *p = arg;
    (void)text; /* cli_import_message makes the message's text */
    return message_of(im, &p->place, p->batch[i]);
}

static int bring_of(struct cli_import *im, size_t i, void *arg)
{
    struct pour *p = arg;
    struct rule_discord_message m;
    struct cli_import_file files[ATTACHED_MAX];
    const char *why;
    if (rule_discord_message(p->batch[i], &m, &why) || m.system)
        return 0;
    size_t n = files_of(&m, files);
    int there = n ? cli_import_message_there(im, m.id, rule_discord_snowflake_ms(m.id)) : 0;
    if (there < 0)
        return -1;
    for (size_t k = 0; !there && k < n; k++)
        if (cli_import_file_bring(im, &files[k]))
            return -1;
    const char *avatar = m.author.avatar;
    int linked = avatar && strstr(avatar, "://");
    struct cli_import_file picture = {NULL, linked ? NULL : avatar, linked ? avatar : NULL, NULL};
    return cli_import_picture_bring(im, m.author.id, &picture);
}

static const struct cli_import_batch_fns BATCH = {bring_of, one_of};

static int pour_batch(struct pour *p)
{
    int rc = cli_import_batch(p->im, p->n, &BATCH, p);
    if (rc)
        fprintf(stderr, "praca import: #%s: could not write messages\n", p->f->c.name);
    for (size_t i = 0; i < p->n; i++)
        json_decref(p->batch[i]);
    p->done += p->n;
    p->n = 0;
    if (!rc) {
        printf("#%s: %zu of %zu messages\n", p->f->c.name, p->done, p->f->messages);
        fflush(stdout);
    }
    return rc;
}

static int pour_element(void *arg, const char *json, size_t len)
{
    struct pour *p = arg;
    json_error_t jerr;
    json_t *m = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!m) {
        fprintf(stderr, "praca import: %s: a message left out: %s\n", p->f->path, jerr.text);
        p->im->left_out++;
        return 0;
    }
    p->batch[p->n++] = m;
    return p->n == (size_t)p->im->batch ? pour_batch(p) : 0;
}

/* The file's channel (and its category), or its thread under its channel when the export has
 * that channel (a thread's ID is its first message's). */
static int channel_at(struct cli_import *im, void *arg)
{
    struct pour *p = arg;
    const struct rule_discord_channel *c = &p->f->c;
    char category[UUID_LEN + 1];
    int thread = c->is_thread && p->f->parent_known;
    int in_category = c->category_id && !c->is_thread;
    if (in_category &&
        cli_import_category(im, c->category_id, c->category ? c->category : "", -1, category))
        return -1;
    return cli_import_channel(im, c->id, c->name, c->topic, in_category ? category : NULL,
                              thread ? c->category_id : NULL, thread ? c->id : NULL,
                              rule_discord_snowflake_ms(c->id), &p->place);
}

/* Imports the files of threads (threads 1) or of channels (0): channels first, so threads
 * find them. */
static int import_files(struct cli_import *im, struct export_file *files, size_t n, int threads)
{
    struct pour p = {.im = im, .batch = malloc((size_t)im->batch * sizeof *p.batch)};
    int rc = p.batch ? 0 : -1;
    for (size_t i = 0; !rc && i < n; i++) {
        if (files[i].c.is_thread != threads)
            continue;
        p.f = &files[i];
        p.done = 0;
        size_t stray = 0;
        if ((rc = cli_import_transaction(im, channel_at, &p, 0)))
            break;
        json_t *again = stream(p.f->path, pour_element, &p, &stray, &im->source_read);
        rc = again ? pour_batch(&p) : -1;
        for (size_t k = 0; k < p.n; k++) /* what a failure left unwritten */
            json_decref(p.batch[k]);
        p.n = 0;
        im->left_out += (long)stray;
        json_decref(again);
    }
    free(p.batch);
    return rc;
}

static int import_export(struct cli_import *im, const char *path, const char *structure)
{
    char **names = NULL;
    size_t n = 0;
    if (list_files(path, &names, &n) || !n) {
        fprintf(stderr, "praca import: %s: no export files\n", path);
        free_files(names, n);
        return -1;
    }
    qsort(names, n, sizeof *names, by_name);
    struct export_file *files = calloc(n, sizeof *files);
    for (size_t i = 0; files && i < n; i++) {
        struct stat st;
        files[i].path = names[i];
        im->source_size += stat(names[i], &st) ? 0 : (int64_t)st.st_size;
    }
    int rc = !files || survey(im, files, n) || cli_import_begin(im) ||
             (structure && cli_import_discord_structure(im, structure, im->source)) ||
             import_files(im, files, n, 0) || import_files(im, files, n, 1) ||
             cli_import_finish(im);
    for (size_t i = 0; files && i < n; i++)
        json_decref(files[i].header);
    free(files);
    free_files(names, n);
    return rc ? -1 : 0;
}

/* A folder DiscordChatExporter wrote: one with a channel's .json in it. */
static int holds_json(const char *dir)
{
    char **names = NULL;
    size_t n = 0;
    struct stat st;
    int is_dir = !stat(dir, &st) && S_ISDIR(st.st_mode);
    int found = is_dir && !list_files(dir, &names, &n) && n > 0;
    free_files(names, n);
    return found;
}

int cli_import_discord(struct cli_import *im, const char *path, const char *structure)
{
    if (!cli_import_is_zip(path))
        return import_export(im, path, structure);
    /* the export's folder zipped: its files (--media's) come from it */
    char root[1024], dir[1400];
    int rc = cli_import_unzip(path, root);
    if (!rc) {
        cli_import_zip_folder(root, holds_json, dir, sizeof dir);
        cli_import_files_media_default(im->files, dir);
        rc = import_export(im, dir, structure);
    }
    cli_import_remove_tree(root);
    return rc;
}
