/* The ICE servers handed out with voice:join: TURN REST credentials coturn accepts. */
#include <criterion/criterion.h>
#include <string.h>

#include "gateway/voice_ice.h"

static const char *USER = "01a1fe3b-0000-7000-8000-000000000001";

Test(voice_ice, a_turn_credential_is_expiry_and_user_signed_with_the_shared_secret)
{
    char username[VOICE_TURN_USERNAME_MAX], password[VOICE_TURN_PASSWORD_MAX];
    cr_assert_eq(gateway__turn_credential("s3cret", USER, 1700000000, username, password), 0);
    cr_assert_str_eq(username, "1700000000:01a1fe3b-0000-7000-8000-000000000001");
    /* base64(HMAC-SHA1("s3cret", username)), as Python's hmac module computes it */
    cr_assert_str_eq(password, "B22c0e5FxRU5G7/2AWyUSZoIAAE=");
    cr_assert_eq(gateway__turn_credential("", USER, 1, username, password), -1, "no secret");
    cr_assert_eq(gateway__turn_credential("s", "not-a-user", 1, username, password), -1);
}

Test(voice_ice, the_answer_lists_stun_then_turn_with_a_credential_expiring_after_the_ttl)
{
    struct voice_ice ice = {"stun:a:3478", "turn:b:3478?transport=udp,turns:b:5349", "k", 600, 0};
    json_t *j = gateway__ice_json(&ice, USER, 1700000000123LL);
    cr_assert_not_null(j);
    json_t *servers = json_object_get(j, "iceServers");
    cr_assert_eq(json_array_size(servers), 2);
    cr_assert_str_eq(
        json_string_value(json_array_get(json_object_get(json_array_get(servers, 0), "urls"), 0)),
        "stun:a:3478");
    json_t *turn = json_array_get(servers, 1);
    cr_assert_eq(json_array_size(json_object_get(turn, "urls")), 2);
    cr_assert_str_eq(json_string_value(json_object_get(turn, "username")),
                     "1700000600:01a1fe3b-0000-7000-8000-000000000001");
    cr_assert_not_null(json_object_get(turn, "credential"));
    cr_assert_str_eq(json_string_value(json_object_get(j, "iceTransportPolicy")), "all");
    json_decref(j);
}

Test(voice_ice, nothing_configured_hands_out_no_servers)
{
    struct voice_ice ice = {"", "", "", 600, 0};
    json_t *j = gateway__ice_json(&ice, USER, 0);
    cr_assert_eq(json_array_size(json_object_get(j, "iceServers")), 0);
    json_decref(j);
}

Test(voice_ice, a_configuration_that_cannot_work_is_named)
{
    cr_assert_null(gateway_ice_problem(&(struct voice_ice){"stun:a", "turn:b", "k", 60, 1}));
    cr_assert_not_null(gateway_ice_problem(&(struct voice_ice){"http://a", "", "", 60, 0}));
    cr_assert_not_null(gateway_ice_problem(&(struct voice_ice){"", "stun:b", "k", 60, 0}));
    cr_assert_not_null(gateway_ice_problem(&(struct voice_ice){"", "turn:b", "", 60, 0}),
                       "TURN without its secret");
    cr_assert_not_null(gateway_ice_problem(&(struct voice_ice){"", "", "", 60, 1}),
                       "relay only without TURN");
}
