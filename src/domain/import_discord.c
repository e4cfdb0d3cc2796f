/* DiscordChatExporter's JSON, read: see import_discord.h. */
#include "domain/import_discord.h"

#include <string.h>

#include "core/clock.h"
#include "domain/json_rules.h"

/* Discord's epoch (2015-01-01), where a snowflake's 42 bits of milliseconds count from. */
#define DISCORD_EPOCH_MS 1420070400000LL
#define ID_MAX           20 /* digits of a 64-bit snowflake */

int64_t rule_discord_snowflake_ms(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (!n || n > ID_MAX)
        return 0;
    unsigned long long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (id[i] < '0' || id[i] > '9')
            return 0;
        unsigned long long next = v * 10 + (unsigned)(id[i] - '0');
        if (next / 10 != v)
            return 0; /* past 64 bits */
        v = next;
    }
    return v ? (int64_t)(v >> 22) + DISCORD_EPOCH_MS : 0;
}

/* An exporter's time ("2021-05-12T19:24:19.9130000+00:00"): its fraction cut to milliseconds,
 * which clock_parse reads. 0, or -1. */
static int parse_time(const char *s, int64_t *ms)
{
    char buf[64];
    size_t n = s ? strlen(s) : 0, out = 0;
    if (!n || n >= sizeof buf)
        return -1;
    for (size_t i = 0, digits = 0, in_fraction = 0; i < n; i++) {
        if (s[i] == '.')
            in_fraction = 1, digits = 0;
        else if (in_fraction && s[i] >= '0' && s[i] <= '9' && ++digits > 3)
            continue;
        else if (in_fraction && (s[i] < '0' || s[i] > '9'))
            in_fraction = 0;
        buf[out++] = s[i];
    }
    return clock_parse(buf, out, ms);
}

int rule_discord_channel(const json_t *root, struct rule_discord_channel *out, const char **why)
{
    memset(out, 0, sizeof *out);
    const json_t *guild = json_object_get(root, "guild");
    const json_t *channel = json_object_get(root, "channel");
    if (!json_is_object(guild) || !json_is_object(channel) ||
        !json_is_array(json_object_get(root, "messages"))) {
        *why = "not a DiscordChatExporter JSON export (guild, channel, messages)";
        return -1;
    }
    out->guild_id = rule__json_some_string(guild, "id");
    out->guild_name = rule__json_some_string(guild, "name");
    out->id = rule__json_some_string(channel, "id");
    out->name = rule__json_some_string(channel, "name");
    if (!out->guild_id || !out->guild_name || !out->id || !out->name) {
        *why = "the guild or the channel has no id or name";
        return -1;
    }
    out->topic = rule__json_some_string(channel, "topic");
    out->category_id = rule__json_some_string(channel, "categoryId");
    out->category = rule__json_some_string(channel, "category");
    const char *type = rule__json_string(channel, "type");
    out->is_thread = type && strstr(type, "Thread") != NULL; /* GuildPublicThread, … */
    if (out->is_thread && !out->category_id) {
        *why = "a thread without its parent channel's id (categoryId)";
        return -1;
    }
    return 0;
}

int rule_discord_author(const json_t *a, struct rule_discord_author *out, const char **why)
{
    out->id = rule__json_some_string(a, "id");
    out->name = rule__json_some_string(a, "nickname");
    if (!out->name)
        out->name = rule__json_some_string(a, "name");
    out->is_bot = json_is_true(json_object_get(a, "isBot"));
    out->avatar = rule__json_some_string(a, "avatarUrl");
    const json_t *roles = json_object_get(a, "roles");
    out->roles = json_is_array(roles) && json_array_size(roles) ? roles : NULL;
    if (!out->id || !out->name) {
        *why = "an author without id or name";
        return -1;
    }
    return 0;
}

/* "#RRGGBB" as a number; 0 for anything else (no colour). */
static int64_t color_of(const char *s)
{
    if (!s || strlen(s) != 7 || s[0] != '#')
        return 0;
    int64_t v = 0;
    for (int i = 1; i < 7; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return 0;
        v = v * 16 + d;
    }
    return v;
}

int rule_discord_role(const struct rule_discord_author *a, size_t i, struct rule_discord_role *out)
{
    const json_t *r = json_array_get(a->roles, i);
    if (!r)
        return -1;
    out->id = rule__json_some_string(r, "id");
    out->name = rule__json_some_string(r, "name");
    out->color = color_of(rule__json_string(r, "color"));
    json_int_t position = json_integer_value(json_object_get(r, "position"));
    out->position = position > 0 && position < 1000000 ? position : 1;
    return out->id && out->name ? 0 : -1;
}

/* Messages that are a person's words; the others (joins, pin notices, calls, boosts) are
 * Discord's own and have no place in Praça's history. */
static int is_words(const char *type)
{
    return !type || !strcmp(type, "Default") || !strcmp(type, "Reply") ||
           !strcmp(type, "ThreadStarterMessage");
}

int rule_discord_message(const json_t *m, struct rule_discord_message *out, const char **why)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(m)) {
        *why = "a message that is not an object";
        return -1;
    }
    out->id = rule__json_some_string(m, "id");
    if (!out->id || parse_time(rule__json_string(m, "timestamp"), &out->at)) {
        *why = "a message without id or time";
        return -1;
    }
    const char *edited = rule__json_string(m, "timestampEdited");
    if (edited && parse_time(edited, &out->edited_at))
        out->edited_at = 0;
    out->pinned = json_is_true(json_object_get(m, "isPinned"));
    out->system = !is_words(rule__json_string(m, "type"));
    out->content = rule__json_string(m, "content");
    if (!out->content)
        out->content = "";
    out->reply_to = rule__json_some_string(json_object_get(m, "reference"), "messageId");
    if (rule_discord_author(json_object_get(m, "author"), &out->author, why))
        return -1;
    const json_t *reactions = json_object_get(m, "reactions");
    const json_t *attachments = json_object_get(m, "attachments");
    out->reactions = json_is_array(reactions) ? reactions : NULL;
    out->attachments = json_is_array(attachments) ? attachments : NULL;
    return 0;
}

int rule_discord_reaction(const struct rule_discord_message *m, size_t j, const char **emoji,
                          const json_t **users)
{
    const json_t *r = json_array_get(m->reactions, j);
    if (!r)
        return -1;
    const json_t *e = json_object_get(r, "emoji");
    *emoji = rule__json_some_string(e, "id") ? NULL : rule__json_some_string(e, "name");
    const json_t *u = json_object_get(r, "users");
    *users = json_is_array(u) && json_array_size(u) ? u : NULL;
    return 0;
}
