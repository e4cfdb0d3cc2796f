/* Auto-moderation: see automod.h. */
#include "domain/automod.h"

/* Folds one character at s (1 or 2 bytes) to lowercase; returns its byte length. */
static size_t fold(const unsigned char *s, size_t len, unsigned char out[2])
{
    if (s[0] >= 'A' && s[0] <= 'Z') {
        out[0] = (unsigned char)(s[0] + 32);
        return 1;
    }
    /* UTF-8 À..Þ (U+00C0..U+00DE, but not ×) lowercase to à..þ. */
    if (s[0] == 0xC3 && len > 1 && s[1] >= 0x80 && s[1] <= 0x9E && s[1] != 0x97) {
        out[0] = 0xC3;
        out[1] = (unsigned char)(s[1] + 0x20);
        return 2;
    }
    out[0] = s[0];
    if (s[0] >= 0xC0 && len > 1) {
        out[1] = s[1];
        return 2;
    }
    return 1;
}

/* Length of the match of word at t (same folded characters), or 0. */
static size_t match_at(const unsigned char *t, size_t tlen, const unsigned char *w, size_t wlen)
{
    size_t i = 0, j = 0;
    while (j < wlen) {
        if (i >= tlen)
            return 0;
        unsigned char a[2], b[2];
        size_t na = fold(t + i, tlen - i, a), nb = fold(w + j, wlen - j, b);
        if (na != nb || a[0] != b[0] || (na == 2 && a[1] != b[1]))
            return 0;
        i += na;
        j += nb;
    }
    return i;
}

static int word_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c >= 0x80;
}

int rule__automod_has_word(const char *text, size_t len, const char *word, size_t wlen)
{
    const unsigned char *t = (const unsigned char *)text, *w = (const unsigned char *)word;
    if (wlen == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && word_byte(t[i - 1]) && word_byte(w[0]))
            continue; /* not at the start of a word */
        if (i > 0 && (t[i] & 0xC0) == 0x80)
            continue; /* inside a UTF-8 sequence */
        size_t m = match_at(t + i, len - i, w, wlen);
        if (!m)
            continue;
        if (i + m < len && word_byte(t[i + m]) && word_byte(w[wlen - 1]))
            continue; /* not at the end of a word */
        return 1;
    }
    return 0;
}

int rule__automod_blocked(const char *text, size_t len, json_t *blocked_words)
{
    size_t i;
    json_t *w;
    json_array_foreach(blocked_words, i, w)
    {
        if (json_is_string(w) &&
            rule__automod_has_word(text, len, json_string_value(w), json_string_length(w)))
            return 1;
    }
    return 0;
}

int rule_automod_blocks(const char *text, size_t len, json_t *blocked_words, int64_t max_mentions,
                        size_t mentions)
{
    if (max_mentions >= 0 && mentions > (size_t)max_mentions)
        return 1;
    return rule__automod_blocked(text, len, blocked_words);
}
