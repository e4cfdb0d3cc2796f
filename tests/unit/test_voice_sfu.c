/* A call on the SFU: the tokens Janus checks and the numbers every node derives alike. */
#include <criterion/criterion.h>
#include <string.h>

#include "gateway/sfu_janus.h"
#include "gateway/voice_sfu.h"
#include "web/pages.h"

static const char *SECRET = "segredo-de-dezesseis";
static const char *CHANNEL = "01a1fe3b-0000-7000-8000-0000000000c1";
static const char *USER = "01a1fe3b-0000-7000-8000-000000000001";
static const char *OTHER = "01a1fe3b-0000-7000-8000-000000000002";

Test(voice_sfu, janus_signed_token_is_expiry_realm_plugin_and_their_hmac_sha1)
{
    char token[SFU_TOKEN_MAX];
    cr_assert_eq(gateway__janus_signed_token(SECRET, 1700000000, token), 0);
    /* as Janus's auth.c checks it, computed with Python's hmac module */
    cr_assert_str_eq(token, "1700000000,janus,janus.plugin.videoroom:bc0sCyq/AeTDb4VmTxbmVEW0a/c=");
}

Test(voice_sfu, room_feed_and_tokens_are_derived_from_the_secret_and_below_2_53)
{
    struct sfu_ids a, b, again;
    cr_assert_eq(gateway__sfu_ids(SECRET, CHANNEL, USER, &a), 0);
    cr_assert_eq(a.room.id, 1655352798817098ULL);
    cr_assert_eq(a.feed, 1587606266653504ULL);
    cr_assert_str_eq(a.room.secret, "af91f2ddcaf87916413fad6350c6fbf3");
    cr_assert_str_eq(a.token, "85031a4723680318c642057310eef76b");
    cr_assert_lt(a.room.id, 1ULL << 53);
    cr_assert_lt(a.feed, 1ULL << 53);
    /* the same on every node and every time; another person: same room, other feed and token */
    cr_assert_eq(gateway__sfu_ids(SECRET, CHANNEL, USER, &again), 0);
    cr_assert(a.room.id == again.room.id && a.feed == again.feed);
    cr_assert_str_eq(again.token, a.token);
    cr_assert_str_eq(again.room.secret, a.room.secret);
    cr_assert_eq(gateway__sfu_ids(SECRET, CHANNEL, OTHER, &b), 0);
    cr_assert_eq(b.room.id, a.room.id);
    cr_assert_neq(b.feed, a.feed);
    cr_assert_str_neq(b.token, a.token);
    /* another secret: nothing alike */
    cr_assert_eq(gateway__sfu_ids("outro-segredo-de-dezesseis", CHANNEL, USER, &b), 0);
    cr_assert_neq(b.room.id, a.room.id);
    cr_assert_str_neq(b.token, a.token);
}

Test(voice_sfu, ids_need_a_secret_and_real_ids)
{
    struct sfu_ids ids;
    cr_assert_eq(gateway__sfu_ids("", CHANNEL, USER, &ids), -1);
    cr_assert_eq(gateway__sfu_ids(SECRET, "canal", USER, &ids), -1);
    cr_assert_eq(gateway__sfu_ids(SECRET, CHANNEL, "x\n01a1fe3b", &ids), -1);
}

Test(voice_sfu, a_configuration_that_does_not_hold_together_is_named)
{
    cr_assert_null(gateway_sfu_problem(&(struct voice_sfu){0}), "no SFU: nothing to check");
    cr_assert_null(gateway_sfu_problem(&(struct voice_sfu){
        .api_url = "http://127.0.0.1:8088/janus", .ws_url = "wss://x/janus", .secret = SECRET}));
    cr_assert_not_null(gateway_sfu_problem(
        &(struct voice_sfu){.api_url = "ftp://x", .ws_url = "wss://x/janus", .secret = SECRET}));
    cr_assert_not_null(gateway_sfu_problem(&(struct voice_sfu){
        .api_url = "http://x/janus", .ws_url = "https://x/janus", .secret = SECRET}));
    cr_assert_not_null(gateway_sfu_problem(&(struct voice_sfu){
        .api_url = "http://x/janus", .ws_url = "wss://x/janus", .secret = "curto"}));
}

Test(voice_sfu, pages_may_connect_to_the_sfus_origin_only)
{
    cr_assert_eq(web_pages_connect_also(""), 0, "none: nothing changes");
    cr_assert_eq(web_pages_connect_also("wss"), -1, "not a URL");
    cr_assert_eq(web_pages_connect_also("wss://"), -1, "no host");
    cr_assert_eq(web_pages_connect_also("wss://sfu.example:8989/janus?x=1"), 0);
}
