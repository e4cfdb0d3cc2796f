/* Interaction rules: see interaction_rules.h. */
#include "domain/interaction_rules.h"

#include <string.h>

#include "core/uuid.h"
#include "domain/text.h"

static json_t *fail_null(struct rule_error *err, const char *path, const char *reason)
{
    rule__json_fail(err, path, "%s", reason);
    return NULL;
}

static json_t *find_defined(json_t *defined, const char *name)
{
    size_t i;
    json_t *o;
    json_array_foreach(defined, i, o)
    {
        if (!strcmp(json_string_value(json_object_get(o, "name")), name))
            return o;
    }
    return NULL;
}

/* Does value have the option's type? */
static const char *type_mismatch(const char *type, json_t *v)
{
    if (!strcmp(type, "string")) {
        if (!json_is_string(v))
            return "deve ser um texto";
        size_t n = rule_text_chars(json_string_value(v), json_string_length(v));
        return n >= 1 && n <= INTERACTION_TEXT_MAX ? NULL : "deve ter entre 1 e 6000 caracteres";
    }
    if (!strcmp(type, "integer"))
        return json_is_integer(v) ? NULL : "deve ser um número inteiro";
    if (!strcmp(type, "number"))
        return json_is_number(v) ? NULL : "deve ser um número";
    if (!strcmp(type, "boolean"))
        return json_is_boolean(v) ? NULL : "deve ser verdadeiro ou falso";
    /* user, channel, role: an ID */
    return json_is_string(v) && uuid_valid(json_string_value(v), json_string_length(v))
               ? NULL
               : "deve ser um ID";
}

static int among_choices(json_t *choices, json_t *v)
{
    if (!choices)
        return 1;
    size_t i;
    json_t *c;
    json_array_foreach(choices, i, c)
    {
        if (json_equal(json_object_get(c, "value"), v))
            return 1;
    }
    return 0;
}

json_t *rule_interaction_clean_options(json_t *defined, json_t *given, struct rule_error *err)
{
    if (!given || json_is_null(given))
        given = NULL;
    else if (!json_is_array(given))
        return fail_null(err, "options", "deve ser uma lista");
    json_t *out = json_array();
    size_t i;
    json_t *o;
    json_array_foreach(given, i, o)
    {
        char path[RULE_PATH_MAX], at[RULE_PATH_MAX];
        rule__json_idx(path, sizeof path, "options", i);
        json_t *name;
        if (!json_is_object(o)) {
            rule__json_fail(err, path, "deve ser um objeto");
            goto fail;
        }
        if (rule__json_text(o, "name", path, at, err, 1, &name) < 0)
            goto fail;
        json_t *def = find_defined(defined, json_string_value(name));
        if (!def) {
            rule__json_fail(err, at, "opção desconhecida: %s", json_string_value(name));
            goto fail;
        }
        if (find_defined(out, json_string_value(name))) {
            rule__json_fail(err, at, "opção repetida: %s", json_string_value(name));
            goto fail;
        }
        rule__json_sub(at, sizeof at, path, "value");
        json_t *v = json_object_get(o, "value");
        const char *type = json_string_value(json_object_get(def, "type"));
        const char *why = v ? type_mismatch(type, v) : "obrigatório";
        if (why) {
            rule__json_fail(err, at, "%s", why);
            goto fail;
        }
        if (!among_choices(json_object_get(def, "choices"), v)) {
            rule__json_fail(err, at, "não é uma das escolhas da opção");
            goto fail;
        }
        json_array_append_new(out, json_pack("{sOsssO}", "name", name, "type", type, "value", v));
    }
    json_array_foreach(defined, i, o)
    {
        const char *name = json_string_value(json_object_get(o, "name"));
        if (json_is_true(json_object_get(o, "required")) && !find_defined(out, name)) {
            rule__json_fail(err, "options", "falta a opção obrigatória %s", name);
            goto fail;
        }
    }
    return out;
fail:
    json_decref(out);
    return NULL;
}

static int custom_id(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    return rule__json_str(src, dst, "customId", 1, INTERACTION_CUSTOM_ID_MAX, base, err, 1);
}

static json_t *text_input(json_t *in, const char *path, struct rule_error *err)
{
    if (!json_is_object(in))
        return fail_null(err, path, "deve ser um objeto");
    json_t *out = json_object();
    if (rule__json_int(in, out, "type", 4, 4, path, err, 1) < 0 ||
        custom_id(in, out, path, err) < 0 ||
        rule__json_str(in, out, "label", 1, MODAL_INPUT_LABEL_MAX, path, err, 1) < 0 ||
        rule__json_int(in, out, "style", 1, 2, path, err, 1) < 0 ||
        rule__json_bool(in, out, "required", path, err) < 0 ||
        rule__json_int(in, out, "minLength", 0, MODAL_INPUT_VALUE_MAX, path, err, 0) < 0 ||
        rule__json_int(in, out, "maxLength", 1, MODAL_INPUT_VALUE_MAX, path, err, 0) < 0 ||
        rule__json_str(in, out, "placeholder", 0, 100, path, err, 0) < 0 ||
        rule__json_str(in, out, "value", 0, MODAL_INPUT_VALUE_MAX, path, err, 0) < 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *rule_interaction_clean_modal(json_t *data, struct rule_error *err)
{
    if (!json_is_object(data))
        return fail_null(err, "data", "deve ser um objeto");
    json_t *out = json_object();
    json_t *rows = json_array();
    json_t *ids = json_object();
    json_object_set_new(out, "components", rows);
    if (custom_id(data, out, "data", err) < 0 ||
        rule__json_str(data, out, "title", 1, MODAL_TITLE_MAX, "data", err, 1) < 0)
        goto fail;
    json_t *given = json_object_get(data, "components");
    if (!json_is_array(given) || json_array_size(given) < 1 ||
        json_array_size(given) > MODAL_INPUTS_MAX) {
        rule__json_fail(err, "data.components", "deve ser uma lista de 1 a %d linhas",
                        MODAL_INPUTS_MAX);
        goto fail;
    }
    size_t i;
    json_t *row;
    json_array_foreach(given, i, row)
    {
        char path[RULE_PATH_MAX], inner[RULE_PATH_MAX];
        rule__json_idx(path, sizeof path, "data.components", i);
        json_t *children = json_object_get(row, "components");
        if (!json_is_object(row) || json_integer_value(json_object_get(row, "type")) != 1 ||
            !json_is_array(children) || json_array_size(children) != 1) {
            rule__json_fail(err, path, "deve ser uma linha (type 1) com um campo de texto");
            goto fail;
        }
        rule__json_sub(inner, sizeof inner, path, "components.0");
        json_t *input = text_input(json_array_get(children, 0), inner, err);
        if (!input)
            goto fail;
        const char *id = json_string_value(json_object_get(input, "customId"));
        if (json_object_get(ids, id)) {
            json_decref(input);
            char at[RULE_PATH_MAX];
            rule__json_sub(at, sizeof at, inner, "customId");
            rule__json_fail(err, at, "customId repetido: %s", id);
            goto fail;
        }
        json_object_set_new(ids, id, json_true());
        json_array_append_new(rows, json_pack("{sis[o]}", "type", 1, "components", input));
    }
    json_decref(ids);
    return out;
fail:
    json_decref(ids);
    json_decref(out);
    return NULL;
}

static int form_value(json_t *v, json_t *clean, const char *path, struct rule_error *err, void *arg)
{
    (void)arg;
    return custom_id(v, clean, path, err) < 0 ||
                   rule__json_str(v, clean, "value", 0, MODAL_INPUT_VALUE_MAX, path, err, 1) < 0
               ? -1
               : 0;
}

json_t *rule_interaction_clean_form_values(json_t *values, struct rule_error *err)
{
    if (!json_is_array(values) || json_array_size(values) > MODAL_INPUTS_MAX)
        return fail_null(err, "values", "deve ser uma lista de até 5 {customId, value}");
    return rule__json_objects(values, "values", err, form_value, NULL);
}

json_t *rule_interaction_clean_select_values(json_t *values, struct rule_error *err)
{
    if (!json_is_array(values) || json_array_size(values) > INTERACTION_VALUES_MAX)
        return fail_null(err, "values", "deve ser uma lista de até 25 textos");
    size_t i;
    json_t *v;
    json_array_foreach(values, i, v)
    {
        char path[RULE_PATH_MAX];
        rule__json_idx(path, sizeof path, "values", i);
        if (!json_is_string(v) ||
            rule_text_chars(json_string_value(v), json_string_length(v)) >
                INTERACTION_CUSTOM_ID_MAX ||
            json_string_length(v) == 0)
            return fail_null(err, path, "deve ser um texto de 1 a 100 caracteres");
    }
    return json_incref(values);
}

json_t *rule_interaction_find_component(json_t *components, const char *custom_id)
{
    size_t i;
    json_t *c;
    json_array_foreach(components, i, c)
    {
        const char *id = json_string_value(json_object_get(c, "customId"));
        if (id && !strcmp(id, custom_id))
            return c;
        json_t *found =
            rule_interaction_find_component(json_object_get(c, "components"), custom_id);
        if (!found && json_is_object(json_object_get(c, "accessory"))) {
            json_t *one = json_pack("[O]", json_object_get(c, "accessory"));
            found = rule_interaction_find_component(one, custom_id);
            json_decref(one);
        }
        if (found)
            return found;
    }
    return NULL;
}
