/* Control events between nodes: typed fields, written as JSON and read back once. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"

static const char *U = "01a1fe3b-0000-7000-8000-000000000001";
static const char *S = "01a1fe3b-0000-7000-8000-000000000002";

static struct bus_control round_trip(enum bus_kind kind, const struct bus_control *c)
{
    size_t len;
    char *text = bus_control_text(kind, c, &len);
    cr_assert_not_null(text);
    struct bus_control back;
    cr_assert_eq(bus_control_read(kind, text, len, &back), 0, "%s", text);
    free(text);
    return back;
}

Test(bus_control, a_disconnect_keeps_whose_token_and_whether_it_is_kept)
{
    struct bus_control c = {.keep = 1};
    strcpy(c.token_hash, "abc123");
    struct bus_control back = round_trip(BUS_KIND_DISCONNECT, &c);
    cr_assert_str_eq(back.token_hash, "abc123");
    cr_assert_eq(back.keep, 1);
    back = round_trip(BUS_KIND_DISCONNECT, &(struct bus_control){.keep = 0});
    cr_assert_str_eq(back.token_hash, "", "every connection");
    /* As nodes have always written it: only that token's. */
    cr_assert_eq(bus_control_read(BUS_KIND_DISCONNECT, "{\"tokenHash\":\"ff\"}", 18, &back), 0);
    cr_assert_str_eq(back.token_hash, "ff");
    cr_assert_eq(back.keep, 0);
}

Test(bus_control, a_voice_review_names_a_server_a_user_or_all)
{
    struct bus_control c = {.all = 0};
    strcpy(c.server, S);
    strcpy(c.user, U);
    struct bus_control back = round_trip(BUS_KIND_VOICE_REVIEW, &c);
    cr_assert_str_eq(back.server, S);
    cr_assert_str_eq(back.user, U);
    cr_assert_eq(back.all, 0);
    back = round_trip(BUS_KIND_VOICE_REVIEW, &(struct bus_control){.all = 1});
    cr_assert_eq(back.all, 1);
    cr_assert_str_eq(back.server, "");
}

Test(bus_control, a_presence_carries_its_status_activity_and_choice)
{
    struct bus_control c = {.activity = json_pack("{ss}", "text", "almoçando"), .chosen = 1};
    strcpy(c.user, U);
    strcpy(c.status, "dnd");
    struct bus_control back = round_trip(BUS_KIND_PRESENCE, &c);
    cr_assert_str_eq(back.user, U);
    cr_assert_str_eq(back.status, "dnd");
    cr_assert_eq(back.chosen, 1);
    cr_assert_str_eq(json_string_value(json_object_get(back.activity, "text")), "almoçando");
    json_decref(back.activity);
    json_decref(c.activity);
}

Test(bus_control, what_is_not_a_control_is_refused_and_ids_are_checked)
{
    struct bus_control back;
    cr_assert_eq(bus_control_read(BUS_KIND_PRESENCE, "[1]", 3, &back), -1);
    const char *odd = "{\"userId\":\"x\",\"status\":\"online\"}";
    cr_assert_eq(bus_control_read(BUS_KIND_PRESENCE, odd, strlen(odd), &back), 0);
    cr_assert_str_eq(back.user, "", "not an ID");
}
