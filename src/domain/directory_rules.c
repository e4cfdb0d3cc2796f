/* Directory rules: see directory_rules.h. */
#include "domain/directory_rules.h"

#include <string.h>

/* U+00C0..U+00FF (UTF-8 C3 80..C3 BF) to a base letter; '.' keeps the character (×, ÷, Þ, ß). */
static const char LATIN1[65] = "aaaaaaaceeeeiiiidnooooo.ouuuuy.."
                               "aaaaaaaceeeeiiiidnooooo.ouuuuy.y";

static size_t char_len(unsigned char c)
{
    return c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

size_t rule_directory_fold(const char *in, size_t len, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)in[i];
        size_t n = char_len(c);
        if (i + n > len)
            n = len - i;
        char folded = 0;
        if (c >= 'A' && c <= 'Z')
            folded = (char)(c - 'A' + 'a');
        else if (c == 0xc3 && n == 2 && ((unsigned char)in[i + 1] & 0xc0) == 0x80 &&
                 LATIN1[(unsigned char)in[i + 1] & 0x3f] != '.')
            folded = LATIN1[(unsigned char)in[i + 1] & 0x3f];
        size_t w = folded ? 1 : n;
        if (o + w + 1 > cap)
            break;
        if (folded)
            out[o] = folded;
        else
            memcpy(out + o, in + i, n);
        o += w;
        i += n;
    }
    if (cap)
        out[o] = '\0';
    return o;
}

int rule_directory_tag(const char *in, size_t len, char *out, size_t cap)
{
    if (cap < DIRECTORY_TAG_MAX + 1 || len > 4 * DIRECTORY_TAG_MAX)
        return 0;
    char folded[4 * DIRECTORY_TAG_MAX + 1];
    size_t n = rule_directory_fold(in, len, folded, sizeof folded);
    if (n < 2 || n > DIRECTORY_TAG_MAX || folded[0] == '-' || folded[n - 1] == '-')
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = folded[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return 0;
    }
    memcpy(out, folded, n + 1);
    return 1;
}

size_t rule_directory_words(const char *q, size_t len, struct directory_words *out)
{
    out->n = 0;
    size_t i = 0;
    while (i < len && out->n < DIRECTORY_WORDS_MAX) {
        while (i < len && (q[i] == ' ' || q[i] == '\t'))
            i++;
        size_t start = i;
        while (i < len && q[i] != ' ' && q[i] != '\t')
            i++;
        if (i > start)
            rule_directory_fold(q + start, i - start, out->word[out->n++], DIRECTORY_WORD_MAX + 1);
    }
    return out->n;
}

int rule_directory_match(const char *folded, const struct directory_words *w)
{
    for (size_t i = 0; i < w->n; i++)
        if (!strstr(folded, w->word[i]))
            return 0;
    return 1;
}

static int cmp_desc(int64_t a, int64_t b)
{
    return a > b ? -1 : a < b;
}

int rule_directory_cmp(const struct directory_rank *a, const struct directory_rank *b)
{
    int c = cmp_desc(a->online, b->online);
    if (!c)
        c = cmp_desc(a->members, b->members);
    if (!c)
        c = -cmp_desc(a->created_at, b->created_at);
    return c ? c : strcmp(a->id, b->id);
}
