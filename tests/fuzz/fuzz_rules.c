/* libFuzzer driver for the JSON input rules: every clean function and the voice payload readers
 * on whatever JSON the bytes parse to, and the clean copies fed back in (they must be accepted
 * again). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "domain/automod.h"
#include "domain/command_access.h"
#include "domain/command_rules.h"
#include "domain/search_rules.h"
#include "domain/webhook_formats.h"
#include "domain/emoji.h"
#include "domain/import_discord.h"
#include "domain/import_discord_guild.h"
#include "domain/permissions.h"
#include "domain/import_mattermost.h"
#include "domain/import_slack.h"
#include "domain/json_split.h"
#include "domain/interaction_rules.h"
#include "domain/link_previews.h"
#include "domain/message_rules.h"
#include "domain/poll_rules.h"
#include "domain/voice_rules.h"
#include "domain/zip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void again(json_t *(*clean)(json_t *, struct rule_error *), json_t *out)
{
    struct rule_error err;
    json_t *twice = clean(out, &err);
    if (!twice)
        abort(); /* a clean copy must pass its own rules */
    json_decref(twice);
}

/* A DiscordChatExporter export as praca import reads it: every message, reaction and user. */
static int read_discord_message(void *arg, const char *json, size_t len)
{
    (void)arg;
    json_t *v = json_loadb(json, len, 0, NULL);
    struct rule_discord_message m;
    const char *why;
    if (v && !rule_discord_message(v, &m, &why)) {
        if (!m.id || !m.author.id || !m.author.name || !m.content)
            abort(); /* a message read has what the import writes */
        struct rule_discord_role r;
        for (size_t i = 0; i < json_array_size(m.author.roles); i++)
            if (!rule_discord_role(&m.author, i, &r) && (r.color < 0 || r.color > 0xFFFFFF))
                abort();
        const char *emoji;
        const json_t *users;
        for (size_t j = 0; !rule_discord_reaction(&m, j, &emoji, &users); j++) {
            struct rule_discord_author a;
            for (size_t k = 0; k < json_array_size(users); k++)
                rule_discord_author(json_array_get(users, k), &a, &why);
        }
    }
    json_decref(v);
    return 0;
}

/* A Discord server's structure as praca import discord --structure reads it. */
static void read_discord_guild(const json_t *v)
{
    const char *why;
    if (rule_discord_guild(v, &why))
        return;
    struct rule_discord_guild_role r;
    for (size_t i = 0; rule_discord_guild_role(v, i, &r, &why) != 1; i++)
        if ((r.permissions & ~PERM_ALL) || r.color < 0 || r.color > 0xFFFFFF)
            abort(); /* only Praça's bits, and a colour */
    struct rule_discord_guild_channel c;
    for (size_t i = 0; rule_discord_guild_channel(v, i, &c, &why) != 1; i++) {
        struct rule_discord_overwrite o;
        for (size_t j = 0; rule_discord_overwrite(&c, j, &o) != 1; j++)
            if ((o.allow | o.deny) & ~PERM_ALL)
                abort();
    }
}

struct elements {
    char all[4096];
    size_t used;
};

static int keep_element(void *arg, const char *json, size_t len)
{
    struct elements *e = arg;
    if (e->used + len + 1 < sizeof e->all) {
        memcpy(e->all + e->used, json, len);
        e->used += len;
        e->all[e->used++] = '|';
    }
    return read_discord_message(NULL, json, len);
}

/* Split in one piece and in two at a byte the input chooses: the same header, the same
 * elements; the header read as a channel's export. */
static void read_discord(const uint8_t *data, size_t size)
{
    struct rule_json_split one, two;
    struct elements a = {.used = 0}, b = {.used = 0};
    const char *why;
    size_t cut = size ? data[0] % size : 0;
    rule_json_split_init(&one, "messages", 1 << 16, 1 << 16);
    rule_json_split_init(&two, "messages", 1 << 16, 1 << 16);
    int ra = rule_json_split_feed(&one, (const char *)data, size, keep_element, &a, &why);
    int rb = rule_json_split_feed(&two, (const char *)data, cut, keep_element, &b, &why);
    if (!rb)
        rb = rule_json_split_feed(&two, (const char *)data + cut, size - cut, keep_element, &b,
                                  &why);
    if (ra != rb || a.used != b.used || memcmp(a.all, b.all, a.used) ||
        one.header.len != two.header.len ||
        (one.header.len && memcmp(one.header.data, two.header.data, one.header.len)))
        abort();
    json_t *header = ra ? NULL : json_loadb(one.header.data, one.header.len, 0, NULL);
    struct rule_discord_channel c;
    if (header && !rule_discord_channel(header, &c, &why) && (!c.id || !c.guild_id))
        abort();
    json_decref(header);
    rule_json_split_cleanup(&one);
    rule_json_split_cleanup(&two);
}

/* A Mattermost export's line as praca import reads it. */
static void read_mattermost(const json_t *v)
{
    enum rule_mm_kind kind;
    const char *why, *team, *user, *emoji;
    int64_t at;
    if (rule_mm_kind(v, &kind, &why))
        return;
    struct rule_mm_team t;
    struct rule_mm_channel c;
    struct rule_mm_user u;
    struct rule_mm_post p, r;
    rule_mm_team(v, &t, &why);
    rule_mm_channel(v, &c, &why);
    if (!rule_mm_user(v, &u, &why)) {
        if (strlen(u.name) >= sizeof u.name)
            abort();
        for (size_t i = 0; rule_mm_user_channel(&u, i, &team); i++)
            ;
    }
    if (rule_mm_post(v, &p, &why))
        return;
    if (!p.team || !p.channel || !p.user || !p.message || p.at <= 0)
        abort(); /* a post read has what the import writes */
    for (size_t i = 0; !rule_mm_reaction(&p, i, &user, &emoji, &at); i++)
        ;
    const char *file;
    for (size_t i = 0; rule_mm_attachment(&p, i, &file); i++)
        ;
    for (size_t i = 0; i < json_array_size(p.replies); i++)
        if (!rule_mm_reply(&p, i, &r, &why) && (!r.user || r.at <= 0))
            abort();
}

static const char *no_name(void *arg, const char *id)
{
    (void)arg;
    return strlen(id) % 2 ? id : NULL;
}

/* A Slack export's user, channel and message as praca import reads them; a message's text
 * read as Markdown from whatever "text" holds. */
static void read_slack(const json_t *v)
{
    struct rule_slack_user u;
    struct rule_slack_channel c;
    struct rule_slack_message m;
    const char *why, *emoji;
    const json_t *users;
    rule_slack_user(v, &u, &why);
    if (!rule_slack_channel(v, &c, &why) && (strchr(c.name, '/') || c.name[0] == '.'))
        abort(); /* a channel's folder never leaves the export */
    if (rule_slack_message(v, "C1", &m, &why))
        return;
    for (size_t i = 0; !rule_slack_reaction(&m, i, &emoji, &users); i++)
        ;
    struct rule_slack_file file;
    for (size_t i = 0; !rule_slack_file(&m, i, &file); i++)
        ;
    free(rule_slack_text(m.text, no_name, NULL));
}

static json_t *clean_components_v1(json_t *v, struct rule_error *err)
{
    return rule_message_clean_components(v, 0, err);
}

static json_t *clean_components_v2(json_t *v, struct rule_error *err)
{
    return rule_message_clean_components(v, 1, err);
}

/* A zip's end record and directory as praca import slack reads them: the bytes as both. */
static void read_zip(const uint8_t *data, size_t size)
{
    struct zip_directory d;
    const char *why;
    if (!rule_zip_end(data, size, size, &d, &why) && d.offset + d.size > size)
        abort(); /* a directory is inside the archive */
    struct zip_entry e;
    for (size_t at = 0; rule_zip_entry(data, size, &at, &e, &why) == 0;) {
        if (at > size || e.name + e.name_len > (const char *)data + size)
            abort();
        rule_zip_name_safe(e.name, e.name_len);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_discord(data, size);
    read_zip(data, size);
    /* A reaction: the raw bytes, and the body's emoji as the react route reads it. */
    if (rule_emoji_valid((const char *)data, size) && size > RULE_EMOJI_MAX_BYTES)
        abort();
    rule_emoji_custom_id_valid((const char *)data, size);
    /* A search as typed: any bytes up to a NUL; the FTS5 text always fits its buffer. */
    char q[1024];
    size_t qn = size < sizeof q - 1 ? size : sizeof q - 1;
    memcpy(q, data, qn);
    q[qn] = 0;
    struct search_query sq;
    const char *why;
    if (!rule_search_parse(q, &sq, &why)) {
        char fts[2 * sizeof sq.text + 3];
        rule_search_fts5(sq.text, fts, sizeof fts);
    }
    char *md = rule_webhook_mrkdwn(q);
    free(md);
    /* A message's links, and a page's HTML read for its preview: the raw bytes, unterminated. */
    struct preview_links links;
    rule_preview_links((const char *)data, size, &links);
    for (size_t i = 0; i < links.n; i++)
        if (strlen(links.url[i]) > PREVIEW_URL_MAX)
            abort();
    struct preview_page page;
    if (rule_preview_page((const char *)data, size, "https://example.com/a/b", &page) &&
        !page.title[0] && !page.description[0])
        abort();
    json_t *v = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
    if (!v)
        return 0;
    read_mattermost(v);
    read_slack(v);
    read_discord_guild(v);
    /* Other services' webhook bodies, and an override list. */
    struct rule_error werr;
    int ignored;
    json_decref(rule_webhook_from_slack(v, &werr));
    json_decref(rule_webhook_from_github(json_string_value(json_object_get(v, "event")), v,
                                         &ignored, &werr));
    json_decref(rule_command_clean_overrides(v, &werr));
    json_decref(rule_interaction_clean_choices(v, &werr));
    const char *emoji = json_string_value(json_object_get(v, "emoji"));
    if (emoji && rule_emoji_valid(emoji, strlen(emoji)) && !*emoji)
        abort();
    /* A thread or forum post: its name and first message through automod, with the words the
     * body brings (a word list is any array). */
    json_t *words = json_object_get(v, "blockedWords");
    for (const char *key = "name"; key; key = strcmp(key, "name") ? NULL : "content") {
        const char *text = json_string_value(json_object_get(v, key));
        if (text && json_is_array(words))
            rule_automod_blocks(text, strlen(text), words, 2, 3);
    }
    json_t *(*const rules[])(json_t *, struct rule_error *) = {
        rule_message_clean_embeds,
        clean_components_v1,
        clean_components_v2,
        rule_command_clean_list,
        rule_interaction_clean_modal,
        rule_interaction_clean_form_values,
        rule_interaction_clean_select_values,
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        struct rule_error err;
        json_t *out = rules[i](v, &err);
        if (out) {
            again(rules[i], out);
            json_decref(out);
        }
    }
    struct rule_error err;
    json_t *commands =
        rule_command_clean_list(json_array_get(v, 0) ? json_array_get(v, 0) : v, &err);
    json_t *defined = json_object_get(json_array_get(commands, 0), "options");
    json_t *options = rule_interaction_clean_options(defined, json_array_get(v, 1), &err);
    json_decref(options);
    json_decref(commands);
    rule_interaction_find_component(v, "a");
    struct voice_join_req join;
    struct voice_leave_req leave;
    struct voice_signal_req signal;
    if (!rule_voice_read_join(v, &join, &err) &&
        !uuid_valid(join.channel_id, strlen(join.channel_id)))
        abort(); /* an accepted join names a channel */
    rule_voice_read_leave(v, &leave, &err);
    /* A poll as a send gives it: what is kept is read again the same (its answers have ids). */
    int64_t hours;
    const char *field, *why_poll;
    json_t *poll = rule_poll_read(v, &hours, &field, &why_poll);
    if (poll && (hours < 1 || hours > POLL_HOURS_MAX))
        abort();
    int chosen[POLL_ANSWERS_MAX];
    rule_poll_choice(v, POLL_ANSWERS_MAX, 1, chosen, &why_poll);
    json_decref(poll);
    if (!rule_voice_read_signal(v, 0, &signal, &err) &&
        json_dumpb(signal.data, NULL, 0, JSON_COMPACT | JSON_ENCODE_ANY) > VOICE_SIGNAL_MAX)
        abort();
    json_decref(v);
    return 0;
}
