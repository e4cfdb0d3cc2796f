/* Embeds and components: every limit at its edge, paths in the errors. */
#include <criterion/criterion.h>
#include <string.h>

#include "domain/message_rules.h"

static json_t *parse(const char *s)
{
    json_error_t e;
    json_t *v = json_loads(s, 0, &e);
    cr_assert_not_null(v, "%s", e.text);
    return v;
}

static json_t *repeat_str(char c, size_t n)
{
    char *buf = malloc(n + 1);
    memset(buf, c, n);
    buf[n] = '\0';
    json_t *s = json_string(buf);
    free(buf);
    return s;
}

static json_t *embeds_with(size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{ss}", "title", "t"));
    return a;
}

Test(embeds, ten_ok_eleven_refused)
{
    struct rule_error err;
    json_t *ten = embeds_with(10), *eleven = embeds_with(11);
    json_t *ok = rule_message_clean_embeds(ten, &err);
    cr_assert_not_null(ok);
    cr_assert_null(rule_message_clean_embeds(eleven, &err));
    cr_assert_str_eq(err.path, "embeds");
    json_decref(ok);
    json_decref(ten);
    json_decref(eleven);
}

Test(embeds, title_256_ok_257_refused)
{
    struct rule_error err;
    json_t *e = json_pack("[{so}]", "title", repeat_str('a', 256));
    json_t *ok = rule_message_clean_embeds(e, &err);
    cr_assert_not_null(ok);
    json_decref(ok);
    json_object_set_new(json_array_get(e, 0), "title", repeat_str('a', 257));
    cr_assert_null(rule_message_clean_embeds(e, &err));
    cr_assert_str_eq(err.path, "embeds.0.title");
    cr_assert_str_eq(err.reason, "deve ter no máximo 256 caracteres");
    json_decref(e);
}

Test(embeds, total_6000_ok_6001_refused)
{
    struct rule_error err;
    /* two embeds: 4096 + 1904 = 6000 characters of description */
    json_t *e = json_pack("[{so}{so}]", "description", repeat_str('a', 4096), "description",
                          repeat_str('b', 1904));
    json_t *ok = rule_message_clean_embeds(e, &err);
    cr_assert_not_null(ok);
    cr_assert_eq(rule__message_embeds_chars(ok), 6000);
    json_decref(ok);
    json_object_set_new(json_array_get(e, 1), "title", json_string("x"));
    cr_assert_null(rule_message_clean_embeds(e, &err));
    cr_assert_str_eq(err.path, "embeds");
    json_decref(e);
}

Test(embeds, fields_footer_author_urls_and_unknown_keys)
{
    struct rule_error err;
    json_t *e =
        parse("[{\"title\":\"T\",\"url\":\"https://x.example/a#b\",\"color\":16777215,"
              "\"timestamp\":\"2026-11-21 12:00:00\",\"footer\":{\"text\":\"f\",\"iconUrl\":"
              "\"https://x/i.png\"},\"author\":{\"name\":\"A\"},\"image\":{\"url\":"
              "\"http://x/i.png\"},\"fields\":[{\"name\":\"n\",\"value\":\"v\",\"inline\":true}],"
              "\"unknown\":1}]");
    json_t *ok = rule_message_clean_embeds(e, &err);
    cr_assert_not_null(ok, "%s: %s", err.path, err.reason);
    json_t *first = json_array_get(ok, 0);
    cr_assert_null(json_object_get(first, "unknown"));
    cr_assert_str_eq(json_string_value(json_object_get(first, "timestamp")),
                     "2026-11-21T12:00:00.000Z");
    json_decref(ok);
    json_decref(e);
    const char *bad[][2] = {
        {"[{\"url\":\"javascript:alert(1)\"}]", "embeds.0.url"},
        {"[{\"color\":16777216}]", "embeds.0.color"},
        {"[{\"footer\":{}}]", "embeds.0.footer.text"},
        {"[{\"image\":{\"url\":\"ftp://x\"}}]", "embeds.0.image.url"},
        {"[{\"fields\":[{\"name\":\"n\"}]}]", "embeds.0.fields.0.value"},
        {"[{\"timestamp\":\"ontem\"}]", "embeds.0.timestamp"},
        {"[{}]", "embeds.0"},
        {"[3]", "embeds.0"},
        {"{}", "embeds"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *v = parse(bad[i][0]);
        cr_assert_null(rule_message_clean_embeds(v, &err), "%s", bad[i][0]);
        cr_assert_str_eq(err.path, bad[i][1], "%s", bad[i][0]);
        json_decref(v);
    }
}

static json_t *rows_of_buttons(size_t rows, size_t per_row)
{
    json_t *a = json_array();
    int n = 0;
    for (size_t r = 0; r < rows; r++) {
        json_t *kids = json_array();
        for (size_t b = 0; b < per_row; b++) {
            char id[16];
            snprintf(id, sizeof id, "b%d", n++);
            json_array_append_new(kids,
                                  json_pack("{sisiss}", "type", 2, "style", 1, "customId", id));
        }
        json_array_append_new(a, json_pack("{siso}", "type", 1, "components", kids));
    }
    return a;
}

Test(components, forty_ok_forty_one_refused)
{
    struct rule_error err;
    /* V2: 8 containers × (1 + 4 text displays) = 40 components. */
    json_t *a = json_array();
    for (int i = 0; i < 8; i++) {
        json_t *kids = json_array();
        for (int k = 0; k < 4; k++)
            json_array_append_new(kids, json_pack("{siss}", "type", 10, "content", "x"));
        json_array_append_new(a, json_pack("{siso}", "type", 17, "components", kids));
    }
    json_t *ok = rule_message_clean_components(a, 1, &err);
    cr_assert_not_null(ok, "%s: %s", err.path, err.reason);
    json_decref(ok);
    json_array_append_new(a, json_pack("{sisi}", "type", 14, "spacing", 1));
    cr_assert_null(rule_message_clean_components(a, 1, &err));
    cr_assert_str_eq(err.path, "components.8");
    json_decref(a);
}

Test(components, action_rows_hold_five_buttons_or_one_select)
{
    struct rule_error err;
    json_t *five = rows_of_buttons(5, 5); /* 5 + 25 = 30 */
    json_t *ok = rule_message_clean_components(five, 0, &err);
    cr_assert_not_null(ok, "%s: %s", err.path, err.reason);
    json_decref(ok);
    json_decref(five);
    json_t *six = rows_of_buttons(1, 6);
    cr_assert_null(rule_message_clean_components(six, 0, &err));
    cr_assert_str_eq(err.path, "components.0.components");
    json_decref(six);
    json_t *mixed = parse(
        "[{\"type\":1,\"components\":[{\"type\":3,\"customId\":\"s\",\"options\":"
        "[{\"label\":\"a\",\"value\":\"a\"}]},{\"type\":2,\"style\":1,\"customId\":\"b\"}]}]");
    cr_assert_null(rule_message_clean_components(mixed, 0, &err));
    json_decref(mixed);
    json_t *top_button = parse("[{\"type\":2,\"style\":1,\"customId\":\"b\"}]");
    cr_assert_null(rule_message_clean_components(top_button, 0, &err));
    cr_assert_str_eq(err.path, "components.0.type");
    json_decref(top_button);
    json_t *v2_only = parse("[{\"type\":10,\"content\":\"hi\"}]");
    cr_assert_null(rule_message_clean_components(v2_only, 0, &err));
    json_t *ok2 = rule_message_clean_components(v2_only, 1, &err);
    cr_assert_not_null(ok2);
    json_decref(ok2);
    json_decref(v2_only);
}

Test(components, buttons_selects_and_unique_custom_ids)
{
    struct rule_error err;
    const char *bad[][2] = {
        {"[{\"type\":1,\"components\":[{\"type\":2,\"style\":5,\"customId\":\"x\",\"url\":\"https:/"
         "/x\"}]}]",
         "components.0.components.0.customId"},
        {"[{\"type\":1,\"components\":[{\"type\":2,\"style\":5}]}]",
         "components.0.components.0.url"},
        {"[{\"type\":1,\"components\":[{\"type\":2,\"style\":1}]}]",
         "components.0.components.0.customId"},
        {"[{\"type\":1,\"components\":[{\"type\":2,\"style\":6,\"customId\":\"x\"}]}]",
         "components.0.components.0.style"},
        {"[{\"type\":1,\"components\":[{\"type\":2,\"style\":1,\"customId\":\"x\",\"label\":\""
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
         "\"}]}]",
         "components.0.components.0.label"},
        {"[{\"type\":1,\"components\":[{\"type\":2,\"style\":1,\"customId\":\"x\"},{\"type\":2,"
         "\"style\":2,\"customId\":\"x\"}]}]",
         "components.0.components.1.customId"},
        {"[{\"type\":1,\"components\":[{\"type\":3,\"customId\":\"s\",\"options\":[]}]}]",
         "components.0.components.0.options"},
        {"[{\"type\":1,\"components\":[{\"type\":3,\"customId\":\"s\",\"options\":[{\"label\":"
         "\"a\"}]}]}]",
         "components.0.components.0.options.0.value"},
        {"[{\"type\":1,\"components\":[{\"type\":3,\"customId\":\"s\",\"maxValues\":2,\"options\":["
         "{\"label\":\"a\",\"value\":\"a\"}]}]}]",
         "components.0.components.0.maxValues"},
        {"[{\"type\":1,\"components\":[]}]", "components.0.components"},
        {"[{\"type\":4}]", "components.0.type"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *v = parse(bad[i][0]);
        cr_assert_null(rule_message_clean_components(v, 0, &err), "%s", bad[i][0]);
        cr_assert_str_eq(err.path, bad[i][1], "%s → %s (%s)", bad[i][0], err.path, err.reason);
        json_decref(v);
    }
    json_t *good = parse("[{\"type\":1,\"components\":[{\"type\":2,\"style\":5,\"url\":\"https://"
                         "x\",\"label\":\"Site\"},"
                         "{\"type\":2,\"style\":4,\"customId\":\"del\",\"disabled\":true}]},"
                         "{\"type\":1,\"components\":[{\"type\":6,\"customId\":\"role\","
                         "\"minValues\":0,\"maxValues\":3}]}]");
    json_t *ok = rule_message_clean_components(good, 0, &err);
    cr_assert_not_null(ok, "%s: %s", err.path, err.reason);
    json_decref(ok);
    json_decref(good);
}

Test(components, v2_sections_galleries_containers)
{
    struct rule_error err;
    json_t *good =
        parse("[{\"type\":9,\"components\":[{\"type\":10,\"content\":\"a\"}],\"accessory\":"
              "{\"type\":11,\"media\":{\"url\":\"https://x/t.png\"}}},"
              "{\"type\":12,\"items\":[{\"media\":{\"url\":\"attachment://a.png\"}}]},"
              "{\"type\":14,\"divider\":true,\"spacing\":2},"
              "{\"type\":17,\"accentColor\":255,\"components\":[{\"type\":13,\"file\":{\"url\":"
              "\"attachment://f.txt\"}}]}]");
    json_t *ok = rule_message_clean_components(good, 1, &err);
    cr_assert_not_null(ok, "%s: %s", err.path, err.reason);
    json_decref(ok);
    json_decref(good);
    json_t *no_accessory = parse("[{\"type\":9,\"components\":[{\"type\":10,\"content\":\"a\"}]}]");
    cr_assert_null(rule_message_clean_components(no_accessory, 1, &err));
    cr_assert_str_eq(err.path, "components.0.accessory");
    json_decref(no_accessory);
    json_t *nested = parse("[{\"type\":17,\"components\":[{\"type\":17,\"components\":[{\"type\":"
                           "10,\"content\":\"a\"}]}]}]");
    cr_assert_null(rule_message_clean_components(nested, 1, &err));
    cr_assert_str_eq(err.path, "components.0.components.0.type");
    json_decref(nested);
}
