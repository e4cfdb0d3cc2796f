/* Locales: see locales.h. */
#include "domain/locales.h"

#include <stddef.h>
#include <strings.h>

static const char *const LOCALES[] = {"pt-BR", "pt-PT", "en-US", "en-GB", "es-ES", "es-419",
                                      "fr",    "de",    "it",    "ja",    "ko",    "zh-CN"};

const char *rule_locale_known(const char *s)
{
    for (size_t i = 0; s && i < sizeof LOCALES / sizeof *LOCALES; i++)
        if (!strcasecmp(s, LOCALES[i]))
            return LOCALES[i];
    return NULL;
}

/* The length of a tag's language part ("es" of "es-419"). */
static size_t language_len(const char *tag)
{
    size_t n = 0;
    while (tag[n] && tag[n] != '-')
        n++;
    return n;
}

const char *rule_locale_pick(json_t *map, const char *locale)
{
    if (!json_is_object(map) || !locale || !*locale)
        return NULL;
    const char *text = json_string_value(json_object_get(map, locale));
    if (text)
        return text;
    size_t lang = language_len(locale);
    const char *tag;
    json_t *v;
    json_object_foreach(map, tag, v)
    {
        if (language_len(tag) == lang && !strncasecmp(tag, locale, lang) && json_is_string(v))
            return json_string_value(v);
    }
    return NULL;
}
