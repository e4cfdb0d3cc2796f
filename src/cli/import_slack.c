/*
 * praca import slack: a Slack workspace's export (its zip, unpacked by import_zip.c, or the
 * folder it unpacks to; domain/import_slack.h reads it) becomes the server. users.json names the
 * people; channels.json and groups.json (private channels, in exports that have them) give the
 * channels, in that order; each channel's folder holds a file of messages per day, read in the
 * order of their names (their dates), one at a time. A message that starts a thread gets a Praça
 * thread under its channel, and its replies go there. Direct messages are left out.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/import_formats.h"
#include "core/buf.h"
#include "domain/import_slack.h"

#define DAY_FILE_MAX  ((long)64 << 20)  /* one channel's day */
#define LIST_FILE_MAX ((long)256 << 20) /* users.json, channels.json */
#define DAYS_MAX      100000            /* files in a channel's folder */
#define MEMBERS_MAX   100000            /* of a private channel */
#define PATH_BYTES    4096

struct slack {
    struct cli_import *im;
    const char *dir;
    struct map names;    /* user ID → name (malloc'd) */
    struct map emails;   /* user ID → the profile's address (malloc'd) */
    struct map pictures; /* user ID → the profile's picture link (malloc'd) */
    struct map threads;  /* "channel ts" of the threads written (a set) */
    json_t *day;         /* the day's messages being written */
    size_t from;         /* the first of them in the batch */
    const char *channel_id, *folder;
    struct cli_import_place place;
};

/* A message's files as import_files.h takes them, with the texts they point at. */
#define ATTACHED_MAX 16  /* a message's files read (Slack allows 10); the rest are left out */
#define FILE_TEXT    640 /* a file's path or line (a longer one is not found) */
struct files {
    struct cli_import_file f[ATTACHED_MAX];
    char path[ATTACHED_MAX][FILE_TEXT], line[ATTACHED_MAX][FILE_TEXT];
    size_t n;
};

/* Where a file is: under the export's folder when its link is a path there (as exporters that
 * download the files write it), else at <channel>/attachments/<id>-<name>, the layout those
 * exporters use; and its link. Its line in the text: "📎 name". */
static void files_of(const struct slack *s, const struct rule_slack_message *m, struct files *out)
{
    struct rule_slack_file f;
    out->n = 0;
    for (size_t k = 0; out->n < ATTACHED_MAX && !rule_slack_file(m, k, &f); k++) {
        size_t i = out->n;
        int linked = f.url && strstr(f.url, "://");
        if (f.url && !linked)
            snprintf(out->path[i], FILE_TEXT, "%s", f.url);
        else if (*f.id && *f.name)
            snprintf(out->path[i], FILE_TEXT, "%s/attachments/%s-%s", s->folder, f.id, f.name);
        else
            out->path[i][0] = '\0';
        snprintf(out->line[i], FILE_TEXT, "%s%s", *f.name ? "📎 " : "", f.name);
        out->f[out->n++] = (struct cli_import_file){f.name, out->path[i][0] ? out->path[i] : NULL,
                                                    linked ? f.url : NULL, out->line[i]};
    }
}

/* A JSON file of the export, bounded: NULL when absent (optional) or unreadable (said why). */
static json_t *load(const char *path, long max, int optional)
{
    struct stat st;
    if (stat(path, &st)) {
        if (!optional)
            fprintf(stderr, "praca import: %s: missing\n", path);
        return NULL;
    }
    if (st.st_size > max) {
        fprintf(stderr, "praca import: %s: past %ld MiB\n", path, max >> 20);
        return NULL;
    }
    json_error_t jerr;
    json_t *v = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!v)
        fprintf(stderr, "praca import: %s: line %d: %s\n", path, jerr.line, jerr.text);
    return v;
}

static const char *name_of(void *arg, const char *id)
{
    struct slack *s = arg;
    return map_get(&s->names, id);
}

static void free_value(const char *key, void *value, void *arg)
{
    (void)key, (void)arg;
    free(value);
}

static int read_users(struct slack *s)
{
    char path[PATH_BYTES];
    snprintf(path, sizeof path, "%s/users.json", s->dir);
    json_t *users = load(path, LIST_FILE_MAX, 0);
    if (!json_is_array(users)) {
        if (users)
            fprintf(stderr, "praca import: %s: not a list of users\n", path);
        json_decref(users);
        return -1;
    }
    size_t i;
    json_t *u;
    int rc = 0;
    json_array_foreach(users, i, u)
    {
        struct rule_slack_user user;
        const char *why;
        if (rule_slack_user(u, &user, &why))
            continue;
        if (map_set_copy(&s->names, user.id, user.name) ||
            map_set_copy(&s->emails, user.id, user.email) ||
            map_set_copy(&s->pictures, user.id, user.picture)) {
            rc = -1;
            break;
        }
        if (!s->im->source[0] && json_string_value(json_object_get(u, "team_id")))
            snprintf(s->im->source, sizeof s->im->source, "%s",
                     json_string_value(json_object_get(u, "team_id")));
    }
    json_decref(users);
    return rc;
}

static struct cli_import_author author_of(struct slack *s, const char *id, const char *shown)
{
    const char *name = map_get(&s->names, id);
    return (struct cli_import_author){.id = id,
                                      .name = name    ? name
                                              : shown ? shown
                                                      : id,
                                      .email = map_get(&s->emails, id)};
}

/* ---- a day's messages ---- */

/* The place of a reply: its thread, written when the first message of it is. */
static int thread_place(struct slack *s, const char *ts, const char *first_text,
                        struct cli_import_place *out)
{
    char key[96], source[96], origin[96], name[CLI_IMPORT_THREAD_NAME_BYTES];
    snprintf(key, sizeof key, "%s %s", s->channel_id, ts);
    snprintf(source, sizeof source, "T%s:%s", s->channel_id, ts);
    snprintf(origin, sizeof origin, "%s:%s", s->channel_id, ts);
    cli_import_thread_name(first_text, name);
    if (map_get(&s->threads, key)) { /* written already this run */
        cli_import_place_of(s->im, source, name, s->channel_id, out);
        return 0;
    }
    if (cli_import_channel(s->im, source, name, NULL, NULL, s->channel_id, origin,
                           rule_slack_ts_ms(ts), out))
        return -1;
    return map_set(&s->threads, key, s) ? -1 : 0;
}

static int message_at(struct cli_import *im, size_t i, struct buf *text, void *arg)
{
    struct slack *s = arg;
    struct rule_slack_message m;
    const char *why;
    if (rule_slack_message(json_array_get(s->day, s->from + i), s->channel_id, &m, &why) ||
        m.system) {
        if (!m.system)
            fprintf(stderr, "praca import: #%s: a message left out: %s\n", s->place.name, why);
        im->left_out++;
        return 0;
    }
    struct files files;
    files_of(s, &m, &files);
    char *md = rule_slack_text(m.text, name_of, s);
    buf_reset(text);
    int rc = !md || buf_append(text, md, strlen(md));
    free(md);
    if (rc || buf_append(text, "", 1))
        return -1;
    char source[96], id[UUID_LEN + 1];
    snprintf(source, sizeof source, "%s:%s", s->channel_id, m.ts);
    struct cli_import_place thread;
    const struct cli_import_place *place = &s->place;
    if (m.thread_ts && thread_place(s, m.thread_ts, NULL, &thread))
        return -1;
    if (m.thread_ts)
        place = &thread;
    struct cli_import_message row = {.source = source,
                                     .at = m.at,
                                     .edited_at = m.edited_at,
                                     .pinned = m.pinned,
                                     .text = text->data,
                                     .files = files.f,
                                     .nfiles = files.n,
                                     .author = author_of(s, m.user, m.bot_name)};
    if (cli_import_message(im, place, &row, id))
        return -1;
    if (m.has_replies && thread_place(s, m.ts, text->data, &thread))
        return -1;
    const char *emoji;
    const json_t *users;
    for (size_t k = 0; !rule_slack_reaction(&m, k, &emoji, &users); k++)
        for (size_t u = 0; emoji && u < json_array_size(users); u++) {
            const char *uid = json_string_value(json_array_get(users, u));
            struct cli_import_author who = author_of(s, uid ? uid : "", NULL);
            if (uid && cli_import_reaction(im, id, place->channel_id, emoji, &who, m.at))
                return -1;
        }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The day files of a channel's folder, by name (their dates). */
static char **days_of(const char *folder, size_t *n)
{
    *n = 0;
    DIR *d = opendir(folder);
    if (!d)
        return NULL;
    char **days = NULL;
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d)) && *n < DAYS_MAX;) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") || e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            char **more = realloc(days, (cap = cap ? 2 * cap : 64) * sizeof *more);
            if (!more)
                break;
            days = more;
        }
        if (!(days[*n] = strdup(e->d_name)))
            break;
        ++*n;
    }
    closedir(d);
    if (days)
        qsort(days, *n, sizeof *days, by_name);
    return days;
}

static int bring_at(struct cli_import *im, size_t i, void *arg)
{
    struct slack *s = arg;
    struct rule_slack_message m;
    const char *why;
    if (rule_slack_message(json_array_get(s->day, s->from + i), s->channel_id, &m, &why) ||
        m.system)
        return 0;
    struct files files;
    files_of(s, &m, &files);
    char source[96];
    snprintf(source, sizeof source, "%s:%s", s->channel_id, m.ts);
    int there = files.n ? cli_import_message_there(im, source, m.at) : 0;
    if (there < 0)
        return -1;
    for (size_t k = 0; !there && k < files.n; k++)
        if (cli_import_file_bring(im, &files.f[k]))
            return -1;
    struct cli_import_file picture = {NULL, NULL, m.user ? map_get(&s->pictures, m.user) : NULL,
                                      NULL};
    return cli_import_picture_bring(im, m.user, &picture);
}

static const struct cli_import_batch_fns BATCH = {bring_at, message_at};

/* A channel's days, each in batches. */
static int channel_days(struct slack *s, const char *name)
{
    char folder[PATH_BYTES], path[2 * PATH_BYTES];
    snprintf(folder, sizeof folder, "%s/%s", s->dir, name);
    s->folder = name;
    size_t n;
    char **days = days_of(folder, &n);
    int rc = 0;
    size_t done = 0;
    for (size_t i = 0; !rc && i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", folder, days[i]);
        s->day = load(path, DAY_FILE_MAX, 0);
        size_t count = json_array_size(s->day);
        rc = json_is_array(s->day) ? 0 : -1;
        for (s->from = 0; !rc && s->from < count; s->from += (size_t)s->im->batch) {
            size_t left = count - s->from;
            rc = cli_import_batch(s->im, left < (size_t)s->im->batch ? left : (size_t)s->im->batch,
                                  &BATCH, s);
        }
        done += count;
        json_decref(s->day);
        s->day = NULL;
    }
    for (size_t i = 0; i < n; i++)
        free(days[i]);
    free(days);
    if (!rc) {
        printf("#%s: %zu messages\n", name, done);
        fflush(stdout);
    }
    return rc;
}

/* ---- channels ---- */

struct channel_step {
    struct slack *s;
    const json_t *c;
    int is_private;
};

/* The channel's row; a private one hidden from @everyone and shown to its members. */
static int channel_at(struct cli_import *im, void *arg)
{
    struct channel_step *step = arg;
    struct slack *s = step->s;
    struct rule_slack_channel c;
    const char *why;
    if (rule_slack_channel(step->c, &c, &why))
        return -1;
    if (cli_import_channel(im, c.id, c.name, c.topic, NULL, NULL, NULL, 0, &s->place))
        return -1;
    if (!step->is_private)
        return 0;
    size_t n = json_array_size(c.members) < MEMBERS_MAX ? json_array_size(c.members) : MEMBERS_MAX;
    struct cli_import_author *people = calloc(n ? n : 1, sizeof *people);
    size_t k = 0;
    for (size_t i = 0; people && i < n; i++) {
        const char *uid = json_string_value(json_array_get(c.members, i));
        if (uid)
            people[k++] = author_of(s, uid, NULL);
    }
    int rc = !people || cli_import_private(im, &s->place, people, k);
    free(people);
    return rc;
}

/* Every channel of a list (channels.json, or groups.json for private ones), in its order. */
static int channels_of(struct slack *s, const char *file, int is_private)
{
    char path[PATH_BYTES];
    snprintf(path, sizeof path, "%s/%s", s->dir, file);
    json_t *list = load(path, LIST_FILE_MAX, is_private);
    if (!list)
        return is_private ? 0 : -1; /* an export without private channels has no groups.json */
    int rc = json_is_array(list) ? 0 : -1;
    if (rc)
        fprintf(stderr, "praca import: %s: not a list of channels\n", path);
    size_t i;
    json_t *c;
    json_array_foreach(list, i, c)
    {
        struct rule_slack_channel ch;
        const char *why;
        if (rc)
            break;
        if (rule_slack_channel(c, &ch, &why)) {
            fprintf(stderr, "praca import: %s: channel %zu left out: %s\n", path, i, why);
            continue;
        }
        struct channel_step step = {s, c, is_private};
        s->channel_id = ch.id;
        rc = cli_import_transaction(s->im, channel_at, &step, 0) || channel_days(s, ch.name);
    }
    json_decref(list);
    return rc;
}

static int import_folder(struct cli_import *im, const char *dir)
{
    struct slack s = {.im = im, .dir = dir};
    cli_import_files_media_default(im->files, dir);
    map_init(&s.names);
    map_init(&s.emails);
    map_init(&s.pictures);
    map_init(&s.threads);
    int rc = read_users(&s);
    if (!rc && !im->source[0])
        snprintf(im->source, sizeof im->source, "slack");
    rc = rc || cli_import_begin(im) || channels_of(&s, "channels.json", 0) ||
         channels_of(&s, "groups.json", 1) || cli_import_finish(im);
    map_each(&s.names, free_value, NULL);
    map_cleanup(&s.names);
    map_each(&s.emails, free_value, NULL);
    map_cleanup(&s.emails);
    map_each(&s.pictures, free_value, NULL);
    map_cleanup(&s.pictures);
    map_cleanup(&s.threads);
    return rc ? -1 : 0;
}

static int holds_users(const char *dir)
{
    char probe[PATH_BYTES + 16];
    struct stat st;
    snprintf(probe, sizeof probe, "%s/users.json", dir);
    return !stat(probe, &st);
}

int cli_import_slack(struct cli_import *im, const char *path)
{
    if (!cli_import_is_zip(path))
        return import_folder(im, path);
    char root[1024], dir[PATH_BYTES];
    int rc = cli_import_unzip(path, root);
    if (!rc) {
        cli_import_zip_folder(root, holds_users, dir, sizeof dir);
        rc = import_folder(im, dir);
    }
    cli_import_remove_tree(root);
    return rc;
}
