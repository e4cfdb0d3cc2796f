/* Webhook formats: see webhook_formats.h. Field names are the other services' own. */
#include "domain/webhook_formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "domain/message_rules.h"
#include "domain/text.h"

#define GITHUB_COMMITS_SHOWN 5
#define GITHUB_BODY_SHOWN    500
#define COLOR_GITHUB         0x24292F
#define COLOR_OPENED         0x2DA44E
#define COLOR_CLOSED         0xCF222E
#define COLOR_MERGED         0x8250DF
/* Slack's own limits on a message: what it would refuse is not read at all. */
#define SLACK_BLOCKS_MAX   50
#define SLACK_FIELDS_MAX   10
#define SLACK_ELEMENTS_MAX 10

int rule_webhook_name(json_t *name, const char *path, struct rule_error *err)
{
    const char *s = json_string_value(name);
    size_t len = json_string_length(name), trimmed = len;
    size_t chars = s ? rule_text_chars(s, len) : 0;
    if (!s || chars < 1 || chars > WEBHOOK_NAME_MAX || rule_text_trim(s, &trimmed) != s ||
        trimmed != len || rule_text_has_control(s, len, 0))
        return rule__json_fail(err, path, "use de 1 a %d caracteres, sem espaços nas pontas",
                               WEBHOOK_NAME_MAX);
    return 0;
}

/* s cut to at most max characters (code points), "…" marking a cut. */
static json_t *clip(const char *s, size_t max)
{
    if (!s)
        return NULL;
    size_t len = strlen(s), i = 0, chars = 0;
    if (rule_text_chars(s, len) <= max)
        return json_string(s);
    while (i < len && chars < max - 1) {
        i++;
        while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        chars++;
    }
    char *cut = malloc(i + 4);
    if (!cut)
        return NULL;
    memcpy(cut, s, i);
    memcpy(cut + i, "…", 4); /* 3 bytes and the NUL */
    json_t *out = json_string(cut);
    free(cut);
    return out;
}

static void set_clipped(json_t *o, const char *key, const char *s, size_t max)
{
    json_t *v = s && *s ? clip(s, max) : NULL;
    if (v)
        json_object_set_new(o, key, v);
}

static const char *str(json_t *o, const char *path)
{
    /* path: "a.b.c" through objects */
    char key[64];
    while (o && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        o = json_object_get(o, key);
        path += n + (dot ? 1 : 0);
    }
    return json_string_value(o);
}

/* ---- Slack ---- */

char *rule_webhook_mrkdwn(const char *text)
{
    struct buf b;
    buf_init(&b, 64 * 1024);
    /* The next '>' is looked for again only once p passed it, so a run of '<' with no '>'
     * after it costs one scan, not one per '<'. */
    const char *gt = text;
    for (const char *p = text; *p;) {
        if (*p == '<') {
            if (gt && gt <= p)
                gt = strchr(p, '>');
            const char *end = gt;
            if (end) {
                const char *bar = memchr(p, '|', (size_t)(end - p));
                const char *url = p + 1;
                size_t url_len = (size_t)((bar ? bar : end) - url);
                if (url_len && (url[0] == '@' || url[0] == '!' || url[0] == '#')) {
                    if (bar) /* a mention or a channel: its label, as text */
                        buf_append(&b, bar + 1, (size_t)(end - bar - 1));
                } else if (bar) {
                    buf_append(&b, "[", 1);
                    buf_append(&b, bar + 1, (size_t)(end - bar - 1));
                    buf_append(&b, "](", 2);
                    buf_append(&b, url, url_len);
                    buf_append(&b, ")", 1);
                } else {
                    buf_append(&b, url, url_len);
                }
                p = end + 1;
                continue;
            }
        }
        if (*p == '*' || *p == '~') { /* one mark in Slack, two in Markdown */
            buf_append(&b, p, 1);
            buf_append(&b, p, 1);
        } else if (!strncmp(p, "&lt;", 4) || !strncmp(p, "&gt;", 4) || !strncmp(p, "&amp;", 5)) {
            buf_append(&b, p[1] == 'l' ? "<" : p[1] == 'g' ? ">" : "&", 1);
            p += p[1] == 'a' ? 5 : 4;
            continue;
        } else {
            buf_append(&b, p, 1);
        }
        p++;
    }
    size_t len;
    return buf_detach(&b, &len);
}

static void add_mrkdwn(json_t *o, const char *key, const char *text, size_t max)
{
    if (!text || !*text)
        return;
    char *md = rule_webhook_mrkdwn(text);
    if (md)
        set_clipped(o, key, md, max);
    free(md);
}

/* Appends text to the embed's description, a line apart. */
static void append_description(json_t *embed, const char *text)
{
    if (!text || !*text)
        return;
    const char *old = json_string_value(json_object_get(embed, "description"));
    char *md = rule_webhook_mrkdwn(text);
    if (!md)
        return;
    size_t n = (old ? strlen(old) + 1 : 0) + strlen(md) + 1;
    char *joined = malloc(n);
    if (joined) {
        snprintf(joined, n, "%s%s%s", old ? old : "", old ? "\n" : "", md);
        set_clipped(embed, "description", joined, 4096);
        free(joined);
    }
    free(md);
}

static json_t *slack_block_embeds(json_t *blocks)
{
    json_t *embeds = json_array(), *cur = NULL;
    size_t i;
    json_t *bl;
    json_array_foreach(blocks, i, bl)
    {
        if (i >= SLACK_BLOCKS_MAX)
            break;
        const char *type = str(bl, "type");
        if (!type)
            continue;
        if (!strcmp(type, "divider")) {
            cur = NULL;
            continue;
        }
        if (!cur && json_array_size(embeds) < MSG_EMBEDS_MAX) {
            cur = json_object();
            json_array_append_new(embeds, cur);
        }
        if (!cur)
            break;
        if (!strcmp(type, "header"))
            set_clipped(cur, "title", str(bl, "text.text"), 256);
        else if (!strcmp(type, "section")) {
            append_description(cur, str(bl, "text.text"));
            size_t j;
            json_t *f;
            json_array_foreach(json_object_get(bl, "fields"), j, f)
            {
                if (j >= SLACK_FIELDS_MAX)
                    break;
                append_description(cur, str(f, "text"));
            }
        } else if (!strcmp(type, "context")) {
            size_t j;
            json_t *el;
            json_array_foreach(json_object_get(bl, "elements"), j,
                               el) if (j < SLACK_ELEMENTS_MAX && str(el, "text"))
                add_mrkdwn(json_object_get(cur, "footer")
                               ? json_object_get(cur, "footer")
                               : (json_object_set_new(cur, "footer", json_object()),
                                  json_object_get(cur, "footer")),
                           "text", str(el, "text"), 2048);
        } else if (!strcmp(type, "image") && str(bl, "image_url"))
            json_object_set_new(cur, "image", json_pack("{ss}", "url", str(bl, "image_url")));
    }
    /* Blocks that said nothing (an empty section) leave no empty embed. */
    for (i = json_array_size(embeds); i-- > 0;)
        if (!json_object_size(json_array_get(embeds, i)))
            json_array_remove(embeds, i);
    return embeds;
}

/* Slack's legacy attachments: one embed each. */
static void slack_attachments(json_t *list, json_t *embeds)
{
    size_t i;
    json_t *a;
    json_array_foreach(list, i, a)
    {
        if (json_array_size(embeds) >= MSG_EMBEDS_MAX)
            break;
        json_t *e = json_object();
        add_mrkdwn(e, "title", str(a, "title"), 256);
        const char *link = str(a, "title_link");
        if (link && (!strncmp(link, "https://", 8) || !strncmp(link, "http://", 7)))
            json_object_set_new(e, "url", json_string(link));
        append_description(e, str(a, "pretext"));
        append_description(e, str(a, "text"));
        const char *color = str(a, "color");
        if (color && color[0] == '#' && strlen(color) == 7)
            json_object_set_new(e, "color", json_integer(strtol(color + 1, NULL, 16)));
        size_t j;
        json_t *f;
        json_t *fields = json_array();
        json_array_foreach(json_object_get(a, "fields"), j, f)
        {
            if (j >= 25 || !str(f, "title") || !str(f, "value"))
                continue;
            json_t *field = json_object();
            set_clipped(field, "name", str(f, "title"), 256);
            add_mrkdwn(field, "value", str(f, "value"), 1024);
            json_object_set_new(field, "inline",
                                json_boolean(json_is_true(json_object_get(f, "short"))));
            if (json_object_get(field, "name") && json_object_get(field, "value"))
                json_array_append(fields, field);
            json_decref(field);
        }
        if (json_array_size(fields))
            json_object_set(e, "fields", fields);
        json_decref(fields);
        if (str(a, "footer"))
            json_object_set_new(e, "footer",
                                json_pack("{so}", "text", clip(str(a, "footer"), 2048)));
        if (json_object_size(e))
            json_array_append(embeds, e);
        json_decref(e);
    }
}

json_t *rule_webhook_from_slack(json_t *slack, struct rule_error *err)
{
    if (!json_is_object(slack)) {
        rule__json_fail(err, "body", "deve ser um objeto do Slack ({text, blocks})");
        return NULL;
    }
    json_t *out = json_object();
    add_mrkdwn(out, "content", str(slack, "text"), MSG_CONTENT_MAX);
    json_t *embeds = slack_block_embeds(json_object_get(slack, "blocks"));
    slack_attachments(json_object_get(slack, "attachments"), embeds);
    if (json_array_size(embeds))
        json_object_set(out, "embeds", embeds);
    json_decref(embeds);
    set_clipped(out, "username", str(slack, "username"), WEBHOOK_NAME_MAX);
    if (str(slack, "icon_url"))
        json_object_set_new(out, "avatarUrl", json_string(str(slack, "icon_url")));
    if (!json_object_get(out, "content") && !json_object_get(out, "embeds")) {
        json_decref(out);
        rule__json_fail(err, "text", "nada a mostrar: envie text, blocks ou attachments");
        return NULL;
    }
    return out;
}

/* ---- GitHub ---- */

static json_t *github_embed(json_t *p, const char *title, const char *url, int color)
{
    json_t *e = json_object();
    set_clipped(e, "title", title, 256);
    if (url && !strncmp(url, "https://", 8))
        json_object_set_new(e, "url", json_string(url));
    json_object_set_new(e, "color", json_integer(color));
    const char *login = str(p, "sender.login");
    if (login) {
        json_t *author = json_pack("{so}", "name", clip(login, 256));
        const char *avatar = str(p, "sender.avatar_url"), *profile = str(p, "sender.html_url");
        if (avatar && !strncmp(avatar, "https://", 8))
            json_object_set_new(author, "iconUrl", json_string(avatar));
        if (profile && !strncmp(profile, "https://", 8))
            json_object_set_new(author, "url", json_string(profile));
        json_object_set_new(e, "author", author);
    }
    return e;
}

static json_t *github_push(json_t *p, const char *repo)
{
    const char *ref = str(p, "ref");
    const char *branch = ref && !strncmp(ref, "refs/heads/", 11) ? ref + 11 : ref ? ref : "?";
    json_t *commits = json_object_get(p, "commits");
    size_t n = json_array_size(commits);
    if (!n)
        return NULL; /* a branch deleted or a tag pushed: nothing to list */
    char title[512];
    snprintf(title, sizeof title, "[%s:%s] %zu %s", repo, branch, n,
             n == 1 ? "novo commit" : "novos commits");
    json_t *e = github_embed(p, title, str(p, "compare"), COLOR_GITHUB);
    struct buf b;
    buf_init(&b, 8192);
    size_t i;
    json_t *c;
    json_array_foreach(commits, i, c)
    {
        if (i >= GITHUB_COMMITS_SHOWN) {
            char more[64];
            snprintf(more, sizeof more, "… e mais %zu", n - GITHUB_COMMITS_SHOWN);
            buf_append(&b, more, strlen(more));
            break;
        }
        const char *id = str(c, "id"), *msg = str(c, "message"), *who = str(c, "author.name");
        size_t line = msg ? strcspn(msg, "\n") : 0;
        char head[160];
        snprintf(head, sizeof head, "`%.7s` %.*s", id ? id : "???????",
                 line > 100 ? 100 : (int)line, msg ? msg : "");
        buf_append(&b, head, strlen(head));
        if (who) {
            buf_append(&b, " — ", strlen(" — "));
            buf_append(&b, who, strlen(who) > 60 ? 60 : strlen(who));
        }
        buf_append(&b, "\n", 1);
    }
    size_t len;
    char *text = buf_detach(&b, &len);
    if (text)
        set_clipped(e, "description", text, 4096);
    free(text);
    return e;
}

/* pull_request, issues: opened, closed (merged), reopened; others are ignored. */
static json_t *github_item(json_t *p, const char *repo, const char *kind)
{
    json_t *item = json_object_get(p, kind);
    const char *action = str(p, "action");
    if (!item || !action)
        return NULL;
    int merged = json_is_true(json_object_get(item, "merged"));
    const char *what = !strcmp(action, "opened")     ? "aberto"
                       : !strcmp(action, "reopened") ? "reaberto"
                       : !strcmp(action, "closed")   ? (merged ? "integrado" : "fechado")
                                                     : NULL;
    if (!what)
        return NULL;
    char title[512];
    snprintf(title, sizeof title, "[%s] %s %s: #%lld %s", repo,
             !strcmp(kind, "pull_request") ? "Pull request" : "Issue", what,
             (long long)json_integer_value(json_object_get(item, "number")),
             str(item, "title") ? str(item, "title") : "");
    int color = !strcmp(action, "closed") ? (merged ? COLOR_MERGED : COLOR_CLOSED) : COLOR_OPENED;
    json_t *e = github_embed(p, title, str(item, "html_url"), color);
    if (strcmp(action, "closed") != 0)
        set_clipped(e, "description", str(item, "body"), GITHUB_BODY_SHOWN);
    return e;
}

/* An embed titled title, linked to what.html_url, with what.body as its text (clipped). */
static json_t *github_post(json_t *p, const char *title, const char *what, int color)
{
    char url[32], body[32];
    snprintf(url, sizeof url, "%s.html_url", what);
    snprintf(body, sizeof body, "%s.body", what);
    json_t *e = github_embed(p, title, str(p, url), color);
    set_clipped(e, "description", str(p, body), GITHUB_BODY_SHOWN);
    return e;
}

static int action_is(json_t *p, const char *action)
{
    return str(p, "action") && !strcmp(str(p, "action"), action);
}

static json_t *github_comment(json_t *p, const char *repo)
{
    if (!action_is(p, "created"))
        return NULL;
    char title[512];
    snprintf(title, sizeof title, "[%s] Comentário em #%lld: %s", repo,
             (long long)json_integer_value(json_object_get(json_object_get(p, "issue"), "number")),
             str(p, "issue.title") ? str(p, "issue.title") : "");
    return github_post(p, title, "comment", COLOR_GITHUB);
}

static json_t *github_release(json_t *p, const char *repo)
{
    if (!action_is(p, "published"))
        return NULL;
    char title[512];
    snprintf(title, sizeof title, "[%s] Nova versão: %s", repo,
             str(p, "release.name") && *str(p, "release.name") ? str(p, "release.name")
             : str(p, "release.tag_name")                      ? str(p, "release.tag_name")
                                                               : "?");
    return github_post(p, title, "release", COLOR_OPENED);
}

static json_t *github_workflow(json_t *p, const char *repo)
{
    if (!action_is(p, "completed"))
        return NULL;
    const char *conclusion = str(p, "workflow_run.conclusion");
    int ok = conclusion && !strcmp(conclusion, "success");
    char title[512];
    snprintf(title, sizeof title, "[%s] %s: %s em %s", repo,
             str(p, "workflow_run.name") ? str(p, "workflow_run.name") : "workflow",
             ok           ? "passou"
             : conclusion ? conclusion
                          : "terminou",
             str(p, "workflow_run.head_branch") ? str(p, "workflow_run.head_branch") : "?");
    return github_embed(p, title, str(p, "workflow_run.html_url"),
                        ok ? COLOR_OPENED : COLOR_CLOSED);
}

json_t *rule_webhook_from_github(const char *event, json_t *payload, int *ignored,
                                 struct rule_error *err)
{
    *ignored = 0;
    if (!event || !*event) {
        rule__json_fail(err, "X-GitHub-Event", "obrigatório com format=github");
        return NULL;
    }
    if (!json_is_object(payload)) {
        rule__json_fail(err, "body", "deve ser um objeto do GitHub");
        return NULL;
    }
    if (!strcmp(event, "ping")) {
        const char *zen = str(payload, "zen");
        json_t *out = json_object();
        char text[256];
        snprintf(text, sizeof text, "GitHub conectado%s%.200s", zen ? ": " : ".", zen ? zen : "");
        json_object_set_new(out, "content", json_string(text));
        return out;
    }
    const char *repo = str(payload, "repository.full_name");
    if (!repo) {
        rule__json_fail(err, "repository.full_name", "obrigatório num evento do GitHub");
        return NULL;
    }
    json_t *e = !strcmp(event, "push")            ? github_push(payload, repo)
                : !strcmp(event, "pull_request")  ? github_item(payload, repo, "pull_request")
                : !strcmp(event, "issues")        ? github_item(payload, repo, "issue")
                : !strcmp(event, "issue_comment") ? github_comment(payload, repo)
                : !strcmp(event, "release")       ? github_release(payload, repo)
                : !strcmp(event, "workflow_run")  ? github_workflow(payload, repo)
                                                  : NULL;
    if (!e) {
        *ignored = 1;
        return NULL;
    }
    json_t *out = json_pack("{s[o]ss}", "embeds", e, "username", "GitHub");
    return out;
}
