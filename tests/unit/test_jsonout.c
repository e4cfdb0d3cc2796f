/* JSON text: the same bytes as jansson's compact dump, for fixed and for random values. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonout.h"

static void same_as_jansson(json_t *v)
{
    char *want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    size_t len = 0;
    char *got = jsonout_dump(v, &len);
    cr_assert_not_null(want);
    cr_assert_not_null(got);
    cr_assert_str_eq(got, want);
    cr_assert_eq(len, strlen(want));
    free(want);
    free(got);
}

Test(jsonout, fixed_values)
{
    const char *texts[] = {
        "{}",
        "[]",
        "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}",
        "[\"quote \\\" backslash \\\\ slash / tab \\t nl \\n cr \\r bs \\b ff \\f\"]",
        "[\"\\u0000 \\u0001 \\u001f \\u007f\", \"ação 😀 \\u2028\"]",
        "[0, -1, 9223372036854775807, -9223372036854775808]",
        "[0.5, -1.25, 1e300, 1e-5, -2.5e-300, 3.0, 0.1, 123456789.123, 1e22]",
        "{\"z\":1,\"a\":2,\"m\":{\"y\":[],\"b\":{}}}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        json_error_t err;
        json_t *v = json_loads(texts[i], JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
        cr_assert_not_null(v, "%s: %s", texts[i], err.text);
        same_as_jansson(v);
        json_decref(v);
    }
    json_t *nul = json_stringn("a\0b", 3);
    same_as_jansson(nul);
    json_decref(nul);
}

static json_t *random_value(unsigned *seed, int depth)
{
    int kind = rand_r(seed) % (depth > 3 ? 5 : 7);
    switch (kind) {
    case 0:
        return json_null();
    case 1:
        return json_boolean(rand_r(seed) & 1);
    case 2:
        return json_integer((json_int_t)rand_r(seed) * (rand_r(seed) & 1 ? -7919 : 31));
    case 3:
        return json_real((double)rand_r(seed) / (1 + rand_r(seed) % 1000));
    case 4: {
        char s[24];
        size_t n = (size_t)(rand_r(seed) % (int)sizeof s);
        for (size_t i = 0; i < n; i++)
            s[i] = (char)(1 + rand_r(seed) % 127); /* ASCII, control characters included */
        return json_stringn(s, n);
    }
    case 5: {
        json_t *a = json_array();
        for (int i = rand_r(seed) % 5; i > 0; i--)
            json_array_append_new(a, random_value(seed, depth + 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        for (int i = rand_r(seed) % 5; i > 0; i--) {
            char key[8];
            snprintf(key, sizeof key, "k%d", rand_r(seed) % 50);
            json_object_set_new(o, key, random_value(seed, depth + 1));
        }
        return o;
    }
    }
}

Test(jsonout, random_values)
{
    unsigned seed = 20261123;
    for (int i = 0; i < 2000; i++) {
        json_t *v = random_value(&seed, 0);
        same_as_jansson(v);
        json_decref(v);
    }
}

Test(jsonout, appends_and_refuses_what_json_cannot_hold)
{
    struct buf b;
    buf_init(&b, 16);
    json_t *v = json_pack("{ss}", "k", "a value far longer than sixteen bytes");
    cr_assert_neq(jsonout_append(&b, v), BUF_OK, "the buffer's bound holds");
    json_decref(v);
    buf_cleanup(&b);
    cr_assert_null(jsonout_dump(NULL, NULL));
    json_t *deep = json_array(), *at = deep;
    for (int i = 0; i < 100; i++) {
        json_t *inner = json_array();
        json_array_append_new(at, inner);
        at = inner;
    }
    cr_assert_null(jsonout_dump(deep, NULL), "nesting past the depth limit");
    json_decref(deep);
}

Test(jsonout, object_writer_matches_a_tree)
{
    struct buf b;
    buf_init(&b, 4096);
    struct jsonout_obj o;
    jsonout_obj_begin(&o, &b);
    jsonout_obj_str(&o, "s", "tab\t \"q\" ação");
    jsonout_obj_str(&o, "n", NULL);
    jsonout_obj_str_opt(&o, "gone", NULL);
    jsonout_obj_int(&o, "i", -42);
    jsonout_obj_str_opt(&o, "o", "here");
    jsonout_obj_bool(&o, "t", 1);
    jsonout_obj_bool(&o, "f", 0);
    jsonout_obj_time(&o, "at", 1763900000123);
    jsonout_obj_raw(&o, "raw", "[{\"a\":1}]", "null");
    jsonout_obj_raw(&o, "none", NULL, "[]");
    json_t *v = json_pack("{si}", "x", 1);
    jsonout_obj_value(&o, "v", v);
    jsonout_obj_value(&o, "nv", NULL);
    cr_assert_eq(jsonout_obj_end(&o), BUF_OK);
    json_t *tree = json_pack("{ss sn si ss sb sb ss s[{si}] s[] sO sn}", "s", "tab\t \"q\" ação",
                             "n", "i", -42, "o", "here", "t", 1, "f", 0, "at",
                             "2025-11-23T12:13:20.123Z", "raw", "a", 1, "none", "v", v, "nv");
    char *want = jsonout_dump(tree, NULL);
    cr_assert_str_eq(b.data, want);
    free(want);
    json_decref(tree);
    json_decref(v);
    buf_cleanup(&b);
}

Test(jsonout, object_writer_stops_at_the_bound)
{
    struct buf b;
    buf_init(&b, 12);
    struct jsonout_obj o;
    jsonout_obj_begin(&o, &b);
    jsonout_obj_str(&o, "key", "a value longer than the bound");
    jsonout_obj_int(&o, "later", 1); /* the first error sticks */
    cr_assert_eq(jsonout_obj_end(&o), BUF_ETOOBIG);
    buf_cleanup(&b);
}
