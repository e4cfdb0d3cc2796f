#include <criterion/criterion.h>
#include <string.h>

#include "domain/poll_rules.h"

static json_t *read_poll(const char *text, int64_t *hours, const char **field, const char **why)
{
    json_t *in = json_loads(text, 0, NULL);
    cr_assert(in, "%s", text);
    json_t *out = rule_poll_read(in, hours, field, why);
    json_decref(in);
    return out;
}

Test(poll_rules, a_poll_keeps_trimmed_answers_numbered_from_one)
{
    int64_t hours;
    const char *field, *why;
    json_t *p = read_poll("{\"question\":\"  Onde almoçamos? \",\"answers\":[{\"text\":\"Pizza\","
                          "\"emoji\":\"🍕\"},{\"text\":\" Sushi \"}]}",
                          &hours, &field, &why);
    cr_assert(p);
    cr_assert_eq(hours, POLL_HOURS_DEFAULT);
    cr_assert_str_eq(json_string_value(json_object_get(p, "question")), "Onde almoçamos?");
    cr_assert(json_is_false(json_object_get(p, "multiple")));
    json_t *b = json_array_get(json_object_get(p, "answers"), 1);
    cr_assert_eq(json_integer_value(json_object_get(b, "id")), 2);
    cr_assert_str_eq(json_string_value(json_object_get(b, "text")), "Sushi");
    cr_assert(json_is_null(json_object_get(b, "emoji")));
    json_decref(p);
    p = read_poll("{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"}],"
                  "\"multiple\":true,\"durationHours\":168}",
                  &hours, &field, &why);
    cr_assert(p && json_is_true(json_object_get(p, "multiple")) && hours == 168);
    json_decref(p);
}

Test(poll_rules, each_bad_part_is_named)
{
    static const struct {
        const char *body, *field;
    } BAD[] = {
        {"[]", "poll"},
        {"{\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"}]}", "poll.question"},
        {"{\"question\":\"   \",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"}]}", "poll.question"},
        {"{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"}]}", "poll.answers"},
        {"{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"},{\"text\":\"\"}]}", "poll.answers"},
        {"{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\",\"emoji\":\"ab\"}]}",
         "poll.answers"},
        {"{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"},\"b\"]}", "poll.answers"},
        {"{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"}],\"multiple\":1}",
         "poll.multiple"},
        {"{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"}],\"durationHours\":"
         "169}",
         "poll.durationHours"},
        {"{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"}],\"durationHours\":0}",
         "poll.durationHours"},
        {"{\"question\":\"Q\",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"}],\"durationHours\":1."
         "5}",
         "poll.durationHours"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        int64_t hours;
        const char *field = NULL, *why = NULL;
        cr_assert_null(read_poll(BAD[i].body, &hours, &field, &why), "%s", BAD[i].body);
        cr_assert_str_eq(field, BAD[i].field, "%s", BAD[i].body);
        cr_assert(why && *why);
    }
}

Test(poll_rules, limits_are_counted_in_characters)
{
    char q[1400] = "{\"question\":\"";
    for (int i = 0; i < POLL_QUESTION_MAX; i++)
        strcat(q, "é");
    strcat(q,
           "\",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"},{\"text\":\"c\"},{\"text\":\"d\"},"
           "{\"text\":\"e\"},{\"text\":\"f\"},{\"text\":\"g\"},{\"text\":\"h\"},{\"text\":\"i\"},"
           "{\"text\":\"j\"}]}");
    int64_t hours;
    const char *field, *why;
    json_t *p = read_poll(q, &hours, &field, &why);
    cr_assert(p, "300 characters and 10 answers are allowed");
    json_decref(p);
    strcpy(strstr(q, "\",\"answers\""), "é\",\"answers\":[{\"text\":\"a\"},{\"text\":\"b\"}]}");
    cr_assert_null(read_poll(q, &hours, &field, &why));
    cr_assert_str_eq(field, "poll.question");
}

static int choose(const char *ids, size_t n, int multiple, int out[POLL_ANSWERS_MAX])
{
    json_t *in = json_loads(ids, JSON_DECODE_ANY, NULL);
    const char *why;
    int k = rule_poll_choice(in, n, multiple, out, &why);
    json_decref(in);
    return k;
}

Test(poll_rules, a_choice_is_distinct_known_answers_and_one_unless_multiple)
{
    int out[POLL_ANSWERS_MAX];
    cr_assert_eq(choose("[]", 3, 0, out), 0); /* a vote taken back */
    cr_assert_eq(choose("[2]", 3, 0, out), 1);
    cr_assert_eq(out[0], 2);
    cr_assert_eq(choose("[3,1]", 3, 1, out), 2);
    cr_assert(out[0] == 1 && out[1] == 3, "sorted");
    cr_assert_eq(choose("[1,2]", 3, 0, out), -1);
    cr_assert_eq(choose("[4]", 3, 0, out), -1);
    cr_assert_eq(choose("[0]", 3, 0, out), -1);
    cr_assert_eq(choose("[1,1]", 3, 1, out), -1);
    cr_assert_eq(choose("[\"1\"]", 3, 0, out), -1);
    cr_assert_eq(choose("2", 3, 0, out), -1);
    cr_assert_eq(choose("[1,2,3,4]", 3, 1, out), -1);
}
