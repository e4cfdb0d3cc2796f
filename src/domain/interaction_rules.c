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

/* The object of list whose string `key` is value, or NULL. */
static json_t *find_by(json_t *list, const char *key, const char *value)
{
    size_t i;
    json_t *o;
    json_array_foreach(list, i, o)
    {
        const char *v = json_string_value(json_object_get(o, key));
        if (v && !strcmp(v, value))
            return o;
    }
    return NULL;
}

static json_t *find_defined(json_t *defined, const char *name)
{
    return find_by(defined, "name", name);
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

static int select_option(json_t *src, json_t *dst, const char *path, struct rule_error *err,
                         void *arg)
{
    (void)arg;
    return rule__json_str(src, dst, "label", 1, INTERACTION_CUSTOM_ID_MAX, path, err, 1) < 0 ||
                   rule__json_str(src, dst, "value", 1, INTERACTION_CUSTOM_ID_MAX, path, err, 1) <
                       0 ||
                   rule__json_str(src, dst, "description", 0, INTERACTION_CUSTOM_ID_MAX, path, err,
                                  0) < 0
               ? -1
               : 0;
}

/* A string select inside a form: {type: 3, customId, label? (shown above it), options (1–25
 * {label, value, description?}), placeholder?, minValues?, maxValues?, required?}. */
static json_t *modal_select(json_t *in, const char *path, struct rule_error *err)
{
    json_t *out = json_object();
    char at[RULE_PATH_MAX];
    rule__json_sub(at, sizeof at, path, "options");
    json_t *opts = json_object_get(in, "options");
    json_t *clean = NULL;
    if (rule__json_int(in, out, "type", 3, 3, path, err, 1) < 0 ||
        custom_id(in, out, path, err) < 0 ||
        rule__json_str(in, out, "label", 1, MODAL_INPUT_LABEL_MAX, path, err, 0) < 0 ||
        rule__json_str(in, out, "placeholder", 0, 150, path, err, 0) < 0 ||
        rule__json_int(in, out, "minValues", 0, INTERACTION_VALUES_MAX, path, err, 0) < 0 ||
        rule__json_int(in, out, "maxValues", 1, INTERACTION_VALUES_MAX, path, err, 0) < 0 ||
        rule__json_bool(in, out, "required", path, err) < 0)
        goto fail;
    if (!json_is_array(opts) || json_array_size(opts) < 1 ||
        json_array_size(opts) > INTERACTION_VALUES_MAX) {
        rule__json_fail(err, at, "deve ter de 1 a %d opções", INTERACTION_VALUES_MAX);
        goto fail;
    }
    if (!(clean = rule__json_objects(opts, at, err, select_option, NULL)))
        goto fail;
    json_object_set_new(out, "options", clean);
    json_int_t lo = json_integer_value(json_object_get(out, "minValues"));
    json_t *hi = json_object_get(out, "maxValues");
    if ((hi && json_integer_value(hi) < lo) || (size_t)lo > json_array_size(clean)) {
        rule__json_fail(err, path, "minValues deve caber entre as opções e em maxValues");
        goto fail;
    }
    return out;
fail:
    json_decref(out);
    return NULL;
}

/* A form's field: a text input (type 4) or a string select (type 3). */
static json_t *modal_field(json_t *in, const char *path, struct rule_error *err)
{
    if (!json_is_object(in))
        return fail_null(err, path, "deve ser um objeto");
    if (json_integer_value(json_object_get(in, "type")) == 3)
        return modal_select(in, path, err);
    return text_input(in, path, err);
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
            rule__json_fail(err, path,
                            "deve ser uma linha (type 1) com um campo de texto ou uma seleção");
            goto fail;
        }
        rule__json_sub(inner, sizeof inner, path, "components.0");
        json_t *input = modal_field(json_array_get(children, 0), inner, err);
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
    if (custom_id(v, clean, path, err) < 0)
        return -1;
    json_t *many = json_object_get(v, "values");
    if (!many)
        return rule__json_str(v, clean, "value", 0, MODAL_INPUT_VALUE_MAX, path, err, 1) < 0 ? -1
                                                                                             : 0;
    char at[RULE_PATH_MAX];
    rule__json_sub(at, sizeof at, path, "values");
    json_t *ok = rule_interaction_clean_select_values(many, err);
    if (!ok) {
        memcpy(err->path, at, sizeof err->path); /* the field's path, not the list's */
        return -1;
    }
    json_object_set_new(clean, "values", ok);
    return 0;
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

/* The field with that customId in a clean form, or NULL. */
static json_t *form_field(json_t *modal, const char *id)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(modal, "components"), i, row)
    {
        json_t *f = json_array_get(json_object_get(row, "components"), 0);
        if (!strcmp(json_string_value(json_object_get(f, "customId")), id))
            return f;
    }
    return NULL;
}

static json_t *submitted(json_t *values, const char *id)
{
    return find_by(values, "customId", id);
}

/* One field's submission against its definition; v NULL when it was not sent. */
static int field_ok(json_t *f, json_t *v, const char *label, struct rule_error *err)
{
    json_t *req = json_object_get(f, "required");
    int required = !req || json_is_true(req); /* Discord's default: required */
    if (json_integer_value(json_object_get(f, "type")) == 3) {
        json_t *chosen = json_object_get(v, "values");
        size_t n = json_array_size(chosen);
        json_t *lo_v = json_object_get(f, "minValues"), *hi_v = json_object_get(f, "maxValues");
        size_t lo = lo_v ? (size_t)json_integer_value(lo_v) : (size_t)(required ? 1 : 0);
        size_t hi = hi_v ? (size_t)json_integer_value(hi_v) : 1;
        if (v && !chosen)
            return rule__json_fail(err, label, "uma seleção se envia em values");
        if ((n == 0 && required) || (n && n < lo) || n > hi)
            return rule__json_fail(err, label, "escolha de %zu a %zu opções", lo ? lo : 1, hi);
        size_t i;
        json_t *c;
        json_array_foreach(chosen, i, c)
        {
            int known = 0;
            size_t j;
            json_t *o;
            json_array_foreach(json_object_get(f, "options"), j, o) known |=
                json_equal(json_object_get(o, "value"), c);
            if (!known)
                return rule__json_fail(err, label, "não é uma das opções: %s",
                                       json_string_value(c));
        }
        return 0;
    }
    json_t *text = json_object_get(v, "value");
    if (v && !text)
        return rule__json_fail(err, label, "um campo de texto se envia em value");
    size_t n = text ? rule_text_chars(json_string_value(text), json_string_length(text)) : 0;
    json_t *lo_v = json_object_get(f, "minLength"), *hi_v = json_object_get(f, "maxLength");
    size_t lo = lo_v ? (size_t)json_integer_value(lo_v) : 0;
    size_t hi = hi_v ? (size_t)json_integer_value(hi_v) : MODAL_INPUT_VALUE_MAX;
    if (n == 0 && required)
        return rule__json_fail(err, label, "obrigatório");
    if (n && (n < lo || n > hi))
        return rule__json_fail(err, label, "deve ter de %zu a %zu caracteres", lo, hi);
    return 0;
}

int rule_interaction_check_form(json_t *modal, json_t *values, struct rule_error *err)
{
    size_t i;
    json_t *v;
    json_array_foreach(values, i, v)
    {
        const char *id = json_string_value(json_object_get(v, "customId"));
        if (!form_field(modal, id))
            return rule__json_fail(err, "values", "campo desconhecido: %s", id);
        if (submitted(values, id) != v)
            return rule__json_fail(err, "values", "campo repetido: %s", id);
    }
    json_t *row;
    json_array_foreach(json_object_get(modal, "components"), i, row)
    {
        json_t *f = json_array_get(json_object_get(row, "components"), 0);
        const char *id = json_string_value(json_object_get(f, "customId"));
        char label[RULE_PATH_MAX];
        rule__json_sub(label, sizeof label, "values", id);
        if (field_ok(f, submitted(values, id), label, err) < 0)
            return -1;
    }
    return 0;
}

json_t *rule_interaction_clean_partial_options(json_t *defined, json_t *given, const char *focused,
                                               struct rule_error *err)
{
    json_t *def = find_defined(defined, focused);
    if (!def || !json_is_true(json_object_get(def, "autocomplete")))
        return fail_null(err, "focused", "não é uma opção com autocomplete deste comando");
    if (given && !json_is_null(given) && !json_is_array(given))
        return fail_null(err, "options", "deve ser uma lista");
    json_t *out = json_array();
    size_t i;
    json_t *o;
    json_array_foreach(given, i, o)
    {
        char path[RULE_PATH_MAX];
        rule__json_idx(path, sizeof path, "options", i);
        const char *name = json_string_value(json_object_get(o, "name"));
        json_t *v = json_object_get(o, "value");
        json_t *d = name ? find_defined(defined, name) : NULL;
        size_t chars =
            json_is_string(v) ? rule_text_chars(json_string_value(v), json_string_length(v)) : 0;
        if (!d || find_defined(out, name) ||
            !(json_is_string(v) || json_is_number(v) || json_is_boolean(v)) ||
            chars > INTERACTION_CUSTOM_ID_MAX) {
            json_decref(out);
            return fail_null(err, path,
                             "deve ser {name, value} de uma opção do comando, uma vez, com até "
                             "100 caracteres");
        }
        json_t *item = json_pack("{sssssO}", "name", name, "type",
                                 json_string_value(json_object_get(d, "type")), "value", v);
        if (!strcmp(name, focused))
            json_object_set_new(item, "focused", json_true());
        json_array_append_new(out, item);
    }
    if (!find_defined(out, focused))
        json_array_append_new(out, json_pack("{sssssssb}", "name", focused, "type",
                                             json_string_value(json_object_get(def, "type")),
                                             "value", "", "focused", 1));
    return out;
}

static int choice_item(json_t *src, json_t *dst, const char *path, struct rule_error *err,
                       void *arg)
{
    (void)arg;
    if (rule__json_str(src, dst, "name", 1, INTERACTION_CUSTOM_ID_MAX, path, err, 1) < 0)
        return -1;
    json_t *v = json_object_get(src, "value");
    if (json_is_number(v)) {
        json_object_set(dst, "value", v);
        return 0;
    }
    return rule__json_str(src, dst, "value", 1, INTERACTION_CUSTOM_ID_MAX, path, err, 1) < 0 ? -1
                                                                                             : 0;
}

json_t *rule_interaction_clean_choices(json_t *data, struct rule_error *err)
{
    json_t *list = json_object_get(data, "choices");
    if (!json_is_array(list) || json_array_size(list) > AUTOCOMPLETE_CHOICES_MAX)
        return fail_null(err, "data.choices", "deve ser uma lista de até 25 {name, value}");
    return rule__json_objects(list, "data.choices", err, choice_item, NULL);
}
