/* Mattermost's bulk export, read: see import_mattermost.h. */
#include "domain/import_mattermost.h"

#include <stdio.h>
#include <string.h>

#include "domain/emoji.h"
#include "domain/json_rules.h"

int rule_mm_kind(const json_t *line, enum rule_mm_kind *kind, const char **why)
{
    static const struct {
        const char *name;
        enum rule_mm_kind kind;
    } KINDS[] = {{"version", RULE_MM_VERSION}, {"team", RULE_MM_TEAM},
                 {"channel", RULE_MM_CHANNEL}, {"user", RULE_MM_USER},
                 {"post", RULE_MM_POST},       {"direct_post", RULE_MM_DIRECT_POST}};
    const char *type = rule__json_some_string(line, "type");
    if (!type) {
        *why = "a line without a type";
        return -1;
    }
    *kind = RULE_MM_OTHER;
    for (size_t i = 0; i < sizeof KINDS / sizeof *KINDS; i++)
        if (!strcmp(type, KINDS[i].name))
            *kind = KINDS[i].kind;
    return 0;
}

int64_t rule_mm_version(const json_t *line)
{
    const json_t *v = json_object_get(line, "version");
    return json_is_integer(v) ? json_integer_value(v) : 0;
}

int rule_mm_team(const json_t *line, struct rule_mm_team *out, const char **why)
{
    const json_t *t = json_object_get(line, "team");
    out->name = rule__json_some_string(t, "name");
    out->display_name = rule__json_some_string(t, "display_name");
    if (!out->display_name)
        out->display_name = out->name;
    if (!out->name) {
        *why = "a team without a name";
        return -1;
    }
    return 0;
}

int rule_mm_channel(const json_t *line, struct rule_mm_channel *out, const char **why)
{
    const json_t *c = json_object_get(line, "channel");
    out->team = rule__json_some_string(c, "team");
    out->name = rule__json_some_string(c, "name");
    out->display_name = rule__json_some_string(c, "display_name");
    if (!out->display_name)
        out->display_name = out->name;
    out->topic = rule__json_some_string(c, "purpose");
    if (!out->topic)
        out->topic = rule__json_some_string(c, "header");
    const char *type = rule__json_string(c, "type");
    out->is_private = type && !strcmp(type, "P");
    if (!out->team || !out->name) {
        *why = "a channel without its team or name";
        return -1;
    }
    return 0;
}

int rule_mm_user(const json_t *line, struct rule_mm_user *out, const char **why)
{
    const json_t *u = json_object_get(line, "user");
    out->username = rule__json_some_string(u, "username");
    out->email = rule__json_some_string(u, "email");
    out->picture = rule__json_some_string(u, "profile_image");
    if (!out->username) {
        *why = "a user without a username";
        return -1;
    }
    const char *nick = rule__json_some_string(u, "nickname"),
               *first = rule__json_some_string(u, "first_name"),
               *last = rule__json_some_string(u, "last_name");
    if (nick)
        snprintf(out->name, sizeof out->name, "%s", nick);
    else if (first || last)
        snprintf(out->name, sizeof out->name, "%s%s%s", first ? first : "",
                 first && last ? " " : "", last ? last : "");
    else
        snprintf(out->name, sizeof out->name, "%s", out->username);
    const json_t *teams = json_object_get(u, "teams");
    out->teams = json_is_array(teams) ? teams : NULL;
    return 0;
}

const char *rule_mm_user_channel(const struct rule_mm_user *u, size_t i, const char **team)
{
    size_t k, seen = 0;
    const json_t *t;
    json_array_foreach(u->teams, k, t)
    {
        const json_t *channels = json_object_get(t, "channels");
        size_t n = json_array_size(channels);
        if (i < seen + n) {
            *team = rule__json_some_string(t, "name");
            const char *name = rule__json_some_string(json_array_get(channels, i - seen), "name");
            return *team && name ? name : "";
        }
        seen += n;
    }
    return NULL;
}

/* The fields a post and a reply share. */
static int read_post(const json_t *p, struct rule_mm_post *out, const char **why)
{
    out->user = rule__json_some_string(p, "user");
    out->message = rule__json_string(p, "message");
    if (!out->message)
        out->message = "";
    const json_t *at = json_object_get(p, "create_at");
    out->at = json_is_integer(at) ? json_integer_value(at) : 0;
    out->pinned = json_is_true(json_object_get(p, "is_pinned"));
    const json_t *replies = json_object_get(p, "replies"),
                 *reactions = json_object_get(p, "reactions"),
                 *files = json_object_get(p, "attachments");
    out->replies = json_is_array(replies) ? replies : NULL;
    out->reactions = json_is_array(reactions) ? reactions : NULL;
    out->attachments = json_is_array(files) ? files : NULL;
    if (!out->user || out->at <= 0) {
        *why = "a post without its user or time (create_at)";
        return -1;
    }
    return 0;
}

int rule_mm_post(const json_t *line, struct rule_mm_post *out, const char **why)
{
    const json_t *p = json_object_get(line, "post");
    memset(out, 0, sizeof *out);
    out->team = rule__json_some_string(p, "team");
    out->channel = rule__json_some_string(p, "channel");
    if (!out->team || !out->channel) {
        *why = "a post without its team or channel";
        return -1;
    }
    return read_post(p, out, why);
}

int rule_mm_reply(const struct rule_mm_post *post, size_t i, struct rule_mm_post *out,
                  const char **why)
{
    const json_t *r = json_array_get(post->replies, i);
    if (!r)
        return -1;
    memset(out, 0, sizeof *out);
    out->team = post->team;
    out->channel = post->channel;
    if (!json_is_object(r)) {
        *why = "a reply that is not an object";
        return -1;
    }
    int rc = read_post(r, out, why);
    out->replies = NULL; /* replies do not nest */
    return rc;
}

int rule_mm_reaction(const struct rule_mm_post *p, size_t i, const char **user, const char **emoji,
                     int64_t *at)
{
    const json_t *r = json_array_get(p->reactions, i);
    if (!r)
        return -1;
    *user = rule__json_some_string(r, "user");
    *emoji = *user ? rule_emoji_by_name(rule__json_string(r, "emoji_name")) : NULL;
    const json_t *when = json_object_get(r, "create_at");
    *at = json_is_integer(when) ? json_integer_value(when) : p->at;
    return 0;
}

const char *rule_mm_attachment(const struct rule_mm_post *p, size_t i, const char **name)
{
    const json_t *a = json_array_get(p->attachments, i);
    if (!a)
        return NULL;
    const char *path = rule__json_some_string(a, "path");
    if (!path)
        path = "";
    const char *slash = strrchr(path, '/');
    *name = slash ? slash + 1 : path;
    return path;
}
