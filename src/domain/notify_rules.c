/* Who is notified of a message: see notify_rules.h. */
#include "domain/notify_rules.h"

#include <string.h>

static const char *const LEVELS[] = {"default", "all", "mentions", "nothing"};

int rule_notify_level_parse(const char *text)
{
    for (size_t i = 0; text && i < sizeof LEVELS / sizeof LEVELS[0]; i++)
        if (!strcmp(text, LEVELS[i]))
            return (int)i;
    return -1;
}

const char *rule_notify_level_name(enum notify_level level)
{
    return (unsigned)level < sizeof LEVELS / sizeof LEVELS[0] ? LEVELS[level] : "default";
}

int64_t rule_notify_mute_until(int64_t hours, int64_t now)
{
    if (hours == 0)
        return 0;
    if (hours == -1)
        return NOTIFY_MUTED_FOREVER;
    if (hours == 1 || hours == 8 || hours == 24)
        return now + hours * 3600 * 1000;
    return -2;
}

static int muted(const struct notify_setting *s, int64_t now)
{
    return s->muted_until == NOTIFY_MUTED_FOREVER || s->muted_until > now;
}

int rule_notify_decide(const struct notify_facts *f, int64_t now)
{
    if (f->author || f->do_not_disturb || f->reading)
        return 0;
    if (f->is_dm)
        return 1;
    if (muted(&f->server, now) || muted(&f->channel, now))
        return 0;
    /* The channel's own level wins; the server's decides when the channel follows it. */
    enum notify_level level = f->channel.level != NOTIFY_DEFAULT  ? f->channel.level
                              : f->server.level != NOTIFY_DEFAULT ? f->server.level
                                                                  : NOTIFY_MENTIONS;
    if (level == NOTIFY_NOTHING)
        return 0;
    if (level == NOTIFY_ALL)
        return 1;
    return f->mentioned || (f->role_mentioned && !f->server.suppress_roles) ||
           (f->everyone && !f->server.suppress_everyone);
}
