/* Text rules: see text.h. */
#include "domain/text.h"

#include <stdio.h>

size_t text_chars(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xc0) != 0x80;
    return n;
}

int text_username_fold(char *s, size_t len)
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

const char *text_trim(const char *s, size_t *len)
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

int text_has_control(const char *s, size_t len, int allow_newlines)
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

void text_bot_username(const char *name, int attempt, char out[33])
{
    char slug[25];
    size_t n = 0;
    for (const char *p = name; *p && n < sizeof slug - 1; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            slug[n++] = c;
        else if (n && slug[n - 1] != '_')
            slug[n++] = '_';
    }
    while (n && slug[n - 1] == '_')
        n--;
    slug[n] = '\0';
    if (n == 0)
        snprintf(slug, sizeof slug, "app");
    if (attempt == 0)
        snprintf(out, 33, "%s_bot", slug);
    else
        snprintf(out, 33, "%s_%d", slug, attempt);
}
