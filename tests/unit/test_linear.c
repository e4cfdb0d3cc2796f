/*
 * Every scan of user text is linear in its input: each scanner gets 100 KB and 1 MB of the
 * same pathological text, and the larger may cost at most 20 times the smaller (linear is 10,
 * quadratic 100). The cost is the thread's own CPU time, the least of three runs, so another
 * process on the machine does not move it.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "domain/automod.h"
#include "domain/mentions.h"
#include "domain/message_rules.h"
#include "domain/text.h"
#include "domain/webhook_formats.h"

#define SMALL (100 * 1000)
#define LARGE (1000 * 1000)

typedef void (*scan_fn)(const char *text, size_t len);

static double thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double least_cost(scan_fn fn, const char *text, size_t len)
{
    double best = 0;
    for (int run = 0; run < 3; run++) {
        double t0 = thread_cpu_ns();
        fn(text, len);
        double spent = thread_cpu_ns() - t0;
        if (run == 0 || spent < best)
            best = spent;
    }
    return best;
}

/* The pattern repeated to n bytes, NUL-terminated. */
static char *repeat(const char *pattern, size_t n)
{
    size_t plen = strlen(pattern);
    char *s = malloc(n + 1);
    cr_assert_not_null(s);
    for (size_t i = 0; i < n; i++)
        s[i] = pattern[i % plen];
    s[n] = '\0';
    return s;
}

static void assert_linear(const char *what, scan_fn fn, const char *pattern)
{
    char *small = repeat(pattern, SMALL), *large = repeat(pattern, LARGE);
    fn(small, SMALL); /* warm: the first run pays for the allocator's first pages */
    double a = least_cost(fn, small, SMALL), b = least_cost(fn, large, LARGE);
    free(small);
    free(large);
    if (a < 1000)
        a = 1000; /* below a microsecond the clock's step is the measure */
    cr_assert_lt(b / a, 20.0, "%s on \"%s…\": 1 MB cost %.0f× 100 KB (%.0f ns, %.0f ns)", what,
                 pattern, b / a, a, b);
}

static void mrkdwn(const char *text, size_t len)
{
    (void)len;
    free(rule_webhook_mrkdwn(text));
}

static void slack(const char *text, size_t len)
{
    (void)len;
    json_t *in = json_pack("{ss}", "text", text);
    struct rule_error err;
    json_decref(rule_webhook_from_slack(in, &err));
    json_decref(in);
}

static void mentions(const char *text, size_t len)
{
    static const struct mention_user users[] = {{"1", "ana"}, {"2", "bruno"}};
    static const struct mention_role roles[] = {{"3", "Moderação"}, {"4", "a"}};
    struct mention_result out;
    char names[MENTIONS_MAX][33];
    rule_mentions_candidates(text, len, names, MENTIONS_MAX);
    rule_mentions_resolve(text, len, users, 2, roles, 2, 1, &out);
}

static void automod(const char *text, size_t len)
{
    json_t *words = json_pack("[ss]", "aaaaaaaaab", "palavra feia");
    rule_automod_blocks(text, len, words, -1, 0);
    json_decref(words);
}

static void text_rules(const char *text, size_t len)
{
    size_t trimmed = len;
    rule_text_chars(text, len);
    rule_text_has_control(text, len, 1);
    rule_text_trim(text, &trimmed);
}

Test(linear, slack_mrkdwn)
{
    assert_linear("mrkdwn", mrkdwn, "<");
    assert_linear("mrkdwn", mrkdwn, "<a|");
    assert_linear("mrkdwn", mrkdwn, "<<<<>");
    assert_linear("mrkdwn", mrkdwn, "&lt;*~");
    assert_linear("slack", slack, "<");
}

Test(linear, mentions)
{
    assert_linear("mentions", mentions, "@");
    assert_linear("mentions", mentions, "@a");
    assert_linear("mentions", mentions, "@ana");
    assert_linear("mentions", mentions, "@Moderaç");
}

Test(linear, automod)
{
    assert_linear("automod", automod, "a");
    assert_linear("automod", automod, "palavra fei");
}

Test(linear, text)
{
    assert_linear("text", text_rules, " ");
    assert_linear("text", text_rules, "\xC3");
}
