/* Slash-command rules: see command_rules.h. Modelled on Discord's, with Praça's type names. */
#include "domain/command_rules.h"

#include <string.h>

#include "domain/text.h"

static const char *const OPTION_TYPES[] = {"string", "integer", "number", "boolean",
                                           "user",   "channel", "role"};

/* Names of commands and options: 1–32 of a-z, 0-9, '_' and '-'. */
static int name_field(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    char path[RULE_PATH_MAX];
    json_t *v;
    if (rule__json_text(src, "name", base, path, err, 1, &v) < 0)
        return -1;
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    int ok = len >= 1 && len <= CMD_NAME_MAX;
    for (size_t i = 0; ok && i < len; i++)
        ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
             s[i] == '-';
    if (!ok)
        return rule__json_fail(err, path,
                               "use de 1 a %d caracteres entre letras minúsculas, números, _ e -",
                               CMD_NAME_MAX);
    json_object_set(dst, "name", v);
    return 1;
}

/* Records name in seen; fails when it was there already. */
static int unique_name(json_t *seen, json_t *item, const char *base, struct rule_error *err)
{
    const char *name = json_string_value(json_object_get(item, "name"));
    if (json_object_get(seen, name)) {
        char path[128];
        rule__json_sub(path, sizeof path, base, "name");
        return rule__json_fail(err, path, "nome repetido: %s", name);
    }
    json_object_set_new(seen, name, json_true());
    return 0;
}

static const char *option_type(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, "type");
    const char *type = json_string_value(json_object_get(src, "type"));
    for (size_t i = 0; type && i < sizeof OPTION_TYPES / sizeof *OPTION_TYPES; i++)
        if (!strcmp(type, OPTION_TYPES[i])) {
            json_object_set_new(dst, "type", json_string(OPTION_TYPES[i]));
            return OPTION_TYPES[i];
        }
    rule__json_fail(err, path, "deve ser string, integer, number, boolean, user, channel ou role");
    return NULL;
}

/* A choice's value must have the option's type. */
static int choice_value(json_t *src, json_t *dst, const char *type, const char *base,
                        struct rule_error *err)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, "value");
    json_t *v = json_object_get(src, "value");
    if (!strcmp(type, "string"))
        return rule__json_str(src, dst, "value", 1, CMD_CHOICE_VALUE_MAX, base, err, 1);
    if (!strcmp(type, "integer") ? !json_is_integer(v) : !json_is_number(v))
        return rule__json_fail(err, path, "deve ser um número%s",
                               strcmp(type, "integer") ? "" : " inteiro");
    json_object_set(dst, "value", v);
    return 1;
}

static int choice(json_t *c, json_t *clean, const char *at, struct rule_error *err, void *type)
{
    return rule__json_str(c, clean, "name", 1, CMD_DESCRIPTION_MAX, at, err, 1) < 0 ||
                   choice_value(c, clean, type, at, err) < 0
               ? -1
               : 0;
}

static int choices(json_t *src, json_t *dst, const char *type, const char *base,
                   struct rule_error *err)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, "choices");
    json_t *list = json_object_get(src, "choices");
    if (!list || json_is_null(list))
        return 0;
    if (strcmp(type, "string") && strcmp(type, "integer") && strcmp(type, "number"))
        return rule__json_fail(err, path, "só opções string, integer ou number têm choices");
    if (!json_is_array(list))
        return rule__json_fail(err, path, "deve ser uma lista");
    if (json_array_size(list) < 1 || json_array_size(list) > CMD_CHOICES_MAX)
        return rule__json_fail(err, path, "deve ter de 1 a %d itens", CMD_CHOICES_MAX);
    json_t *out = rule__json_objects(list, path, err, choice, (void *)type);
    if (!out)
        return -1;
    json_object_set_new(dst, "choices", out);
    return 1;
}

static json_t *clean_option(json_t *o, const char *path, struct rule_error *err)
{
    if (!json_is_object(o)) {
        rule__json_fail(err, path, "deve ser um objeto");
        return NULL;
    }
    json_t *out = json_object();
    const char *type;
    if (name_field(o, out, path, err) < 0 ||
        rule__json_str(o, out, "description", 1, CMD_DESCRIPTION_MAX, path, err, 1) < 0 ||
        !(type = option_type(o, out, path, err)) ||
        rule__json_bool(o, out, "required", path, err) < 0 ||
        choices(o, out, type, path, err) < 0) {
        json_decref(out);
        return NULL;
    }
    if (!json_object_get(out, "required"))
        json_object_set_new(out, "required", json_false());
    return out;
}

static int options(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, "options");
    json_t *list = json_object_get(src, "options");
    json_t *out = json_array();
    json_object_set_new(dst, "options", out);
    if (!list || json_is_null(list))
        return 0;
    if (!json_is_array(list))
        return rule__json_fail(err, path, "deve ser uma lista");
    if (json_array_size(list) > CMD_OPTIONS_MAX)
        return rule__json_fail(err, path, "no máximo %d opções", CMD_OPTIONS_MAX);
    json_t *seen = json_object();
    int optional_seen = 0, rc = 0;
    size_t i;
    json_t *o;
    json_array_foreach(list, i, o)
    {
        char at[128];
        rule__json_idx(at, sizeof at, path, i);
        json_t *clean = clean_option(o, at, err);
        if (!clean || unique_name(seen, clean, at, err) < 0) {
            json_decref(clean);
            rc = -1;
            break;
        }
        int required = json_is_true(json_object_get(clean, "required"));
        json_array_append_new(out, clean);
        if (required && optional_seen) {
            char req[128];
            rule__json_sub(req, sizeof req, at, "required");
            rc = rule__json_fail(err, req, "as opções obrigatórias vêm antes das opcionais");
            break;
        }
        optional_seen |= !required;
    }
    json_decref(seen);
    return rc;
}

/* Characters of every text a command carries: its name and description, its options' and
 * their choices' names, descriptions and values. */
static size_t text_chars(json_t *v)
{
    if (json_is_string(v))
        return rule_text_chars(json_string_value(v), json_string_length(v));
    size_t n = 0, i;
    const char *key;
    json_t *e;
    if (json_is_array(v))
        json_array_foreach(v, i, e) n += text_chars(e);
    else if (json_is_object(v))
        json_object_foreach(v, key, e) n += text_chars(e);
    return n;
}

json_t *rule_command_clean_list(json_t *commands, struct rule_error *err)
{
    if (!json_is_array(commands)) {
        rule__json_fail(err, "commands", "deve ser uma lista");
        return NULL;
    }
    if (json_array_size(commands) > CMD_MAX) {
        rule__json_fail(err, "commands", "no máximo %d comandos", CMD_MAX);
        return NULL;
    }
    json_t *out = json_array();
    json_t *seen = json_object();
    size_t i;
    json_t *c;
    json_array_foreach(commands, i, c)
    {
        char path[128];
        rule__json_idx(path, sizeof path, "commands", i);
        if (!json_is_object(c)) {
            rule__json_fail(err, path, "deve ser um objeto");
            goto fail;
        }
        json_t *clean = json_object();
        json_array_append_new(out, clean);
        if (name_field(c, clean, path, err) < 0 || unique_name(seen, clean, path, err) < 0 ||
            rule__json_str(c, clean, "description", 1, CMD_DESCRIPTION_MAX, path, err, 1) < 0 ||
            options(c, clean, path, err) < 0)
            goto fail;
        size_t chars = text_chars(clean);
        if (chars > CMD_TEXT_MAX) {
            rule__json_fail(err, path,
                            "nomes, descrições e escolhas somam %zu caracteres (máximo %d)", chars,
                            CMD_TEXT_MAX);
            goto fail;
        }
    }
    json_decref(seen);
    return out;
fail:
    json_decref(seen);
    json_decref(out);
    return NULL;
}
