/* Slash-command rules: see command_rules.h. Modelled on Discord's, with Praça's type names. */
#include "domain/command_rules.h"

#include <string.h>

#include "domain/locales.h"
#include "domain/permissions.h"
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

/* A context-menu command's name: 1–32 characters of any case, spaces allowed, as it shows in a
 * menu. */
static int menu_name_field(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    char path[RULE_PATH_MAX];
    json_t *v;
    if (rule__json_text(src, "name", base, path, err, 1, &v) < 0)
        return -1;
    const char *s = json_string_value(v);
    size_t len = json_string_length(v), trimmed = len;
    size_t chars = rule_text_chars(s, len);
    if (chars < 1 || chars > CMD_NAME_MAX || rule_text_trim(s, &trimmed) != s || trimmed != len ||
        rule_text_has_control(s, len, 0))
        return rule__json_fail(err, path, "use de 1 a %d caracteres, sem espaços nas pontas",
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

/* autocomplete: suggestions asked of the bot as the person types, for a text or number option
 * with no fixed choices. */
static int autocomplete(json_t *src, json_t *dst, const char *type, const char *base,
                        struct rule_error *err)
{
    if (rule__json_bool(src, dst, "autocomplete", base, err) < 0)
        return -1;
    if (!json_is_true(json_object_get(dst, "autocomplete"))) {
        json_object_del(dst, "autocomplete");
        return 0;
    }
    char path[128];
    rule__json_sub(path, sizeof path, base, "autocomplete");
    if (strcmp(type, "string") && strcmp(type, "integer") && strcmp(type, "number"))
        return rule__json_fail(err, path, "só opções string, integer ou number se completam");
    if (json_object_get(dst, "choices"))
        return rule__json_fail(err, path, "uma opção com choices não se completa");
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
        choices(o, out, type, path, err) < 0 || autocomplete(o, out, type, path, err) < 0) {
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

/* The command's kind: chat (a slash command, the default), user or message (a context menu). */
static const char *command_type(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    static const char *const TYPES[] = {"chat", "user", "message"};
    json_t *v = json_object_get(src, "type");
    const char *type = v ? json_string_value(v) : "chat";
    for (size_t i = 0; type && i < sizeof TYPES / sizeof *TYPES; i++)
        if (!strcmp(type, TYPES[i])) {
            json_object_set_new(dst, "type", json_string(TYPES[i]));
            return TYPES[i];
        }
    char path[RULE_PATH_MAX];
    rule__json_sub(path, sizeof path, base, "type");
    rule__json_fail(err, path, "deve ser chat, user ou message");
    return NULL;
}

/* A context-menu command has neither description nor options. */
static int menu_rest(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    char path[RULE_PATH_MAX];
    json_t *d = json_object_get(src, "description"), *o = json_object_get(src, "options");
    if (d && !json_is_null(d) && !(json_is_string(d) && json_string_length(d) == 0)) {
        rule__json_sub(path, sizeof path, base, "description");
        return rule__json_fail(err, path, "comandos de menu não têm descrição");
    }
    if (o && !json_is_null(o) && !(json_is_array(o) && json_array_size(o) == 0)) {
        rule__json_sub(path, sizeof path, base, "options");
        return rule__json_fail(err, path, "comandos de menu não têm opções");
    }
    json_object_set_new(dst, "description", json_string(""));
    json_object_set_new(dst, "options", json_array());
    return 0;
}

/* defaultMemberPermissions: null (everyone), or a permission bit set as a number or a decimal
 * string ("0": administrators only). */
static int default_permissions(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    char path[RULE_PATH_MAX];
    rule__json_sub(path, sizeof path, base, "defaultMemberPermissions");
    json_t *v = json_object_get(src, "defaultMemberPermissions");
    json_int_t bits = -1;
    if (json_is_integer(v))
        bits = json_integer_value(v);
    else if (json_is_string(v) && json_string_length(v) >= 1 && json_string_length(v) <= 20) {
        const char *s = json_string_value(v);
        bits = 0;
        for (; *s && bits <= (json_int_t)PERM_ALL; s++)
            bits = *s >= '0' && *s <= '9' ? bits * 10 + (*s - '0') : (json_int_t)PERM_ALL + 1;
    } else if (v && !json_is_null(v))
        bits = (json_int_t)PERM_ALL + 1;
    if (bits > (json_int_t)PERM_ALL || (bits < 0 && v && !json_is_null(v)))
        return rule__json_fail(err, path, "deve ser um conjunto de permissões (0 a %llu) ou null",
                               (unsigned long long)PERM_ALL);
    json_object_set_new(dst, "defaultMemberPermissions",
                        bits < 0 ? json_null() : json_integer(bits));
    return 0;
}

/* nameLocalizations / descriptionLocalizations: {locale: text}, each text held to the rule of
 * the field it translates (menu names as menu names, slash names as slash names). */
static int localizations(json_t *src, json_t *dst, const char *key, const char *type,
                         const char *base, struct rule_error *err)
{
    char path[RULE_PATH_MAX];
    rule__json_sub(path, sizeof path, base, key);
    json_t *map = json_object_get(src, key);
    if (!map || json_is_null(map)) {
        json_object_set_new(dst, key, json_null());
        return 0;
    }
    int is_name = !strcmp(key, "nameLocalizations");
    if (!json_is_object(map))
        return rule__json_fail(err, path, "deve ser um objeto {idioma: texto}");
    if (!is_name && strcmp(type, "chat"))
        return rule__json_fail(err, path, "comandos de menu não têm descrição");
    json_t *out = json_object();
    json_object_set_new(dst, key, out);
    const char *tag;
    json_t *text;
    json_object_foreach(map, tag, text)
    {
        const char *known = rule_locale_known(tag);
        char at[RULE_PATH_MAX];
        rule__json_sub(at, sizeof at, path, tag);
        if (!known)
            return rule__json_fail(err, at, "idioma desconhecido (use pt-BR, en-US, es-ES…)");
        json_t *probe = json_pack("{sO}", "name", text), *clean = json_object();
        int rc = is_name ? (strcmp(type, "chat") ? menu_name_field(probe, clean, at, err)
                                                 : name_field(probe, clean, at, err))
                         : rule__json_str(probe, clean, "name", 1, CMD_DESCRIPTION_MAX, at, err, 1);
        if (rc >= 0)
            json_object_set(out, known, json_object_get(clean, "name"));
        json_decref(probe);
        json_decref(clean);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int clean_command(json_t *c, json_t *clean, const char *path, struct rule_error *err)
{
    const char *type = command_type(c, clean, path, err);
    if (!type)
        return -1;
    int menu = strcmp(type, "chat") != 0;
    if ((menu ? menu_name_field(c, clean, path, err) : name_field(c, clean, path, err)) < 0 ||
        (menu ? menu_rest(c, clean, path, err)
              : (rule__json_str(c, clean, "description", 1, CMD_DESCRIPTION_MAX, path, err, 1) < 0
                     ? -1
                     : options(c, clean, path, err))) < 0 ||
        default_permissions(c, clean, path, err) < 0 ||
        localizations(c, clean, "nameLocalizations", type, path, err) < 0 ||
        localizations(c, clean, "descriptionLocalizations", type, path, err) < 0)
        return -1;
    size_t chars = text_chars(clean);
    if (chars > CMD_TEXT_MAX)
        return rule__json_fail(err, path,
                               "nomes, descrições e escolhas somam %zu caracteres (máximo %d)",
                               chars, CMD_TEXT_MAX);
    return 0;
}

/* At most CMD_MAX slash commands and CMD_MENU_MAX of each menu kind. */
static int count_kind(json_t *counts, const char *type, const char *path, struct rule_error *err)
{
    json_int_t n = json_integer_value(json_object_get(counts, type)) + 1;
    json_object_set_new(counts, type, json_integer(n));
    if (!strcmp(type, "chat") ? n > CMD_MAX : n > CMD_MENU_MAX)
        return rule__json_fail(err, path, "no máximo %d comandos do tipo %s",
                               !strcmp(type, "chat") ? CMD_MAX : CMD_MENU_MAX, type);
    return 0;
}

json_t *rule_command_clean_list(json_t *commands, struct rule_error *err)
{
    if (!json_is_array(commands)) {
        rule__json_fail(err, "commands", "deve ser uma lista");
        return NULL;
    }
    if (json_array_size(commands) > CMD_MAX + 2 * CMD_MENU_MAX) {
        rule__json_fail(err, "commands", "no máximo %d comandos", CMD_MAX + 2 * CMD_MENU_MAX);
        return NULL;
    }
    json_t *out = json_array();
    json_t *seen = json_object(), *counts = json_object();
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
        if (clean_command(c, clean, path, err) < 0 || unique_name(seen, clean, path, err) < 0 ||
            count_kind(counts, json_string_value(json_object_get(clean, "type")), path, err) < 0)
            goto fail;
    }
    json_decref(seen);
    json_decref(counts);
    return out;
fail:
    json_decref(seen);
    json_decref(counts);
    json_decref(out);
    return NULL;
}
