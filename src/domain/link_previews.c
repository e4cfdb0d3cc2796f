/* Link previews' rules: see link_previews.h. */
#include "domain/link_previews.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "domain/urls.h"

/* ---- the links of a message ---- */

static int url_char(unsigned char c)
{
    return c > ' ' && c != '<' && c != '>' && c != '"' && c != '`' && c != 0x7f;
}

/* The URL's end once trailing punctuation is left out (a ')' stays when it closes a '('). */
static size_t trim_end(const char *s, size_t n)
{
    while (n) {
        char c = s[n - 1];
        if (strchr(".,;:!?'*_~", c)) {
            n--;
            continue;
        }
        if (c == ')') {
            int open = 0;
            for (size_t i = 0; i < n; i++)
                open += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
            if (open < 0) {
                n--;
                continue;
            }
        }
        break;
    }
    return n;
}

static int starts_link(const char *s, size_t left)
{
    return (left >= 8 && !strncasecmp(s, "https://", 8)) ||
           (left >= 7 && !strncasecmp(s, "http://", 7));
}

static void add_link(struct preview_links *out, const char *s, size_t n)
{
    if (out->n >= PREVIEW_LINKS_MAX || n > PREVIEW_URL_MAX || rule_url_check_http(s, n))
        return;
    for (size_t k = 0; k < out->n; k++)
        if (strlen(out->url[k]) == n && !memcmp(out->url[k], s, n))
            return;
    memcpy(out->url[out->n], s, n);
    out->url[out->n++][n] = '\0';
}

size_t rule_preview_links(const char *text, size_t len, struct preview_links *out)
{
    out->n = 0;
    int fence = 0, code = 0; /* inside ``` … ``` or ` … ` */
    for (size_t i = 0; i < len && out->n < PREVIEW_LINKS_MAX;) {
        if (len - i >= 3 && !memcmp(text + i, "```", 3)) {
            fence = !fence;
            i += 3;
            continue;
        }
        if (text[i] == '`' && !fence) {
            code = !code;
            i++;
            continue;
        }
        int boundary = i == 0 || !url_char((unsigned char)text[i - 1]) || text[i - 1] == '(';
        if (fence || code || !boundary || !starts_link(text + i, len - i)) {
            i++;
            continue;
        }
        size_t n = 0;
        while (i + n < len && url_char((unsigned char)text[i + n]))
            n++;
        int suppressed = i > 0 && text[i - 1] == '<' && i + n < len && text[i + n] == '>';
        if (!suppressed)
            add_link(out, text + i, trim_end(text + i, n));
        i += n;
    }
    return out->n;
}

/* ---- what a page says of itself ---- */

#define OEMBED_TYPE "application/json+oembed"

/* The length of the valid UTF-8 sequence at s, 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    size_t n = s[0] < 0x80             ? 1
               : (s[0] & 0xe0) == 0xc0 ? 2
               : (s[0] & 0xf0) == 0xe0 ? 3
               : (s[0] & 0xf8) == 0xf0 ? 4
                                       : 0;
    if (!n || n > left || (n == 2 && s[0] < 0xc2))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

static size_t put_utf8(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* An entity at s (after '&'): its code point and length up to ';', or 0. */
static size_t entity(const char *s, size_t left, uint32_t *cp)
{
    static const struct {
        const char *name;
        uint32_t cp;
    } NAMED[] = {{"amp", '&'},      {"lt", '<'},       {"gt", '>'},       {"quot", '"'},
                 {"apos", '\''},    {"nbsp", ' '},     {"#39", '\''},     {"hellip", 0x2026},
                 {"mdash", 0x2014}, {"ndash", 0x2013}, {"rsquo", 0x2019}, {"lsquo", 0x2018},
                 {"rdquo", 0x201d}, {"ldquo", 0x201c}};
    const char *semi = memchr(s, ';', left < 12 ? left : 12);
    if (!semi)
        return 0;
    size_t n = (size_t)(semi - s);
    for (size_t i = 0; i < sizeof NAMED / sizeof NAMED[0]; i++)
        if (strlen(NAMED[i].name) == n && !memcmp(s, NAMED[i].name, n)) {
            *cp = NAMED[i].cp;
            return n + 1;
        }
    if (n >= 2 && s[0] == '#') {
        int hex = s[1] == 'x' || s[1] == 'X';
        uint32_t v = 0;
        size_t k = 1 + (size_t)hex;
        if (k >= n)
            return 0;
        for (; k < n; k++) {
            char c = s[k];
            int d = c >= '0' && c <= '9'          ? c - '0'
                    : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                  : -1;
            if (d < 0 || v > 0x10ffff)
                return 0;
            v = v * (hex ? 16 : 10) + (uint32_t)d;
        }
        if (!v || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
            return 0;
        *cp = v;
        return n + 1;
    }
    return 0;
}

/* in (n bytes) as shown text into out (at most max characters, cap bytes): entities decoded,
 * white space and control characters folded to one space, trimmed; "" when it is not UTF-8. */
static void shown_text(const char *in, size_t n, size_t max, char *out, size_t cap)
{
    size_t o = 0, chars = 0;
    int space = 0;
    for (size_t i = 0; i < n && chars < max;) {
        unsigned char c = (unsigned char)in[i];
        char buf[4];
        size_t k, step;
        uint32_t cp;
        if (c == '&' && (step = entity(in + i + 1, n - i - 1, &cp))) {
            k = put_utf8(cp, buf);
            i += step + 1;
        } else if (c < 0x20 || c == 0x7f) {
            space = o > 0;
            i++;
            continue;
        } else if (!(k = utf8_len((const unsigned char *)in + i, n - i))) {
            out[0] = '\0';
            return;
        } else {
            memcpy(buf, in + i, k);
            i += k;
        }
        if (k == 1 && buf[0] == ' ') {
            space = o > 0;
            continue;
        }
        if (o + k + 2 > cap)
            break;
        if (space) {
            out[o++] = ' ';
            chars++;
            space = 0;
        }
        memcpy(out + o, buf, k);
        o += k;
        chars++;
    }
    out[o] = '\0';
}

/* The value of attribute name in the tag (from after '<meta' to '>'), or NULL. */
static const char *attr(const char *tag, size_t n, const char *name, size_t *vlen)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i + nl < n; i++) {
        if (strncasecmp(tag + i, name, nl) || (i && tag[i - 1] > ' '))
            continue;
        size_t j = i + nl;
        while (j < n && tag[j] == ' ')
            j++;
        if (j >= n || tag[j] != '=')
            continue;
        j++;
        while (j < n && tag[j] == ' ')
            j++;
        char q = j < n && (tag[j] == '"' || tag[j] == '\'') ? tag[j] : 0;
        size_t start = j + (q != 0), end = start;
        while (end < n && (q ? tag[end] != q : tag[end] > ' '))
            end++;
        *vlen = end - start;
        return tag + start;
    }
    return NULL;
}

struct found {
    const char *v;
    size_t n;
    int rank; /* which source gave it: lower wins */
};

static void offer(struct found *f, const char *v, size_t n, int rank)
{
    if (v && n && (!f->v || rank < f->rank)) {
        f->v = v;
        f->n = n;
        f->rank = rank;
    }
}

/* An image's address made absolute against the page's url; "" when it cannot be. */
static void absolute(const char *img, size_t n, const char *url, char *out, size_t cap)
{
    out[0] = '\0';
    const char *scheme_end = strstr(url, "://");
    if (!scheme_end || !n || n >= cap)
        return;
    const char *host_end = strchr(scheme_end + 3, '/');
    size_t origin = host_end ? (size_t)(host_end - url) : strlen(url);
    if (n > 1 && img[0] == '/' && img[1] == '/')
        snprintf(out, cap, "%.*s:%.*s", (int)(scheme_end - url), url, (int)n, img);
    else if (img[0] == '/')
        snprintf(out, cap, "%.*s%.*s", (int)origin, url, (int)n, img);
    else
        snprintf(out, cap, "%.*s", (int)n, img);
    if (rule_url_check_http(out, strlen(out)))
        out[0] = '\0';
}

int rule_preview_page(const char *html, size_t len, const char *url, struct preview_page *out)
{
    memset(out, 0, sizeof *out);
    if (len > PREVIEW_HTML_SCANNED)
        len = PREVIEW_HTML_SCANNED;
    struct found title = {0}, text = {0}, site = {0}, image = {0}, oembed = {0};
    for (size_t i = 0; i + 5 < len; i++) {
        if (html[i] != '<')
            continue;
        if (!strncasecmp(html + i, "</head", 6))
            break;
        const char *close = memchr(html + i, '>', len - i);
        if (!close)
            break;
        size_t n = (size_t)(close - html - i);
        if (i + 6 < len && !strncasecmp(html + i, "<title", 6) &&
            (html[i + 6] == '>' || html[i + 6] == ' ')) {
            const char *start = close + 1;
            size_t left = len - (size_t)(start - html), t = 0;
            while (t < left && !(left - t >= 7 && !strncasecmp(start + t, "</title", 7)))
                t++;
            offer(&title, start, t, 3);
        } else if (!strncasecmp(html + i, "<link", 5)) {
            size_t tl, hl;
            const char *type = attr(html + i + 5, n - 5, "type", &tl);
            const char *href = attr(html + i + 5, n - 5, "href", &hl);
            if (type && tl == strlen(OEMBED_TYPE) && !strncasecmp(type, OEMBED_TYPE, tl))
                offer(&oembed, href, hl, 1);
        } else if (!strncasecmp(html + i, "<meta", 5)) {
            size_t pl, cl;
            const char *p = attr(html + i + 5, n - 5, "property", &pl);
            if (!p)
                p = attr(html + i + 5, n - 5, "name", &pl);
            const char *c = attr(html + i + 5, n - 5, "content", &cl);
#define IS(k) (p && pl == strlen(k) && !strncasecmp(p, k, pl))
            offer(&title, c, cl, IS("og:title") ? 1 : IS("twitter:title") ? 2 : 9);
            offer(&text, c, cl,
                  IS("og:description")        ? 1
                  : IS("twitter:description") ? 2
                  : IS("description")         ? 3
                                              : 9);
            offer(&site, c, cl, IS("og:site_name") ? 1 : 9);
            offer(&image, c, cl,
                  IS("og:image") || IS("og:image:url") ? 1
                  : IS("twitter:image")                ? 2
                                                       : 9);
#undef IS
        }
        i += n;
    }
    /* rank 9: a meta tag that is none of these */
    if (title.rank < 9)
        shown_text(title.v, title.n, PREVIEW_TITLE_MAX, out->title, sizeof out->title);
    if (text.rank < 9)
        shown_text(text.v, text.n, PREVIEW_TEXT_MAX, out->description, sizeof out->description);
    if (site.rank < 9)
        shown_text(site.v, site.n, PREVIEW_SITE_MAX, out->site_name, sizeof out->site_name);
    if (image.rank < 9) {
        char raw[PREVIEW_URL_MAX + 1];
        shown_text(image.v, image.n < PREVIEW_URL_MAX ? image.n : PREVIEW_URL_MAX, PREVIEW_URL_MAX,
                   raw, sizeof raw);
        absolute(raw, strlen(raw), url, out->image, sizeof out->image);
    }
    if (oembed.v) {
        char raw[PREVIEW_URL_MAX + 1];
        shown_text(oembed.v, oembed.n < PREVIEW_URL_MAX ? oembed.n : PREVIEW_URL_MAX,
                   PREVIEW_URL_MAX, raw, sizeof raw);
        absolute(raw, strlen(raw), url, out->oembed, sizeof out->oembed);
    }
    return out->title[0] || out->description[0];
}

/* A string member of o as shown text into out, when out is still empty. */
static void take(json_t *o, const char *key, size_t max, char *out, size_t cap)
{
    const char *v = json_string_value(json_object_get(o, key));
    if (v && !out[0])
        shown_text(v, strlen(v), max, out, cap);
}

int rule_preview_oembed(const char *json, size_t len, struct preview_page *out)
{
    json_t *o = json_loadb(json, len, 0, NULL);
    if (json_is_object(o)) {
        take(o, "title", PREVIEW_TITLE_MAX, out->title, sizeof out->title);
        take(o, "provider_name", PREVIEW_SITE_MAX, out->site_name, sizeof out->site_name);
        take(o, "author_name", PREVIEW_TEXT_MAX, out->description, sizeof out->description);
        const char *thumb = json_string_value(json_object_get(o, "thumbnail_url"));
        if (thumb && !out->image[0] && !rule_url_check_http(thumb, strlen(thumb)) &&
            strlen(thumb) <= PREVIEW_URL_MAX)
            snprintf(out->image, sizeof out->image, "%s", thumb);
    }
    json_decref(o);
    return out->title[0] || out->description[0];
}
