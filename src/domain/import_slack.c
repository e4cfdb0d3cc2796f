/* Slack's workspace export, read: see import_slack.h. */
#include "domain/import_slack.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "domain/emoji.h"
#include "domain/webhook_formats.h"
#include "domain/json_rules.h"

#define TEXT_MAX ((size_t)256 << 10)

int rule_slack_user(const json_t *u, struct rule_slack_user *out, const char **why)
{
    const json_t *profile = json_object_get(u, "profile");
    out->id = rule__json_some_string(u, "id");
    out->email = rule__json_some_string(profile, "email");
    static const char *const IMAGES[] = {"image_512", "image_192", "image_72"};
    out->picture = NULL;
    for (size_t i = 0; !out->picture && i < sizeof IMAGES / sizeof *IMAGES; i++)
        out->picture = rule__json_some_string(profile, IMAGES[i]);
    out->name = rule__json_some_string(profile, "display_name");
    if (!out->name)
        out->name = rule__json_some_string(profile, "real_name");
    if (!out->name)
        out->name = rule__json_some_string(u, "real_name");
    if (!out->name)
        out->name = rule__json_some_string(u, "name");
    if (!out->id || !out->name) {
        *why = "a user without an id or a name";
        return -1;
    }
    return 0;
}

int rule_slack_channel(const json_t *c, struct rule_slack_channel *out, const char **why)
{
    out->id = rule__json_some_string(c, "id");
    out->name = rule__json_some_string(c, "name");
    out->topic = rule__json_some_string(json_object_get(c, "purpose"), "value");
    if (!out->topic)
        out->topic = rule__json_some_string(json_object_get(c, "topic"), "value");
    const json_t *members = json_object_get(c, "members");
    out->members = json_is_array(members) ? members : NULL;
    /* its name is a folder's: none may climb out of the export */
    if (!out->id || !out->name || strchr(out->name, '/') || out->name[0] == '.') {
        *why = "a channel without an id or a usable name";
        return -1;
    }
    return 0;
}

int64_t rule_slack_ts_ms(const char *ts)
{
    if (!ts || !*ts)
        return 0;
    int64_t seconds = 0, ms = 0;
    const char *p = ts;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (seconds > INT64_MAX / 10000)
            return 0;
        seconds = seconds * 10 + (*p - '0');
    }
    if (p == ts)
        return 0; /* no seconds */
    if (*p == '.') {
        int digits = 0;
        for (p++; *p >= '0' && *p <= '9'; p++)
            if (digits++ < 3)
                ms = ms * 10 + (*p - '0');
        for (; digits < 3 && digits > 0; digits++)
            ms *= 10; /* ".5" is 500 ms */
    }
    if (*p)
        return 0;
    return seconds * 1000 + ms;
}

/* Messages that are Slack's own notices rather than someone's words. */
static int is_notice(const char *subtype)
{
    static const char *const WORDS[] = {"bot_message", "thread_broadcast", "me_message",
                                        "file_share", "file_comment"};
    if (!subtype)
        return 0;
    for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++)
        if (!strcmp(subtype, WORDS[i]))
            return 0;
    return 1;
}

/* Whether the message was pinned in channel_id. */
static int pinned_in(const json_t *m, const char *channel_id)
{
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(m, "pinned_to"), i, c)
    {
        if (json_string_value(c) && !strcmp(json_string_value(c), channel_id))
            return 1;
    }
    return 0;
}

int rule_slack_message(const json_t *m, const char *channel_id, struct rule_slack_message *out,
                       const char **why)
{
    memset(out, 0, sizeof *out);
    const char *subtype = rule__json_some_string(m, "subtype");
    out->ts = rule__json_some_string(m, "ts");
    out->at = rule_slack_ts_ms(out->ts);
    out->system = is_notice(subtype);
    out->user = rule__json_some_string(m, "user");
    if (subtype && !strcmp(subtype, "bot_message"))
        out->bot_name = rule__json_some_string(m, "username");
    if (!out->user && out->bot_name)
        out->user = rule__json_some_string(m, "bot_id") ? rule__json_some_string(m, "bot_id")
                                                        : out->bot_name;
    out->text = rule__json_string(m, "text");
    if (!out->text)
        out->text = "";
    const char *thread = rule__json_some_string(m, "thread_ts");
    int broadcast = subtype && !strcmp(subtype, "thread_broadcast");
    out->thread_ts = thread && out->ts && strcmp(thread, out->ts) && !broadcast ? thread : NULL;
    out->has_replies = thread && out->ts && !strcmp(thread, out->ts);
    out->edited_at = rule_slack_ts_ms(rule__json_some_string(json_object_get(m, "edited"), "ts"));
    out->pinned = channel_id && pinned_in(m, channel_id);
    const json_t *reactions = json_object_get(m, "reactions"), *files = json_object_get(m, "files");
    out->reactions = json_is_array(reactions) ? reactions : NULL;
    out->files = json_is_array(files) ? files : NULL;
    if (!out->at || (!out->user && !out->system)) {
        *why = "a message without its time (ts) or its author";
        return -1;
    }
    return 0;
}

int rule_slack_reaction(const struct rule_slack_message *m, size_t i, const char **emoji,
                        const json_t **users)
{
    const json_t *r = json_array_get(m->reactions, i);
    if (!r)
        return -1;
    *emoji = rule_emoji_by_name(rule__json_string(r, "name"));
    const json_t *u = json_object_get(r, "users");
    *users = json_is_array(u) ? u : NULL;
    return 0;
}

int rule_slack_file(const struct rule_slack_message *m, size_t i, struct rule_slack_file *out)
{
    const json_t *f = json_array_get(m->files, i);
    if (!f)
        return 1;
    const char *name = rule__json_some_string(f, "name");
    const char *id = rule__json_some_string(f, "id");
    const char *url = rule__json_some_string(f, "url_private_download");
    *out = (struct rule_slack_file){id ? id : "", name ? name : "",
                                    url ? url : rule__json_some_string(f, "url_private")};
    return 0;
}

/* A label for mrkdwn's <…|label>: the name without the characters that would end it. */
static int append_label(struct buf *b, const char *prefix, const char *name, size_t len)
{
    int rc = buf_append(b, "|", 1) || buf_append(b, prefix, strlen(prefix));
    for (size_t i = 0; !rc && i < len; i++)
        if (name[i] != '>' && name[i] != '|' && name[i] != '<')
            rc = buf_append(b, &name[i], 1);
    return rc;
}

/* <@U…>, <#C…|name> and <!here> given labels, so that mrkdwn shows them as text. */
static int label_mentions(const char *t, struct buf *b,
                          const char *(*name_of)(void *arg, const char *id), void *arg)
{
    int rc = 0;
    for (const char *p = t; *p && !rc;) {
        const char *end = p[0] == '<' && strchr("@#!", p[1]) ? strchr(p, '>') : NULL;
        if (!end) {
            rc = buf_append(b, p++, 1);
            continue;
        }
        const char *bar = memchr(p, '|', (size_t)(end - p));
        size_t id_len = (size_t)((bar ? bar : end) - (p + 2));
        char id[64] = "";
        if (id_len < sizeof id)
            memcpy(id, p + 2, id_len), id[id_len] = 0;
        rc = buf_append(b, p, (size_t)((bar ? bar : end) - p));
        if (!rc && p[1] == '@') {
            const char *name = name_of(arg, id);
            name = name ? name : "someone";
            rc = append_label(b, "@", name, strlen(name));
        } else if (!rc && p[1] == '#') {
            rc = bar ? append_label(b, "#", bar + 1, (size_t)(end - bar - 1))
                     : append_label(b, "#", "channel", 7);
        } else if (!rc) {
            rc = append_label(b, "@", id, strlen(id)); /* here, channel, everyone */
        }
        rc = rc || buf_append(b, ">", 1);
        p = end + 1;
    }
    return rc;
}

char *rule_slack_text(const char *t, const char *(*name_of)(void *arg, const char *id), void *arg)
{
    struct buf b;
    buf_init(&b, TEXT_MAX);
    char *md = NULL;
    if (!label_mentions(t, &b, name_of, arg) && !buf_append(&b, "", 1))
        md = rule_webhook_mrkdwn(b.data);
    buf_cleanup(&b);
    return md;
}
