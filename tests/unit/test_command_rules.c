/* Slash-command definitions: names, limits at their edges, option order, choices, paths. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "domain/command_rules.h"

static json_t *parse(const char *s)
{
    json_error_t e;
    json_t *v = json_loads(s, 0, &e);
    cr_assert_not_null(v, "%s", e.text);
    return v;
}

/* Expects the list to be refused at path with a reason containing `reason`. */
static void refused(const char *json, const char *path, const char *reason)
{
    json_t *in = parse(json);
    struct rule_error err = {0};
    json_t *out = rule_command_clean_list(in, &err);
    cr_assert_null(out, "accepted: %s", json);
    cr_assert_str_eq(err.path, path, "%s", json);
    cr_assert(strstr(err.reason, reason), "%s: reason was %s", json, err.reason);
    json_decref(in);
}

static json_t *accepted(const char *json)
{
    json_t *in = parse(json);
    struct rule_error err = {0};
    json_t *out = rule_command_clean_list(in, &err);
    cr_assert_not_null(out, "%s: %s %s", json, err.path, err.reason);
    json_decref(in);
    return out;
}

static json_t *commands_of(size_t n, size_t options)
{
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "c%zu", i);
        json_t *opts = json_array();
        for (size_t j = 0; j < options; j++) {
            char oname[32];
            snprintf(oname, sizeof oname, "o%zu", j);
            json_array_append_new(
                opts, json_pack("{ssssss}", "name", oname, "description", "d", "type", "string"));
        }
        json_array_append_new(
            list, json_pack("{ssssso}", "name", name, "description", "d", "options", opts));
    }
    return list;
}

Test(command_rules, clean_shape_with_defaults)
{
    json_t *out = accepted("[{\"name\":\"clima\",\"description\":\"Previsão\",\"extra\":1,"
                           "\"options\":[{\"name\":\"cidade\",\"description\":\"Qual\","
                           "\"type\":\"string\",\"required\":true,\"choices\":[{\"name\":\"Rio\","
                           "\"value\":\"rio\"}]},{\"name\":\"dias\",\"description\":\"Quantos\","
                           "\"type\":\"integer\"}]},{\"name\":\"oi\",\"description\":\"Olá\"}]");
    char *s = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
    cr_assert_str_eq(
        s, "[{\"defaultMemberPermissions\":null,\"description\":\"Previsão\","
           "\"descriptionLocalizations\":null,\"name\":\"clima\",\"nameLocalizations\":null,"
           "\"options\":[{\"choices\":[{\"name\":"
           "\"Rio\",\"value\":\"rio\"}],\"description\":\"Qual\",\"name\":\"cidade\",\"required\":"
           "true,\"type\":\"string\"},{\"description\":\"Quantos\",\"name\":\"dias\",\"required\":"
           "false,\"type\":\"integer\"}],\"type\":\"chat\"},{\"defaultMemberPermissions\":null,"
           "\"description\":\"Olá\",\"descriptionLocalizations\":null,\"name\":\"oi\","
           "\"nameLocalizations\":null,\"options\":[],\"type\":\"chat\"}]");
    free(s);
    json_decref(out);
    json_decref(accepted("[]"));
}

Test(command_rules, names)
{
    json_decref(accepted("[{\"name\":\"a\",\"description\":\"d\"}]"));
    json_decref(
        accepted("[{\"name\":\"abcdefghijklmnopqrstuvwxyz_-0123\",\"description\":\"d\"}]"));
    refused("[{\"name\":\"abcdefghijklmnopqrstuvwxyz_-01234\",\"description\":\"d\"}]",
            "commands.0.name", "de 1 a 32");
    refused("[{\"name\":\"\",\"description\":\"d\"}]", "commands.0.name", "de 1 a 32");
    refused("[{\"name\":\"Clima\",\"description\":\"d\"}]", "commands.0.name", "minúsculas");
    refused("[{\"name\":\"a b\",\"description\":\"d\"}]", "commands.0.name", "minúsculas");
    refused("[{\"name\":\"ação\",\"description\":\"d\"}]", "commands.0.name", "minúsculas");
    refused("[{\"description\":\"d\"}]", "commands.0.name", "obrigatório");
    refused("[{\"name\":5,\"description\":\"d\"}]", "commands.0.name", "texto");
    refused("[{\"name\":\"a\",\"description\":\"d\"},{\"name\":\"a\",\"description\":\"e\"}]",
            "commands.1.name", "repetido");
}

Test(command_rules, descriptions_count_characters)
{
    char json[512];
    char desc[256] = "";
    for (int i = 0; i < 100; i++)
        strcat(desc, "é"); /* 100 characters, 200 bytes */
    snprintf(json, sizeof json, "[{\"name\":\"a\",\"description\":\"%s\"}]", desc);
    json_decref(accepted(json));
    strcat(desc, "x");
    snprintf(json, sizeof json, "[{\"name\":\"a\",\"description\":\"%s\"}]", desc);
    refused(json, "commands.0.description", "entre 1 e 100");
    refused("[{\"name\":\"a\",\"description\":\"\"}]", "commands.0.description", "entre 1 e 100");
    refused("[{\"name\":\"a\"}]", "commands.0.description", "obrigatório");
}

Test(command_rules, list_limits)
{
    struct rule_error err = {0};
    json_t *max = commands_of(CMD_MAX, 0);
    json_t *out = rule_command_clean_list(max, &err);
    cr_assert_not_null(out);
    cr_assert_eq(json_array_size(out), 100);
    json_decref(out);
    json_array_append_new(max, json_pack("{ssss}", "name", "extra", "description", "d"));
    cr_assert_null(rule_command_clean_list(max, &err));
    cr_assert_str_eq(err.path, "commands.100");
    json_decref(max);

    json_t *opts = commands_of(1, CMD_OPTIONS_MAX);
    out = rule_command_clean_list(opts, &err);
    cr_assert_not_null(out);
    json_decref(out);
    json_decref(opts);
    opts = commands_of(1, CMD_OPTIONS_MAX + 1);
    cr_assert_null(rule_command_clean_list(opts, &err));
    cr_assert_str_eq(err.path, "commands.0.options");
    json_decref(opts);

    refused("{}", "commands", "lista");
    refused("[1]", "commands.0", "objeto");
}

Test(command_rules, options)
{
    refused("[{\"name\":\"a\",\"description\":\"d\",\"options\":{}}]", "commands.0.options",
            "lista");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{\"name\":\"x\","
            "\"description\":\"d\",\"type\":\"texto\"}]}]",
            "commands.0.options.0.type", "string, integer");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{\"name\":\"x\","
            "\"description\":\"d\"}]}]",
            "commands.0.options.0.type", "string, integer");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{\"name\":\"x\","
            "\"description\":\"d\",\"type\":\"user\",\"required\":\"sim\"}]}]",
            "commands.0.options.0.required", "verdadeiro ou falso");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{\"name\":\"x\","
            "\"description\":\"d\",\"type\":\"user\"},{\"name\":\"x\",\"description\":\"d\","
            "\"type\":\"role\"}]}]",
            "commands.0.options.1.name", "repetido");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{\"name\":\"x\","
            "\"description\":\"d\",\"type\":\"user\"},{\"name\":\"y\",\"description\":\"d\","
            "\"type\":\"role\",\"required\":true}]}]",
            "commands.0.options.1.required", "obrigatórias vêm antes");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{\"name\":\"X\","
            "\"description\":\"d\",\"type\":\"user\"}]}]",
            "commands.0.options.0.name", "minúsculas");
}

Test(command_rules, choices)
{
    const char *head = "[{\"name\":\"a\",\"description\":\"d\",\"options\":[{\"name\":\"x\","
                       "\"description\":\"d\",";
    char json[4096];
    snprintf(json, sizeof json,
             "%s\"type\":\"boolean\",\"choices\":[{\"name\":\"s\",\"value\":true}]}]}]", head);
    refused(json, "commands.0.options.0.choices", "só opções string");
    snprintf(json, sizeof json,
             "%s\"type\":\"integer\",\"choices\":[{\"name\":\"um\",\"value\":1.5}]}]}]", head);
    refused(json, "commands.0.options.0.choices.0.value", "inteiro");
    snprintf(json, sizeof json,
             "%s\"type\":\"number\",\"choices\":[{\"name\":\"um\",\"value\":1.5},"
             "{\"name\":\"dois\",\"value\":2}]}]}]",
             head);
    json_decref(accepted(json));
    snprintf(json, sizeof json,
             "%s\"type\":\"string\",\"choices\":[{\"name\":\"um\",\"value\":1}]}]}]", head);
    refused(json, "commands.0.options.0.choices.0.value", "texto");
    snprintf(json, sizeof json, "%s\"type\":\"string\",\"choices\":[{\"value\":\"v\"}]}]}]", head);
    refused(json, "commands.0.options.0.choices.0.name", "obrigatório");
    snprintf(json, sizeof json, "%s\"type\":\"string\",\"choices\":[]}]}]", head);
    refused(json, "commands.0.options.0.choices", "de 1 a 25");

    /* 25 choices pass, 26 do not. */
    size_t n = snprintf(json, sizeof json, "%s\"type\":\"integer\",\"choices\":[", head);
    for (int i = 0; i < 26; i++)
        n +=
            snprintf(json + n, sizeof json - n, "%s{\"name\":\"c\",\"value\":%d}", i ? "," : "", i);
    snprintf(json + n, sizeof json - n, "]}]}]");
    refused(json, "commands.0.options.0.choices", "de 1 a 25");
    char *cut = strstr(json, ",{\"name\":\"c\",\"value\":25}");
    cr_assert_not_null(cut);
    memmove(cut, cut + strlen(",{\"name\":\"c\",\"value\":25}"),
            strlen(cut + strlen(",{\"name\":\"c\",\"value\":25}")) + 1);
    json_decref(accepted(json));
}

Test(command_rules, context_menu_kinds)
{
    json_t *out = accepted("[{\"type\":\"message\",\"name\":\"Traduzir mensagem\"},"
                           "{\"type\":\"user\",\"name\":\"Ver perfil\",\"description\":\"\"}]");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(out, 0), "type")), "message");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(out, 1), "description")), "");
    cr_assert_eq(json_array_size(json_object_get(json_array_get(out, 1), "options")), 0);
    json_decref(out);
    refused("[{\"type\":\"menu\",\"name\":\"a\"}]", "commands.0.type", "chat, user ou message");
    refused("[{\"type\":\"user\",\"name\":\" Ver\"}]", "commands.0.name", "sem espaços");
    refused("[{\"type\":\"user\",\"name\":\"abcdefghijklmnopqrstuvwxyz 0123456\"}]",
            "commands.0.name", "de 1 a 32");
    refused("[{\"type\":\"user\",\"name\":\"V\",\"options\":[{\"name\":\"x\"}]}]",
            "commands.0.options", "não têm opções");
    /* 15 of each menu kind beside 100 slash commands; the 16th is refused */
    json_t *list = commands_of(CMD_MAX, 0);
    for (int kind = 0; kind < 2; kind++)
        for (int i = 0; i < CMD_MENU_MAX; i++) {
            char name[32];
            snprintf(name, sizeof name, "Menu %d %d", kind, i);
            json_array_append_new(
                list, json_pack("{ssss}", "type", kind ? "user" : "message", "name", name));
        }
    struct rule_error err = {0};
    out = rule_command_clean_list(list, &err);
    cr_assert_not_null(out, "%s %s", err.path, err.reason);
    json_decref(out);
    json_array_append_new(list, json_pack("{ssss}", "type", "user", "name", "Mais um"));
    cr_assert_null(rule_command_clean_list(list, &err));
    cr_assert_str_eq(err.path, "commands");
    json_decref(list);
}

Test(command_rules, autocomplete_permissions_localizations)
{
    json_t *out = accepted(
        "[{\"name\":\"a\",\"description\":\"d\",\"defaultMemberPermissions\":\"16\","
        "\"nameLocalizations\":{\"en-us\":\"ay\"},\"descriptionLocalizations\":{\"es-ES\":\"de\"},"
        "\"options\":[{\"name\":\"o\",\"description\":\"d\",\"type\":\"string\","
        "\"autocomplete\":true},{\"name\":\"p\",\"description\":\"d\",\"type\":\"integer\","
        "\"autocomplete\":false}]}]");
    json_t *c = json_array_get(out, 0);
    cr_assert_eq(json_integer_value(json_object_get(c, "defaultMemberPermissions")), 16);
    cr_assert_str_eq(
        json_string_value(json_object_get(json_object_get(c, "nameLocalizations"), "en-US")), "ay",
        "the tag in its canonical spelling");
    json_t *opts = json_object_get(c, "options");
    cr_assert(json_is_true(json_object_get(json_array_get(opts, 0), "autocomplete")));
    cr_assert_null(json_object_get(json_array_get(opts, 1), "autocomplete"), "false is dropped");
    json_decref(out);
    json_decref(
        accepted("[{\"name\":\"a\",\"description\":\"d\",\"defaultMemberPermissions\":0}]"));
    refused("[{\"name\":\"a\",\"description\":\"d\",\"defaultMemberPermissions\":-1}]",
            "commands.0.defaultMemberPermissions", "conjunto de permissões");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"defaultMemberPermissions\":\"1x\"}]",
            "commands.0.defaultMemberPermissions", "conjunto de permissões");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"defaultMemberPermissions\":"
            "1099511627776}]",
            "commands.0.defaultMemberPermissions", "conjunto de permissões");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"nameLocalizations\":{\"en-US\":\"Ay\"}}]",
            "commands.0.nameLocalizations.en-US.name", "minúsculas");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"nameLocalizations\":[]}]",
            "commands.0.nameLocalizations", "objeto");
    refused("[{\"type\":\"user\",\"name\":\"A\",\"descriptionLocalizations\":{\"en-US\":\"x\"}}]",
            "commands.0.descriptionLocalizations", "não têm descrição");
    refused("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{\"name\":\"o\","
            "\"description\":\"d\",\"type\":\"user\",\"autocomplete\":true}]}]",
            "commands.0.options.0.autocomplete", "se completam");
}
