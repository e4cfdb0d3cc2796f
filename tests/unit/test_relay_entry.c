/* The events a stream entry carries: one in an "e" entry, several in order in a "b" entry. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bus/relay_entry.h"

/* An entry's [field, value, …] array, as XREAD answers it, from NULL-terminated strings. */
static redisReply *fields(const char *first, ...)
{
    char resp[4096];
    size_t n = 0, len = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *))
        n++;
    va_end(ap);
    len += (size_t)snprintf(resp + len, sizeof resp - len, "*%zu\r\n", n);
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *))
        len += (size_t)snprintf(resp + len, sizeof resp - len, "$%zu\r\n%s\r\n", strlen(s), s);
    va_end(ap);
    cr_assert_lt(len, sizeof resp);
    redisReader *reader = redisReaderCreate();
    void *reply = NULL;
    cr_assert_eq(redisReaderFeed(reader, resp, len), REDIS_OK);
    cr_assert_eq(redisReaderGetReply(reader, &reply), REDIS_OK);
    cr_assert_not_null(reply);
    redisReaderFree(reader);
    return reply;
}

struct seen {
    char text[512];
    int count;
};

static void note(void *arg, const struct relay_event_fields *f)
{
    struct seen *s = arg;
    const redisReply *parts[] = {f->name, f->position, f->payload, f->ids, f->where};
    size_t len = strlen(s->text);
    for (int i = 0; i < 5; i++)
        len += (size_t)snprintf(s->text + len, sizeof s->text - len, "%s%s", i ? "," : "",
                                parts[i] ? parts[i]->str : "-");
    snprintf(s->text + len, sizeof s->text - len, ";");
    s->count++;
}

static struct seen events_of(redisReply *r, const char *kind)
{
    struct seen s = {.text = "", .count = 0};
    bus__entry_events(r, kind, note, &s);
    freeReplyObject(r);
    return s;
}

Test(relay_entry, an_e_entry_holds_one_event_by_its_fields_names)
{
    struct seen s = events_of(
        fields("n", "node", "k", "e", "r", "id1", "t", "MESSAGE_CREATE", "p", "{}", "o", "7", NULL),
        "e");
    cr_assert_eq(s.count, 1);
    cr_assert_str_eq(s.text, "MESSAGE_CREATE,7,{},id1,-;");
}

Test(relay_entry, an_e_entry_missing_a_field_hears_null_for_it)
{
    struct seen s = events_of(fields("n", "node", "k", "e", "t", "X", "o", "1", NULL), "e");
    cr_assert_str_eq(s.text, "X,1,-,-,-;");
}

Test(relay_entry, a_b_entry_holds_its_events_in_order)
{
    struct seen s = events_of(fields("n", "node", "k", "b", "t", "A", "o", "1", "p", "{a}", "r",
                                     "i1", "t", "B", "o", "2", "p", "{b}", "r", "", "t", "C", "o",
                                     "3", "p", "{c}", "r", "i1,i2", NULL),
                              "b");
    cr_assert_eq(s.count, 3);
    cr_assert_str_eq(s.text, "A,1,{a},i1,-;B,2,{b},,-;C,3,{c},i1,i2,-;");
}

/* Each event's w (where it happened) follows its r; an older node's group has none. */
Test(relay_entry, a_b_entry_carries_each_events_where_when_it_has_one)
{
    struct seen s = events_of(fields("n", "node", "k", "b", "t", "A", "o", "1", "p", "{a}", "r",
                                     "i1", "w", "s,c,,,", "t", "B", "o", "2", "p", "{b}", "r", "",
                                     "t", "C", "o", "3", "p", "{c}", "r", "i2", "w", ",,,,u", NULL),
                              "b");
    cr_assert_eq(s.count, 3);
    cr_assert_str_eq(s.text, "A,1,{a},i1,s,c,,,;B,2,{b},,-;C,3,{c},i2,,,,,u;");
}

Test(relay_entry, where_goes_out_as_text_and_comes_back_keeping_only_ids)
{
    static const char *S = "01a1fe3b-0000-7000-8000-000000000001",
                      *C = "01a1fe3b-0000-7000-8000-000000000002",
                      *M = "01a1fe3b-0000-7000-8000-000000000003";
    struct bus_where w = bus_where_of(S, C, C, M, "not-an-id");
    cr_assert_str_eq(w.user, "", "what is not an ID is left out");
    char text[BUS_WHERE_TEXT];
    bus_where_text(&w, text);
    struct bus_where back = bus_where_parse(text, strlen(text));
    cr_assert_str_eq(back.server, S);
    cr_assert_str_eq(back.channel, C);
    cr_assert_str_eq(back.room, C);
    cr_assert_str_eq(back.message, M);
    cr_assert_str_eq(back.user, "");
    struct bus_where bad = bus_where_parse("x,,zz", 5);
    cr_assert_str_eq(bad.server, "");
    cr_assert_str_eq(bad.message, "");
    struct bus_where cut = bus_where_parse(S, 20);
    cr_assert_str_eq(cut.server, "", "an ID cut short is none");
}

Test(relay_entry, a_b_group_out_of_order_or_cut_short_is_skipped)
{
    struct seen s = events_of(fields("n", "node", "k", "b", "t", "A", "o", "1", "p", "{a}", "r",
                                     "i1", "t", "B", "o", "2", "r", "i2", "p", "{b}", "t", "C", "o",
                                     "3", "p", "{c}", "r", "i3", "t", "D", "o", "4", "p", NULL),
                              "b");
    cr_assert_eq(s.count, 2);
    cr_assert_str_eq(s.text, "A,1,{a},i1,-;C,3,{c},i3,-;");
}

Test(relay_entry, other_kinds_hold_no_events)
{
    cr_assert_eq(events_of(fields("n", "node", "k", "c", "s", "*", NULL), "c").count, 0);
    cr_assert_eq(events_of(fields("n", "node", "k", "v", "x", "0", "v", "{}", NULL), "v").count, 0);
    cr_assert_eq(
        events_of(fields("n", "node", "k", "z", "t", "A", "o", "1", "p", "{}", "r", "", NULL), "z")
            .count,
        0);
}

Test(relay_entry, a_field_is_found_by_name_and_only_among_names)
{
    redisReply *r = fields("n", "k", "k", "e", NULL);
    cr_assert_str_eq(bus__entry_field(r, "k")->str, "e");
    cr_assert_str_eq(bus__entry_field(r, "n")->str, "k");
    cr_assert_null(bus__entry_field(r, "e"));
    freeReplyObject(r);
}

/* A large audience is named "#N"; anything else is a list of IDs (an ID never starts with #). */
Test(relay_entry, an_audience_named_by_reference)
{
    cr_assert_eq(bus__audience_ref("#1", 2), 1);
    cr_assert_eq(bus__audience_ref("#18446744073709551615", 21), UINT64_MAX);
    cr_assert_eq(bus__audience_ref("#18446744073709551616", 21), 0, "past 64 bits");
    cr_assert_eq(bus__audience_ref("#", 1), 0);
    cr_assert_eq(bus__audience_ref("#12a", 4), 0);
    cr_assert_eq(bus__audience_ref("#-1", 3), 0);
    cr_assert_eq(bus__audience_ref("", 0), 0);
    const char *id = "01a1fe3b-0000-7000-8000-000000000001";
    cr_assert_eq(bus__audience_ref(id, strlen(id)), 0);
    cr_assert_eq(bus__audience_ref("#7 and more", 2), 7, "only len bytes are read");
    char key[RELAY_AUDIENCE_KEY_MAX];
    bus__audience_key(key, "praca:abc:events:1", "f00d", 42);
    cr_assert_str_eq(key, "praca:abc:events:1:audience:f00d:42");
}

Test(relay_entry, an_audience_read_from_its_ids)
{
    const char *ids = "01a1fe3b-0000-7000-8000-000000000001,01a1fe3b-0000-7000-8000-000000000002";
    struct idset *to = bus__audience_parse(ids, strlen(ids));
    cr_assert_not_null(to);
    cr_assert_eq(idset_count(to), 2);
    cr_assert(idset_has(to, "01a1fe3b-0000-7000-8000-000000000002"));
    idset_unref(to);
    to = bus__audience_parse("", 0);
    cr_assert_not_null(to);
    cr_assert_eq(idset_count(to), 0, "nobody");
    idset_unref(to);
    cr_assert_null(bus__audience_parse("#3", 2), "a reference is not a list");
    cr_assert_null(bus__audience_parse("01a1fe3b,zz", 11));
    cr_assert_null(bus__audience_parse(ids, strlen(ids) - 1), "an ID cut short");
    char nul[] = "01a1fe3b-0000-7000-8000-000000000001";
    nul[5] = '\0';
    cr_assert_null(bus__audience_parse(nul, sizeof nul - 1));
}
