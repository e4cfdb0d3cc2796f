/*
 * praca import mattermost: one team of a Mattermost bulk export (JSONL; domain/import_mattermost.h
 * reads its lines) becomes the server. The file is read twice, a line at a time: first its
 * teams, channels and users (the team chosen, private channels' members known), then its posts,
 * im->batch at a time. A post's replies become a thread under its channel, started from it;
 * direct messages are left out (a server has none).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/import_formats.h"
#include "core/buf.h"
#include "core/vec.h"
#include "domain/import_mattermost.h"

#define LINE_MAX_BYTES ((size_t)16 << 20) /* a post with its replies */
#define CHANNELS_MAX   10000
#define TEAMS_MAX      1000

struct mm_channel {
    char *team, *name, *display, *topic;
    int is_private;
    struct cli_import_author *members; /* of a private channel */
    size_t nmembers, members_cap;
    struct cli_import_place place;
};

struct mm {
    struct cli_import *im;
    const char *path, *team;
    char *teams[TEAMS_MAX];
    size_t nteams;
    struct mm_channel *channels;
    size_t nchannels;
    struct map by_name;  /* "team\nname" → its channel's index + 1 */
    struct map names;    /* username → display name (malloc'd) */
    struct map emails;   /* username → the address the export gave (malloc'd) */
    struct map pictures; /* username → profile_image, its path in the export (malloc'd) */
    size_t posts, done;
    json_t **batch;
    long *lines;
    size_t n;
};

static char *key_of(const char *team, const char *name)
{
    size_t size = strlen(team) + strlen(name) + 2;
    char *k = malloc(size);
    if (k)
        snprintf(k, size, "%s\n%s", team, name);
    return k;
}

static struct mm_channel *channel_named(struct mm *m, const char *team, const char *name)
{
    char *key = key_of(team, name);
    uintptr_t at = key ? (uintptr_t)map_get(&m->by_name, key) : 0;
    free(key);
    return at ? &m->channels[at - 1] : NULL;
}

static int note_channel(struct mm *m, const struct rule_mm_channel *c)
{
    char *key = key_of(c->team, c->name);
    if (!key || map_get(&m->by_name, key) || m->nchannels == CHANNELS_MAX) {
        free(key);
        return key ? 0 : -1; /* a second line for a channel, or past the bound: left out */
    }
    struct mm_channel *more = realloc(m->channels, (m->nchannels + 1) * sizeof *more);
    if (!more) {
        free(key);
        return -1;
    }
    m->channels = more;
    struct mm_channel *ch = &m->channels[m->nchannels++];
    if (map_set(&m->by_name, key, (void *)(uintptr_t)m->nchannels)) {
        free(key);
        return -1;
    }
    *ch = (struct mm_channel){.team = strdup(c->team),
                              .name = strdup(c->name),
                              .display = strdup(c->display_name),
                              .topic = c->topic ? strdup(c->topic) : NULL,
                              .is_private = c->is_private};
    free(key);
    return ch->team && ch->name && ch->display ? 0 : -1;
}

/* A user: their name kept, and their place in each private channel. */
static int note_user(struct mm *m, const struct rule_mm_user *u)
{
    /* a second line for a user: the last one's */
    if (map_set_copy(&m->names, u->username, u->name) ||
        map_set_copy(&m->emails, u->username, u->email) ||
        map_set_copy(&m->pictures, u->username, u->picture))
        return -1;
    const char *team, *channel;
    for (size_t i = 0; (channel = rule_mm_user_channel(u, i, &team)); i++) {
        struct mm_channel *c = *channel ? channel_named(m, team, channel) : NULL;
        if (!c || !c->is_private)
            continue;
        if (VEC_RESERVE(c->members, c->nmembers, c->members_cap, 8))
            return -1;
        char *id = strdup(u->username);
        if (!id)
            return -1;
        c->members[c->nmembers++] = (struct cli_import_author){.id = id}; /* named when written */
    }
    return 0;
}

static void free_name(const char *key, void *value, void *arg)
{
    (void)key, (void)arg;
    free(value);
}

static int survey_line(json_t *v, long number, void *arg)
{
    struct mm *m = arg;
    enum rule_mm_kind kind;
    const char *why = NULL;
    int rc = rule_mm_kind(v, &kind, &why);
    if (!rc && number == 1 &&
        (kind != RULE_MM_VERSION || rule_mm_version(v) != RULE_MM_FORMAT_VERSION)) {
        why =
            "not a Mattermost bulk export (its first line is {\"type\":\"version\",\"version\":1})";
        rc = -1;
    }
    struct rule_mm_team t;
    struct rule_mm_channel c;
    struct rule_mm_user u;
    if (!rc && kind == RULE_MM_TEAM && !(rc = rule_mm_team(v, &t, &why)) && m->nteams < TEAMS_MAX)
        rc = (m->teams[m->nteams++] = strdup(t.name)) ? 0 : -1;
    else if (!rc && kind == RULE_MM_CHANNEL && !(rc = rule_mm_channel(v, &c, &why)))
        rc = note_channel(m, &c);
    else if (!rc && kind == RULE_MM_USER && !(rc = rule_mm_user(v, &u, &why)))
        rc = note_user(m, &u);
    else if (!rc && kind == RULE_MM_POST)
        m->posts++;
    if (rc && why)
        fprintf(stderr, "praca import: %s: line %ld: %s\n", m->path, number, why);
    json_decref(v);
    return rc;
}

/* The team to import: --team, or the export's only one. 0, or -1 (said why). */
static int choose_team(struct mm *m)
{
    for (size_t i = 0; m->team && i < m->nteams; i++)
        if (!strcmp(m->teams[i], m->team))
            return 0;
    if (m->team) {
        fprintf(stderr, "praca import: %s: no team named %s\n", m->path, m->team);
        return -1;
    }
    if (m->nteams == 1) {
        m->team = m->teams[0];
        return 0;
    }
    fprintf(stderr, "praca import: %s: %s; choose one with --team:", m->path,
            m->nteams ? "several teams" : "no team");
    for (size_t i = 0; i < m->nteams; i++)
        fprintf(stderr, " %s", m->teams[i]);
    fputc('\n', stderr);
    return -1;
}

static struct cli_import_author author_of(struct mm *m, const char *username)
{
    const char *name = map_get(&m->names, username);
    return (struct cli_import_author){
        .id = username, .name = name ? name : username, .email = map_get(&m->emails, username)};
}

/* The team's channels, in the export's order, private ones hidden but from their members (named
 * as the export's last line for each says). */
static int channels_at(struct cli_import *im, void *arg)
{
    struct mm *m = arg;
    for (size_t i = 0; i < m->nchannels; i++) {
        struct mm_channel *c = &m->channels[i];
        if (strcmp(c->team, m->team))
            continue;
        for (size_t k = 0; k < c->nmembers; k++)
            c->members[k] = author_of(m, c->members[k].id);
        if (cli_import_channel(im, c->name, c->display, c->topic, NULL, NULL, NULL, 0, &c->place) ||
            (c->is_private && cli_import_private(im, &c->place, c->members, c->nmembers)))
            return -1;
    }
    return 0;
}

/* ---- posts ---- */

/* A post's files: each at its path under the export's folder (Mattermost's bulk export keeps
 * them in its data/ folder), its name on a line of its own when it is not brought. */
#define ATTACHED_MAX 16 /* a post's files read (Mattermost allows 10); the rest are left out */
struct files {
    struct cli_import_file f[ATTACHED_MAX];
    char line[ATTACHED_MAX][320];
    size_t n;
};

static void files_of(const struct rule_mm_post *p, struct files *out)
{
    const char *path, *name;
    out->n = 0;
    for (size_t i = 0; out->n < ATTACHED_MAX && (path = rule_mm_attachment(p, i, &name)); i++) {
        snprintf(out->line[out->n], sizeof out->line[0], "%s%s", *name ? "📎 " : "", name);
        out->f[out->n] =
            (struct cli_import_file){name, *path ? path : NULL, NULL, out->line[out->n]};
        out->n++;
    }
}

/* One post or reply into place, with its reactions; id gets its ID here. */
static int one_at(struct mm *m, const struct cli_import_place *place, const struct rule_mm_post *p,
                  const char *source, char id[UUID_LEN + 1])
{
    struct files files;
    files_of(p, &files);
    struct cli_import_message row = {.source = source,
                                     .at = p->at,
                                     .pinned = p->pinned,
                                     .text = p->message,
                                     .files = files.f,
                                     .nfiles = files.n,
                                     .author = author_of(m, p->user)};
    if (cli_import_message(m->im, place, &row, id))
        return -1;
    const char *user, *emoji;
    int64_t at;
    for (size_t i = 0; !rule_mm_reaction(p, i, &user, &emoji, &at); i++) {
        struct cli_import_author who = author_of(m, user ? user : "");
        if (user && cli_import_reaction(m->im, id, place->channel_id, emoji, &who, at))
            return -1;
    }
    return 0;
}

static int post_at(struct mm *m, const json_t *line, long number)
{
    struct rule_mm_post p, r;
    const char *why;
    if (rule_mm_post(line, &p, &why)) {
        fprintf(stderr, "praca import: %s: line %ld left out: %s\n", m->path, number, why);
        m->im->left_out++;
        return 0;
    }
    if (strcmp(p.team, m->team))
        return 0; /* another team's */
    struct mm_channel *c = channel_named(m, p.team, p.channel);
    if (!c) {
        fprintf(stderr, "praca import: %s: line %ld left out: no channel %s\n", m->path, number,
                p.channel);
        m->im->left_out++;
        return 0;
    }
    char source[40], id[UUID_LEN + 1], name[CLI_IMPORT_THREAD_NAME_BYTES];
    snprintf(source, sizeof source, "L%ld", number);
    if (one_at(m, &c->place, &p, source, id))
        return -1;
    if (!json_array_size(p.replies))
        return 0;
    struct cli_import_place thread;
    char thread_source[44];
    snprintf(thread_source, sizeof thread_source, "T%ld", number);
    cli_import_thread_name(p.message, name);
    if (cli_import_channel(m->im, thread_source, name, NULL, NULL, c->name, source, p.at, &thread))
        return -1;
    for (size_t i = 0; i < json_array_size(p.replies); i++) {
        char reply[64];
        snprintf(reply, sizeof reply, "L%ld.%zu", number, i);
        if (rule_mm_reply(&p, i, &r, &why)) {
            fprintf(stderr, "praca import: %s: line %ld, reply %zu left out: %s\n", m->path, number,
                    i, why);
            m->im->left_out++;
        } else if (one_at(m, &thread, &r, reply, id)) {
            return -1;
        }
    }
    return 0;
}

static int one_of(struct cli_import *im, size_t i, struct buf *text, void *arg)
{
    (void)im, (void)text; /* cli_import_message makes the message's text */
    struct mm *m = arg;
    return post_at(m, m->batch[i], m->lines[i]);
}

static int bring_files(struct mm *m, const struct rule_mm_post *p, const char *source)
{
    struct files files;
    files_of(p, &files);
    int there = files.n ? cli_import_message_there(m->im, source, p->at) : 0;
    if (there < 0)
        return -1;
    for (size_t k = 0; !there && k < files.n; k++)
        if (cli_import_file_bring(m->im, &files.f[k]))
            return -1;
    struct cli_import_file picture = {NULL, map_get(&m->pictures, p->user), NULL, NULL};
    return cli_import_picture_bring(m->im, p->user, &picture);
}

/* A post's files and its replies'. */
static int bring_of(struct cli_import *im, size_t i, void *arg)
{
    (void)im;
    struct mm *m = arg;
    struct rule_mm_post p, r;
    const char *why;
    if (rule_mm_post(m->batch[i], &p, &why) || strcmp(p.team, m->team))
        return 0;
    char source[64];
    snprintf(source, sizeof source, "L%ld", m->lines[i]);
    int rc = bring_files(m, &p, source);
    for (size_t k = 0; !rc && k < json_array_size(p.replies); k++) {
        snprintf(source, sizeof source, "L%ld.%zu", m->lines[i], k);
        rc = !rule_mm_reply(&p, k, &r, &why) ? bring_files(m, &r, source) : 0;
    }
    return rc;
}

static const struct cli_import_batch_fns BATCH = {bring_of, one_of};

static int pour_batch(struct mm *m)
{
    int rc = cli_import_batch(m->im, m->n, &BATCH, m);
    if (rc)
        fprintf(stderr, "praca import: %s: could not write posts\n", m->path);
    for (size_t i = 0; i < m->n; i++)
        json_decref(m->batch[i]);
    m->done += m->n;
    m->n = 0;
    if (!rc) {
        printf("posts: %zu of %zu\n", m->done, m->posts);
        fflush(stdout);
    }
    return rc;
}

static int pour_line(json_t *v, long number, void *arg)
{
    struct mm *m = arg;
    enum rule_mm_kind kind;
    const char *why;
    if (rule_mm_kind(v, &kind, &why) || (kind != RULE_MM_POST && kind != RULE_MM_DIRECT_POST)) {
        json_decref(v);
        return 0;
    }
    if (kind == RULE_MM_DIRECT_POST) {
        m->im->left_out++; /* a server has no direct messages */
        json_decref(v);
        return 0;
    }
    m->batch[m->n] = v;
    m->lines[m->n++] = number;
    return m->n == (size_t)m->im->batch ? pour_batch(m) : 0;
}

static void free_mm(struct mm *m)
{
    for (size_t i = 0; i < m->nteams; i++)
        free(m->teams[i]);
    for (size_t i = 0; i < m->nchannels; i++) {
        struct mm_channel *c = &m->channels[i];
        for (size_t k = 0; k < c->nmembers; k++)
            free((char *)c->members[k].id);
        free(c->members);
        free(c->team), free(c->name), free(c->display), free(c->topic);
    }
    free(m->channels);
    map_cleanup(&m->by_name);
    map_each(&m->names, free_name, NULL);
    map_cleanup(&m->names);
    map_each(&m->emails, free_name, NULL);
    map_cleanup(&m->emails);
    map_each(&m->pictures, free_name, NULL);
    map_cleanup(&m->pictures);
    for (size_t i = 0; i < m->n; i++)
        json_decref(m->batch[i]);
    free(m->batch);
    free(m->lines);
}

int cli_import_mattermost(struct cli_import *im, const char *path, const char *team)
{
    struct mm m = {.im = im, .path = path, .team = team};
    im->source_size = cli_import_file_size(path);
    map_init(&m.by_name);
    map_init(&m.names);
    map_init(&m.emails);
    map_init(&m.pictures);
    m.batch = malloc((size_t)im->batch * sizeof *m.batch);
    m.lines = malloc((size_t)im->batch * sizeof *m.lines);
    int rc = !m.batch || !m.lines ||
             cli_import_lines(path, LINE_MAX_BYTES, survey_line, &m, NULL) || choose_team(&m);
    if (!rc) {
        snprintf(im->source, sizeof im->source, "%s", m.team);
        rc = cli_import_begin(im) || cli_import_transaction(im, channels_at, &m, 0) ||
             cli_import_lines(path, LINE_MAX_BYTES, pour_line, &m, &im->source_read) ||
             pour_batch(&m) || cli_import_finish(im);
    }
    free_mm(&m);
    return rc ? -1 : 0;
}
