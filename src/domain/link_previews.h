/*
 * Link previews, with no I/O: which links of a message are previewed (the first few http(s) links
 * of its text, not those written <like this>, nor inside code), and what a page's HTML says of
 * itself (OpenGraph, then Twitter cards, then its <title> and description; its oEmbed when it
 * offers one and says nothing else), bounded and cleaned.
 */
#ifndef PRACA_DOMAIN_LINK_PREVIEWS_H
#define PRACA_DOMAIN_LINK_PREVIEWS_H
#include <stddef.h>

#define PREVIEW_LINKS_MAX    3
#define PREVIEW_URL_MAX      2048
#define PREVIEW_TITLE_MAX    256 /* characters */
#define PREVIEW_TEXT_MAX     350
#define PREVIEW_SITE_MAX     100
#define PREVIEW_HTML_SCANNED (512 * 1024) /* bytes of a page read for its <head> */

struct preview_links {
    char url[PREVIEW_LINKS_MAX][PREVIEW_URL_MAX + 1];
    size_t n;
};
/* The links of text (len bytes) to preview, each once, in order. */
size_t rule_preview_links(const char *text, size_t len, struct preview_links *out);

struct preview_page {
    char title[PREVIEW_TITLE_MAX * 4 + 1];
    char description[PREVIEW_TEXT_MAX * 4 + 1];
    char site_name[PREVIEW_SITE_MAX * 4 + 1];
    char image[PREVIEW_URL_MAX + 1];  /* absolute http(s), or "" */
    char oembed[PREVIEW_URL_MAX + 1]; /* the page's JSON oEmbed address (absolute), or "" */
};
/* Reads html (len bytes, of the page at url) for its preview: 1 when it has a title or a
 * description (valid UTF-8, entities decoded, white space folded), else 0. */
int rule_preview_page(const char *html, size_t len, const char *url, struct preview_page *out);

/* Reads an oEmbed answer (JSON, len bytes) into out, over what the page gave: title,
 * provider_name as the site, author_name as the description when there is none, thumbnail_url
 * as the image. 1 when out then has a title or a description. */
int rule_preview_oembed(const char *json, size_t len, struct preview_page *out);

#endif
