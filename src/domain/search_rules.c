/* Search rules: see search_rules.h. */
#include "domain/search_rules.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "domain/text.h"

/* The next token of q at *p: a "phrase" (quotes kept), or a run up to a space. */
static size_t next_token(const char **p, const char **start)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    *start = *p;
    if (**p == '"') {
        const char *end = strchr(*p + 1, '"');
        *p = end ? end + 1 : *p + strlen(*p);
    } else {
        while (**p && **p != ' ' && **p != '\t')
            (*p)++;
    }
    return (size_t)(*p - *start);
}

static int copy(char *out, size_t cap, const char *s, size_t n)
{
    if (n == 0 || n >= cap)
        return -1;
    memcpy(out, s, n);
    out[n] = 0;
    return 0;
}

/* YYYY-MM-DD (midnight UTC) or an ISO 8601 time. */
static int date_ms(const char *s, size_t n, int64_t *out)
{
    char buf[40];
    if (n >= sizeof buf - 12)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    if (n == 10)
        strcat(buf, "T00:00:00Z");
    return clock_parse(buf, strlen(buf), out) ? -1 : 0;
}

int rule_search_parse(const char *q, struct search_query *out, const char **why)
{
    memset(out, 0, sizeof *out);
    size_t qlen = strlen(q);
    if (rule_text_chars(q, qlen) > SEARCH_QUERY_MAX || rule_text_has_control(q, qlen, 0)) {
        *why = "deve ter até 512 caracteres, sem controles";
        return -1;
    }
    const char *p = q, *tok;
    size_t n, used = 0;
    while ((n = next_token(&p, &tok))) {
        const char *colon = tok[0] != '"' ? memchr(tok, ':', n) : NULL;
        size_t key = colon ? (size_t)(colon - tok) : 0, vlen = colon ? n - key - 1 : 0;
        const char *v = colon ? colon + 1 : NULL;
#define KEY(k) (key == sizeof k - 1 && !strncmp(tok, k, key))
        if (colon && KEY("from")) {
            if (copy(out->from, sizeof out->from, v[0] == '@' ? v + 1 : v,
                     v[0] == '@' ? vlen - 1 : vlen))
                goto bad;
        } else if (colon && KEY("mentions")) {
            if (copy(out->mentions, sizeof out->mentions, v[0] == '@' ? v + 1 : v,
                     v[0] == '@' ? vlen - 1 : vlen))
                goto bad;
        } else if (colon && KEY("in")) {
            if (copy(out->in, sizeof out->in, v[0] == '#' ? v + 1 : v,
                     v[0] == '#' ? vlen - 1 : vlen))
                goto bad;
        } else if (colon && KEY("has")) {
            if (vlen == 4 && !strncmp(v, "link", 4))
                out->has_link = 1;
            else if (vlen == 5 && !strncmp(v, "embed", 5))
                out->has_embed = 1;
            else if (vlen == 4 && !strncmp(v, "file", 4))
                out->has_file = 1;
            else {
                *why = "has: deve ser link, embed ou file";
                return -1;
            }
        } else if (colon && (KEY("before") || KEY("after"))) {
            int64_t ms;
            if (date_ms(v, vlen, &ms)) {
                *why = "before: e after: levam uma data AAAA-MM-DD";
                return -1;
            }
            *(KEY("before") ? &out->before_ms : &out->after_ms) = ms;
        } else {
            if (++out->terms > SEARCH_TERMS_MAX) {
                *why = "no máximo 16 palavras ou frases";
                return -1;
            }
            if (used + n + 2 > sizeof out->text)
                goto bad;
            if (used)
                out->text[used++] = ' ';
            memcpy(out->text + used, tok, n);
            used += n;
            out->text[used] = 0;
        }
#undef KEY
    }
    return 0;
bad:
    *why = "um filtro sem valor, ou grande demais";
    return -1;
}

void rule_search_fts5(const char *text, char *out, size_t cap)
{
    size_t o = 0;
    const char *p = text, *tok;
    size_t n;
    out[0] = 0;
    while ((n = next_token(&p, &tok)) && o + 4 < cap) {
        const char *s = tok;
        size_t len = n;
        if (s[0] == '"') { /* a phrase: its words, in order */
            s++;
            len -= len >= 2 && s[len - 2] == '"' ? 2 : 1;
        }
        if (!len)
            continue;
        if (o)
            out[o++] = ' ';
        out[o++] = '"';
        for (size_t i = 0; i < len && o + 3 < cap; i++) {
            if (s[i] == '"')
                out[o++] = '"';
            out[o++] = s[i];
        }
        out[o++] = '"';
        out[o] = 0;
    }
}
