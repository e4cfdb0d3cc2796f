/* File rules: see files.h. */
#include "domain/files.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The length of the UTF-8 sequence at p (at most left bytes), or 0 when it is not valid. */
static size_t utf8_len(const unsigned char *p, size_t left)
{
    size_t n = p[0] < 0x80         ? 1
               : (p[0] >> 5) == 6  ? 2
               : (p[0] >> 4) == 14 ? 3
               : (p[0] >> 3) == 30 ? 4
                                   : 0;
    if (!n || n > left || (n == 2 && p[0] < 0xC2))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* Unicode's format characters (Cf) that change how a name reads without showing: bidirectional
 * marks, embeddings, overrides and isolates ("fatura\u202Efdp.exe" shows as "faturaexe.pdf"),
 * zero-width characters, the BOM, interlinear annotations and tags. */
static int format_char(const unsigned char *p, size_t n)
{
    uint32_t cp = n == 2 ? (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F)
                  : n == 3
                      ? (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F)
                  : n == 4 ? (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
                                 (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F)
                           : 0;
    return cp == 0xAD || cp == 0x61C || cp == 0x180E || (cp >= 0x200B && cp <= 0x200F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF ||
           (cp >= 0xFFF9 && cp <= 0xFFFB) || cp == 0xE0001 || (cp >= 0xE0020 && cp <= 0xE007F);
}

void rule_filename_clean(const char *in, char out[RULE_FILENAME_MAX + 1])
{
    const char *base = in;
    for (const char *p = in; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    const unsigned char *p = (const unsigned char *)base;
    size_t left = strlen(base), o = 0;
    while (*p == '.' || *p == ' ') {
        p++;
        left--;
    }
    while (left) {
        size_t n = utf8_len(p, left);
        if (!n) { /* not UTF-8: one replacement, then on */
            p++;
            left--;
            if (o + 1 > RULE_FILENAME_MAX)
                break;
            out[o++] = '_';
            continue;
        }
        if (format_char(p, n)) {
            p += n;
            left -= n;
            continue;
        }
        if (o + n > RULE_FILENAME_MAX)
            break;
        int bad = n == 1 && (*p < 0x20 || *p == 0x7F || strchr("<>:\"/\\|?*", *p));
        if (bad)
            out[o++] = '_';
        else
            memcpy(out + o, p, n), o += n;
        p += n;
        left -= n;
    }
    while (o && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
    if (!o)
        snprintf(out, RULE_FILENAME_MAX + 1, "arquivo");
}

void rule_filename_set_extension(char name[RULE_FILENAME_MAX + 1], const char *ext)
{
    char *dot = strrchr(name, '.');
    size_t base = dot && dot != name ? (size_t)(dot - name) : strlen(name), elen = strlen(ext);
    if (base + 1 + elen > RULE_FILENAME_MAX)
        base = RULE_FILENAME_MAX - 1 - elen;
    while (base && ((unsigned char)name[base] & 0xC0) == 0x80)
        base--; /* not inside a character */
    snprintf(name + base, RULE_FILENAME_MAX + 1 - base, ".%s", ext);
}

int rule_file_is_image(const char *t)
{
    return !strcmp(t, "image/jpeg") || !strcmp(t, "image/png") || !strcmp(t, "image/gif") ||
           !strcmp(t, "image/webp");
}

int rule_file_inline(const char *t)
{
    static const char *const safe[] = {
        "video/mp4",    "video/webm", "video/ogg",   "video/quicktime", "audio/mpeg",
        "audio/ogg",    "audio/wav",  "audio/x-wav", "audio/webm",      "audio/flac",
        "audio/x-flac", "audio/mp4",  "text/plain",  "image/avif",
    };
    if (rule_file_is_image(t))
        return 1;
    for (size_t i = 0; i < sizeof safe / sizeof *safe; i++)
        if (!strcmp(t, safe[i]))
            return 1;
    return 0;
}

void rule_filename_url(const char *name, char *out, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && o + 4 <= cap; p++) {
        int plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || strchr("-._~", *p);
        if (plain) {
            out[o++] = (char)*p;
        } else {
            out[o++] = '%';
            out[o++] = hex[*p >> 4];
            out[o++] = hex[*p & 15];
        }
    }
    out[o] = '\0';
}

json_t *rule_attachment_object(const char *site_url, const struct rule_attachment_shown *a)
{
    char name[RULE_FILENAME_MAX * 3 + 1], url[1200], thumb[1300];
    rule_filename_url(a->filename, name, sizeof name);
    snprintf(url, sizeof url, "%s/api/attachments/%s/%s", site_url, a->id, name);
    snprintf(thumb, sizeof thumb, "%s?thumbnail=1", url);
    json_t *o = json_pack("{ss, ss, sI, ss, ss, so}", "id", a->id, "filename", a->filename, "size",
                          (json_int_t)a->size, "contentType", a->content_type, "url", url,
                          "thumbnailUrl", a->has_thumbnail ? json_string(thumb) : json_null());
    if (o && a->width > 0 && a->height > 0) {
        json_object_set_new(o, "width", json_integer(a->width));
        json_object_set_new(o, "height", json_integer(a->height));
    }
    return o;
}
