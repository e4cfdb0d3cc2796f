/* Other services' webhook bodies as Praça's: Slack's mrkdwn, blocks and attachments, GitHub's
 * events, names. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "domain/webhook_formats.h"

static json_t *parse(const char *s)
{
    json_error_t e;
    json_t *v = json_loads(s, 0, &e);
    cr_assert_not_null(v, "%s", e.text);
    return v;
}

static void mrkdwn(const char *in, const char *want)
{
    char *got = rule_webhook_mrkdwn(in);
    cr_assert_str_eq(got, want, "%s", in);
    free(got);
}

Test(webhook_formats, mrkdwn)
{
    mrkdwn("*bold* _it_ ~gone~", "**bold** _it_ ~~gone~~");
    mrkdwn("see <https://a.example/x|the page> or <https://b.example>",
           "see [the page](https://a.example/x) or https://b.example");
    mrkdwn("hi <@U123|ana> in <#C1|geral> <!here>", "hi ana in geral ");
    mrkdwn("a &lt;b&gt; &amp; c", "a <b> & c");
    mrkdwn("unclosed <https://x", "unclosed <https://x");
    mrkdwn("", "");
}

Test(webhook_formats, slack_blocks_and_attachments)
{
    struct rule_error err = {0};
    json_t *in = parse(
        "{\"text\":\"t\",\"username\":\"CI\",\"icon_url\":\"https://i.example/a.png\","
        "\"blocks\":[{\"type\":\"section\",\"text\":{\"type\":\"mrkdwn\",\"text\":\"a\"}},"
        "{\"type\":\"divider\"},{\"type\":\"image\",\"image_url\":\"https://i.example/b.png\"}],"
        "\"attachments\":[{\"color\":\"#ff0000\",\"title\":\"T\",\"title_link\":\"https://"
        "x.example\","
        "\"text\":\"body\",\"fields\":[{\"title\":\"k\",\"value\":\"v\",\"short\":true}],"
        "\"footer\":\"f\"}]}");
    json_t *out = rule_webhook_from_slack(in, &err);
    cr_assert_not_null(out, "%s %s", err.path, err.reason);
    char *s = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
    cr_assert_str_eq(s,
                     "{\"avatarUrl\":\"https://i.example/a.png\",\"content\":\"t\",\"embeds\":["
                     "{\"description\":\"a\"},{\"image\":{\"url\":\"https://i.example/b.png\"}},"
                     "{\"color\":16711680,\"description\":\"body\",\"fields\":[{\"inline\":true,"
                     "\"name\":\"k\",\"value\":\"v\"}],\"footer\":{\"text\":\"f\"},\"title\":\"T\","
                     "\"url\":\"https://x.example\"}],\"username\":\"CI\"}");
    free(s);
    json_decref(out);
    json_decref(in);
    in = parse("{\"blocks\":[{\"type\":\"divider\"}]}");
    cr_assert_null(rule_webhook_from_slack(in, &err), "nothing to show");
    cr_assert_str_eq(err.path, "text");
    json_decref(in);
    /* At most 10 embeds, however many blocks. */
    json_t *many = json_pack("{s[]}", "blocks");
    for (int i = 0; i < 30; i++) {
        json_array_append_new(json_object_get(many, "blocks"),
                              json_pack("{ss}", "type", "divider"));
        json_array_append_new(json_object_get(many, "blocks"),
                              json_pack("{sss{ss}}", "type", "section", "text", "text", "x"));
    }
    out = rule_webhook_from_slack(many, &err);
    cr_assert_eq(json_array_size(json_object_get(out, "embeds")), 10);
    json_decref(out);
    json_decref(many);
}

Test(webhook_formats, github_events)
{
    struct rule_error err = {0};
    int ignored;
    json_t *issue = parse("{\"action\":\"opened\",\"repository\":{\"full_name\":\"a/b\"},"
                          "\"sender\":{\"login\":\"ana\",\"avatar_url\":\"http://insecure\"},"
                          "\"issue\":{\"number\":3,\"title\":\"Falha\",\"html_url\":\"https://"
                          "github.com/a/b/issues/3\",\"body\":\"passos\"}}");
    json_t *out = rule_webhook_from_github("issues", issue, &ignored, &err);
    cr_assert_not_null(out);
    json_t *e = json_array_get(json_object_get(out, "embeds"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(e, "title")),
                     "[a/b] Issue aberto: #3 Falha");
    cr_assert_str_eq(json_string_value(json_object_get(e, "description")), "passos");
    cr_assert_null(json_object_get(json_object_get(e, "author"), "iconUrl"), "https only");
    json_decref(out);
    json_object_set_new(issue, "action", json_string("labeled"));
    cr_assert_null(rule_webhook_from_github("issues", issue, &ignored, &err));
    cr_assert(ignored, "an action it does not show");
    json_decref(issue);

    json_t *ping = parse("{\"zen\":\"Keep it simple.\"}");
    out = rule_webhook_from_github("ping", ping, &ignored, &err);
    cr_assert_str_eq(json_string_value(json_object_get(out, "content")),
                     "GitHub conectado: Keep it simple.");
    json_decref(out);
    json_decref(ping);

    json_t *run = parse(
        "{\"action\":\"completed\",\"repository\":{\"full_name\":\"a/b\"},"
        "\"workflow_run\":{\"name\":\"CI\",\"conclusion\":\"failure\",\"head_branch\":\"main\","
        "\"html_url\":\"https://github.com/a/b/actions/runs/1\"}}");
    out = rule_webhook_from_github("workflow_run", run, &ignored, &err);
    e = json_array_get(json_object_get(out, "embeds"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(e, "title")), "[a/b] CI: failure em main");
    cr_assert_eq(json_integer_value(json_object_get(e, "color")), 0xCF222E);
    json_decref(out);
    json_decref(run);

    json_t *bare = parse("{}");
    cr_assert_null(rule_webhook_from_github("push", bare, &ignored, &err));
    cr_assert_not(ignored);
    cr_assert_str_eq(err.path, "repository.full_name");
    cr_assert_null(rule_webhook_from_github(NULL, bare, &ignored, &err));
    cr_assert_str_eq(err.path, "X-GitHub-Event");
    json_decref(bare);

    /* A long description is cut at 500 characters, on a character, marked with … */
    char body[2100];
    memset(body, 0, sizeof body);
    for (int i = 0; i < 600; i++)
        strcat(body, "é");
    json_t *rel =
        json_pack("{sss{ss}s{ssssss}}", "action", "published", "repository", "full_name", "a/b",
                  "release", "tag_name", "v1", "html_url", "https://x.example", "body", body);
    out = rule_webhook_from_github("release", rel, &ignored, &err);
    const char *d = json_string_value(
        json_object_get(json_array_get(json_object_get(out, "embeds"), 0), "description"));
    cr_assert_not_null(d);
    cr_assert_eq(strlen(d), 499 * 2 + 3, "499 é and the ellipsis");
    json_decref(out);
    json_decref(rel);
}

Test(webhook_formats, names)
{
    struct rule_error err = {0};
    json_t *ok = json_string("Deploy 🚀");
    cr_assert_eq(rule_webhook_name(ok, "name", &err), 0);
    json_decref(ok);
    const char *bad[] = {"", " x", "x ", "a\nb"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_t *v = json_string(bad[i]);
        cr_assert_eq(rule_webhook_name(v, "name", &err), -1, "%s", bad[i]);
        json_decref(v);
    }
    cr_assert_eq(rule_webhook_name(NULL, "name", &err), -1);
}
