/* Interaction inputs: options against their definition, forms, submitted values, components. */
#include <criterion/criterion.h>
#include <string.h>

#include "domain/interaction_rules.h"

static json_t *parse(const char *s)
{
    json_error_t e;
    json_t *v = json_loads(s, 0, &e);
    cr_assert_not_null(v, "%s", e.text);
    return v;
}

static const char *DEFINED =
    "[{\"name\":\"cidade\",\"type\":\"string\",\"required\":true,\"choices\":[{\"name\":\"Rio\","
    "\"value\":\"rio\"}]},{\"name\":\"dias\",\"type\":\"integer\",\"required\":false},"
    "{\"name\":\"quem\",\"type\":\"user\",\"required\":false},{\"name\":\"peso\",\"type\":"
    "\"number\",\"required\":false},{\"name\":\"ok\",\"type\":\"boolean\",\"required\":false}]";

static void options_refused(const char *given, const char *path, const char *reason)
{
    json_t *defined = parse(DEFINED), *in = parse(given);
    struct rule_error err = {0};
    cr_assert_null(rule_interaction_clean_options(defined, in, &err), "accepted %s", given);
    cr_assert_str_eq(err.path, path, "%s", given);
    cr_assert(strstr(err.reason, reason), "%s: %s", given, err.reason);
    json_decref(defined);
    json_decref(in);
}

Test(interaction_rules, options_clean_with_types)
{
    json_t *defined = parse(DEFINED);
    json_t *in = parse("[{\"name\":\"dias\",\"value\":3},{\"name\":\"cidade\",\"value\":\"rio\"},"
                       "{\"name\":\"quem\",\"value\":\"01a1fe3b-0000-7000-8000-000000000000\"},"
                       "{\"name\":\"peso\",\"value\":1.5},{\"name\":\"ok\",\"value\":false}]");
    struct rule_error err = {0};
    json_t *out = rule_interaction_clean_options(defined, in, &err);
    cr_assert_not_null(out, "%s %s", err.path, err.reason);
    char *s = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
    cr_assert_str_eq(s,
                     "[{\"name\":\"dias\",\"type\":\"integer\",\"value\":3},{\"name\":\"cidade\","
                     "\"type\":\"string\",\"value\":\"rio\"},{\"name\":\"quem\",\"type\":\"user\","
                     "\"value\":\"01a1fe3b-0000-7000-8000-000000000000\"},{\"name\":\"peso\","
                     "\"type\":\"number\",\"value\":1.5},{\"name\":\"ok\",\"type\":\"boolean\","
                     "\"value\":false}]");
    free(s);
    json_decref(out);
    json_decref(in);
    json_decref(defined);
}

Test(interaction_rules, options_refused)
{
    options_refused("[]", "options", "falta a opção obrigatória cidade");
    options_refused("{}", "options", "lista");
    options_refused("[1]", "options.0", "objeto");
    options_refused("[{\"value\":1}]", "options.0.name", "obrigatório");
    options_refused("[{\"name\":\"x\",\"value\":1}]", "options.0.name", "desconhecida");
    options_refused(
        "[{\"name\":\"cidade\",\"value\":\"rio\"},{\"name\":\"cidade\",\"value\":\"rio\"}]",
        "options.1.name", "repetida");
    options_refused("[{\"name\":\"cidade\",\"value\":\"sp\"}]", "options.0.value", "escolhas");
    options_refused("[{\"name\":\"cidade\"}]", "options.0.value", "obrigatório");
    options_refused("[{\"name\":\"cidade\",\"value\":\"rio\"},{\"name\":\"dias\",\"value\":1.5}]",
                    "options.1.value", "inteiro");
    options_refused("[{\"name\":\"cidade\",\"value\":\"rio\"},{\"name\":\"peso\",\"value\":\"1\"}]",
                    "options.1.value", "número");
    options_refused("[{\"name\":\"cidade\",\"value\":\"rio\"},{\"name\":\"ok\",\"value\":1}]",
                    "options.1.value", "verdadeiro ou falso");
    options_refused(
        "[{\"name\":\"cidade\",\"value\":\"rio\"},{\"name\":\"quem\",\"value\":\"ana\"}]",
        "options.1.value", "ID");
}

static const char *MODAL = "{\"customId\":\"f\",\"title\":\"Título\",\"components\":[{\"type\":1,"
                           "\"components\":[{\"type\":4,\"customId\":\"a\",\"label\":\"A\","
                           "\"style\":1}]}]}";

Test(interaction_rules, modal)
{
    json_t *in = parse(MODAL);
    struct rule_error err = {0};
    json_t *out = rule_interaction_clean_modal(in, &err);
    cr_assert_not_null(out, "%s %s", err.path, err.reason);
    cr_assert(json_equal(out, in));
    json_decref(out);
    json_decref(in);

    const struct {
        const char *json, *path;
    } bad[] = {
        {"[]", "data"},
        {"{\"title\":\"t\",\"components\":[]}", "data.customId"},
        {"{\"customId\":\"f\",\"title\":\"0123456789012345678901234567890123456789012345\","
         "\"components\":[]}",
         "data.title"},
        {"{\"customId\":\"f\",\"title\":\"t\",\"components\":[]}", "data.components"},
        {"{\"customId\":\"f\",\"title\":\"t\",\"components\":[{\"type\":2}]}", "data.components.0"},
        {"{\"customId\":\"f\",\"title\":\"t\",\"components\":[{\"type\":1,\"components\":[{"
         "\"type\":"
         "4,\"customId\":\"a\",\"label\":\"A\",\"style\":3}]}]}",
         "data.components.0.components.0.style"},
        {"{\"customId\":\"f\",\"title\":\"t\",\"components\":[{\"type\":1,\"components\":[{"
         "\"type\":"
         "4,\"customId\":\"a\",\"label\":\"A\",\"style\":1}]},{\"type\":1,\"components\":[{"
         "\"type\":"
         "4,\"customId\":\"a\",\"label\":\"B\",\"style\":2}]}]}",
         "data.components.1.components.0.customId"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *b = parse(bad[i].json);
        cr_assert_null(rule_interaction_clean_modal(b, &err), "accepted %s", bad[i].json);
        cr_assert_str_eq(err.path, bad[i].path, "%s", bad[i].json);
        json_decref(b);
    }
}

Test(interaction_rules, form_and_select_values)
{
    struct rule_error err = {0};
    json_t *in =
        parse("[{\"customId\":\"a\",\"value\":\"\"},{\"customId\":\"b\",\"value\":\"x\"}]");
    json_t *out = rule_interaction_clean_form_values(in, &err);
    cr_assert_not_null(out);
    json_decref(out);
    json_decref(in);
    in = parse("[{\"customId\":\"a\"}]");
    cr_assert_null(rule_interaction_clean_form_values(in, &err));
    cr_assert_str_eq(err.path, "values.0.value");
    json_decref(in);
    in = parse("[1,2,3,4,5,6]");
    cr_assert_null(rule_interaction_clean_form_values(in, &err));
    cr_assert_str_eq(err.path, "values");
    json_decref(in);

    in = parse("[\"a\",\"b\"]");
    out = rule_interaction_clean_select_values(in, &err);
    cr_assert_not_null(out);
    json_decref(out);
    json_decref(in);
    in = parse("[\"a\",\"\"]");
    cr_assert_null(rule_interaction_clean_select_values(in, &err));
    cr_assert_str_eq(err.path, "values.1");
    json_decref(in);
}

Test(interaction_rules, find_component_anywhere)
{
    json_t *components = parse(
        "[{\"type\":1,\"components\":[{\"type\":2,\"customId\":\"a\"}]},{\"type\":17,"
        "\"components\":"
        "[{\"type\":9,\"components\":[{\"type\":10,\"content\":\"x\"}],\"accessory\":{\"type\":2,"
        "\"customId\":\"deep\"}}]}]");
    cr_assert_not_null(rule_interaction_find_component(components, "a"));
    json_t *deep = rule_interaction_find_component(components, "deep");
    cr_assert_not_null(deep);
    cr_assert_eq(json_integer_value(json_object_get(deep, "type")), 2);
    cr_assert_null(rule_interaction_find_component(components, "b"));
    cr_assert_null(rule_interaction_find_component(NULL, "a"));
    json_decref(components);
}

static const char *FORM =
    "{\"customId\":\"f\",\"title\":\"T\",\"components\":["
    "{\"type\":1,\"components\":[{\"type\":3,\"customId\":\"s\",\"options\":[{\"label\":\"A\","
    "\"value\":\"a\"},{\"label\":\"B\",\"value\":\"b\"},{\"label\":\"C\",\"value\":\"c\"}],"
    "\"maxValues\":2}]},"
    "{\"type\":1,\"components\":[{\"type\":4,\"customId\":\"t\",\"label\":\"T\",\"style\":2,"
    "\"minLength\":3,\"maxLength\":5}]},"
    "{\"type\":1,\"components\":[{\"type\":4,\"customId\":\"o\",\"label\":\"O\",\"style\":1,"
    "\"required\":false}]}]}";

/* Checks values against FORM: NULL when accepted, else the error's path. */
static void form_check(const char *values, const char *path)
{
    struct rule_error err = {0};
    json_t *in = parse(FORM);
    json_t *modal = rule_interaction_clean_modal(in, &err);
    cr_assert_not_null(modal, "%s %s", err.path, err.reason);
    json_t *v = parse(values);
    json_t *clean = rule_interaction_clean_form_values(v, &err);
    int rc = clean ? rule_interaction_check_form(modal, clean, &err) : -1;
    if (path) {
        cr_assert_eq(rc, -1, "accepted %s", values);
        cr_assert_str_eq(err.path, path, "%s: %s", values, err.reason);
    } else {
        cr_assert_eq(rc, 0, "%s: %s %s", values, err.path, err.reason);
    }
    json_decref(clean);
    json_decref(v);
    json_decref(modal);
    json_decref(in);
}

Test(interaction_rules, form_checked_against_its_definition)
{
    form_check("[{\"customId\":\"s\",\"values\":[\"a\"]},{\"customId\":\"t\",\"value\":\"abc\"}]",
               NULL);
    form_check("[{\"customId\":\"s\",\"values\":[\"a\",\"c\"]},{\"customId\":\"t\",\"value\":"
               "\"abcde\"},{\"customId\":\"o\",\"value\":\"\"}]",
               NULL);
    form_check("[{\"customId\":\"t\",\"value\":\"abc\"}]", "values.s");
    form_check("[{\"customId\":\"s\",\"values\":[]},{\"customId\":\"t\",\"value\":\"abc\"}]",
               "values.s");
    form_check("[{\"customId\":\"s\",\"values\":[\"a\",\"b\",\"c\"]},{\"customId\":\"t\","
               "\"value\":\"abc\"}]",
               "values.s");
    form_check("[{\"customId\":\"s\",\"values\":[\"z\"]},{\"customId\":\"t\",\"value\":\"abc\"}]",
               "values.s");
    form_check("[{\"customId\":\"s\",\"value\":\"a\"},{\"customId\":\"t\",\"value\":\"abc\"}]",
               "values.s");
    form_check("[{\"customId\":\"s\",\"values\":[\"a\"]},{\"customId\":\"t\",\"value\":\"ab\"}]",
               "values.t");
    form_check(
        "[{\"customId\":\"s\",\"values\":[\"a\"]},{\"customId\":\"t\",\"value\":\"abcdef\"}]",
        "values.t");
    form_check("[{\"customId\":\"s\",\"values\":[\"a\"]},{\"customId\":\"t\",\"value\":\"\"}]",
               "values.t");
    form_check("[{\"customId\":\"s\",\"values\":[\"a\"]},{\"customId\":\"t\",\"values\":[\"x\"]}]",
               "values.t");
    form_check("[{\"customId\":\"s\",\"values\":[\"a\"]},{\"customId\":\"t\",\"value\":\"abc\"},"
               "{\"customId\":\"x\",\"value\":\"\"}]",
               "values");
    form_check("[{\"customId\":\"s\",\"values\":[\"a\"]},{\"customId\":\"t\",\"value\":\"abc\"},"
               "{\"customId\":\"t\",\"value\":\"abd\"}]",
               "values");
}

Test(interaction_rules, partial_options_and_choices)
{
    json_t *defined = parse("[{\"name\":\"q\",\"type\":\"string\",\"autocomplete\":true},"
                            "{\"name\":\"n\",\"type\":\"integer\"}]");
    struct rule_error err = {0};
    json_t *given = parse("[{\"name\":\"n\",\"value\":\"4\"}]"); /* half-typed: kept as is */
    json_t *out = rule_interaction_clean_partial_options(defined, given, "q", &err);
    cr_assert_not_null(out, "%s %s", err.path, err.reason);
    cr_assert_eq(json_array_size(out), 2, "the focused option is added when absent");
    cr_assert(json_is_true(json_object_get(json_array_get(out, 1), "focused")));
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(out, 1), "value")), "");
    json_decref(out);
    json_decref(given);
    cr_assert_null(rule_interaction_clean_partial_options(defined, NULL, "n", &err));
    cr_assert_str_eq(err.path, "focused");
    cr_assert_null(rule_interaction_clean_partial_options(defined, NULL, "x", &err));
    given = parse("[{\"name\":\"q\",\"value\":\"a\"},{\"name\":\"q\",\"value\":\"b\"}]");
    cr_assert_null(rule_interaction_clean_partial_options(defined, given, "q", &err));
    cr_assert_str_eq(err.path, "options.1");
    json_decref(given);
    given = parse("[{\"name\":\"q\",\"value\":{}}]");
    cr_assert_null(rule_interaction_clean_partial_options(defined, given, "q", &err));
    json_decref(given);
    json_decref(defined);

    json_t *data = parse("{\"choices\":[{\"name\":\"Rio\",\"value\":\"rio\"},{\"name\":\"Dez\","
                         "\"value\":10}]}");
    out = rule_interaction_clean_choices(data, &err);
    cr_assert_not_null(out);
    cr_assert_eq(json_array_size(out), 2);
    json_decref(out);
    json_decref(data);
    data = parse("{\"choices\":[{\"name\":\"\",\"value\":\"x\"}]}");
    cr_assert_null(rule_interaction_clean_choices(data, &err));
    cr_assert_str_eq(err.path, "data.choices.0.name");
    json_decref(data);
    data = parse("{\"choices\":[{\"name\":\"a\",\"value\":true}]}");
    cr_assert_null(rule_interaction_clean_choices(data, &err));
    json_decref(data);
    data = json_pack("{s[]}", "choices");
    for (int i = 0; i <= AUTOCOMPLETE_CHOICES_MAX; i++)
        json_array_append_new(json_object_get(data, "choices"),
                              json_pack("{ssss}", "name", "n", "value", "v"));
    cr_assert_null(rule_interaction_clean_choices(data, &err));
    cr_assert_str_eq(err.path, "data.choices");
    json_decref(data);
}
