#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "domain/json_split.h"

struct seen {
    char all[1024];
    size_t n, stop_at;
};

static int note(void *arg, const char *json, size_t len)
{
    struct seen *s = arg;
    size_t used = strlen(s->all);
    snprintf(s->all + used, sizeof s->all - used, "%s%.*s", s->n ? "|" : "", (int)len, json);
    return ++s->n == s->stop_at ? 7 : 0;
}

/* Feeds doc in chunks of `step` bytes; the header and the elements seen. */
static void split(const char *doc, size_t step, struct rule_json_split *sp, struct seen *seen)
{
    rule_json_split_init(sp, "messages", 4096, 256);
    const char *why = NULL;
    for (size_t i = 0, n = strlen(doc); i < n; i += step) {
        size_t len = n - i < step ? n - i : step;
        cr_assert_eq(rule_json_split_feed(sp, doc + i, len, note, seen, &why), 0, "%s", why);
    }
}

static const char DOC[] =
    "{\"guild\":{\"id\":\"1\"},\"messages\":[{\"id\":\"a\",\"content\":\"]}[{ \\\" \\\\\"},\n"
    " {\"id\":\"b\",\"reactions\":[{\"users\":[]}]}, 7, \"x]\", [1,2], {\"id\":\"c\"}],"
    "\"channel\":{\"name\":\"messages\",\"tags\":[\"messages\"]}}";

Test(json_split, elements_come_out_one_by_one_and_the_header_keeps_the_rest)
{
    for (size_t step = 1; step <= sizeof DOC; step += 3) {
        struct rule_json_split sp;
        struct seen seen = {.all = ""};
        split(DOC, step, &sp, &seen);
        cr_assert_eq(seen.n, 3, "step %zu", step);
        cr_assert_str_eq(seen.all, "{\"id\":\"a\",\"content\":\"]}[{ \\\" \\\\\"}|"
                                   "{\"id\":\"b\",\"reactions\":[{\"users\":[]}]}|{\"id\":\"c\"}");
        cr_assert_eq(sp.stray, 3, "7, a string and an array are not objects");
        cr_assert_str_eq(sp.header.data, "{\"guild\":{\"id\":\"1\"},\"messages\":[],"
                                         "\"channel\":{\"name\":\"messages\",\"tags\":"
                                         "[\"messages\"]}}");
        rule_json_split_cleanup(&sp);
    }
}

Test(json_split, only_the_roots_key_is_split)
{
    struct rule_json_split sp;
    struct seen seen = {.all = ""};
    split("{\"a\":{\"messages\":[{\"x\":1}]},\"messagesx\":[{}]}", 5, &sp, &seen);
    cr_assert_eq(seen.n, 0);
    cr_assert_str_eq(sp.header.data, "{\"a\":{\"messages\":[{\"x\":1}]},\"messagesx\":[{}]}");
    rule_json_split_cleanup(&sp);
}

Test(json_split, bounds_and_a_stop_are_told)
{
    struct rule_json_split sp;
    struct seen seen = {.all = "", .stop_at = 1};
    const char *why = NULL;
    rule_json_split_init(&sp, "messages", 4096, 256);
    const char two[] = "{\"messages\":[{},{}]}";
    cr_assert_eq(rule_json_split_feed(&sp, two, strlen(two), note, &seen, &why), 7);
    cr_assert_eq(seen.n, 1, "the callback's stop ends the feed");
    rule_json_split_cleanup(&sp);

    char big[600];
    snprintf(big, sizeof big, "{\"messages\":[{\"c\":\"%0400d\"}]}", 0);
    rule_json_split_init(&sp, "messages", 4096, 256);
    cr_assert_eq(rule_json_split_feed(&sp, big, strlen(big), note, &seen, &why), -1);
    cr_assert_str_eq(why, "an element of the array past its bound");
    rule_json_split_cleanup(&sp);
    seen.stop_at = 0;
    rule_json_split_init(&sp, "messages", 16, 1024);
    cr_assert_eq(rule_json_split_feed(&sp, big, strlen(big), note, &seen, &why), 0,
                 "the header is {\"messages\":[]}, 15 bytes");
    rule_json_split_cleanup(&sp);
    rule_json_split_init(&sp, "messages", 8, 1024);
    cr_assert_eq(rule_json_split_feed(&sp, big, strlen(big), note, &seen, &why), -1);
    cr_assert_str_eq(why, "the document past its bound outside the array");
    rule_json_split_cleanup(&sp);
}
