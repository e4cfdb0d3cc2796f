/*
 * The languages a person's account and a command's localised texts may name (BCP 47 tags, as
 * Discord spells them), and how a text is picked for a person, with no I/O.
 */
#ifndef PRACA_DOMAIN_LOCALES_H
#define PRACA_DOMAIN_LOCALES_H
#include <jansson.h>

#define LOCALE_TAG_MAX 8

/* The known tag equal to s (case-insensitive), in its canonical spelling, or NULL. */
const char *rule_locale_known(const char *s);

/* A {tag: text} map's text for locale: the exact tag, else the first tag of the same language
 * ("es-419" for "es-ES"), else NULL. */
const char *rule_locale_pick(json_t *map, const char *locale);

#endif
