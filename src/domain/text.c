/* Text rules: see text.h. */
#include "domain/text.h"

#include <stdio.h>
#include <stdint.h>
#include <string.h>

size_t rule_text_chars(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xc0) != 0x80;
    return n;
}

int rule_text_username_fold(char *s, size_t len)
{
    if (len < 2 || len > 32)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            s[i] = (char)(c - 'A' + 'a');
        else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
            return 0;
    }
    return 1;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

const char *rule_text_trim(const char *s, size_t *len)
{
    size_t n = *len;
    while (n && is_space(*s)) {
        s++;
        n--;
    }
    while (n && is_space(s[n - 1]))
        n--;
    *len = n;
    return s;
}

int rule_text_has_control(const char *s, size_t len, int allow_newlines)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            if (allow_newlines && (c == '\n' || c == '\t' || c == '\r'))
                continue;
            return 1;
        }
    }
    return 0;
}

/* Unicode's format characters (general category Cf), as ranges. */
static const uint32_t FORMAT[][2] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
    {0x200B, 0x200F},   {0x202A, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
    {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
    {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
};

int rule_text_name_ok(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        uint32_t cp;
        int n = p[0] < 0x80 ? 1 : p[0] < 0xE0 ? 2 : p[0] < 0xF0 ? 3 : 4;
        if (p + n > end)
            return 0;
        cp = n == 1 ? p[0] : p[0] & (0x7F >> n);
        for (int i = 1; i < n; i++)
            cp = (cp << 6) | (p[i] & 0x3F);
        p += n;
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
            return 0;
        for (size_t i = 0; i < sizeof FORMAT / sizeof *FORMAT; i++)
            if (cp >= FORMAT[i][0] && cp <= FORMAT[i][1])
                return 0;
    }
    return 1;
}

/* Latin-1's letters U+00C0–U+00FF in ASCII ("" for × and ÷), lower case. */
static const char *const LATIN1[64] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i",  "i",
    "d", "n", "o", "o", "o", "o", "o",  "",  "o", "u", "u", "u", "u", "y", "th", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i",  "i",
    "d", "n", "o", "o", "o", "o", "o",  "",  "o", "u", "u", "u", "u", "y", "th", "y",
};
/* Latin Extended-A, U+0100–U+017F: each letter's base. */
static const char LATIN_A[129] = "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiiiijjkkk"
                                 "llllllllllnnnnnnnnnoooooooorrrrrrssssssssttttttuuuuuuuuuuuu"
                                 "wwyyyzzzzzzs";

/* The ASCII spelling of the UTF-8 character at *p ("" when there is none); advances *p. */
static const char *transliterate(const char **p, char one[2])
{
    const unsigned char *s = (const unsigned char *)*p;
    if (s[0] < 0x80) {
        *p += 1;
        one[0] = (char)(s[0] >= 'A' && s[0] <= 'Z' ? s[0] - 'A' + 'a' : s[0]);
        one[1] = '\0';
        return one;
    }
    size_t n = 1;
    while (n < 4 && (s[n] & 0xc0) == 0x80)
        n++;
    *p += n;
    if (n != 2)
        return "";
    unsigned cp = ((s[0] & 0x1fu) << 6) | (s[1] & 0x3fu);
    if (cp >= 0xc0 && cp <= 0xff)
        return LATIN1[cp - 0xc0];
    if (cp >= 0x100 && cp <= 0x17f) {
        one[0] = LATIN_A[cp - 0x100];
        one[1] = '\0';
        return one;
    }
    return "";
}

void rule_text_bot_username(const char *name, int attempt, char out[33])
{
    char slug[25], one[2];
    size_t n = 0;
    for (const char *p = name; *p && n < sizeof slug - 1;) {
        for (const char *t = transliterate(&p, one); n < sizeof slug - 1;) {
            char c = *t ? *t++ : '_';
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
                slug[n++] = c;
            else if (n && slug[n - 1] != '_')
                slug[n++] = '_';
            if (c == '_' || !*t)
                break;
        }
    }
    while (n && slug[n - 1] == '_')
        n--;
    slug[n] = '\0';
    if (n == 0)
        snprintf(slug, sizeof slug, "app");
    if (attempt == 0 && n >= 3 && !strcmp(slug + n - 3, "bot"))
        snprintf(out, 33, "%s", slug); /* "Meu Bot" is meu_bot, not meu_bot_bot */
    else if (attempt == 0)
        snprintf(out, 33, "%s_bot", slug);
    else
        snprintf(out, 33, "%s_%d", slug, attempt);
}

int rule_email_ok(const char *s, char *out, size_t cap)
{
    size_t len = strlen(s);
    const char *at = strchr(s, '@');
    if (len < 3 || len > 254 || cap <= len || !at || strchr(at + 1, '@') || at == s || at - s > 64)
        return 0;
    for (const char *p = s; p < at; p++)
        if (*p <= ' ' || *p >= 0x7f || strchr("\"(),:;<>[\\]", *p))
            return 0;
    int labels = 0;
    for (const char *p = at + 1; *p; labels++) {
        const char *start = p;
        while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
               *p == '-')
            p++;
        if (p == start || *start == '-' || p[-1] == '-' || p - start > 63 || (*p && *p != '.'))
            return 0;
        if (*p == '.' && !*++p)
            return 0;
    }
    if (labels < 2)
        return 0;
    for (size_t i = 0; i <= len; i++)
        out[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
    return 1;
}
