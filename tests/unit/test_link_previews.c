#include <criterion/criterion.h>
#include <string.h>

#include "domain/link_previews.h"

static struct preview_links links(const char *text)
{
    struct preview_links out;
    rule_preview_links(text, strlen(text), &out);
    return out;
}

Test(link_previews, the_first_links_each_once_without_trailing_punctuation)
{
    struct preview_links l = links("veja https://example.com/a, e (https://wiki.org/X_(y)) e "
                                   "https://example.com/a. depois http://b.net/c?d=1#e e "
                                   "https://quarto.org");
    cr_assert_eq(l.n, 3);
    cr_assert_str_eq(l.url[0], "https://example.com/a");
    cr_assert_str_eq(l.url[1], "https://wiki.org/X_(y)");
    cr_assert_str_eq(l.url[2], "http://b.net/c?d=1#e");
}

Test(link_previews, suppressed_in_angle_brackets_and_never_inside_code)
{
    cr_assert_eq(links("sem prévia: <https://example.com/a>").n, 0);
    cr_assert_eq(links("`https://example.com/a` e ```\nhttps://b.com\n```").n, 0);
    struct preview_links l = links("<https://a.com> mas https://b.com sim");
    cr_assert_eq(l.n, 1);
    cr_assert_str_eq(l.url[0], "https://b.com");
    cr_assert_eq(links("xhttps://a.com ftp://b.com https:// javascript:alert(1)").n, 0);
}

Test(link_previews, opengraph_first_then_twitter_then_the_title)
{
    const char *html =
        "<html><head><title>Título da página</title>"
        "<meta name=\"description\" content=\"descrição simples\">"
        "<meta name='twitter:title' content='Título do Twitter'>"
        "<META PROPERTY=\"og:title\" CONTENT=\"Praça &amp; Cia &#8212; &quot;ao vivo&quot;\">"
        "<meta property=\"og:site_name\" content=\"Praça\">"
        "<meta property=\"og:image\" content=\"/img/capa.png\">"
        "</head><body><meta property=\"og:description\" content=\"do corpo\"></body></html>";
    struct preview_page p;
    cr_assert(rule_preview_page(html, strlen(html), "https://praca.example/blog/post", &p));
    cr_assert_str_eq(p.title, "Praça & Cia — \"ao vivo\"");
    cr_assert_str_eq(p.description, "descrição simples", "the body is not read");
    cr_assert_str_eq(p.site_name, "Praça");
    cr_assert_str_eq(p.image, "https://praca.example/img/capa.png");
}

Test(link_previews, text_is_folded_bounded_and_utf8_only)
{
    char html[4096] =
        "<title>\n  muitas\t\tlinhas\n aqui  </title><meta name=description content=\"";
    for (int i = 0; i < 500; i++)
        strcat(html, "ã");
    strcat(html, "\"><meta property=og:image content=\"//cdn.example/x.jpg\">");
    struct preview_page p;
    cr_assert(rule_preview_page(html, strlen(html), "http://a.example", &p));
    cr_assert_str_eq(p.title, "muitas linhas aqui");
    cr_assert_eq(strlen(p.description), PREVIEW_TEXT_MAX * 2, "350 characters of two bytes");
    cr_assert_str_eq(p.image, "http://cdn.example/x.jpg");
    const char *latin1 = "<title>Ol\xe1</title><meta property=og:image content=\"javascript:x\">";
    cr_assert_not(rule_preview_page(latin1, strlen(latin1), "https://a.example", &p));
    cr_assert_str_eq(p.image, "");
    cr_assert_not(rule_preview_page("<p>nada</p>", 11, "https://a.example", &p));
    cr_assert_not(rule_preview_page("<title", 6, "https://a.example", &p));
}

Test(link_previews, an_oembed_offered_is_found_and_read_when_the_page_says_nothing)
{
    const char *html = "<head><link rel=\"alternate\" type=\"application/json+oembed\""
                       " href=\"/oembed?url=x&amp;format=json\" title=\"v\"></head>";
    struct preview_page p;
    cr_assert_not(rule_preview_page(html, strlen(html), "https://video.example/v/1", &p));
    cr_assert_str_eq(p.oembed, "https://video.example/oembed?url=x&format=json");
    const char *json =
        "{\"type\":\"video\",\"title\":\"Um vídeo\",\"author_name\":\"Canal\","
        "\"provider_name\":\"Vídeos\",\"thumbnail_url\":\"https://i.example/t.jpg\"}";
    cr_assert(rule_preview_oembed(json, strlen(json), &p));
    cr_assert_str_eq(p.title, "Um vídeo");
    cr_assert_str_eq(p.site_name, "Vídeos");
    cr_assert_str_eq(p.description, "Canal");
    cr_assert_str_eq(p.image, "https://i.example/t.jpg");
    struct preview_page q = {0};
    cr_assert_not(rule_preview_oembed("[1]", 3, &q));
    cr_assert_not(rule_preview_oembed("{\"thumbnail_url\":\"file:///etc\"}", 31, &q));
    cr_assert_str_eq(q.image, "");
}
